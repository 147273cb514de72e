"""The gauges core reads at scrape time: the outbox's backlog and the Celery queues.

Each function is a source for :func:`core.observability.metrics.exposition`; each
reads a bounded amount (an index range capped in rows, a few O(1) Redis commands).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils import timezone
from prometheus_client.core import Metric

from core.observability.metrics import gauge
from core.observability.queues import read_queues
from core.tasks import BACKLOG_COUNT_CAP, outbox_backlog


def outbox() -> Iterator[Metric]:
    backlog = outbox_backlog()
    unsent = gauge(
        "fft_outbox_unsent",
        f"Outbox rows (tasks asked for by committed transactions) not sent to the broker "
        f"yet, counted up to {BACKLOG_COUNT_CAP}.",
    )
    unsent.add_metric([], backlog.unsent)
    yield unsent
    age = gauge(
        "fft_outbox_oldest_unsent_age_seconds",
        "Age of the oldest outbox row not sent yet (0 when every row was sent).",
    )
    oldest = backlog.oldest
    age.add_metric([], max(0.0, (timezone.now() - oldest).total_seconds()) if oldest else 0.0)
    yield age


def celery_queues() -> Iterator[Metric]:
    queues = read_queues()
    if queues is None:
        return
    waiting = gauge(
        "fft_celery_queue_length", "Messages waiting in a Celery queue of the broker.", ["queue"]
    )
    for name, length in queues.waiting.items():
        waiting.add_metric([name], length)
    yield waiting
    unacked = gauge(
        "fft_celery_unacked_messages",
        "Messages a worker took and has not acknowledged yet (running or prefetched).",
    )
    unacked.add_metric([], queues.unacked)
    yield unacked
