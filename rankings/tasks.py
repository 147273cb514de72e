"""Background jobs of the rankings: thin, take ids, call a service, idempotent.

- ``refresh_season_totals(season_id, player_ids)``: the incremental update sent
  by homologation and corrections (name and signature kept): the totals and
  standings of those players, then a live-ranking refresh a moment later
  (coalescing a burst of homologations into one refresh).
- ``refresh_live_ranking(season_id)``: bring the live ranking up to date.
- ``run_recompute(run_id)``: a full recompute or an official ranking run.
- ``recompute_season(season_id)``: a full recompute asked by the system.
- ``nightly_ranking()``: Celery beat, every night (``CELERY_BEAT_SCHEDULE``).
"""

from celery import shared_task
from django.db import InterfaceError, OperationalError

from federation.models import Season
from rankings.live_ranking import live_ranking_refresh
from rankings.locks import SeasonBusy
from rankings.models import RecomputeKind, RecomputeRun
from rankings.recompute import nightly, recompute_run
from rankings.standings import standings_write

# Retried: database connection errors, and a season's writer lock that stayed busy
# longer than ADVISORY_LOCK_TIMEOUT_MS (another writer is still at work).
RETRY = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError, SeasonBusy),
    "retry_backoff": True,
    "max_retries": 5,
}
LIVE_REFRESH_DELAY = 2  # seconds: homologations within this delay share one refresh


@shared_task(name="rankings.refresh_season_totals", **RETRY)
def refresh_season_totals(season_id: int, player_ids: list[int]) -> int:
    season = Season.objects.get(pk=season_id)
    written = standings_write(season=season, player_ids=player_ids)
    refresh_live_ranking.apply_async((season_id,), countdown=LIVE_REFRESH_DELAY)
    return written.totals_written


@shared_task(name="rankings.refresh_live_ranking", **RETRY)
def refresh_live_ranking(season_id: int) -> int | None:
    snapshot = live_ranking_refresh(season=Season.objects.get(pk=season_id))
    return snapshot.pk if snapshot is not None else None


@shared_task(name="rankings.run_recompute", **RETRY)
def run_recompute(run_id: int) -> str:
    return recompute_run(run_id=run_id).status


@shared_task(name="rankings.recompute_season", **RETRY)
def recompute_season(season_id: int) -> str:
    run = RecomputeRun.objects.create(
        season_id=season_id,
        kind=RecomputeKind.FULL,
        note="Previous official ranking changed",
    )
    return recompute_run(run_id=run.pk).status


@shared_task(name="rankings.nightly_ranking", **RETRY)
def nightly_ranking() -> list[str]:
    return [run.status for run in nightly()]
