"""The request id carried from the process that sends a task to the worker that runs it.

Connected by ``core.apps.CoreConfig.ready`` in every process (web, worker, beat):

- ``before_task_publish``: a task sent while a request id is bound (in a request, in a
  task that has one, in the outbox's send of a row written by a request:
  ``core/tasks.py``) carries it in its message headers (``request_id``);
- ``task_prerun``: the worker binds the task's id and name and the request id it
  carries, so every log line of the task has them (and a task it sends carries it on);
- ``task_postrun``: one log line on the ``fft.task`` logger (task name, state,
  duration in milliseconds), then the binding is undone.

A task run eagerly (no broker) has no message: it keeps the request's id, bound in
the same thread.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import sentry_sdk
from celery.signals import before_task_publish, task_postrun, task_prerun

from core.observability.context import (
    current_request_id,
    current_task,
    plausible_request_id,
    task_entered,
    task_left,
)

log = logging.getLogger("fft.task")

HEADER = "request_id"


@before_task_publish.connect(weak=False, dispatch_uid="fft.carry_request_id")
def carry_request_id(headers: dict[str, Any] | None = None, **_kwargs: Any) -> None:
    request_id = current_request_id()
    if request_id is not None and headers is not None:
        headers.setdefault(HEADER, request_id)


def _carried(request: Any) -> str | None:
    """The request id a task's message carries (a custom header: an attribute of the
    task's request, or in its ``headers`` when the task was applied eagerly)."""
    value = getattr(request, HEADER, None)
    if value is None:
        value = (getattr(request, "headers", None) or {}).get(HEADER)
    return plausible_request_id(value)


@task_prerun.connect(weak=False, dispatch_uid="fft.task_started")
def task_started(task_id: str = "", task: Any = None, **_kwargs: Any) -> None:
    request_id = _carried(task.request) if task is not None else None
    task_entered(task_id=task_id, name=getattr(task, "name", "?"), request_id=request_id)
    if request_id is not None:
        sentry_sdk.set_tag("request_id", request_id)  # a no-op without SENTRY_DSN


@task_postrun.connect(weak=False, dispatch_uid="fft.task_ended")
def task_ended(task_id: str = "", task: Any = None, state: str | None = None, **_: Any) -> None:
    running = current_task()
    if running is not None and running.task_id == task_id:
        ms = (time.perf_counter() - running.started) * 1000
        log.info(
            "task %s %s %.1f ms", running.name, state, ms,
            extra={"state": state, "duration_ms": round(ms, 1)},
        )  # fmt: skip
    task_left(task_id)
