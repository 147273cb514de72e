"""Requests refused before any view reads them.

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

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils import translation

from core.messages import localize

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
