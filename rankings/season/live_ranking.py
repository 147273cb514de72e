"""The live (provisional) national ranking of a season, refreshed as results arrive.

Two structures, one reader API (``rankings/reads/selectors.py``):

- **with Redis** (``RANKING_STORE_URL``, by default ``CACHE_URL``): the order-statistics
  store of ``rankings/season/live_store.py``, updated for the touched players only, in the
  transaction that writes their standings (:func:`live_totals_update`); places and
  steps are derived at read time (``rankings/season/live_reads.py``). No provisional snapshot
  is written; a leftover one is discarded.
- **embedded default** (no Redis): a provisional snapshot computed from the whole
  season's standings, as below.

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

import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction
from redis.exceptions import RedisError

from federation.models import Season
from rankings.models import RankingEntry, RankingKind, RankingSnapshot, SeasonRanking
from rankings.season import live_store
from rankings.season.locks import season_writer_lock, try_refresh_lock
from rankings.season.ranking_state import season_ranking
from rankings.season.snapshots import compute, load_inputs, refresh_statistics, write_snapshot
from rankings.season.standings import (
    WHOLE_SEASON_ABOVE,
    RegistryDrift,
    StandingsWrite,
    registry_drift,
    registry_drift_repaired,
    standings_write,
)

log = logging.getLogger(__name__)


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
        if drift.players:  # licences added, moved or removed since the standings were written
            standings_write(season=season, player_ids=drift.players)
        registry_drift_repaired(season=season, drift=drift)
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
        discard_provisional(old)
    refresh_statistics()  # the new snapshot's rows known to the planner
    return snapshot


def discard_provisional(snapshot_id: int) -> None:
    """Delete a superseded provisional snapshot (never an official one)."""
    with transaction.atomic():
        if RankingSnapshot.objects.filter(pk=snapshot_id, kind=RankingKind.PROVISIONAL).exists():
            RankingEntry.objects.filter(snapshot_id=snapshot_id).delete()
            RankingSnapshot.objects.filter(pk=snapshot_id).delete()


def live_totals_update(*, season: Season, player_ids: list[int]) -> StandingsWrite:
    """The incremental update of a homologation or correction: the standings of these
    players and, with Redis, their members in the live store, in one transaction under
    the season's writer lock (so stores are applied in commit order). Licence changes
    follow in the refresh the task sends after it (:func:`live_ranking_refresh`)."""
    ids = sorted(set(player_ids))
    with transaction.atomic():
        season_writer_lock(season.pk)
        store = live_store.enabled()
        if store:
            store = _store_write(live_store.sync, season=season)  # a placement's version, say
        before = season_ranking(season.pk).inputs_version
        written = standings_write(season=season, player_ids=ids)
        if store and len(ids) > WHOLE_SEASON_ABOVE:
            _store_write(live_store.rebuild, season=season)
        elif store:
            _store_write(live_store.apply, season=season, player_ids=ids, version_before=before)
    return written


def _store_write(write: Callable[..., object], **kwargs: Any) -> bool:
    """A write of the live store; when the store is unreachable, False and the standings
    are written all the same (the database is the source of truth): the store is then
    behind, and the refresh sent after (retried while the store is unreachable) or the
    next homologation rebuilds it."""
    try:
        write(**kwargs)
    except RedisError:
        log.warning("the live ranking's store is unreachable: standings written without it",
                    exc_info=True)  # fmt: skip
        return False
    return True


def live_store_restore(*, season: Season) -> live_store.Meta:
    """The store brought back after a reader found it lost, damaged or ahead of the
    database (``live_store.restore``, one transaction under the writer lock): the task
    ``rankings.rebuild_live_store``, queue ``live``."""
    with transaction.atomic():
        return live_store.restore(season=season)


def _sync_store(season: Season, drift: RegistryDrift) -> None:
    """With Redis: repair registry drift (its players only), and bring the store to
    the inputs version (see ``live_store.sync``). The drift is looked for before the
    writer lock is taken (an anti-join over the season's licences: ~0.5 s at 150,000,
    not to be spent holding the lock); its players are rewritten under the lock
    (idempotent: a player no longer drifting is rewritten unchanged)."""
    with transaction.atomic():
        season_writer_lock(season.pk)
        state = season_ranking(season.pk)
        before = state.inputs_version
        if drift.players:
            live_store.sync(season=season)
            before = season_ranking(season.pk).inputs_version
            standings_write(season=season, player_ids=drift.players)
            live_store.apply(season=season, player_ids=drift.players, version_before=before)
        else:
            live_store.sync(season=season)
        registry_drift_repaired(season=season, drift=drift)
        old = state.live_id
        if old is not None:  # the provisional snapshot of the embedded mode is no longer read
            SeasonRanking.objects.filter(pk=state.pk).update(live=None)
    if old is not None:
        discard_provisional(old)


def live_ranking_refresh(*, season: Season) -> RankingSnapshot | None:
    """Bring the season's live ranking up to date; returns the snapshot written, if any
    (never with Redis: the store is updated in place).

    Idempotent: when the live ranking already reflects the latest inputs it
    writes nothing.
    """
    if live_store.enabled():
        with try_refresh_lock(season.pk) as acquired:
            # one drift search at a time (a burst of homologations shares it)
            drift = registry_drift(season=season) if acquired else RegistryDrift([])
        _sync_store(season, drift)
        return None
    written = None
    while True:
        with try_refresh_lock(season.pk) as acquired:
            if not acquired:
                return written  # the running refresh will see what changed
            written = _refresh_once(season) or written
        if _up_to_date(season.pk):
            return written
