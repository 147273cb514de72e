"""The request id and the task being run, carried into every log line.

A request's id is the ``X-Request-ID`` it came with when that header holds a plausible
id (1 to 128 ASCII letters, digits and ``-_.:``: what proxies and tracing tools send),
else a new one (32 hex digits). The request middleware
(:mod:`core.observability.requests`) binds it for the request and echoes it in the
response's ``X-Request-ID``; a task sent meanwhile carries it in its headers, and the
worker binds it while the task runs (:mod:`core.observability.task_signals`).

Both live in context variables, so a thread or a task sees only its own; the logging
filter of :mod:`core.observability.logs` copies them onto every log record. No Django
import here: the logging configuration loads this module before the apps.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass

REQUEST_ID_HEADER = "X-Request-ID"
_PLAUSIBLE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")


@dataclass(frozen=True)
class RunningTask:
    task_id: str
    name: str
    started: float  # time.perf_counter()


_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
_task: ContextVar[RunningTask | None] = ContextVar("task", default=None)
# The tokens to restore when a task ends, by task id (a task run eagerly inside another
# task's run ends before it: they are reset in the reverse order they were set).
_entered: dict[str, tuple[Token[str | None], Token[RunningTask | None]]] = {}


def plausible_request_id(raw: object) -> str | None:
    """``raw`` if it is a plausible request id, else None."""
    if isinstance(raw, str) and _PLAUSIBLE_ID.fullmatch(raw):
        return raw
    return None


def request_id_from_header(raw: str | None) -> str:
    """The id of a request that came with ``X-Request-ID: raw`` (None: no header)."""
    return plausible_request_id(raw) or uuid.uuid4().hex


def current_request_id() -> str | None:
    """The id of the request (or of the request that sent the task) being served."""
    return _request_id.get()


def current_task() -> RunningTask | None:
    return _task.get()


def request_id_bind(request_id: str | None) -> None:
    """From now on, in this context, the current request id is ``request_id`` (the web
    handler's signals: bound when a request starts, unbound when its response is closed)."""
    _request_id.set(request_id)


@contextmanager
def request_bound(request_id: str | None) -> Iterator[None]:
    """Within this block the current request id is ``request_id``."""
    token = _request_id.set(request_id)
    try:
        yield
    finally:
        _request_id.reset(token)


def task_entered(*, task_id: str, name: str, request_id: str | None) -> None:
    """A task starts: bind its id and name, and the request id it carries (if none,
    the current one stays: a task run eagerly inside a request keeps the request's)."""
    rid_token = _request_id.set(request_id or _request_id.get())
    task_token = _task.set(RunningTask(task_id, name, time.perf_counter()))
    _entered[task_id] = (rid_token, task_token)


def task_left(task_id: str) -> None:
    """The task ``task_id`` ended: restore what was bound before it."""
    tokens = _entered.pop(task_id, None)
    if tokens is None:
        return
    rid_token, task_token = tokens
    _task.reset(task_token)
    _request_id.reset(rid_token)
