"""A season's ranking as readers see it: one typed interface, whatever keeps it.

Three engines compute one national ranking (the pure core ``rankings/rules/
national_ranking.py``, the generated SQL ``rankings/season/ranking_sql.py``, the Redis store
``rankings/season/live_store.py``); readers never ask which one did. They get a
:class:`Ranking`:

- a **stored snapshot** (``rankings/season/snapshot_ranking.py``): the official ranking, the
  provisional one (the live ranking without the store) or the ranking as of a day, read
  from its rows;
- the **live store** (``rankings/season/live_reads.py``): places and steps derived at read time
  from the order-statistics store.

Which one answers a season is chosen in one place, ``rankings/season/engines.py``; readers ask
the selectors (``rankings.reads.selectors.ranking_for_season``) and use only this interface.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from federation.access import Scope
from federation.models import Club, Committee, Player, Season
from rankings.models import RankingSnapshot, SeriesPolicyVersion
from rankings.rules.series import SeriesPolicy
from rankings.season.search import SearchCount

LIVE = "live"
OFFICIAL = "official"
AS_OF = "as_of"
KINDS = (LIVE, OFFICIAL)
"""The kinds a reader may ask for (a ranking as of a day is asked by its day)."""

Labels = dict[str, tuple[str, str, int]]
"""A ladder's step code → (French label, English label, series)."""

ENTRY_COLUMNS = (
    "place", "licence_number", "player__last_name", "player__first_name",
    "player__name_hidden", "committee__number", "club__number", "club__name", "season_pcn",
    "season_pp",
    "carried_pcn", "carried_pp", "total_pcn", "total_pp", "tournaments",
    "place_in_committee", "place_in_club", "step", "series", "season_step", "points_step",
    "step_source",
)  # fmt: skip
"""The keys of a line as a row (:meth:`Entries.rows`): what the public reads show."""

EXPORT_FIELDS = (
    "place", "licence_number", "player__last_name", "player__first_name",
    "committee__number", "club__number", "club__name", "season_pcn", "season_pp",
    "carried_pcn", "carried_pp", "total_pcn", "total_pp", "tournaments",
    "place_in_committee", "place_in_club", "step", "series", "step_source",
)  # fmt: skip
"""The values of an export row (:meth:`Ranking.export_rows`), in this order."""

EXPORT_CHUNK = 5000
"""The lines an export reads at a time, whatever engine keeps the ranking."""


@lru_cache(maxsize=64)
def _ladder(data: str) -> tuple[SeriesPolicy, Labels]:
    policy = SeriesPolicy.from_dict(json.loads(data))
    return policy, {s.code: (s.label_fr, s.label_en, s.series) for s in policy.ladder}


def policy_rules(policy: SeriesPolicyVersion) -> SeriesPolicy:
    """The series policy of a stored version (parsed once per distinct policy)."""
    return _ladder(json.dumps(policy.data, sort_keys=True))[0]


def ladder_labels(policy: SeriesPolicyVersion) -> Labels:
    """Code → (French label, English label, series) of the policy's ladder (parsed once
    per distinct policy)."""
    return _ladder(json.dumps(policy.data, sort_keys=True))[1]


@dataclass
class RankingFilter:
    """What a reader narrows a ranking to: a committee, a club, a series, and a search
    by licence number or by name (accents and case ignored, ``rankings/season/search.py``)."""

    committee: Committee | None = None
    club: Club | None = None
    series: int | None = None
    query: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.committee or self.club or self.series or self.query)


class Line(Protocol):
    """One player's line of a ranking (a stored ``RankingEntry``, or the live store's
    ``LiveEntry``)."""

    @property
    def place(self) -> int: ...
    @property
    def licence_number(self) -> int: ...
    @property
    def player(self) -> Player | None: ...
    @property
    def committee(self) -> Committee | None: ...
    @property
    def club(self) -> Club | None: ...
    @property
    def season_pcn(self) -> int: ...
    @property
    def season_pp(self) -> int: ...
    @property
    def carried_pcn(self) -> int: ...
    @property
    def carried_pp(self) -> int: ...
    @property
    def total_pcn(self) -> int: ...
    @property
    def total_pp(self) -> int: ...
    @property
    def tournaments(self) -> int: ...
    @property
    def place_in_committee(self) -> int: ...
    @property
    def place_in_club(self) -> int | None: ...
    @property
    def step(self) -> str: ...
    @property
    def series(self) -> int: ...
    @property
    def season_step(self) -> str: ...
    @property
    def points_step(self) -> str: ...
    @property
    def step_source(self) -> str: ...


class Entries(Protocol):
    """A filtered reading of a ranking, in ranking order (:meth:`Ranking.entries`)."""

    def page(self, start: int, size: int) -> list[Line]:
        """The lines ``start`` to ``start + size``, with their player, committee and club."""
        ...

    def rows(self, start: int, size: int) -> list[dict[str, Any]]:
        """The same lines as plain rows of :data:`ENTRY_COLUMNS` (the public reads)."""
        ...

    def count(self) -> SearchCount:
        """How many lines match: exact without a search, capped with one
        (``search.COUNT_CAP``)."""
        ...


@dataclass(frozen=True)
class StepMoves:
    """How the players of a scope would move if a live ranking were published now,
    against the last official ranking (the ladder of the live ranking's policy)."""

    players: int
    up: int
    down: int
    same: int
    new: int  # in the live ranking, not in the official one


class Ranking(Protocol):
    """A season's ranking as readers see it."""

    @property
    def season(self) -> Season: ...
    @property
    def kind(self) -> str:
        """:data:`LIVE`, :data:`OFFICIAL` or :data:`AS_OF`."""
        ...

    @property
    def snapshot_id(self) -> int | None:
        """The stored snapshot's id; None for the live store (nothing stored)."""
        ...

    @property
    def as_of(self) -> dt.date | None: ...
    @property
    def computed_at(self) -> dt.datetime: ...
    @property
    def policy(self) -> SeriesPolicyVersion: ...
    @property
    def player_count(self) -> int: ...
    @property
    def ranked_count(self) -> int: ...
    @property
    def series_counts(self) -> dict[str, int]: ...
    @property
    def share_cutoffs(self) -> list[dict[str, Any]]: ...
    @property
    def reflects(self) -> int:
        """The season's inputs version this ranking was computed from."""
        ...

    def rules(self) -> SeriesPolicy:
        """The series policy it was computed with."""
        ...

    def step_labels(self) -> Labels: ...

    def entries(self, filters: RankingFilter) -> Entries: ...

    def line(
        self, player: Player, *, named: bool = False, read: Mapping[int, Line] | None = None
    ) -> Line | None:
        """The player's line, or None. ``named``: with the committee and club (the player
        is ``player``). ``read``: the player's lines of stored snapshots already read, by
        snapshot id (a stored ranking takes its own there instead of a query)."""
        ...

    def order_of(self, line: Line) -> int:
        """The line's position in ranking order, 1…N."""
        ...

    def keys_at(self, orders: tuple[int, ...]) -> dict[int, tuple[int, int]]:
        """(total PCN, tie PP) of the lines at these positions (one read)."""
        ...

    def ahead_of(self, key: tuple[int, int]) -> int:
        """How many lines have an order key (``national_ranking.order_key``) above ``key``."""
        ...

    def series_of(self, licence_numbers: list[int]) -> dict[int, int]:
        """The series of those of these players who are in the ranking."""
        ...

    def export_rows(
        self, committee_ids: set[int] | None, club_ids: set[int] | frozenset[int] | None
    ) -> Iterator[tuple[Any, ...]]:
        """Every line of these committees and clubs (None: all) as :data:`EXPORT_FIELDS`
        values, in ranking order, read a chunk at a time."""
        ...

    def step_moves(self, official: RankingSnapshot | None, scope: Scope) -> StepMoves:
        """How the scope's players would move against the ``official`` ranking if this
        one were published now."""
        ...

    def same_as(self, other: Ranking) -> bool:
        """Whether ``other`` is this very ranking."""
        ...
