"""Background jobs of the rankings: thin, take ids, call a service, idempotent.

- ``refresh_season_totals(season_id, player_ids)``: the incremental update sent
  by homologation and corrections (name and signature kept): the totals and
  standings of those players and, with Redis, their places in the live store (in
  the same transaction); then a live-ranking refresh a moment later (coalescing a
  burst of homologations): without Redis the snapshot, with Redis the licence changes.
- ``refresh_live_ranking(season_id)``: bring the live ranking up to date.
- ``rebuild_live_store(season_id)``: the live store rebuilt after a reader found it
  lost, damaged or ahead of the database (asked once: ``live_store.rebuild_ask``).
- ``run_recompute(run_id)``: a full recompute or an official ranking run.
- ``recompute_season(season_id)``: a full recompute asked by the system.
- ``nightly_ranking()``: Celery beat, every night (``CELERY_BEAT_SCHEDULE``).
- ``fail_stale_runs()``: Celery beat, every ``RECOMPUTE_SWEEP_S``: runs whose worker was
  lost (no heartbeat) are queued again, or marked failed with the reason.
- ``email_step_changes(snapshot_id, previous_id)`` and its chunks: the players who chose
  it are e-mailed their new step (``rankings/season/step_notices.py``), each once.


- ``as_of_days(season_id, days)``: the season's rankings as of these days, stored
  (``rankings/season/as_of.py``); ``as_of_nightly()``: Celery beat, every night: the current
  season's month ends and yesterday.

A run is claimed by one worker at a time (``rankings/season/recompute.py``); a task whose run
a live worker holds (``RunBusy``) looks again once that claim could have gone stale.
``recompute_season`` and ``nightly_ranking`` create their runs under their task id: a
redelivered or retried task finds its own runs again.
"""

from smtplib import SMTPException

from celery import shared_task
from django.db import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as StoreUnreachable
from redis.exceptions import TimeoutError as StoreTimeout

from federation.models import Season
from rankings.models import RecomputeKind
from rankings.season.as_of import as_of_days_compute, as_of_nightly_compute
from rankings.season.live_ranking import (
    live_ranking_refresh,
    live_store_restore,
    live_totals_update,
)
from rankings.season.locks import SeasonBusy
from rankings.season.recompute import (
    RunBusy,
    nightly,
    reclaim_stale_runs,
    recompute_run,
    run_of_task,
)
from rankings.season.step_notices import step_notices_plan, step_notices_send

# Retried: database connection errors, a season's writer lock that stayed busy longer
# than ADVISORY_LOCK_TIMEOUT_MS (another writer is still at work), the live store
# unreachable.
RETRY = {
    "acks_late": True,
    "autoretry_for": (
        OperationalError,
        InterfaceError,
        SeasonBusy,
        StoreUnreachable,
        StoreTimeout,
    ),
    "retry_backoff": True,
    "max_retries": 5,
}
LIVE_REFRESH_DELAY = 2  # seconds: homologations within this delay share one refresh
BUSY_RETRIES = 100  # looks at a run another worker holds (each after its stale delay)


@shared_task(name="rankings.refresh_season_totals", **RETRY)
def refresh_season_totals(season_id: int, player_ids: list[int]) -> int:
    season = Season.objects.get(pk=season_id)
    written = live_totals_update(season=season, player_ids=player_ids)
    # Then, coalesced: without Redis the snapshot; with Redis the licence changes
    # (registry drift) since the last refresh.
    refresh_live_ranking.apply_async((season_id,), countdown=LIVE_REFRESH_DELAY)
    return written.totals_written


@shared_task(name="rankings.refresh_live_ranking", **RETRY)
def refresh_live_ranking(season_id: int) -> int | None:
    snapshot = live_ranking_refresh(season=Season.objects.get(pk=season_id))
    return snapshot.pk if snapshot is not None else None


@shared_task(name="rankings.rebuild_live_store", **RETRY)
def rebuild_live_store(season_id: int) -> str:
    return live_store_restore(season=Season.objects.get(pk=season_id)).gen


@shared_task(name="rankings.run_recompute", bind=True, **RETRY)
def run_recompute(self, run_id: int) -> str:
    try:
        return recompute_run(run_id=run_id).status
    except RunBusy as busy:
        raise self.retry(countdown=busy.retry_in, max_retries=BUSY_RETRIES) from busy


@shared_task(name="rankings.recompute_season", bind=True, **RETRY)
def recompute_season(self, season_id: int) -> str:
    run = run_of_task(
        task_id=self.request.id or "", season=Season.objects.get(pk=season_id),
        kind=RecomputeKind.FULL, note="Previous official ranking changed",
    )  # fmt: skip
    try:
        return recompute_run(run_id=run.pk).status
    except RunBusy as busy:
        raise self.retry(countdown=busy.retry_in, max_retries=BUSY_RETRIES) from busy


@shared_task(name="rankings.nightly_ranking", bind=True, **RETRY)
def nightly_ranking(self) -> list[str]:
    try:
        return [run.status for run in nightly(task_id=self.request.id or "")]
    except RunBusy as busy:
        raise self.retry(countdown=busy.retry_in, max_retries=BUSY_RETRIES) from busy


@shared_task(name="rankings.fail_stale_runs")
def fail_stale_runs_task() -> int:
    return reclaim_stale_runs()


MAIL_RETRY = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError, SMTPException, ConnectionError),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(name="rankings.email_step_changes", **MAIL_RETRY)
def email_step_changes(snapshot_id: int, previous_id: int | None) -> int:
    return step_notices_plan(snapshot_id=snapshot_id, previous_id=previous_id)


@shared_task(name="rankings.email_step_changes_chunk", **MAIL_RETRY)
def email_step_changes_chunk(snapshot_id: int, previous_id: int | None, user_ids: list[int]) -> int:
    return step_notices_send(snapshot_id=snapshot_id, previous_id=previous_id, user_ids=user_ids)


@shared_task(name="rankings.as_of_days", **RETRY)
def as_of_days(season_id: int, days: list[str]) -> int:
    return as_of_days_compute(season_id=season_id, days=days)


@shared_task(name="rankings.as_of_nightly", **RETRY)
def as_of_nightly() -> int:
    return as_of_nightly_compute()
