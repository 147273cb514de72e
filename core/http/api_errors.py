"""One error shape for every API refusal.

Every 4xx body is ``{"errors": [{"field": ..., "code": ..., "message": ...}]}``:
DRF validation errors are flattened to dotted field paths
(``entries[3].players[1].licence_number``), a :class:`RuleViolation` from a pure
rules package keeps the problems it carries, and other API exceptions
(403, 404, 405, 429…) get ``field`` ``null``. The services' own errors
(:mod:`core.errors`) are mapped to their HTTP status here, and only here.

A fault of the service itself is not the reader's: the database unreachable (or refusing
for a moment) answers ``503 Service Unavailable`` with ``Retry-After``, in this shape under
``/api/`` and as a page elsewhere (:func:`server_error`, Django's ``handler500``). A request
Django itself refuses before any view (too many fields, a body over the limit:
:func:`bad_request`, ``handler400``) gets the same shape under ``/api/``.

Every ``message`` is in the request's language (``LocaleMiddleware``): the domain's
problems and refusals through :mod:`core.messages` by their ``code`` (French by default,
English with ``Accept-Language: en``), DRF's own messages through Django's translation.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from core import errors
from core.messages import error_message, localize, problem_message
from core.problems import Problem, RuleViolation

NON_FIELD = "non_field_errors"

log = logging.getLogger(__name__)

#: The HTTP status of each of the services' own errors.
SERVICE_ERROR_STATUS: dict[type[errors.ServiceError], int] = {
    errors.PermissionDenied: status.HTTP_403_FORBIDDEN,
    errors.NotFound: status.HTTP_404_NOT_FOUND,
    errors.Conflict: status.HTTP_409_CONFLICT,
}


def _join(prefix: str | None, key: str | int) -> str:
    if isinstance(key, int):
        return f"{prefix or ''}[{key}]"
    if key == NON_FIELD:
        return prefix or ""
    return f"{prefix}.{key}" if prefix else str(key)


def flatten(detail: Any, prefix: str | None = None) -> Iterator[Problem]:
    """Flatten DRF's nested error detail into located problems."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            yield from flatten(value, _join(prefix, key))
    elif isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail | str) for item in detail):
            for item in detail:
                yield from flatten(item, prefix)
        else:
            for index, item in enumerate(detail):
                if item:
                    yield from flatten(item, _join(prefix, index))
    else:
        code = getattr(detail, "code", "invalid") or "invalid"
        yield Problem(field=prefix or "", code=str(code), message=str(detail))


def problems_response(problems: tuple[Problem, ...] | list[Problem], status_code: int = 400):
    """The one error shape for problems the domain found (messages by code)."""
    return Response({"errors": problems_data(problems)}, status=status_code)


def problems_data(problems: Iterable[Problem]) -> list[dict[str, str | None]]:
    """Located problems as the API writes them, each message in the request's language."""
    return [
        {"field": p.field or None, "code": p.code, "message": problem_message(p)} for p in problems
    ]


def _drf_problems_response(problems: list[Problem], status_code: int) -> Response:
    """DRF's validation problems: their messages are already in the request's language."""
    body = {
        "errors": [
            {"field": p.field or None, "code": p.code, "message": p.message} for p in problems
        ]
    }
    return Response(body, status=status_code)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A URL that matches no route (``handler404``): under ``/api/`` the one error
    shape in JSON, as from a view; elsewhere Django's page."""
    if request.path.startswith("/api/"):
        body = {
            "errors": [
                {
                    "field": None,
                    "code": "not_found",
                    "message": gettext("No such API operation or object."),
                }
            ]
        }
        return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refuses before any view reads it (``handler400``: too many fields
    in its query string or form body, too many files, a body over the upload limit, a
    suspicious header…): under ``/api/`` the one error shape in JSON, in the request's
    language (the refusal may come before ``LocaleMiddleware`` ran); elsewhere Django's
    page. A body over the limit is a 413, as the schema documents."""
    if not request.path.startswith("/api/"):
        return defaults.bad_request(request, exception)
    language = translation.get_language_from_request(request)
    status_code: int = status.HTTP_400_BAD_REQUEST
    if isinstance(exception, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        code, text, params = (
            "too_many_fields",
            f"The request has more than {limit} fields (query string or form): it is refused.",
            {"max_fields": limit},
        )
    elif isinstance(exception, TooManyFilesSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FILES
        code, text, params = (
            "too_many_files",
            f"The request sends more than {limit} files: it is refused.",
            {"max_files": limit},
        )
    elif isinstance(exception, RequestDataTooBig):
        status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        code, text, params = (
            "request_too_large",
            f"The request's body is larger than {limit} bytes: it is refused.",
            {"max_bytes": limit},
        )
    else:
        code, text, params = "bad_request", "The request is malformed: it is refused.", {}
    message = localize(code, text, params, language=language)
    body = {"errors": [{"field": None, "code": code, "message": message}]}
    return JsonResponse(body, status=status_code)


def database_unavailable(error: BaseException | None) -> bool:
    """Is ``error`` (or an error it was raised from) the database unreachable or refusing
    for a moment: a refused or lost connection, a lock or statement timeout?"""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, OperationalError | InterfaceError):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def service_unavailable(request: HttpRequest) -> HttpResponse:
    """``503`` with ``Retry-After`` (``SERVICE_UNAVAILABLE_RETRY_AFTER_S``): the API's error
    shape under ``/api/``, a page elsewhere; built without the database (no user, no
    session: the page is rendered without a request)."""
    retry_after = int(settings.SERVICE_UNAVAILABLE_RETRY_AFTER_S)
    message = localize(
        "service_unavailable",
        f"The service is temporarily unavailable: its database does not answer. "
        f"Try again in {retry_after} seconds.",
        {"retry_after": retry_after},
    )
    if request.path.startswith("/api/"):
        body = {"errors": [{"field": None, "code": "service_unavailable", "message": message}]}
        response: HttpResponse = JsonResponse(body, status=status.HTTP_503_SERVICE_UNAVAILABLE)
    else:
        page = loader.render_to_string("503.html", {"message": message})
        response = HttpResponse(page, status=status.HTTP_503_SERVICE_UNAVAILABLE)
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """An error no view handled (``handler500``, called while it is being handled): the
    database unavailable is :func:`service_unavailable`; anything else Django's 500 page."""
    if database_unavailable(sys.exc_info()[1]):
        log.warning("the database is unavailable: 503 for %s", request.path)
        return service_unavailable(request)
    return defaults.server_error(request)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, RuleViolation):
        set_rollback()
        return problems_response(exc.problems)
    if isinstance(exc, errors.ServiceError):
        set_rollback()
        status_code = next(
            code for kind, code in SERVICE_ERROR_STATUS.items() if isinstance(exc, kind)
        )
        body = {"errors": [{"field": None, "code": exc.code, "message": error_message(exc)}]}
        return Response(body, status=status_code)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        return _drf_problems_response(list(flatten(exc.detail)), response.status_code)
    detail = getattr(exc, "detail", str(exc))
    code = getattr(detail, "code", None) or exc.__class__.__name__.lower()
    response.data = {"errors": [{"field": None, "code": str(code), "message": str(detail)}]}
    return response


__all__ = [
    "bad_request",
    "exception_handler",
    "flatten",
    "page_not_found",
    "problems_data",
    "problems_response",
    "status",
]
