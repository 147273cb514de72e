"""Progress of a recompute run, written between the run's transactions so that the
admin sees it while the run goes on, and its heartbeat: a thread of the worker renews
it every ``RECOMPUTE_HEARTBEAT_S`` while the run goes on, whatever the run is doing (a
statement of minutes, a wait for a lock), so that a run whose heartbeat stops lost its
worker (``rankings/season/recompute.py``)."""

from __future__ import annotations

import logging
import threading
from types import TracebackType
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections
from django.utils import timezone

from rankings.models import RecomputeRun, RunStatus

log = logging.getLogger(__name__)


class Progress:
    """Reports phases of a run to its row; does nothing without a run."""

    def __init__(self, run: RecomputeRun | None, total: int) -> None:
        self.run = run
        self.total = total
        self.done = 0

    def _save(self, **fields: Any) -> None:
        """Write these fields and the heartbeat, unless another worker has reclaimed
        the run (this one was thought lost)."""
        if self.run is None:
            return
        fields["heartbeat_at"] = timezone.now()
        for name, value in fields.items():
            setattr(self.run, name, value)
        RecomputeRun.objects.filter(pk=self.run.pk, claimed_by=self.run.claimed_by).update(**fields)

    def phase(self, name: str) -> None:
        self._save(
            status=RunStatus.RUNNING,
            phase=name,
            done=0,
            total=self.total,
            started_at=timezone.now(),
            finished_at=None,
            error="",
        )

    def step(self, next_phase: str, **fields: Any) -> None:
        self.done = min(self.done + 1, self.total)
        self._save(phase=next_phase, done=self.done, **fields)


class Heartbeat:
    """While the block runs, a daemon thread (its own database connection) renews the
    run's ``heartbeat_at`` every ``RECOMPUTE_HEARTBEAT_S``, as long as the run is still
    running under this worker's claim. Killed with its process, it stops with it."""

    def __init__(self, run: RecomputeRun) -> None:
        self.run_id, self.worker = run.pk, run.claimed_by
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=self._beat, name=f"heartbeat-run-{run.pk}", daemon=True
        )

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop.set()
        self.thread.join()

    def _beat(self) -> None:
        try:
            while not self.stop.wait(settings.RECOMPUTE_HEARTBEAT_S):
                try:
                    RecomputeRun.objects.filter(
                        pk=self.run_id, claimed_by=self.worker, status=RunStatus.RUNNING
                    ).update(heartbeat_at=timezone.now())
                except DatabaseError:  # the database away for a while: beat again later
                    log.warning("heartbeat of recompute run %s failed", self.run_id, exc_info=True)
        finally:
            connections.close_all()  # this thread's own connections
