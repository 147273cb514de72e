"""Reads of the national ranking, shaped for the API, the pages and other apps
(a fixed, small number of queries per call: no N+1).

Which snapshot a reader sees:

- ``kind="live"``: the season's live ranking: with Redis, a
  :class:`~rankings.live_reads.LiveRanking` read from the order-statistics store
  (places and steps derived at read time, ``rankings/live_reads.py``); without, the
  provisional snapshot ``SeasonRanking.live``. Both answer the same calls below;
- ``kind="official"``: the season's **published** official ranking
  (``SeasonRanking.official``); a superseded official snapshot stays readable
  by its id;
- no kind: the official ranking if the season has one, else the live one.

:func:`series_for_players` is the selector the interclubs rules use.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from typing import Any

from django.db.models import Q, QuerySet

from competitions.models import Allocation
from core.digits import ascii_digits
from federation.models import Club, Committee, Licence, Player, Season
from federation.selectors import current_season
from rankings import live_reads, live_store
from rankings.live_reads import LiveEntry, LiveRanking
from rankings.models import (
    PlayerSeasonTotal,
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    SeasonRanking,
)
from rankings.rules.series import SeriesPolicy
from rankings.search import COUNT_CAP, SearchCount, count_of, search_entries

LIVE = "live"
OFFICIAL = RankingKind.OFFICIAL.value
KINDS = (LIVE, OFFICIAL)
AS_OF = RankingKind.AS_OF.value  # the ranking as of a date (rankings/as_of.py)


def season_named(name: str | None) -> Season | None:
    """The season called ``name`` ("2026-2027"), or the current one when no name."""
    if name:
        return Season.objects.filter(name=name).first()
    return current_season()


def previous_season(season: Season) -> Season | None:
    return Season.objects.filter(start_date__lt=season.start_date).order_by("-start_date").first()


def ranking_snapshot(season: Season, kind: str | None = None) -> Any:
    """The snapshot readers see for this season and kind (see the module doc): a
    ``RankingSnapshot``, or with Redis a ``LiveRanking`` for the live one."""
    state = (
        SeasonRanking.objects.filter(season=season)
        .select_related("live__policy", "official__policy", "season")
        .first()
    )
    if state is None:
        return None
    if kind == OFFICIAL:
        return state.official
    if kind != LIVE and state.official is not None:
        return state.official
    if live_store.enabled():
        return live_reads.live_ranking(season, state)
    return state.live


def live_version(season: Season) -> str:
    """A value that changes whenever anything a reader of the season's rankings sees
    changes (standings, policy, placements, the live store's generation, a published
    official ranking): for cache keys and ETags. Two round trips at most."""
    state = (
        SeasonRanking.objects.filter(season=season)
        .values_list("inputs_version", "live_version", "live_id", "official_id")
        .first()
    )
    if state is None:
        return "none"
    return live_token(season.pk, *state)


def live_token(
    season_id: int, inputs: int, live: int, live_id: int | None, official: int | None
) -> str:
    """:func:`live_version` from the season's ranking row already read (the read cache's
    versions, ``rankings/read_versions.py``, read every season's row in one query); with
    Redis, one round trip to the store."""
    if live_store.enabled():
        meta = live_store.read_meta(season_id)
        store = f"{meta.version}.{meta.gen}" if meta else "unbuilt"
        return f"r{inputs}.{store}.o{official or 0}"
    return f"s{inputs}.{live}.{live_id or 0}.o{official or 0}"


def snapshot_by_id(snapshot_id: int) -> RankingSnapshot | None:
    """A live or official snapshot by its id (a ranking as of a date is read by its day:
    its snapshot is a cache, replaced when the inputs change)."""
    return (
        RankingSnapshot.objects.select_related("season", "policy")
        .exclude(kind=RankingKind.AS_OF)
        .filter(pk=snapshot_id)
        .first()
    )


def snapshot_kind(snapshot: Any) -> str:
    if snapshot.kind == RankingKind.AS_OF:
        return AS_OF
    return LIVE if snapshot.kind == RankingKind.PROVISIONAL else OFFICIAL


@lru_cache(maxsize=64)
def _ladder(data: str) -> dict[str, tuple[str, str, int]]:
    policy = SeriesPolicy.from_dict(json.loads(data))
    return {s.code: (s.label_fr, s.label_en, s.series) for s in policy.ladder}


def step_labels(snapshot: Any) -> dict[str, tuple[str, str, int]]:
    """Code → (French label, English label, series) for the snapshot's ladder
    (parsed once per distinct policy)."""
    return _ladder(json.dumps(snapshot.policy.data, sort_keys=True))


@dataclass
class RankingFilter:
    committee: Committee | None = None
    club: Club | None = None
    series: int | None = None
    query: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.committee or self.club or self.series or self.query)


def ranking_entries(snapshot: Any, filters: RankingFilter) -> Any:
    """The snapshot's entries in ranking order, filtered (committee, club, series, and a
    search by licence number or by name, accents and case ignored): a queryset, or
    a :class:`LiveQuery` over the live store."""
    if isinstance(snapshot, LiveRanking):
        return LiveQuery(snapshot, filters)
    entries = (
        RankingEntry.objects.filter(snapshot=snapshot)
        .select_related("player", "committee", "club")
        .order_by("rank_order")
    )
    if filters.committee is not None:
        entries = entries.filter(committee_id=filters.committee.pk)
    if filters.club is not None:
        entries = entries.filter(club_id=filters.club.pk)
    if filters.series is not None:
        entries = entries.filter(series=filters.series)
    return search_entries(entries, filters.query)


def entries_page(entries: Any, filters: RankingFilter, start: int, size: int) -> list[Any]:
    """One page of entries. Unfiltered, a page is a range of ``rank_order`` (1…N in a
    snapshot): an index range however deep the page, instead of an OFFSET."""
    if isinstance(entries, LiveQuery):
        return entries.page(start, size)
    if filters.empty:
        return list(entries.filter(rank_order__gt=start, rank_order__lte=start + size))
    return list(entries[start : start + size])


def entry_count(snapshot: Any, filters: RankingFilter, entries: Any) -> int:
    """How many entries match, without counting when the snapshot already knows."""
    if isinstance(entries, LiveQuery):
        return entries.count()
    if filters.empty:
        return snapshot.player_count
    if filters.series and not (filters.committee or filters.club or filters.query):
        return int(snapshot.series_counts.get(str(filters.series), 0))
    if filters.query.strip():  # a name search counts up to search.COUNT_CAP + 1
        return entries.order_by()[: COUNT_CAP + 1].count()
    return entries.count()


class LiveQuery:
    """The live store's answer to a filtered ranking read (what ``ranking_entries``
    returns for a :class:`LiveRanking`).

    - no filter, committee or club only: a range of the season's, the committee's or
      the club's sorted set, however deep the page (``ZRANGE``), counted by ``ZCARD``;
    - a search (licence number or name): the matching players the store holds, ordered
      by their scores; the lines of the page shown only, unless a committee, club or
      series filter needs every match's line; a name that more than ``COUNT_CAP``
      players of the store share: the count capped, the page found by walking the
      season's order (``live_reads.named_in_order``) rather than scoring every match;
    - a series within a committee or club: the group's lines, filtered;
    - a series over the whole country: the full computation by the pure core,
      once per live version per process (``live_reads.full_ranking``).
    """

    def __init__(self, ranking: LiveRanking, filters: RankingFilter) -> None:
        self.ranking, self.filters = ranking, filters
        self._matching: list[int] | None = None
        self._wide: bool | None = None
        self._lines: dict[int, LiveEntry] = {}

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
                candidates = live_reads.ordered(self.ranking, [int(text)] if shown.exists() else [])
            elif text:  # rankings/search.py's rules on Player.search_name
                candidates = live_reads.ordered(self.ranking, live_reads.name_matches(text))
            else:
                key = live_reads.group_key(self.ranking, committee, club)
                candidates = live_reads.members_page(key, 0, live_reads.members_count(key))
            if text and committee is None and club is None and self.filters.series is None:
                # every scored match is kept: lines are computed for the page shown only
                # (a common name matches thousands: their lines cost ~0.2 s at 150,000)
                found = candidates
            else:
                entries = [e for e in live_reads.lines(self.ranking, candidates) if self._keep(e)]
                self._lines = {e.licence_number: e for e in entries}
                found = [e.licence_number for e in entries]
        else:  # a series over the whole country
            series = self.filters.series
            found = [e.player for e in live_reads.full_ranking(self.ranking) if e.series == series]
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
        judged from the first ``live_reads.WIDE_SEARCH`` players of the registry it names
        (when there are fewer, they are every match: kept, ordered)."""
        if self._wide is None:
            first = live_reads.name_matches(self._name_only(), live_reads.WIDE_SEARCH)
            scored = live_reads.ordered(self.ranking, first)
            self._wide = len(first) == live_reads.WIDE_SEARCH and len(scored) > COUNT_CAP
            if len(first) < live_reads.WIDE_SEARCH:
                self._matching = scored
        return self._wide

    def search_count(self) -> SearchCount:
        """The count a reader is shown: with a search, capped at ``COUNT_CAP`` as on a
        snapshot (``search.capped_count``); a common name is not counted further."""
        if self._name_only() and self._is_wide():
            return SearchCount(COUNT_CAP, True)
        if self.filters.query.strip():
            return count_of(self.count())
        return SearchCount(self.count(), False)

    def count(self) -> int:
        if self._ranged():
            committee, club, clash = self._group()
            if clash:
                return 0
            return live_reads.members_count(live_reads.group_key(self.ranking, committee, club))
        return len(self.matching())

    def page(self, start: int, size: int) -> list[LiveEntry]:
        if self._ranged():
            committee, club, clash = self._group()
            if clash:
                return []
            key = live_reads.group_key(self.ranking, committee, club)
            entries = live_reads.lines(self.ranking, live_reads.members_page(key, start, size))
        else:
            walked = None
            if self._name_only() and self._is_wide():  # the first matches in order
                walked = live_reads.named_in_order(self.ranking, self._name_only(), start + size)
            numbers = self.matching()[start : start + size] if walked is None else walked[start:]
            missing = [n for n in numbers if n not in self._lines]
            fresh = live_reads.lines(self.ranking, missing)
            self._lines.update((e.licence_number, e) for e in fresh)
            entries = [self._lines[n] for n in numbers if n in self._lines]
        return live_reads.with_names(entries)


# ``number`` may be None (a missing or malformed query parameter): it matches no row, as
# numbers are not nullable, but the stubs refuse a None lookup value.
def committee_numbered(number: int | None) -> Committee | None:
    return Committee.objects.select_related("zone").filter(number=number).first()  # type: ignore[misc]


def club_numbered(number: int | None) -> Club | None:
    return Club.objects.select_related("committee").filter(number=number).first()  # type: ignore[misc]


@dataclass
class PlayerRecord:
    """Everything a player's ranking page shows."""

    player: Player
    season: Season
    licence: Licence | None
    entry: Any  # in the season's ranking (live or official): RankingEntry or LiveEntry
    snapshot: Any  # RankingSnapshot or LiveRanking
    held: RankingEntry | None  # the official ranking that applies during the season
    held_snapshot: RankingSnapshot | None
    tournaments: list[Allocation]
    history: list[RankingEntry]  # every published official ranking, oldest first
    season_totals: list[PlayerSeasonTotal]  # oldest first


def player_record(
    licence_number: int, season: Season, kind: str | None = None
) -> PlayerRecord | None:
    """A player's ranking record for a season, in about ten queries whatever the history."""
    player = Player.objects.filter(licence_number=licence_number).first()
    if player is None:
        return None
    licence = (
        Licence.objects.filter(player=player, season=season)
        .select_related("club__committee")
        .first()
    )
    snapshot = ranking_snapshot(season, kind)
    entry: Any
    if isinstance(snapshot, LiveRanking):
        found = live_reads.with_names(live_reads.lines(snapshot, [licence_number]))
        entry = found[0] if found else None
    else:
        entry = (
            RankingEntry.objects.filter(snapshot=snapshot, player=player)
            .select_related("committee", "club")
            .order_by()
            .first()
            if snapshot
            else None
        )
    before = previous_season(season)
    held_snapshot = ranking_snapshot(before, OFFICIAL) if before else None
    held = (
        RankingEntry.objects.filter(snapshot=held_snapshot, player_id__in=same_person(player))
        .order_by()
        .first()
        if held_snapshot
        else None
    )
    tournaments = list(
        Allocation.objects.filter(player=player, season=season, current=True)
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")
    )
    officials = dict(
        SeasonRanking.objects.filter(official__isnull=False).values_list("official_id", "season_id")
    )
    history = sorted(
        RankingEntry.objects.filter(
            snapshot_id__in=list(officials), player_id__in=same_person(player)
        ).select_related("snapshot__season", "snapshot__policy"),
        key=lambda e: e.snapshot.season.start_date,
    )
    season_totals = list(
        PlayerSeasonTotal.objects.filter(player=player)
        .select_related("season")
        .order_by("season__start_date")
    )
    return PlayerRecord(
        player, season, licence, entry, snapshot, held, held_snapshot, tournaments, history,
        season_totals,
    )  # fmt: skip


def same_person(player: Player) -> QuerySet[Player, Any]:
    """The ids of ``player``'s record and of the records merged into it: the lines of
    immutable official rankings keep the merged record (portal/merging.py)."""
    return Player.objects.filter(Q(pk=player.pk) | Q(merged_into=player)).values("pk")


def series_for_players(season: Season, licence_numbers: Iterable[int]) -> dict[int, int | None]:
    """The series (1–4) of each player in the national ranking that applies during
    ``season``: the **published official ranking of the previous season** (computed
    at its end, valid for the whole next season). ``None`` for a player who is not
    in it (new licensee, back after a gap, or no official ranking published yet):
    the interclubs rules count such a player as 4th series (chapter 3).

    Two queries whatever the number of players.
    """
    numbers = sorted({int(n) for n in licence_numbers})
    result: dict[int, int | None] = dict.fromkeys(numbers)
    before = previous_season(season)
    if before is None or not numbers:
        return result
    official = (
        SeasonRanking.objects.filter(season=before, official__isnull=False)
        .values_list("official_id", flat=True)
        .first()
    )
    if official is None:
        return result
    result.update(
        RankingEntry.objects.filter(snapshot_id=official, licence_number__in=numbers).values_list(
            "licence_number", "series"
        )
    )
    return result


EXPORT_FIELDS = (
    "place", "licence_number", "player__last_name", "player__first_name",
    "committee__number", "club__number", "club__name", "season_pcn", "season_pp",
    "carried_pcn", "carried_pp", "total_pcn", "total_pp", "tournaments",
    "place_in_committee", "place_in_club", "step", "series", "step_source",
)  # fmt: skip


class LiveExport:
    """The live ranking's export rows (``EXPORT_FIELDS``), in ranking order, read from
    the store a chunk at a time (the committees' sorted sets merged)."""

    def __init__(
        self,
        ranking: LiveRanking,
        committee_ids: AbstractSet[int] | None,
        club_ids: AbstractSet[int] | None,
    ) -> None:
        self.ranking, self.committee_ids, self.club_ids = ranking, committee_ids, club_ids

    def iterator(self, chunk_size: int = 2000) -> Iterator[tuple[Any, ...]]:
        key = self.ranking.meta.key
        if self.club_ids is not None:
            keys = [key(f"k:{c}") for c in sorted(self.club_ids)]
        elif self.committee_ids is not None:
            keys = [key(f"c:{c}") for c in sorted(self.committee_ids)]
        else:
            keys = [key("all")]
        committees = self.committee_ids
        numbers = live_reads.merged_members(self.ranking, keys, chunk_size)
        while chunk := list(islice(numbers, chunk_size)):
            for e in live_reads.with_names(live_reads.lines(self.ranking, chunk)):
                if committees is not None and e.line.committee not in committees:
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


def export_entries(
    snapshot: Any, committee_ids: AbstractSet[int] | None, club_ids: AbstractSet[int] | None = None
) -> Any:
    """Entries for the CSV export in ranking order (``None``: every committee, every
    club), with the committee and club numbers; iterate with ``.iterator(chunk_size=…)``."""
    if isinstance(snapshot, LiveRanking):
        return LiveExport(snapshot, committee_ids, club_ids)
    entries = (
        RankingEntry.objects.filter(snapshot=snapshot)
        .order_by("rank_order")
        .values_list(*EXPORT_FIELDS)
    )
    if committee_ids is not None:
        entries = entries.filter(committee_id__in=committee_ids)
    if club_ids is not None:
        entries = entries.filter(club_id__in=club_ids)
    return entries
