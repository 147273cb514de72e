"""The live (provisional) national ranking of a season, refreshed as results arrive.

Places are global (one player's gain moves everyone between their old and new
place), so the live ranking is derived from the **whole** season's standings
by the pure core and stored as a provisional snapshot; readers get places,
committee/club places and provisional series by index lookups.

The refresh is **coalesced**: at most one runs per season
(``locks.try_refresh_lock``); a refresh asked while one runs returns at once,
and the running one loops until the snapshot it wrote was computed from the
latest inputs version. Since the waiting request's change committed before it
tried the lock, the running refresh sees it when it checks after releasing the
lock: no change is lost, and a burst of homologations costs one or two refreshes.
"""

from __future__ import annotations

from django.db import transaction

from federation.models import Season
from rankings.locks import season_writer_lock, try_refresh_lock
from rankings.models import RankingEntry, RankingKind, RankingSnapshot, SeasonRanking
from rankings.ranking_state import season_ranking
from rankings.snapshots import compute, load_inputs, refresh_statistics, write_snapshot
from rankings.standings import registry_drift, standings_write


def _up_to_date(season_id: int) -> bool:
    state = SeasonRanking.objects.filter(season_id=season_id).first()
    return (
        state is not None
        and state.live_id is not None
        and (state.live_version >= state.inputs_version)
    )


def _refresh_once(season: Season) -> RankingSnapshot | None:
    with transaction.atomic():
        season_writer_lock(season.pk)
        drift = registry_drift(season=season)
        if drift:  # licences added, moved or removed since the standings were written
            standings_write(season=season, player_ids=drift)
        state = season_ranking(season.pk)
        if state.live_id is not None and state.live_version >= state.inputs_version:
            return None
        inputs = load_inputs(season=season, inputs_version=state.inputs_version)
    ranking = compute(inputs)
    with transaction.atomic():
        state = SeasonRanking.objects.select_for_update(of=("self",)).get(season=season)
        old = state.live_id
        snapshot = write_snapshot(inputs=inputs, ranking=ranking, kind=RankingKind.PROVISIONAL)
        state.live = snapshot
        state.live_version = max(state.live_version, inputs.inputs_version)
        state.save(update_fields=["live", "live_version"])
    if old is not None:
        _discard(old)
    refresh_statistics()
    return snapshot


def _discard(snapshot_id: int) -> None:
    """Delete a superseded provisional snapshot (never an official one)."""
    with transaction.atomic():
        if RankingSnapshot.objects.filter(pk=snapshot_id, kind=RankingKind.PROVISIONAL).exists():
            RankingEntry.objects.filter(snapshot_id=snapshot_id).delete()
            RankingSnapshot.objects.filter(pk=snapshot_id).delete()


def live_ranking_refresh(*, season: Season) -> RankingSnapshot | None:
    """Bring the season's live ranking up to date; returns the snapshot written, if any.

    Idempotent: when the live snapshot already reflects the latest inputs it
    writes nothing.
    """
    written = None
    while True:
        with try_refresh_lock(season.pk) as acquired:
            if not acquired:
                return written  # the running refresh will see what changed
            written = _refresh_once(season) or written
        if _up_to_date(season.pk):
            return written
