"""A recompute run is claimed by one worker (compare-and-set), beats a heartbeat, and is
never left "running" by a lost worker: its redelivered task reclaims and finishes it,
the sweep queues it again meanwhile (fails it at its third lost worker), and a
redelivered task that creates its runs finds them again. The last tests kill real worker
processes mid-run (tests/rankings/season/test_lost_worker.py: with the heartbeat's
defaults)."""

from __future__ import annotations

import datetime as dt
import os
import signal
import threading
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from config.celery import app
from core.models import OutboxMessage
from rankings import tasks
from rankings.models import (
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    RecomputeKind,
    RecomputeRun,
    RunStatus,
    SeasonRanking,
)
from rankings.season.locks import season_writer_lock
from rankings.season.recompute import (
    LOST_WORKERS_MAX,
    RunBusy,
    nightly,
    reclaim_stale_runs,
    recompute_run,
    this_worker,
)

ROOT = Path(__file__).resolve().parents[3]
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


@pytest.mark.django_db(transaction=True)
def test_the_sweep_queues_stale_runs_again_and_fails_them_at_the_last_lost_worker(registry):
    stale = _running(registry.season, by="lost:1", heartbeat=LONG_AGO)
    live = _running(registry.season, by="alive:2", heartbeat=timezone.now())
    queued = RecomputeRun.objects.create(season=registry.season, kind=RecomputeKind.FULL)
    assert reclaim_stale_runs() == 1
    stale.refresh_from_db()  # queued again, its task sent (embedded: run at once, to the end)
    assert (stale.status, stale.claimed_by, stale.lost_workers) == (
        RunStatus.DONE, this_worker(), 1
    )  # fmt: skip
    assert RecomputeRun.objects.get(pk=live.pk).status == RunStatus.RUNNING
    assert RecomputeRun.objects.get(pk=queued.pk).status == RunStatus.QUEUED
    # A run that has lost its workers already is failed for good, and no task takes it.
    doomed = _running(registry.season, by="lost:3", heartbeat=LONG_AGO)
    RecomputeRun.objects.filter(pk=doomed.pk).update(lost_workers=LOST_WORKERS_MAX - 1)
    assert reclaim_stale_runs() == 1
    doomed.refresh_from_db()
    assert (doomed.status, doomed.lost_workers) == (RunStatus.FAILED, LOST_WORKERS_MAX)
    assert "times: marked failed" in doomed.error
    assert recompute_run(run_id=doomed.pk).status == RunStatus.FAILED
    assert RecomputeRun.objects.get(pk=doomed.pk).claimed_by == "lost:3"


@pytest.mark.django_db
def test_a_lost_worker_cannot_overwrite_the_run_reclaimed_from_it(registry):
    run = _running(registry.season, by="lost:1", heartbeat=LONG_AGO)
    zombie = RecomputeRun.objects.get(pk=run.pk)  # the lost worker's copy
    recompute_run(run_id=run.pk)
    from rankings.season.progress import Progress

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


def _dead(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] in "ZX"
    except FileNotFoundError:
        return True


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_run_leaves_its_run_to_the_redelivered_task(
    api, registry, celery_worker_process, start_worker, wait_for
):
    holder = LockHolder(registry.season.pk)  # the worker will block inside the run
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
        second = start_worker(
            "second", CELERY_VISIBILITY_TIMEOUT_S="2", RECOMPUTE_STALE_AFTER_S="2"
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


# With the heartbeat: a lost worker is found within two minutes -----------------------------


def test_a_lost_worker_is_found_within_two_minutes_with_the_defaults():
    """Its last heartbeat at most HEARTBEAT before it died; stale STALE_AFTER after that
    beat; the sweep runs every SWEEP: queued again at the latest STALE_AFTER + SWEEP after
    its death, while a live worker (a beat every HEARTBEAT) is never taken for lost."""
    assert settings.RECOMPUTE_STALE_AFTER_S + settings.RECOMPUTE_SWEEP_S <= 120
    assert settings.RECOMPUTE_HEARTBEAT_S * 3 <= settings.RECOMPUTE_STALE_AFTER_S
    entry = settings.CELERY_BEAT_SCHEDULE["rankings-stale-runs"]
    assert entry["schedule"] == settings.RECOMPUTE_SWEEP_S


@pytest.mark.django_db(transaction=True)
def test_the_next_request_queues_a_run_whose_worker_died(api, registry):
    stale = _running(registry.season, by="lost:1", heartbeat=LONG_AGO)
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post("/api/pcn/recomputes/", {"season": "2026-2027", "kind": "full"})
    stale.refresh_from_db()
    assert stale.lost_workers == 1
    assert stale.status == RunStatus.DONE  # queued again, its task run (embedded: at once)
    assert response.status_code == 202, response.content  # the new run, after it
    assert RecomputeRun.objects.count() == 2


def _kill(pid: int, wait_for) -> None:
    assert "celery" in Path(f"/proc/{pid}/cmdline").read_text()
    os.kill(pid, signal.SIGKILL)  # a worker this test started, by its id
    assert wait_for(lambda: _dead(pid), timeout=10)


@pytest.mark.django_db(transaction=True)
def test_a_killed_worker_s_run_is_queued_again_by_the_sweep_and_finished(
    api, registry, start_worker, wait_for, settings
):
    """A real worker beats its run's heartbeat while blocked (waiting for the season's
    lock), is killed with SIGKILL; the sweep, sent by beat to another worker, queues the
    run again once its heartbeat is older than the stale limit, and that worker runs it
    to the end: one run, never a second, without waiting for the broker's redelivery
    (an hour by default)."""
    first = start_worker("first", RECOMPUTE_HEARTBEAT_S="0.3")
    holder = LockHolder(registry.season.pk)  # the worker will block inside the run
    try:
        api.force_authenticate(registry.users["federation_staff"])
        response = api.post("/api/pcn/recomputes/", {"season": "2026-2027", "kind": "full"})
        assert response.status_code == 202, response.content
        run_id = response.json()["id"]
        run = wait_for(lambda: RecomputeRun.objects.filter(pk=run_id, phase="standings").first())
        assert run, RecomputeRun.objects.values().get(pk=run_id)
        assert run.claimed_by.endswith(f":{first.pid}")
        beat = run.heartbeat_at  # blocked, making no progress: its thread beats all the same
        assert wait_for(
            lambda: RecomputeRun.objects.filter(pk=run_id, heartbeat_at__gt=beat).exists(),
            timeout=10,
        )
        _kill(first.pid, wait_for)
        second = start_worker("second", RECOMPUTE_STALE_AFTER_S="2")
        settings.RECOMPUTE_STALE_AFTER_S = 2  # this process asks nothing: beat's task does

        def swept():  # beat sends the sweep to the default queue, as every RECOMPUTE_SWEEP_S
            tasks.fail_stale_runs_task.apply_async()
            time.sleep(0.5)
            return RecomputeRun.objects.filter(pk=run_id, lost_workers=1).first()

        reclaimed = wait_for(swept, timeout=30)
        assert reclaimed, RecomputeRun.objects.values().get(pk=run_id)
        assert "queued again" in reclaimed.error or reclaimed.status == RunStatus.RUNNING
        holder.stop()
        done = wait_for(
            lambda: RecomputeRun.objects.filter(pk=run_id, status=RunStatus.DONE).first(),
            timeout=60,
        )
        assert done, RecomputeRun.objects.values().get(pk=run_id)
        assert done.claimed_by == f"{os.uname().nodename}:{second.pid}"
        assert (done.error, done.lost_workers) == ("", 1)
        assert RecomputeRun.objects.count() == 1
    finally:
        holder.stop()


class AnalyzeBlocker:
    """The ranking entries' table locked against ANALYZE (SHARE UPDATE EXCLUSIVE, which
    inserts do not wait for) by another thread until released: a publication commits,
    then waits in its statistics' renewal."""

    def __init__(self) -> None:
        self.held, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold, daemon=True)
        self.thread.start()
        assert self.held.wait(30)

    def _hold(self) -> None:
        try:
            with transaction.atomic(), connections["default"].cursor() as cursor:
                cursor.execute(
                    f"LOCK TABLE {RankingEntry._meta.db_table} IN SHARE UPDATE EXCLUSIVE MODE"
                )
                self.held.set()
                self.release.wait(120)
        finally:
            connections.close_all()

    def waiting(self) -> bool:
        """Whether another session waits for this lock."""
        with connections["default"].cursor() as cursor:
            cursor.execute(
                "SELECT COUNT(*) FROM pg_locks WHERE NOT granted AND relation = %s::regclass",
                [RankingEntry._meta.db_table],
            )
            return bool(cursor.fetchone()[0])

    def stop(self) -> None:
        self.release.set()
        self.thread.join(30)


def _unfinished_in_broker(run_id: int) -> bool:
    """A ``run_recompute`` of this run still queued or unacknowledged in Redis."""
    client = redis.Redis.from_url(app.conf.broker_url)
    raw = list(client.hvals("unacked"))
    for key in client.keys("*publication*"):
        if client.type(key) == b"list":
            raw += client.lrange(key, 0, -1)
    wanted = f'"argsrepr": "({run_id},)"'.encode()
    return any(b'"rankings.run_recompute"' in item and wanted in item for item in raw)


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_after_publishing_is_never_published_again(
    api, registry, start_worker, wait_for
):
    """An official run's worker is killed with SIGKILL after its publication committed,
    before it acknowledged its task: Redis redelivers the task to another worker, and the
    sweep runs; the season keeps one official ranking, its players are told once."""
    first = start_worker("first")
    blocker = AnalyzeBlocker()
    try:
        api.force_authenticate(registry.users["federation_staff"])
        response = api.post(
            "/api/pcn/recomputes/",
            {"season": "2026-2027", "kind": "official", "before_season_end_reason": "AG"},
        )
        assert response.status_code == 202, response.content
        run_id = response.json()["id"]
        assert wait_for(blocker.waiting, timeout=60)  # published, then waiting to ANALYZE
        assert SeasonRanking.objects.get(season=registry.season).official_id is not None
        _kill(first.pid, wait_for)
        blocker.stop()
        second = start_worker(
            "second", CELERY_VISIBILITY_TIMEOUT_S="1", RECOMPUTE_STALE_AFTER_S="1"
        )
        time.sleep(1.5)  # past the stale limit of the second worker and of its broker
        tasks.fail_stale_runs_task.apply_async()
        assert wait_for(lambda: not _unfinished_in_broker(run_id), timeout=60)
        run = RecomputeRun.objects.get(pk=run_id)
        assert run.status == RunStatus.DONE, run.error
        official = RankingSnapshot.objects.filter(season=registry.season, kind=RankingKind.OFFICIAL)
        assert official.count() == 1
        assert run.snapshot_id == official.get().pk
        told = OutboxMessage.objects.filter(task="rankings.email_step_changes")
        assert told.count() == 1
        assert second.poll() is None
    finally:
        blocker.stop()
