"""Full recomputes and official rankings as runs: requested (by staff or the nightly
job), executed by a Celery task, their progress kept on a ``RecomputeRun`` row.

A full recompute rebuilds the season's totals and standings from the
allocations (``standings.standings_write`` without a player filter: the same
SQL as the incremental update) and then refreshes the live ranking (the Redis store,
or without it the provisional snapshot: ``ranking_sql.live_ranking_by_sql``). It is
idempotent: run twice, the second run writes nothing.

A worker claims a run with a compare-and-set ``update()`` (queued or failed → running,
with ``claimed_by`` and a ``heartbeat_at`` that a thread of the worker renews every
``RECOMPUTE_HEARTBEAT_S`` while the run goes on: ``progress.Heartbeat``). A run whose
heartbeat is older than ``RECOMPUTE_STALE_AFTER_S`` lost its worker (killed, say): the
sweep (:func:`reclaim_stale_runs`, Celery beat every ``RECOMPUTE_SWEEP_S``) or the next
request for its season queues it again and sends its task (the run starts again from
the beginning on another worker), and its own task, if redelivered first, claims it
again; a run that has lost :data:`LOST_WORKERS_MAX` workers is marked failed with the
reason instead. A task that finds its run claimed by a live worker leaves it
(:class:`RunBusy`: the task looks again once the claim could have gone stale); one that
finds it done, or failed for good, leaves it too. A task that creates its runs
(``recompute_season``, ``nightly_ranking``) finds them again by its task id when it is
redelivered or retried: never a second run.

An official publication commits the run's end (done, with its snapshot) in the
transaction that publishes, and only while this worker still holds the claim (else the
publication is rolled back): a run is published once, whatever is redelivered or
reclaimed after (``official_ranking._flip``).

A request (:func:`recompute_request`: the API, the desk) is refused while a run of the
same season is under way (queued, or running with progress lately): the season's row is
the lock, so two requests at once queue one run. An official ranking of a season that
has not ended is refused at once unless the request gives the reason for publishing
early (``rankings/season/official_ranking.py``, which checks it again when it publishes).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from core.errors import Conflict, PermissionDenied
from core.problems import RuleViolation
from core.tasks import send_on_commit
from federation.access import Actor, scope_of
from federation.models import Licence, Season
from federation.selectors import current_season
from rankings.models import RecomputeKind, RecomputeRun, RunStatus, SeasonRanking
from rankings.season.locks import SeasonBusy
from rankings.season.official_ranking import official_ranking_publish, publication_check
from rankings.season.progress import Heartbeat, Progress
from rankings.season.ranking_sql import live_ranking_by_sql
from rankings.season.standings import StandingsWrite, standings_write

log = logging.getLogger(__name__)


def full_recompute(*, season: Season, run: RecomputeRun | None = None) -> StandingsWrite:
    """Rebuild every total and standing of the season from the allocations, then the
    live ranking: with the Redis store, the store (no snapshot); without it, the
    provisional snapshot, computed in the database on PostgreSQL
    (``rankings.season.ranking_sql.live_ranking_by_sql``), by the pure core on SQLite."""
    progress = Progress(run, total=2)
    progress.phase("standings")
    written = standings_write(season=season, player_ids=None)
    progress.step("live ranking")
    snapshot = live_ranking_by_sql(season=season)
    progress.step("", **({"snapshot": snapshot} if snapshot is not None else {}))
    return written


def run_under_way(season: Season) -> bool:
    """A run of the season queued, or running with a heartbeat lately (a run whose worker
    died is stale after ``RECOMPUTE_STALE_AFTER_S`` and blocks nothing)."""
    lately = timezone.now() - dt.timedelta(seconds=settings.RECOMPUTE_STALE_AFTER_S)
    return (
        RecomputeRun.objects.filter(season=season)
        .filter(Q(status=RunStatus.QUEUED) | Q(status=RunStatus.RUNNING, heartbeat_at__gte=lately))
        .exists()
    )


def recompute_request(
    *, season: Season, kind: str, by: Actor, note: str = "", early_reason: str = ""
) -> RecomputeRun:
    """Queue a full recompute or an official ranking of a season (federation staff): one
    run of a season at a time; an official ranking before the season's end only with
    ``early_reason`` (see the module doc)."""
    if not scope_of(by).national:
        raise PermissionDenied("Only federation staff (CCN) may start a recompute.")
    if kind not in RecomputeKind.values:
        raise RuleViolation.single(
            "kind",
            "unknown_kind",
            f"kind must be one of {', '.join(RecomputeKind.values)}.",
            {"kind": kind, "kinds": ", ".join(RecomputeKind.values)},
        )
    if kind == RecomputeKind.OFFICIAL:
        publication_check(season=season, early_reason=early_reason)
    reclaim_stale_runs(season=season)  # a run whose worker died is queued again first
    with transaction.atomic():
        # Two requests at once queue one run: the season's row is the lock, the check is
        # made under it.
        Season.objects.select_for_update().get(pk=season.pk)
        if run_under_way(season):
            raise Conflict(
                f"A run of the season {season.name} is under way: ask again once it has ended.",
                code="run_under_way",
                params={"season": season.name},
            )
        # Past the scope check, ``by`` is a staff account, never anonymous.
        run = RecomputeRun.objects.create(  # type: ignore[misc]
            season=season,
            kind=kind,
            requested_by=by,
            note=note[:300],
            before_season_end_reason=early_reason.strip()[:300],
        )
        send_on_commit("rankings.run_recompute", run.pk)
    return run


class RunBusy(Exception):
    """The run is claimed by a worker that is still making progress."""

    def __init__(self, run_id: int, retry_in: float) -> None:
        super().__init__(f"recompute run {run_id} is being run by another worker")
        self.retry_in = retry_in


def this_worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _stale_before(now: dt.datetime) -> dt.datetime:
    return now - dt.timedelta(seconds=settings.RECOMPUTE_STALE_AFTER_S)


def _stale(now: dt.datetime) -> Q:
    """Running, with no heartbeat since the stale limit (or never any)."""
    return Q(status=RunStatus.RUNNING) & (
        Q(heartbeat_at__lt=_stale_before(now)) | Q(heartbeat_at__isnull=True)
    )


LOST_WORKERS_MAX = 3
"""Workers a run may lose (killed, out of memory…) before it is marked failed for good
instead of queued again: a run that kills its worker is not run forever."""


def _claim(run_id: int, worker: str) -> bool:
    """Compare-and-set: queued, failed (a retry) or stale → running, by ``worker``; never
    a run that has lost :data:`LOST_WORKERS_MAX` workers. Taking a stale run counts its
    lost worker."""
    now = timezone.now()
    claimable = (Q(status__in=[RunStatus.QUEUED, RunStatus.FAILED]) | _stale(now)) & Q(
        lost_workers__lt=LOST_WORKERS_MAX
    )
    previous = (
        RecomputeRun.objects.filter(pk=run_id, status=RunStatus.RUNNING)
        .values_list("claimed_by", flat=True)
        .first()
    )
    claimed = RecomputeRun.objects.filter(claimable, pk=run_id).update(
        status=RunStatus.RUNNING,
        claimed_by=worker,
        heartbeat_at=now,
        error="",
        lost_workers=F("lost_workers")
        + Case(When(status=RunStatus.RUNNING, then=Value(1)), default=Value(0)),
    )
    if claimed and previous is not None:
        log.warning("recompute run %s reclaimed from %r (no heartbeat)", run_id, previous)
    return bool(claimed)


def recompute_run(*, run_id: int, worker: str | None = None) -> RecomputeRun:
    """Execute a queued run (the task's body), claimed by ``worker`` (this process by
    default), its heartbeat renewed while it goes on. Idempotent: a finished run, or one
    failed for good, is left alone; a run whose worker was lost (failed, or stale) is
    executed again from the start; a run a live worker holds raises :class:`RunBusy`."""
    worker = worker or this_worker()
    if not _claim(run_id, worker):
        run = RecomputeRun.objects.get(pk=run_id)
        if run.status in (RunStatus.DONE, RunStatus.FAILED):
            return run
        beat = run.heartbeat_at or timezone.now()
        stale_at = beat + dt.timedelta(seconds=settings.RECOMPUTE_STALE_AFTER_S)
        raise RunBusy(run_id, max(1.0, (stale_at - timezone.now()).total_seconds() + 1))
    run = RecomputeRun.objects.select_related("season", "requested_by").get(pk=run_id)
    with Heartbeat(run):
        return _execute(run)


def _execute(run: RecomputeRun) -> RecomputeRun:
    try:
        if run.kind == RecomputeKind.FULL:
            full_recompute(season=run.season, run=run)
        else:
            snapshot = official_ranking_publish(
                season=run.season,
                by=run.requested_by,
                note=run.note,
                run=run,
                early_reason=run.before_season_end_reason,
            )
            run.snapshot = snapshot
    except (OperationalError, InterfaceError, SeasonBusy) as exc:  # transient: the task retries
        _finish(run, RunStatus.FAILED, f"{type(exc).__name__}: {exc} (retrying)")
        raise
    except Exception as exc:
        log.exception("recompute run %s failed", run.pk)
        _finish(run, RunStatus.FAILED, f"{type(exc).__name__}: {exc}")
        return run
    _finish(run, RunStatus.DONE, "")
    return run


def _finish(run: RecomputeRun, status: str, error: str) -> None:
    """Record the end of the run, unless another worker has reclaimed it meanwhile."""
    fields = {"status": status, "error": error[:5000], "finished_at": timezone.now()}
    if status == RunStatus.DONE:
        fields["done"] = run.total
    RecomputeRun.objects.filter(pk=run.pk, claimed_by=run.claimed_by).update(**fields)
    for name, value in fields.items():
        setattr(run, name, value)


def reclaim_stale_runs(*, season: Season | None = None, now: dt.datetime | None = None) -> int:
    """The sweep: every run (of ``season``, or of any) whose heartbeat is older than
    ``RECOMPUTE_STALE_AFTER_S`` lost its worker: it is queued again and its task sent
    (``rankings.run_recompute``), or, at its :data:`LOST_WORKERS_MAX`-th lost worker,
    marked failed with the reason. Each run in its own transaction, compare-and-set
    (two sweeps at once queue it once); how many runs it reclaimed or failed."""
    now = now or timezone.now()
    stale = RecomputeRun.objects.filter(_stale(now))
    if season is not None:
        stale = stale.filter(season=season)
    lost_for = f"no heartbeat for {settings.RECOMPUTE_STALE_AFTER_S} s"
    changed = 0
    for run_id, lost in stale.values_list("pk", "lost_workers"):
        with transaction.atomic():
            this = RecomputeRun.objects.filter(_stale(now), pk=run_id)
            if lost + 1 >= LOST_WORKERS_MAX:
                done = this.update(
                    status=RunStatus.FAILED,
                    finished_at=now,
                    lost_workers=F("lost_workers") + 1,
                    error=f"Worker lost ({lost_for}), {lost + 1} times: marked failed.",
                )
            else:
                done = this.update(
                    status=RunStatus.QUEUED,
                    claimed_by="",
                    lost_workers=F("lost_workers") + 1,
                    error=f"Worker lost ({lost_for}): queued again.",
                )
                if done:
                    send_on_commit("rankings.run_recompute", run_id)
        changed += done
    if changed:
        log.warning("%s recompute run(s) without heartbeat queued again or failed", changed)
    return changed


def run_of_task(*, task_id: str, season: Season, kind: str, note: str) -> RecomputeRun:
    """The run of ``kind`` for ``season`` that task ``task_id`` created, or a new one:
    a redelivered or retried task finds its own run again. No task id (called
    directly): always a new run."""
    if not task_id:
        return RecomputeRun.objects.create(season=season, kind=kind, note=note)
    run, _ = RecomputeRun.objects.get_or_create(
        task_id=task_id, season=season, kind=kind, defaults={"note": note}
    )
    return run


def seasons_to_publish(today: dt.date) -> list[Season]:
    """Ended seasons with licensees and no published official ranking, oldest first."""
    published = SeasonRanking.objects.filter(official__isnull=False).values("season_id")
    return list(
        Season.objects.filter(end_date__lt=today)
        .exclude(pk__in=published)
        .filter(pk__in=Licence.objects.values("season_id"))
        .order_by("start_date")
    )


def nightly(today: dt.date | None = None, *, task_id: str = "") -> list[RecomputeRun]:
    """The nightly job: publish the official ranking of every season that has ended
    without one, then fully recompute the current season. ``task_id``: the task's, so
    that its redelivery finds the same runs (see :func:`run_of_task`)."""
    today = today or timezone.localdate()
    runs = []
    previous = RecomputeRun.objects.filter(task_id=task_id, kind=RecomputeKind.OFFICIAL)
    to_publish = seasons_to_publish(today)
    if task_id:  # a redelivery: the seasons it published already are no longer "to publish"
        to_publish += [
            run.season for run in previous.select_related("season") if run.season not in to_publish
        ]
    for season in sorted(to_publish, key=lambda s: s.start_date):
        runs.append(
            run_of_task(
                task_id=task_id,
                season=season,
                kind=RecomputeKind.OFFICIAL,
                note="End of season (nightly job)",
            )
        )
    current = current_season(today)
    if current is not None:
        runs.append(
            run_of_task(
                task_id=task_id,
                season=current,
                kind=RecomputeKind.FULL,
                note="Nightly full recompute",
            )
        )
    done, busy = [], []
    for run in runs:
        try:
            done.append(recompute_run(run_id=run.pk))
        except RunBusy as exc:  # another worker runs it: run the others, then look again
            busy.append(exc)
    if busy:
        raise max(busy, key=lambda exc: exc.retry_in)
    return done
