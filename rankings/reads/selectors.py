"""Reads of the national ranking, shaped for the API, the pages and other apps
(a fixed, small number of queries per call: no N+1).

A season's ranking is a :class:`~rankings.season.ranking.Ranking` (``rankings/season/ranking.py``),
whichever engine keeps it (``rankings/season/engines.py``):

- ``kind="live"``: the season's live ranking (the Redis store's, or the provisional
  snapshot without it);
- ``kind="official"``: the season's **published** official ranking; a superseded
  official snapshot stays readable by its id (:func:`ranking_by_snapshot_id`);
- no kind: the official ranking if the season has one, else the live one;
- :func:`ranking_as_of`: the live ranking as it stood at the end of a day.

:func:`series_for_players` is the selector the interclubs rules use.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from django.db.models import Q, QuerySet

from competitions.models import Allocation
from federation.models import Club, Committee, Licence, Player, Season
from federation.selectors import current_season
from rankings.models import (
    PlayerSeasonTotal,
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    SeasonRanking,
)
from rankings.season import engines
from rankings.season.as_of import ranking_as_of_for_reader
from rankings.season.ranking import (
    AS_OF,
    KINDS,
    LIVE,
    OFFICIAL,
    Line,
    Ranking,
    RankingFilter,
)
from rankings.season.snapshot_ranking import SnapshotRanking

__all__ = [
    "AS_OF", "KINDS", "LIVE", "OFFICIAL", "PlayerRecord", "Ranking", "RankingFilter",
    "club_numbered", "committee_numbered", "live_version", "player_record", "previous_season",
    "ranking_as_of", "ranking_by_snapshot_id", "ranking_for_season", "same_person",
    "season_named", "season_snapshots", "series_for_players",
]  # fmt: skip


def season_named(name: str | None) -> Season | None:
    """The season called ``name`` ("2026-2027"), or the current one when no name."""
    if name:
        return Season.objects.filter(name=name).first()
    return current_season()


def previous_season(season: Season) -> Season | None:
    return Season.objects.filter(start_date__lt=season.start_date).order_by("-start_date").first()


def _state(season: Season) -> SeasonRanking | None:
    return (
        SeasonRanking.objects.filter(season=season)
        .select_related("live__policy", "official__policy", "season")
        .first()
    )


def ranking_for_season(season: Season, kind: str | None = None) -> Ranking | None:
    """The ranking readers of ``season`` and ``kind`` see (see the module doc); None when
    there is none yet. One query (and, for the live store, one round trip)."""
    return engines.ranking_shown(season=season, state=_state(season), kind=kind)


def ranking_by_snapshot_id(snapshot_id: int) -> Ranking | None:
    """A live or official snapshot by its id (a ranking as of a date is read by its day:
    its snapshot is a cache, replaced when the inputs change)."""
    snapshot = (
        RankingSnapshot.objects.select_related("season", "policy")
        .exclude(kind=RankingKind.AS_OF)
        .filter(pk=snapshot_id)
        .first()
    )
    return SnapshotRanking(snapshot) if snapshot is not None else None


def ranking_as_of(season: Season, day: dt.date) -> Ranking:
    """The season's live ranking as it stood at the end of ``day`` (``rankings/season/as_of.py``:
    raises ``RankingBeingComputed`` while a worker computes a day not stored yet)."""
    return SnapshotRanking(ranking_as_of_for_reader(season=season, day=day))


def season_snapshots(season: Season) -> list[Ranking]:
    """The season's live and official snapshots (not the rankings as of a day)."""
    return [
        SnapshotRanking(s)
        for s in RankingSnapshot.objects.filter(season=season)
        .exclude(kind=RankingKind.AS_OF)
        .select_related("season", "policy")
    ]


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
    inputs, live, live_id, official = state
    return engines.live_version(
        season_id=season.pk, inputs_version=inputs, live_version=live, live_id=live_id,
        official_id=official, live_at=None,
    ).token  # fmt: skip


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
    entry: Line | None  # their line in the season's ranking (live or official)
    ranking: Ranking | None  # the season's ranking shown
    held: RankingEntry | None  # their line in the official ranking that applies this season
    held_ranking: Ranking | None
    tournaments: list[Allocation]
    history: list[RankingEntry]  # every published official ranking, oldest first
    season_totals: list[PlayerSeasonTotal]  # oldest first


def player_record(
    licence_number: int, season: Season, kind: str | None = None
) -> PlayerRecord | None:
    """A player's ranking record for a season, in about ten queries whatever the history
    (the public reads' own, in five: ``rankings/reads/public_reads.py``)."""
    player = Player.objects.filter(licence_number=licence_number).first()
    if player is None:
        return None
    licence = (
        Licence.objects.filter(player=player, season=season)
        .select_related("club__committee")
        .first()
    )
    ranking = ranking_for_season(season, kind)
    entry = ranking.line(player, named=True) if ranking is not None else None
    before = previous_season(season)
    held_ranking = ranking_for_season(before, OFFICIAL) if before else None
    held = (
        RankingEntry.objects.filter(
            snapshot_id=held_ranking.snapshot_id, player_id__in=same_person(player)
        )
        .order_by()
        .first()
        if held_ranking is not None
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
        player, season, licence, entry, ranking, held, held_ranking, tournaments, history,
        season_totals,
    )  # fmt: skip


class PlayerId(TypedDict):
    pk: int


def same_person(player: Player) -> QuerySet[Player, PlayerId]:
    """The ids of ``player``'s record and of the records merged into it: the lines of
    immutable official rankings keep the merged record (portal/merging.py)."""
    return Player.objects.filter(Q(pk=player.pk) | Q(merged_into=player)).values("pk")


def series_for_players(season: Season, licence_numbers: Iterable[int]) -> dict[int, int | None]:
    """The series (1–4) of each player in the national ranking that applies during
    ``season``: the **published official ranking of the previous season** (computed
    at its end, valid for the whole next season). ``None`` for a player who is not
    in it (new licensee, back after a gap, or no official ranking published yet):
    the interclubs rules count such a player as 4th series (chapter 3).

    Three queries whatever the number of players.
    """
    numbers = sorted({int(n) for n in licence_numbers})
    result: dict[int, int | None] = dict.fromkeys(numbers)
    before = previous_season(season)
    if before is None or not numbers:
        return result
    official = ranking_for_season(before, OFFICIAL)
    if official is not None:
        result.update(official.series_of(numbers))
    return result
