"""One middleware, first of all: each request's id, its log line and its metrics.

For every request, whatever answers it (a view, a redirect to HTTPS, a 404, a 500):

- its id (:mod:`core.observability.context`) is bound from the moment the handler
  starts it (``request_started``) until its response is closed (``request_finished``),
  so every log line it causes carries it, Django's own "Not Found" lines included, and
  it is echoed in the response's ``X-Request-ID``;
- one log line on the ``fft.request`` logger: method, route (the URL pattern, never the
  path: a path or query string may hold a name), view name, status, duration in
  milliseconds, database queries and their time, the user's id when the request was
  authenticated; nothing else about the person;
- the metrics of :mod:`core.observability.metrics`, labelled by the view's name
  (``unmatched`` when no URL pattern matched).

The database queries are counted with an execution wrapper on every configured
connection of the request's thread. The duration ends when the response is returned:
a streamed export's body is still being sent after it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

import sentry_sdk
from django.core.signals import request_finished, request_started
from django.db import connections
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

from core.observability.context import (
    REQUEST_ID_HEADER,
    request_bound,
    request_id_bind,
    request_id_from_header,
)
from core.observability.metrics import method_label, request_observed

log = logging.getLogger("fft.request")

UNMATCHED = "unmatched"
ENVIRON_KEY = "fft.request_id"  # the id chosen when the request started, for the middleware
REQUEST_ID_META = "HTTP_" + REQUEST_ID_HEADER.upper().replace("-", "_")


@receiver(request_started, dispatch_uid="fft.request_started")
def request_id_at_start(sender: Any, environ: dict[str, Any] | None = None, **_: Any) -> None:
    if environ is None:
        return
    request_id = request_id_from_header(environ.get(REQUEST_ID_META))
    environ[ENVIRON_KEY] = request_id
    request_id_bind(request_id)


@receiver(request_finished, dispatch_uid="fft.request_finished")
def request_id_at_end(sender: Any, **_: Any) -> None:
    request_id_bind(None)


class QueryTimer:
    """Counts the queries executed through Django's cursors, and their time."""

    def __init__(self) -> None:
        self.queries = 0
        self.seconds = 0.0

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.queries += 1
            self.seconds += time.perf_counter() - start

    @contextmanager
    def watching(self, aliases: Sequence[str]) -> Iterator[None]:
        with ExitStack() as stack:
            for alias in aliases:
                stack.enter_context(connections[alias].execute_wrapper(self))
            yield


def view_name(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    return match.view_name if match is not None else UNMATCHED


def route(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    return str(match.route) if match is not None else UNMATCHED


def user_id(request: HttpRequest) -> int | None:
    """The id of the user the request was authenticated as, if it was read (no query
    is made here for a lazy user nobody looked at)."""
    user = request.__dict__.get("user")
    if user is None:
        return None
    wrapped = getattr(user, "_wrapped", user)  # a SimpleLazyObject not evaluated yet: empty
    if wrapped is empty or not getattr(wrapped, "is_authenticated", False):
        return None
    return getattr(wrapped, "pk", None)


class ObserveRequests:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.aliases = list(connections)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request.META.get(ENVIRON_KEY) or request_id_from_header(
            request.META.get(REQUEST_ID_META)
        )
        timer = QueryTimer()
        start = time.perf_counter()
        with request_bound(request_id):
            sentry_sdk.set_tag("request_id", request_id)  # a no-op without SENTRY_DSN
            with timer.watching(self.aliases):
                response = self.get_response(request)
            seconds = time.perf_counter() - start
            self._observed(request, response, seconds, timer)
        response[REQUEST_ID_HEADER] = request_id
        return response

    def _observed(
        self, request: HttpRequest, response: HttpResponse, seconds: float, timer: QueryTimer
    ) -> None:
        method = method_label(request.method)
        view = view_name(request)
        request_observed(
            view=view, method=method, status=response.status_code, seconds=seconds,
            queries=timer.queries, db_seconds=timer.seconds,
        )  # fmt: skip
        log.info(
            "%s %s %s %.1f ms",
            method, route(request), response.status_code, seconds * 1000,
            extra={
                "method": method,
                "route": route(request),
                "view": view,
                "status": response.status_code,
                "duration_ms": round(seconds * 1000, 1),
                "db_queries": timer.queries,
                "db_ms": round(timer.seconds * 1000, 1),
                "user_id": user_id(request),
            },
        )  # fmt: skip
