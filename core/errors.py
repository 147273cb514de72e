"""The errors a service raises, in the project's own words (no HTTP in here).

Services and selectors refuse with these; the API maps each to its HTTP status in one
place (:mod:`core.http.api_errors`), pages and the admin map them to Django's own
(:mod:`core.page_errors`). A refusal with located problems is
:class:`core.problems.RuleViolation` (a 400).

No Django import here: rules packages and services alike may raise them.
"""

from __future__ import annotations

from collections.abc import Mapping


class ServiceError(Exception):
    """A refusal by a service: ``code`` is stable and machine-readable, the message for a person."""

    code = "service_error"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.params: Mapping[str, object] = params or {}
        """The values the message names, for its French text (:mod:`core.messages`)."""
        if code is not None:
            self.code = code


class PermissionDenied(ServiceError):
    """The caller may not do this to this object (HTTP 403)."""

    code = "permission_denied"


class NotFound(ServiceError):
    """The object does not exist, or the caller may not know that it does (HTTP 404)."""

    code = "not_found"


class Conflict(ServiceError):
    """The request contradicts the state it would change (HTTP 409)."""

    code = "conflict"
