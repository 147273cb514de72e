"""Likely duplicate players, and whether two player records may be merged.

Pure Python (no Django, no database): the selector (``portal/merging.py``) reads
the facts in a few set-based queries and hands them here as frozen dataclasses.

Two records are **likely duplicates** when their folded names (``core.folding.fold`` of
"last name first name"; ``Player.search_name`` in the database) are equal and

- ``name_and_birth_date``: both have a birth date and it is the same; or
- ``name_and_committee``: both were licensed, at some time, in clubs of one committee,
  and never in the same season (one person who took a new licence number, say after a
  gap, in the same region).

A record already merged into another is never a candidate. See docs/duplicates.md.

:func:`check_merge` says whether ``merged`` may be folded into ``kept``: every reason
it may not is a located :class:`~core.problems.Problem`, raised at once.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from core.problems import Problem, RuleViolation

NAME_AND_BIRTH_DATE = "name_and_birth_date"
NAME_AND_COMMITTEE = "name_and_committee"
CRITERIA = (NAME_AND_BIRTH_DATE, NAME_AND_COMMITTEE)


@dataclass(frozen=True)
class PlayerFacts:
    """What the duplicate search needs to know of one record."""

    id: int
    folded_name: str
    birth_date: dt.date | None
    # season id -> the committee of the club the licence of that season was taken in
    committees_by_season: Mapping[int, int] = field(default_factory=dict)

    @property
    def seasons(self) -> frozenset[int]:
        return frozenset(self.committees_by_season)

    @property
    def committees(self) -> frozenset[int]:
        return frozenset(self.committees_by_season.values())


@dataclass(frozen=True)
class DuplicatePair:
    """Two records that are probably one person (``first_id < second_id``), and why."""

    first_id: int
    second_id: int
    criteria: tuple[str, ...]  # in the order of CRITERIA, never empty


def pair_criteria(a: PlayerFacts, b: PlayerFacts) -> tuple[str, ...]:
    """The criteria two records meet (empty: not likely duplicates)."""
    if a.id == b.id or a.folded_name != b.folded_name or not a.folded_name:
        return ()
    met = []
    if a.birth_date is not None and a.birth_date == b.birth_date:
        met.append(NAME_AND_BIRTH_DATE)
    if (
        a.committees_by_season
        and b.committees_by_season
        and not (a.seasons & b.seasons)
        and a.committees & b.committees
    ):
        met.append(NAME_AND_COMMITTEE)
    return tuple(met)


def likely_duplicates(players: Iterable[PlayerFacts]) -> list[DuplicatePair]:
    """Every pair of likely duplicates among ``players``, sorted by ids.

    Grouped by folded name first: only records of one name are compared, so the cost
    is the sum of the squares of the groups' sizes, not of the whole registry's."""
    groups: dict[str, list[PlayerFacts]] = defaultdict(list)
    for player in players:
        groups[player.folded_name].append(player)
    pairs = []
    for group in groups.values():
        for a, b in itertools.combinations(sorted(group, key=lambda p: p.id), 2):
            met = pair_criteria(a, b)
            if met:
                pairs.append(DuplicatePair(a.id, b.id, met))
    return sorted(pairs, key=lambda p: (p.first_id, p.second_id))


@dataclass(frozen=True)
class MergeFacts:
    """What :func:`check_merge` needs to know of one record: the per-season and
    per-competition facts that the database allows once per player."""

    id: int
    licence_number: int
    merged_into_id: int | None = None
    licence_seasons: frozenset[str] = frozenset()  # season names
    arbiter_seasons: frozenset[str] = frozenset()
    placement_seasons: frozenset[str] = frozenset()  # manual placements of the ranking
    revisions: frozenset[int] = frozenset()  # result revisions with an allocation
    stages: frozenset[int] = frozenset()  # championship stages with an active entry
    title_stages: frozenset[int] = frozenset()  # championship stages with a title
    has_account: bool = False


def _overlap(
    field_name: str, code: str, message: str, common: frozenset[str] | frozenset[int]
) -> list[Problem]:
    if not common:
        return []
    shown = ", ".join(str(v) for v in sorted(common))
    return [Problem(field_name, code, message.format(shown), {"values": shown})]


def check_merge(kept: MergeFacts, merged: MergeFacts) -> None:
    """Raise :class:`RuleViolation` with every reason ``merged`` may not be merged into
    ``kept``; return None when it may."""
    if kept.id == merged.id:
        raise RuleViolation.single(
            "merged", "merge_same_record", "A record cannot be merged into itself."
        )
    problems: list[Problem] = []
    for name, facts in (("kept", kept), ("merged", merged)):
        if facts.merged_into_id is not None:
            problems.append(
                Problem(
                    name,
                    "player_already_merged",
                    f"Licence {facts.licence_number} was already merged into another record.",
                    {"licence": facts.licence_number},
                )
            )
    problems += _overlap(
        "merged", "merge_two_licences_in_season",
        "Both records hold a licence in the same season ({}): one player cannot have two.",
        kept.licence_seasons & merged.licence_seasons,
    )  # fmt: skip
    problems += _overlap(
        "merged", "merge_two_arbiter_grades_in_season",
        "Both records hold an arbiter grade in the same season ({}).",
        kept.arbiter_seasons & merged.arbiter_seasons,
    )  # fmt: skip
    problems += _overlap(
        "merged", "merge_two_placements_in_season",
        "Both records have a manual placement in the ranking of the same season ({}).",
        kept.placement_seasons & merged.placement_seasons,
    )  # fmt: skip
    problems += _overlap(
        "merged", "merge_same_results",
        "Both records are in the same results (revisions {}): they played each other.",
        kept.revisions & merged.revisions,
    )  # fmt: skip
    problems += _overlap(
        "merged", "merge_same_stage",
        "Both records are entered in the same championship stages ({}).",
        kept.stages & merged.stages,
    )  # fmt: skip
    problems += _overlap(
        "merged", "merge_same_title",
        "Both records hold a title of the same championship stages ({}).",
        kept.title_stages & merged.title_stages,
    )  # fmt: skip
    if kept.has_account and merged.has_account:
        problems.append(
            Problem(
                "merged",
                "merge_two_accounts",
                "Both records are linked to a user account: unlink one first.",
                {},
            )
        )
    if problems:
        raise RuleViolation(problems)
