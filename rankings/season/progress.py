"""Progress of a recompute run, written between the run's transactions so that the
admin sees it while the run goes on."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from rankings.models import RecomputeRun, RunStatus


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
