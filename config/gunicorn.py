"""gunicorn's hooks for the web processes: ``gunicorn -c python:config.gunicorn …``.

With ``PROMETHEUS_MULTIPROC_DIR`` (docs/observability.md) every worker process keeps its
metric values in files in that directory and a scrape sums them all. The directory is
emptied when gunicorn starts, before any worker: files left by a previous run would be
summed with the new ones. When a worker exits, prometheus-client is told, so the gauges
that count only live processes forget it (the counters keep its counts: a restarted
worker does not make the totals go down).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def on_starting(server: Any) -> None:
    directory = os.environ.get(VARIABLE)
    if directory:
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        for stale in path.glob("*.db"):
            stale.unlink()


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get(VARIABLE):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
