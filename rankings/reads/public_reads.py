"""A player's ranking record as the public reads show it (the cached API and pages build
it on a miss): :func:`player_record`, a ``selectors.PlayerRecord`` in five queries
whatever the history. The ranking shown is a :class:`~rankings.season.ranking.Ranking`
(``rankings/season/engines.py`` picks its engine); the lines of the stored snapshots the
record shows are read in one query.
"""

from __future__ import annotations

from django.db.models import FilteredRelation, Q
from django.utils import timezone

from competitions.models import Allocation
from federation.models import Player, Season
from rankings.models import PlayerSeasonTotal, RankingEntry, RankingSnapshot, SeasonRanking
from rankings.reads import selectors
from rankings.season import engines
from rankings.season.snapshot_ranking import SnapshotRanking


class PlayerMoved(Exception):
    """The licence number is a record merged into another (portal/merging.py): its
    old links lead to the kept record's, ``licence_number``."""

    def __init__(self, licence_number: int) -> None:
        super().__init__(licence_number)
        self.licence_number = licence_number


def player_record(
    licence_number: int, season_name: str | None, kind: str | None = None
) -> tuple[Season | None, selectors.PlayerRecord | None]:
    """``selectors.player_record`` in five queries whatever the history: the seasons with
    their ranking pointers, snapshots and policies (one query: a few dozen rows), the
    player with the season's licence, every entry of theirs in the snapshots shown, the
    season's allocations, the season totals. ``(None, None)``: unknown season."""
    seasons = list(
        Season.objects.select_related("ranking__live__policy", "ranking__official__policy")
        .order_by("-start_date")
    )  # fmt: skip
    states = {s.pk: _state(s) for s in seasons}
    season = _season(seasons, season_name)
    if season is None:
        return None, None
    player = (
        Player.objects.annotate(
            season_licence=FilteredRelation("licences", condition=Q(licences__season=season))
        )
        .select_related("season_licence__club__committee", "merged_into")  # type: ignore[misc]
        .filter(licence_number=licence_number)
        .first()
    )
    if player is None:
        return season, None
    if player.merged_into is not None:
        raise PlayerMoved(player.merged_into.licence_number)
    state = states[season.pk]
    ranking = engines.ranking_shown(season=season, state=state, kind=kind)
    earlier = [s for s in seasons if s.start_date < season.start_date]
    before = earlier[0] if earlier else None
    held_state = states[before.pk] if before else None
    held_snapshot = held_state.official if held_state else None
    held_ranking = SnapshotRanking(held_snapshot) if held_snapshot is not None else None
    snapshots: dict[int, RankingSnapshot] = {}
    for s in seasons:
        row = states[s.pk]
        for snap in (row.live, row.official) if row is not None else ():
            if snap is not None:
                snap.season = s
                snapshots[snap.pk] = snap
    officials = {st.official_id for st in states.values() if st and st.official_id}
    shown = (ranking.snapshot_id if ranking else None, held_snapshot.pk if held_snapshot else None)
    wanted = officials | {snapshot_id for snapshot_id in shown if snapshot_id is not None}
    entries: dict[int, RankingEntry] = {
        e.snapshot_id: e
        for e in RankingEntry.objects.filter(
            player_id__in=selectors.same_person(player), snapshot_id__in=wanted
        )
        .select_related("committee", "club")
        .order_by()
    }
    for e in entries.values():
        e.snapshot = snapshots[e.snapshot_id]
        e.player = player
    history = sorted(
        (entries[i] for i in officials if i in entries),
        key=lambda e: e.snapshot.season.start_date,
    )
    tournaments = list(
        Allocation.objects.filter(player=player, season=season, current=True)
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")
    )
    by_id = {s.pk: s for s in seasons}
    season_totals = sorted(
        PlayerSeasonTotal.objects.filter(player=player),
        key=lambda t: by_id[t.season_id].start_date,
    )
    for total in season_totals:
        total.season = by_id[total.season_id]
    entry = ranking.line(player, named=True, read=entries) if ranking is not None else None
    record = selectors.PlayerRecord(
        player, season, getattr(player, "season_licence", None), entry, ranking,
        entries.get(held_snapshot.pk) if held_snapshot else None, held_ranking,
        tournaments, history, season_totals,
    )  # fmt: skip
    return season, record


def _state(season: Season) -> SeasonRanking | None:
    try:
        return season.ranking
    except SeasonRanking.DoesNotExist:
        return None


def _season(seasons: list[Season], name: str | None) -> Season | None:
    """As ``selectors.season_named`` over the seasons already read."""
    if name:
        return next((s for s in seasons if s.name == name), None)
    today = timezone.localdate()
    current = [s for s in seasons if s.start_date <= today <= s.end_date]
    return current[0] if current else (seasons[0] if seasons else None)
