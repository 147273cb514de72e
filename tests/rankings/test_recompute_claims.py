"""A recompute run is claimed by one worker (compare-and-set), beats a heartbeat, and is
never left "running" by a lost worker: its redelivered task reclaims and finishes it,
the sweep marks it failed meanwhile, and a redelivered task that creates its runs finds
them again. The last test kills a real worker process mid-run."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from config.celery import app
from rankings import tasks
from rankings.locks import season_writer_lock
from rankings.models import RecomputeKind, RecomputeRun, RunStatus
from rankings.recompute import RunBusy, fail_stale_runs, nightly, recompute_run, this_worker

ROOT = Path(__file__).resolve().parents[2]
LONG_AGO = timezone.now() - dt.timedelta(hours=2)


def _running(season, *, by: str, heartbeat: dt.datetime) -> RecomputeRun:
    return RecomputeRun.objects.create(
        season=season, kind=RecomputeKind.FULL, status=RunStatus.RUNNING, claimed_by=by,
        heartbeat_at=heartbeat, started_at=heartbeat,
    )  # fmt: skip


@pytest.mark.django_db
def test_a_run_held_by_a_live_worker_is_left_to_it(registry):
    run = _running(registry.season, by="other:1", heartbeat=timezone.now())
    with pytest.raises(RunBusy) as busy:
        recompute_run(run_id=run.pk)
    assert 0 < busy.value.retry_in <= settings.RECOMPUTE_STALE_AFTER_S + 1
    run.refresh_from_db()
    assert (run.status, run.claimed_by) == (RunStatus.RUNNING, "other:1")


@pytest.mark.django_db
def test_a_stale_run_is_reclaimed_and_finished_by_its_redelivered_task(registry):
    run = _running(registry.season, by="lost:1", heartbeat=LONG_AGO)
    assert tasks.run_recompute.apply(args=(run.pk,)).get() == RunStatus.DONE
    run.refresh_from_db()
    assert (run.status, run.claimed_by, run.error) == (RunStatus.DONE, this_worker(), "")
    assert run.heartbeat_at > LONG_AGO
    assert RecomputeRun.objects.count() == 1


@pytest.mark.django_db
def test_the_sweep_marks_stale_runs_failed_with_the_reason(registry):
    stale = _running(registry.season, by="lost:1", heartbeat=LONG_AGO)
    live = _running(registry.season, by="alive:2", heartbeat=timezone.now())
    queued = RecomputeRun.objects.create(season=registry.season, kind=RecomputeKind.FULL)
    assert fail_stale_runs() == 1
    stale.refresh_from_db()
    assert stale.status == RunStatus.FAILED
    assert "Worker lost: no progress" in stale.error
    assert stale.finished_at is not None
    assert RecomputeRun.objects.get(pk=live.pk).status == RunStatus.RUNNING
    assert RecomputeRun.objects.get(pk=queued.pk).status == RunStatus.QUEUED
    # Its task, redelivered, still finishes it.
    assert recompute_run(run_id=stale.pk).status == RunStatus.DONE


@pytest.mark.django_db
def test_a_lost_worker_cannot_overwrite_the_run_reclaimed_from_it(registry):
    run = _running(registry.season, by="lost:1", heartbeat=LONG_AGO)
    zombie = RecomputeRun.objects.get(pk=run.pk)  # the lost worker's copy
    recompute_run(run_id=run.pk)
    from rankings.progress import Progress

    Progress(zombie, total=2).phase("standings")  # the lost worker wakes up
    run.refresh_from_db()
    assert (run.status, run.phase) == (RunStatus.DONE, "")


@pytest.mark.django_db
def test_a_redelivered_recompute_season_finds_its_own_run(registry):
    for _ in range(2):  # the same message delivered twice: the same task id
        result = tasks.recompute_season.apply(args=(registry.season.pk,), task_id="delivery-1")
        assert result.get() == RunStatus.DONE
    (run,) = RecomputeRun.objects.all()
    assert run.task_id == "delivery-1"
    tasks.recompute_season.apply(args=(registry.season.pk,), task_id="another-message")
    assert RecomputeRun.objects.count() == 2


@pytest.mark.django_db
def test_a_redelivered_nightly_job_finds_its_own_runs(registry, add_tournament, federation):
    p = federation.players
    add_tournament(registry.previous, {p[0]: (300, 0)}, club=registry.clubs[101], arbiter=p[3])
    today = dt.date(2026, 11, 22)
    first = nightly(today, task_id="night-1")
    again = nightly(today, task_id="night-1")  # redelivered after the first published
    assert [r.pk for r in again] == [r.pk for r in first]
    assert [r.kind for r in first] == [RecomputeKind.OFFICIAL, RecomputeKind.FULL]
    assert RecomputeRun.objects.count() == 2
    assert all(r.status == RunStatus.DONE for r in RecomputeRun.objects.all())


def test_stale_runs_are_swept_by_beat():
    entry = settings.CELERY_BEAT_SCHEDULE["rankings-stale-runs"]
    assert entry["task"] == tasks.fail_stale_runs_task.name


# A real worker killed mid-run ------------------------------------------------------------


class LockHolder:
    """A season's writer lock held by another thread (its own connection) until released."""

    def __init__(self, season_id: int) -> None:
        self.held, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(season_id,), daemon=True)
        self.thread.start()
        assert self.held.wait(30)

    def _hold(self, season_id: int) -> None:
        try:
            with transaction.atomic():
                season_writer_lock(season_id)
                self.held.set()
                self.release.wait(60)
        finally:
            connections.close_all()

    def stop(self) -> None:
        self.release.set()
        self.thread.join(30)


def _start_worker(queue: str, name: str, **env: str) -> subprocess.Popen:
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    url = f"postgres://{db.get('USER') or 'postgres'}{password}@{db.get('HOST') or '127.0.0.1'}"
    url += f":{db.get('PORT') or 5432}/{db['NAME']}"
    environment = {
        **os.environ, "DATABASE_URL": url, "DATABASE_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": app.conf.broker_url, "CELERY_TASK_DEFAULT_QUEUE": queue,
        "DJANGO_SETTINGS_MODULE": "config.settings", **env,
    }  # fmt: skip
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
               "--loglevel=WARNING", "--without-gossip", "--without-mingle",
               "--without-heartbeat", "-Q", queue, "-n", f"{name}@%h"]  # fmt: skip
    worker = subprocess.Popen(command, cwd=ROOT, env=environment)
    deadline = time.monotonic() + 30
    while not app.control.ping(destination=[f"{name}@{os.uname().nodename}"], timeout=0.5):
        if worker.poll() is not None or time.monotonic() > deadline:
            worker.kill()
            pytest.fail(f"Celery worker did not start (exit code {worker.poll()})")
    return worker


def _dead(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] in "ZX"
    except FileNotFoundError:
        return True


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_run_leaves_its_run_to_the_redelivered_task(
    api, registry, celery_worker_process, wait_for
):
    queue = celery_worker_process
    holder = LockHolder(registry.season.pk)  # the worker will block inside the run
    second = None
    try:
        api.force_authenticate(registry.users["federation_staff"])
        response = api.post("/api/pcn/recomputes/", {"season": "2026-2027", "kind": "full"})
        assert response.status_code == 202, response.content
        run_id = response.json()["id"]
        run = wait_for(
            lambda: RecomputeRun.objects.filter(pk=run_id, phase="standings").first()
        )  # claimed, in its first phase, waiting for the season's lock
        assert run, RecomputeRun.objects.values().get(pk=run_id)
        assert run.status == RunStatus.RUNNING
        pid = int(run.claimed_by.rsplit(":", 1)[1])
        assert "celery" in Path(f"/proc/{pid}/cmdline").read_text()
        os.kill(pid, signal.SIGKILL)  # the worker the fixture started, by its id
        assert wait_for(lambda: _dead(pid), timeout=10)
        holder.stop()
        time.sleep(2.5)  # the message waits, unacknowledged, past its visibility timeout
        assert RecomputeRun.objects.get(pk=run_id).status == RunStatus.RUNNING  # stuck so far
        # A new worker: Redis redelivers the unacknowledged message to it, and the run,
        # without progress for longer than its stale limit, is reclaimed and finished.
        second = _start_worker(
            queue, f"{queue}-second", CELERY_VISIBILITY_TIMEOUT_S="2", RECOMPUTE_STALE_AFTER_S="2"
        )
        done = wait_for(
            lambda: RecomputeRun.objects.filter(pk=run_id, status=RunStatus.DONE).first(),
            timeout=60,
        )
        assert done, RecomputeRun.objects.values().get(pk=run_id)
        assert done.claimed_by == f"{os.uname().nodename}:{second.pid}"
        assert done.error == ""
        assert RecomputeRun.objects.count() == 1  # the same run, no second one
    finally:
        holder.stop()
        if second is not None:
            second.terminate()
            try:
                second.wait(timeout=15)
            except subprocess.TimeoutExpired:
                second.kill()
