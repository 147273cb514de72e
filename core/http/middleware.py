"""Requests refused before any view reads them, and the recent writers' reads.

:class:`ReadYourWrites`: with a read replica (``core/db_router.py``), a person who has just
written reads the primary for ``READ_YOUR_WRITES_S`` seconds.

:class:`RefuseNulCharacters`: PostgreSQL cannot store or even compare a text
holding the NUL character (``\\x00``, ``%00`` in a URL); a query parameter or a
path carrying one would reach a query and fail there as a 500. It is refused
here, once for every view, with a 400 naming the parameter (in the API's error
shape under ``/api/``, in the request's language). Bodies are checked where they are read: DRF's
``CharField`` and Django's form fields refuse NUL, and so do the results readers
(:mod:`competitions.rules.results`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils import translation

from core.db_router import own_writes, replica_in_use
from core.messages import localize

OWN_WRITES_COOKIE = "fft_own_writes"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

NUL = "\x00"


def nul_in_request(request: HttpRequest) -> str | None:
    """Where the request's path or query string carries a NUL character, if it does."""
    if NUL in request.path:
        return "path"
    for key, values in request.GET.lists():
        if NUL in key or any(NUL in value for value in values):
            return key.replace(NUL, "\\x00")
    return None


class RefuseNulCharacters:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        where = nul_in_request(request)
        if where is None:
            return self.get_response(request)
        what = "path" if where == "path" else f"parameter {where!r}"
        message = localize(
            "null_character",
            f"The {what} holds a NUL character (\\x00 or %00), which is not accepted.",
            # before LocaleMiddleware: the language the request asks for, read here
            language=translation.get_language_from_request(request),
        )
        if request.path.startswith("/api/"):
            field = None if where == "path" else where
            body = {"errors": [{"field": field, "code": "null_character", "message": message}]}
            return JsonResponse(body, status=400)
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


class ReadYourWrites:
    """A write answered (a request of another method than GET, HEAD, OPTIONS, TRACE, answered
    below 400) sets a signed cookie for ``READ_YOUR_WRITES_S`` seconds; a request carrying
    it, still valid, reads everything from the primary (``core.db_router.own_writes``), the
    public reads included. So a person sees their own write at once, whatever the
    replica's lag; everyone else reads the replica, which shows it within its lag. The
    cookie is signed and dated (``SECRET_KEY``): a forged or outlived one is ignored, so
    the primary's extra reads are bounded by the writes, which are rate-limited. API
    clients get it too: one that keeps cookies (a ``requests.Session``) reads its writes.
    Without a replica, or with ``READ_YOUR_WRITES_S = 0``, it does nothing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        window = int(getattr(settings, "READ_YOUR_WRITES_S", 0))
        if window <= 0 or not replica_in_use():
            return self.get_response(request)
        pinned = (
            request.get_signed_cookie(
                OWN_WRITES_COOKIE, default=None, salt=OWN_WRITES_COOKIE, max_age=window
            )
            is not None
        )
        with own_writes() if pinned else nullcontext():
            response = self.get_response(request)
        if request.method not in SAFE_METHODS and response.status_code < 400:
            response.set_signed_cookie(
                OWN_WRITES_COOKIE, "1", salt=OWN_WRITES_COOKIE, max_age=window,
                secure=settings.SESSION_COOKIE_SECURE, httponly=True, samesite="Lax",
            )  # fmt: skip
        return response
