"""Sending a background task once the caller's transaction has committed, durably.

Services ask for background work (a ranking refresh, a recompute…) from inside their
transaction. The task must be sent only after the commit: sent earlier, a worker could
read the database before the rows it is about to process exist, and a rollback would
leave a task about changes that never happened.

Services name the task by its registered name (``"rankings.refresh_live_ranking"``)
instead of importing the tasks module: a tasks module imports the services it calls, so
a service importing it back would make an import cycle.

With a broker, the hand-off goes through an outbox (``core.models.OutboxMessage``): the
task is written in the caller's transaction, so it commits with the data it is about,
and sent after the commit. When the broker is unreachable the send fails, the failure
is logged, the caller's request still succeeds (its write committed) and the row stays
unsent; the sweep (:func:`outbox_send_pending`: the ``core.send_outbox`` beat task every
minute, ``manage.py send_outbox``, and every worker at start-up) sends it later, oldest
first. The row keeps the id of the request that asked for the task, and the task's
message carries it whenever the row is sent (``core/observability/task_signals.py``).
A sender claims a row with a compare-and-set ``update()`` before sending, so two
sweepers never send the same row; a claim left by a dead sender expires after
``CLAIM_FOR``. Delivery is at least once: the tasks are idempotent.

With no broker (``CELERY_TASK_ALWAYS_EAGER``: the embedded default, and the tests) no
row is written: the task runs in-process right after the commit.

The task is looked up in the current Celery app's registry at send time and sent with
``apply_async``, which honours ``CELERY_TASK_ALWAYS_EAGER``; ``app.send_task`` would
not: it always goes through a broker. The current app is the project's (config/celery.py
makes it the default of every thread): core names no app and no configuration.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from celery import current_app as app
from celery import shared_task
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from prometheus_client.core import Metric

from core.models import OutboxMessage
from core.observability.context import current_request_id, request_bound
from core.observability.metrics import gauge

log = logging.getLogger(__name__)

CLAIM_FOR = dt.timedelta(minutes=5)  # a sender's claim on a row, then another may send it
KEEP_SENT = dt.timedelta(days=7)  # sent rows are deleted by the sweep after this
GIVE_UP_AFTER = 3  # consecutive failures that end a sweep (the broker is down)


def tasks_run_inline() -> bool:
    """Whether tasks run in the caller's process (no broker: the embedded default)."""
    return bool(app.conf.task_always_eager)


def send_on_commit(
    task_name: str, /, *args: Any, countdown: float | None = None, **kwargs: Any
) -> None:
    """Send task ``task_name`` with these arguments after the current transaction commits.

    Outside a transaction (autocommit) it is sent at once; on rollback, never.
    ``countdown`` delays its execution by that many seconds (ignored when eager).
    With a broker, an outbox row is written now and sent after the commit; a failure
    to send is logged, never raised (the sweep sends the row later).
    """
    if app.conf.task_always_eager:
        transaction.on_commit(lambda: send_now(task_name, *args, countdown=countdown, **kwargs))
        return
    message = OutboxMessage.objects.create(
        task=task_name, args=list(args), kwargs=kwargs, countdown=countdown,
        request_id=current_request_id() or "",
    )  # fmt: skip
    transaction.on_commit(lambda: outbox_send(message.pk))


def send_now(task_name: str, /, *args: Any, countdown: float | None = None, **kwargs: Any):
    """Send task ``task_name`` now (eagerly when ``CELERY_TASK_ALWAYS_EAGER``)."""
    task = app.tasks.get(task_name)
    if task is None:  # its module is not imported yet in this process: discover tasks
        app.loader.import_default_modules()
        task = app.tasks.get(task_name)
    if task is None:  # registered only in the workers: send it by name
        return app.send_task(task_name, args=args, kwargs=kwargs, countdown=countdown)
    return task.apply_async(args, kwargs, countdown=countdown)


def _unclaimed(now: dt.datetime) -> Q:
    return Q(sent_at__isnull=True) & (Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))


def _remaining(message: OutboxMessage, now: dt.datetime) -> float | None:
    """The countdown left: a row sent late is not delayed again in full."""
    if message.countdown is None:
        return None
    due = message.created_at + dt.timedelta(seconds=message.countdown)
    return max(0.0, (due - now).total_seconds())


def outbox_send(message_id: int) -> Literal["sent", "failed", "taken"]:
    """Claim the unsent row ``message_id`` (compare-and-set), send it, mark it sent.

    ``taken``: already sent, or claimed by another sender. ``failed``: the broker
    refused it; the row stays unsent (its error kept) for the next sweep.
    """
    now = timezone.now()
    claimed = (
        OutboxMessage.objects.filter(_unclaimed(now), pk=message_id)
        .update(claimed_until=now + CLAIM_FOR, attempts=F("attempts") + 1)
    )  # fmt: skip
    if not claimed:
        return "taken"
    message = OutboxMessage.objects.get(pk=message_id)
    try:
        with request_bound(message.request_id or None):  # its message carries the request's id
            send_now(
                message.task, *message.args, countdown=_remaining(message, now), **message.kwargs
            )
    except Exception as exc:  # the broker is down or refused it: the sweep retries
        log.warning(
            "could not send task %s (outbox #%s, attempt %s); left for the sweep",
            message.task, message.pk, message.attempts, exc_info=True,
        )  # fmt: skip
        OutboxMessage.objects.filter(pk=message_id).update(
            claimed_until=None, last_error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        return "failed"
    OutboxMessage.objects.filter(pk=message_id).update(
        sent_at=timezone.now(), claimed_until=None, last_error=""
    )
    return "sent"


@dataclass(frozen=True)
class Sweep:
    sent: int
    failed: int
    left: int


def outbox_send_pending(*, limit: int = 1000) -> Sweep:
    """Send the unsent outbox rows, oldest first (at most ``limit``); stop after
    ``GIVE_UP_AFTER`` consecutive failures (the broker is down: the next sweep
    retries). Sent rows older than ``KEEP_SENT`` are deleted."""
    now = timezone.now()
    OutboxMessage.objects.filter(sent_at__lt=now - KEEP_SENT).delete()
    ids = list(
        OutboxMessage.objects.filter(_unclaimed(now))
        .order_by("created_at", "id")
        .values_list("pk", flat=True)[:limit]
    )
    sent = failed = in_a_row = 0
    for message_id in ids:
        outcome = outbox_send(message_id)
        if outcome == "sent":
            sent, in_a_row = sent + 1, 0
        elif outcome == "failed":
            failed, in_a_row = failed + 1, in_a_row + 1
            if in_a_row >= GIVE_UP_AFTER:
                break
    left = OutboxMessage.objects.filter(sent_at__isnull=True).count()
    if sent or failed:
        log.info("outbox sweep: %s sent, %s failed, %s left", sent, failed, left)
    return Sweep(sent=sent, failed=failed, left=left)


BACKLOG_COUNT_CAP = 100_000  # the backlog is counted up to this many rows (a bounded read)


@dataclass(frozen=True)
class Backlog:
    unsent: int  # at most BACKLOG_COUNT_CAP
    oldest: dt.datetime | None  # when the oldest unsent row was written


def outbox_backlog() -> Backlog:
    """The rows not sent yet and the oldest one's time, both read through the partial
    index of unsent rows (``outbox_unsent``): the sent rows kept for a week are not read."""
    unsent = OutboxMessage.objects.filter(sent_at__isnull=True)
    count = unsent.order_by()[:BACKLOG_COUNT_CAP].count()
    oldest = unsent.order_by("created_at", "id").values_list("created_at", flat=True).first()
    return Backlog(count, oldest)


def outbox_gauges() -> Iterator[Metric]:
    """The backlog as gauges, read at scrape time (``config/metrics.py``)."""
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


@shared_task(name="core.send_outbox")
def send_outbox() -> int:
    """The sweep, for Celery beat and the worker's start-up."""
    return outbox_send_pending().sent
