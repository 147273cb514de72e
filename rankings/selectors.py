"""Reads of the national ranking, shaped for the API, the pages and other apps
(a fixed, small number of queries per call: no N+1).

Which snapshot a reader sees:

- ``kind="live"``: the season's provisional ranking (``SeasonRanking.live``);
- ``kind="official"``: the season's **published** official ranking
  (``SeasonRanking.official``); a superseded official snapshot stays readable
  by its id;
- no kind: the official ranking if the season has one, else the live one.

:func:`series_for_players` is the selector the interclubs rules use.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db.models import QuerySet

from federation.models import Club, Committee, Licence, Player, Season
from federation.selectors import current_season
from rankings.models import (
    Allocation,
    PlayerSeasonTotal,
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    SeasonRanking,
)
from rankings.read_versions import ranking_version  # noqa: F401 (re-exported: the read cache's key)
from rankings.rules.series import SeriesPolicy
from rankings.search import COUNT_CAP, search_entries

LIVE = "live"
OFFICIAL = RankingKind.OFFICIAL.value
KINDS = (LIVE, OFFICIAL)


def season_named(name: str | None) -> Season | None:
    """The season called ``name`` ("2026-2027"), or the current one when no name."""
    if name:
        return Season.objects.filter(name=name).first()
    return current_season()


def previous_season(season: Season) -> Season | None:
    return Season.objects.filter(start_date__lt=season.start_date).order_by("-start_date").first()


def ranking_snapshot(season: Season, kind: str | None = None) -> RankingSnapshot | None:
    """The snapshot readers see for this season and kind (see the module doc)."""
    state = (
        SeasonRanking.objects.filter(season=season)
        .select_related("live__policy", "official__policy", "season")
        .first()
    )
    if state is None:
        return None
    if kind == LIVE:
        return state.live
    if kind == OFFICIAL:
        return state.official
    return state.official or state.live


def snapshot_by_id(snapshot_id: int) -> RankingSnapshot | None:
    return RankingSnapshot.objects.select_related("season", "policy").filter(pk=snapshot_id).first()


def snapshot_kind(snapshot: RankingSnapshot) -> str:
    return LIVE if snapshot.kind == RankingKind.PROVISIONAL else OFFICIAL


@lru_cache(maxsize=64)
def _ladder(data: str) -> dict[str, tuple[str, str, int]]:
    policy = SeriesPolicy.from_dict(json.loads(data))
    return {s.code: (s.label_fr, s.label_en, s.series) for s in policy.ladder}


def step_labels(snapshot: RankingSnapshot) -> dict[str, tuple[str, str, int]]:
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


def ranking_entries(snapshot: RankingSnapshot, filters: RankingFilter) -> QuerySet[RankingEntry]:
    """The snapshot's entries in ranking order, filtered (committee, club, series, and a
    search by licence number or by name, accents and case ignored)."""
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


def entries_page(
    entries: QuerySet[RankingEntry], filters: RankingFilter, start: int, size: int
) -> list[RankingEntry]:
    """One page of entries. Unfiltered, a page is a range of ``rank_order`` (1…N in a
    snapshot): an index range however deep the page, instead of an OFFSET."""
    if filters.empty:
        return list(entries.filter(rank_order__gt=start, rank_order__lte=start + size))
    return list(entries[start : start + size])


def entry_count(
    snapshot: RankingSnapshot, filters: RankingFilter, entries: QuerySet[RankingEntry]
) -> int:
    """How many entries match, without counting when the snapshot already knows."""
    if filters.empty:
        return snapshot.player_count
    if filters.series and not (filters.committee or filters.club or filters.query):
        return int(snapshot.series_counts.get(str(filters.series), 0))
    if filters.query.strip():  # a name search counts up to search.COUNT_CAP + 1
        return entries.order_by()[: COUNT_CAP + 1].count()
    return entries.count()


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
    entry: RankingEntry | None  # in the season's ranking (live or official)
    snapshot: RankingSnapshot | None
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
        RankingEntry.objects.filter(snapshot=held_snapshot, player=player).order_by().first()
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
        RankingEntry.objects.filter(snapshot_id__in=list(officials), player=player).select_related(
            "snapshot__season", "snapshot__policy"
        ),
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


def export_entries(
    snapshot: RankingSnapshot, committee_ids: set[int] | None
) -> QuerySet[RankingEntry, tuple[Any, ...]]:
    """Entries for the CSV export in ranking order (``None``: every committee), with
    the committee and club numbers; iterate with ``.iterator(chunk_size=…)``."""
    entries = (
        RankingEntry.objects.filter(snapshot=snapshot)
        .order_by("rank_order")
        .values_list(*EXPORT_FIELDS)
    )
    if committee_ids is not None:
        entries = entries.filter(committee_id__in=committee_ids)
    return entries
