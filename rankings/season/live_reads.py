"""Reading the live ranking from the order-statistics store (``rankings/season/live_store.py``).

A player's place is 1 + the number of smaller scores in the season's sorted set
(``ZCOUNT``, O(log n)), the same in their committee's and club's sets; the ranked
count is a ``ZCOUNT`` of the scores of players with points. Their step then comes from
the pure core's ``entry_for`` with the step criteria of this ranking's size, the
series policy the store's scores were computed with and the manual placements read
from the database. Nothing here knows a rule.

:class:`LiveRanking` is the store's :class:`~rankings.season.ranking.Ranking`, and
:class:`LiveEntry` its :class:`~rankings.season.ranking.Line`.
"""

from __future__ import annotations

import datetime as dt
import heapq
import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from django.db.models import Q
from redis.exceptions import RedisError

from core.digits import ascii_digits
from federation.access import Scope
from federation.models import Club, Committee, Player, Season
from rankings.models import (
    RankingEntry,
    RankingSnapshot,
    SeasonRanking,
    SeriesPolicyVersion,
)
from rankings.rules.live_order import RANKED_MAX_SCORE, key_of, licence_of, member, place_from
from rankings.rules.live_order import score as order_score
from rankings.rules.national_ranking import Places, entry_for, step_criteria
from rankings.rules.national_ranking import RankingEntry as CoreLine
from rankings.rules.series import SeriesPolicy
from rankings.season import live_store, statement_ranking
from rankings.season.live_series import SeriesMembers, season_placements
from rankings.season.live_store import Meta, StoredPlayer
from rankings.season.ranking import (
    ENTRY_COLUMNS,
    EXPORT_CHUNK,
    LIVE,
    Labels,
    Line,
    Ranking,
    RankingFilter,
    StepMoves,
    ladder_labels,
    policy_rules,
)
from rankings.season.search import COUNT_CAP, SearchCount, count_of, named_among, player_matches
from rankings.season.snapshots import compute, load_inputs
from rankings.season.statement_ranking import StatementRanking

log = logging.getLogger(__name__)


@dataclass
class LiveRanking:
    """The season's live ranking read from the store (a ``season.ranking.Ranking``)."""

    season: Season
    meta: Meta
    policy: SeriesPolicyVersion
    player_count: int
    ranked_count: int
    inputs_version: int
    series_counts: dict[str, int] = field(default_factory=dict)

    kind = LIVE
    snapshot_id = None
    as_of = None

    @property
    def computed_at(self) -> dt.datetime:
        return self.meta.updated

    @property
    def reflects(self) -> int:
        return self.meta.version

    def rules(self) -> SeriesPolicy:
        return policy_rules(self.policy)

    def step_labels(self) -> Labels:
        return ladder_labels(self.policy)

    @property
    def share_cutoffs(self) -> list[dict[str, Any]]:
        criteria = step_criteria(self.rules(), self.ranked_count, self.player_count)
        return [
            {"step": c.step, "top_share": str(c.top_share), "last_place": c.last_place}
            for c in criteria.cutoffs
        ]

    @property
    def version(self) -> str:
        return f"{self.inputs_version}.{self.meta.version}.{self.meta.gen}"

    def entries(self, filters: RankingFilter) -> LiveEntries:
        return LiveEntries(self, filters)

    def line(
        self, player: Player, *, named: bool = False, read: Mapping[int, Line] | None = None
    ) -> Line | None:
        found = lines(self, [player.licence_number])
        return (with_names(found) if named else found)[0] if found else None

    def order_of(self, line: Line) -> int:
        rank = live_store.client().zrank(self.meta.key("all"), member(line.licence_number))
        return int(rank) + 1

    def keys_at(self, orders: tuple[int, ...]) -> dict[int, tuple[int, int]]:
        if not orders:
            return {}
        pipe = live_store.client().pipeline(transaction=False)
        for order in orders:
            pipe.zrange(self.meta.key("all"), order - 1, order - 1, withscores=True)
        return {
            order: key_of(found[0][1])
            for order, found in zip(orders, pipe.execute(), strict=True)
            if found
        }

    def ahead_of(self, key: tuple[int, int]) -> int:
        """The members of a smaller score (one ``ZCOUNT``)."""
        return int(live_store.client().zcount(self.meta.key("all"), "-inf", f"({order_score(key)}"))

    def series_of(self, licence_numbers: list[int]) -> dict[int, int]:
        return {e.licence_number: e.series for e in lines(self, licence_numbers)}

    def export_rows(
        self,
        committee_ids: set[int] | None,
        club_ids: set[int] | frozenset[int] | None,
        chunk_size: int = EXPORT_CHUNK,
    ) -> Iterator[tuple[Any, ...]]:
        """Read from the store a chunk at a time (the committees' or clubs' sorted sets
        merged)."""
        key = self.meta.key
        if club_ids is not None:
            keys = [key(f"k:{c}") for c in sorted(club_ids)]
        elif committee_ids is not None:
            keys = [key(f"c:{c}") for c in sorted(committee_ids)]
        else:
            keys = [key("all")]
        numbers = merged_members(self, keys, chunk_size)
        while chunk := list(islice(numbers, chunk_size)):
            for e in with_names(lines(self, chunk)):
                if committee_ids is not None and e.line.committee not in committee_ids:
                    continue  # a club's set, outside the committees asked
                player, club = e.player, e.club
                yield (
                    e.place, e.licence_number, player.last_name if player else "",
                    player.first_name if player else "",
                    e.committee.number if e.committee else None,
                    club.number if club else None, club.name if club else None,
                    e.season_pcn, e.season_pp, e.carried_pcn, e.carried_pp, e.total_pcn,
                    e.total_pp, e.tournaments, e.place_in_committee, e.place_in_club, e.step,
                    e.series, e.step_source,
                )  # fmt: skip

    def step_moves(self, official: RankingSnapshot | None, scope: Scope) -> StepMoves:
        """Its steps need every place: counted by the database, the ranking computed in
        place (``statement_ranking.py``); elsewhere by the pure core, for this call."""
        if statement_ranking.possible():
            in_place = StatementRanking(self.season, self.inputs_version)
            return in_place.step_moves(official, scope)
        ladder = {code: index for index, code in enumerate(self.step_labels())}
        committees = None
        if not scope.national:
            committees = set(
                Committee.objects.filter(
                    Q(pk__in=scope.committee_ids) | Q(zone_id__in=scope.zone_ids)
                ).values_list("pk", flat=True)
            )
        before = (
            dict(
                RankingEntry.objects.filter(snapshot=official).values_list("licence_number", "step")
            )
            if official is not None
            else {}
        )
        players = up = down = same = new = 0
        inputs = load_inputs(season=self.season, inputs_version=self.inputs_version)
        for entry in compute(inputs).entries:
            if committees is not None and entry.committee not in committees:
                continue
            players += 1
            old = before.get(entry.player)
            if old is None:
                new += 1
                continue
            now, then = ladder.get(entry.step), ladder.get(old)
            if now is None or then is None:
                continue
            up += now > then
            down += now < then
            same += now == then
        return StepMoves(players, up, down, same, new)

    def same_as(self, other: Ranking) -> bool:
        return (
            other.snapshot_id is None and other.kind == LIVE and other.season.pk == self.season.pk
        )


@dataclass
class LiveEntry:
    """One line of the live ranking (a :class:`~rankings.season.ranking.Line`)."""

    line: CoreLine
    stored: StoredPlayer
    player: Player | None = None
    committee: Committee | None = None
    club: Club | None = None

    @property
    def licence_number(self) -> int:
        return self.line.player

    @property
    def player_id(self) -> int:
        return self.stored.player_id

    @property
    def committee_id(self) -> int:
        return self.line.committee

    @property
    def club_id(self) -> int | None:
        return self.line.club

    @property
    def tournaments(self) -> int:
        return self.stored.tournaments

    @property
    def step_source(self) -> str:
        return self.line.step_source.value

    @property
    def place(self) -> int:
        return self.line.place

    @property
    def place_in_committee(self) -> int:
        return self.line.place_in_committee

    @property
    def place_in_club(self) -> int | None:
        return self.line.place_in_club

    @property
    def season_pcn(self) -> int:
        return self.line.season_pcn

    @property
    def season_pp(self) -> int:
        return self.line.season_pp

    @property
    def carried_pcn(self) -> int:
        return self.line.carried_pcn

    @property
    def carried_pp(self) -> int:
        return self.line.carried_pp

    @property
    def total_pcn(self) -> int:
        return self.line.total_pcn

    @property
    def total_pp(self) -> int:
        return self.line.total_pp

    @property
    def step(self) -> str:
        return self.line.step

    @property
    def series(self) -> int:
        return self.line.series

    @property
    def season_step(self) -> str:
        return self.line.season_step

    @property
    def points_step(self) -> str:
        return self.line.points_step

    @property
    def manual_reason(self) -> str | None:
        return self.line.manual_reason

    def row(self) -> dict[str, Any]:
        """This line (names attached: :func:`with_names`) as an ``ENTRY_COLUMNS`` row."""
        player, committee, club = self.player, self.committee, self.club
        related = {
            "player__last_name": player.last_name if player else "",
            "player__first_name": player.first_name if player else "",
            "player__name_hidden": player.name_hidden if player else False,
            "committee__number": committee.number if committee else None,
            "club__number": club.number if club else None,
            "club__name": club.name if club else None,
        }
        return {c: related[c] if c in related else getattr(self, c) for c in ENTRY_COLUMNS}


class LiveEntries:
    """The live store's answer to a filtered ranking read (:meth:`LiveRanking.entries`).

    - no filter, committee or club only: a range of the season's, the committee's or
      the club's sorted set, however deep the page (``ZRANGE``), counted by ``ZCARD``;
    - a search (licence number or name): the matching players the store holds, ordered
      by their scores; the lines of the page shown only, unless a committee, club or
      series filter needs every match's line; a name that more than ``COUNT_CAP``
      players of the store share: the count capped, the page found by walking the
      season's order (:func:`named_in_order`) rather than scoring every match;
    - a series within a committee or club: the group's lines, filtered;
    - a series over the whole country: a range of each band set of the store
      (``rankings/season/live_series.py``): counts and ranges, the page's lines only.
    """

    def __init__(self, ranking: LiveRanking, filters: RankingFilter) -> None:
        self.ranking, self.filters = ranking, filters
        self._matching: list[int] | None = None
        self._wide: bool | None = None
        self._lines: dict[int, LiveEntry] = {}
        self._series: SeriesMembers | None = None

    def _national_series(self) -> SeriesMembers | None:
        """A series filter alone (no committee, club or search): read from the bands."""
        f = self.filters
        if not f.series or f.committee is not None or f.club is not None or f.query.strip():
            return None
        if self._series is None:
            self._series = SeriesMembers(self.ranking, f.series)
        return self._series

    def _group(self) -> tuple[int | None, int | None, bool]:
        f = self.filters
        committee = f.committee.pk if f.committee is not None else None
        club = f.club.pk if f.club is not None else None
        clash = f.club is not None and committee is not None and f.club.committee_id != committee
        return committee, club, clash

    def _ranged(self) -> bool:
        return not self.filters.query.strip() and not self.filters.series

    def _keep(self, entry: LiveEntry) -> bool:
        committee, club, _clash = self._group()
        f = self.filters
        return (
            (committee is None or entry.line.committee == committee)
            and (club is None or entry.line.club == club)
            and (f.series is None or entry.line.series == f.series)
        )

    def matching(self) -> list[int]:
        """Licence numbers matching a filter the sorted sets cannot answer, in order."""
        if self._matching is not None:
            return self._matching
        committee, club, clash = self._group()
        text = self.filters.query.strip()
        found: list[int]
        if clash:
            found = []
        elif text or committee is not None or club is not None:
            if ascii_digits(text):  # never a player who asked for anonymity (search.py)
                shown = Player.objects.filter(licence_number=int(text), name_hidden=False)
                candidates = ordered(self.ranking, [int(text)] if shown.exists() else [])
            elif text:  # rankings/season/search.py's rules on Player.search_name
                candidates = ordered(self.ranking, name_matches(text))
            else:
                key = group_key(self.ranking, committee, club)
                candidates = members_page(key, 0, members_count(key))
            if text and committee is None and club is None and self.filters.series is None:
                # every scored match is kept: lines are computed for the page shown only
                # (a common name matches thousands: their lines cost ~0.2 s at 150,000)
                found = candidates
            else:
                entries = [e for e in lines(self.ranking, candidates) if self._keep(e)]
                self._lines = {e.licence_number: e for e in entries}
                found = [e.licence_number for e in entries]
        else:  # a series over the whole country (its pages are read by _national_series)
            found = self._national_series().page(0, self.ranking.player_count)  # type: ignore[union-attr]
        self._matching = found
        return found

    def _name_only(self) -> str:
        """The text of a search by name with no committee, club or series filter, else ''."""
        f, text = self.filters, self.filters.query.strip()
        if ascii_digits(text) or f.committee is not None or f.club is not None or f.series:
            return ""
        return text

    def _is_wide(self) -> bool:
        """Whether more than ``COUNT_CAP`` players of the store bear the searched name,
        judged from the first :data:`WIDE_SEARCH` players of the registry it names
        (when there are fewer, they are every match: kept, ordered)."""
        if self._wide is None:
            probe = min(WIDE_SEARCH, COUNT_CAP + WIDE_MARGIN)
            first = name_matches(self._name_only(), probe)
            scored = ordered(self.ranking, first)
            if len(first) == probe and len(scored) > COUNT_CAP:
                self._wide = True  # more than the cap already among the first named
                return True
            if len(first) == probe < WIDE_SEARCH:
                first = name_matches(self._name_only(), WIDE_SEARCH)
                scored = ordered(self.ranking, first)
            self._wide = len(first) == WIDE_SEARCH and len(scored) > COUNT_CAP
            if len(first) < WIDE_SEARCH:
                self._matching = scored
        return self._wide

    def count(self) -> SearchCount:
        """The count a reader is shown: with a search, capped at ``COUNT_CAP`` as on a
        snapshot (``search.capped_count``); a common name is not counted further."""
        if self._name_only() and self._is_wide():
            return SearchCount(COUNT_CAP, True)
        if self.filters.query.strip():
            return count_of(self._exact_count())
        return SearchCount(self._exact_count(), False)

    def _exact_count(self) -> int:
        if (series := self._national_series()) is not None:
            return series.count()
        if self._ranged():
            committee, club, clash = self._group()
            if clash:
                return 0
            return members_count(group_key(self.ranking, committee, club))
        return len(self.matching())

    def page(self, start: int, size: int) -> list[Line]:
        return list(self._page(start, size))

    def rows(self, start: int, size: int) -> list[dict[str, Any]]:
        return [e.row() for e in self._page(start, size)]

    def _page(self, start: int, size: int) -> list[LiveEntry]:
        if self._ranged():
            committee, club, clash = self._group()
            if clash:
                return []
            key = group_key(self.ranking, committee, club)
            entries = lines(self.ranking, members_page(key, start, size))
        elif (series := self._national_series()) is not None:
            entries = lines(self.ranking, series.page(start, size))
        else:
            walked = None
            if self._name_only() and self._is_wide():  # the first matches in order
                walked = named_in_order(self.ranking, self._name_only(), start + size)
            numbers = self.matching()[start : start + size] if walked is None else walked[start:]
            missing = [n for n in numbers if n not in self._lines]
            fresh = lines(self.ranking, missing)
            self._lines.update((e.licence_number, e) for e in fresh)
            entries = [self._lines[n] for n in numbers if n in self._lines]
        return with_names(entries)


def live_ranking(season: Season, state: SeasonRanking | None = None) -> LiveRanking | None:
    """The season's live ranking read from the store; None when the store cannot answer
    it — no generation for the season (lost, flushed), one missing members (evicted),
    one ahead of the database (a rolled-back write, a restored database), or the store
    unreachable. A rebuild is then asked of a worker (once, however many readers ask:
    ``live_store.rebuild_ask``) and the caller reads the database meanwhile
    (``rankings/season/engines.py``); no reader rebuilds or waits for the writer lock."""
    state = state or SeasonRanking.objects.filter(season=season).first()
    inputs_version = state.inputs_version if state else 0
    try:
        meta = live_store.read_meta(season.pk)
        if meta is not None and meta.version <= inputs_version:
            pipe = live_store.client().pipeline(transaction=False)
            pipe.zcard(meta.key("all"))
            pipe.zcount(meta.key("all"), "-inf", RANKED_MAX_SCORE)
            pipe.hlen(meta.key("p"))
            player_count, ranked_count, lines_kept = pipe.execute()
            if live_store.whole(meta, player_count, lines_kept):
                return LiveRanking(
                    season=season,
                    meta=meta,
                    policy=SeriesPolicyVersion.objects.get(pk=meta.policy_id),
                    player_count=player_count,
                    ranked_count=ranked_count,
                    inputs_version=inputs_version,
                )
        live_store.rebuild_ask(season.pk, meta)
    except RedisError:
        log.warning("the live ranking's store is unreachable: read from the database",
                    exc_info=True)  # fmt: skip
    return None


def lines(ranking: LiveRanking, licences: Sequence[int]) -> list[LiveEntry]:
    """The lines of these players (absent ones left out), in the given order: two
    round trips to Redis and one query for the placements."""
    if not licences:
        return []
    meta, redis_client = ranking.meta, live_store.client()
    members = [member(n) for n in licences]
    raw = redis_client.hmget(meta.key("p"), members)
    stored = [StoredPlayer.decode(n, r) for n, r in zip(licences, raw, strict=True) if r]
    pipe = redis_client.pipeline(transaction=False)
    for p in stored:
        below = f"({p.score}"
        pipe.zcount(meta.key("all"), "-inf", below)
        pipe.zcount(meta.key(f"c:{p.standing.committee}"), "-inf", below)
        if p.standing.club is not None:
            pipe.zcount(meta.key(f"k:{p.standing.club}"), "-inf", below)
    counts = iter(pipe.execute())
    placements = season_placements(ranking)
    criteria = step_criteria(ranking.rules(), ranking.ranked_count, ranking.player_count)
    found = []
    for p in stored:
        overall, in_committee = place_from(next(counts)), place_from(next(counts))
        in_club = place_from(next(counts)) if p.standing.club is not None else None
        line = entry_for(
            p.standing,
            Places(overall, in_committee, in_club),
            criteria,
            placements.get(p.standing.player),
        )
        found.append(LiveEntry(line, p))
    return found


def with_names(entries: list[LiveEntry]) -> list[LiveEntry]:
    """Attach the player, club and committee rows (two queries: the clubs with their
    committee; a third only for a player whose committee is not their club's)."""
    players = Player.objects.in_bulk([e.stored.player_id for e in entries])
    clubs = Club.objects.select_related("committee").in_bulk(
        {e.line.club for e in entries if e.line.club is not None}
    )
    committees = {club.committee_id: club.committee for club in clubs.values()}
    missing = {e.line.committee for e in entries} - committees.keys()
    if missing:
        committees.update(Committee.objects.in_bulk(missing))
    for e in entries:
        e.player = players.get(e.stored.player_id)
        e.committee = committees.get(e.line.committee)
        e.club = clubs.get(e.line.club) if e.line.club is not None else None
    return entries


def group_key(ranking: LiveRanking, committee_id: int | None, club_id: int | None) -> str:
    if club_id is not None:
        return ranking.meta.key(f"k:{club_id}")
    if committee_id is not None:
        return ranking.meta.key(f"c:{committee_id}")
    return ranking.meta.key("all")


def members_page(key: str, start: int, size: int) -> list[int]:
    """Licence numbers of one page of a sorted set, in ranking order."""
    return [licence_of(m) for m in live_store.client().zrange(key, start, start + size - 1)]


def members_count(key: str) -> int:
    return int(live_store.client().zcard(key))


def ordered(ranking: LiveRanking, licences: Sequence[int]) -> list[int]:
    """These players in ranking order (score, then licence number); absent ones dropped."""
    if not licences:
        return []
    scores = live_store.client().zmscore(ranking.meta.key("all"), [member(n) for n in licences])
    found = [(s, n) for n, s in zip(licences, scores, strict=True) if s is not None]
    return [n for _s, n in sorted(found)]


def name_matches(text: str, limit: int | None = None) -> list[int]:
    """Licence numbers of the players the text names (at most ``limit``), in no order:
    the same rules and indexes as a snapshot's search (``rankings/season/search.py``,
    ``Player.search_name``). Not narrowed to the season's ranked players: :func:`ordered`
    keeps those the season's store holds (a join with the season's standings cost more
    than the search itself)."""
    return player_matches(Player.objects.all(), text, limit)


WIDE_SEARCH = 2_000
"""A search by name alone whose first this many players named hold more than the
search's count cap in the store is answered by :func:`named_in_order` (a common name,
two letters): its count is capped without reading every match."""
WIDE_MARGIN = 100
"""A common name is first judged from ``COUNT_CAP`` + this many players named (more than
the cap of them in the store: wide), and from :data:`WIDE_SEARCH` only when not."""
WALK_LIMIT = 20_000
"""The most members of the season's sorted set :func:`named_in_order` expects to read."""
WALK_CHUNK = (500, 5_000)
"""The fewest and most members it reads at a time."""


def named_in_order(ranking: LiveRanking, text: str, needed: int) -> list[int] | None:
    """The first ``needed`` players the text names in the season's order, found by
    walking the season's sorted set from the top and asking the database which of each
    chunk the text names (``search.named_among``: the search's own rules). For a name
    that thousands share this reads about ``needed`` ÷ (their share of the season)
    members whatever the season's size, where scoring every match (:func:`ordered`)
    costs in proportion to the matches. Each chunk is sized by the share found so far.
    None when that share says more than :data:`WALK_LIMIT` members would be read (a
    deep page, or a name rarer than it seemed): the caller scores every match instead."""
    key, redis_client = ranking.meta.key("all"), live_store.client()
    found: list[int] = []
    walked = 0
    while len(found) < needed:
        missing = needed - len(found)
        expected = missing * walked / max(len(found), 1) if walked else WALK_CHUNK[0]
        if walked + expected > WALK_LIMIT:
            return None
        chunk = min(max(round(expected * 1.1), WALK_CHUNK[0]), WALK_CHUNK[1])
        licences = [licence_of(m) for m in redis_client.zrange(key, walked, walked + chunk - 1)]
        named = named_among(licences, text)
        found.extend(n for n in licences if n in named)
        walked += len(licences)
        if len(licences) < chunk:  # the end of the ranking: every match is found
            break
    return found[:needed]


def merged_members(ranking: LiveRanking, keys: list[str], chunk: int) -> Iterator[int]:
    """Licence numbers of the union of these sorted sets (disjoint), in ranking order."""
    redis_client = live_store.client()

    def each(key: str) -> Iterator[tuple[float, str]]:
        start = 0
        while True:
            batch = redis_client.zrange(key, start, start + chunk - 1, withscores=True)
            if not batch:
                return
            for m, s in batch:
                yield s, m
            start += chunk

    for _score, m in heapq.merge(*(each(k) for k in keys)):
        yield licence_of(m)
