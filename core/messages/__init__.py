"""Every message a person or a client's software reads, French first, by its stable code.

The pure rules and the services speak English developer text with a stable ``code``
(:class:`core.problems.Problem`, :class:`core.errors.ServiceError`) and the values the
text names in ``params``. The French text of every code lives here, in the Django
layer, one catalogue per area: a module under ``core/messages/catalogue/`` holding a
``FRENCH`` dict, code → text with ``{param}`` placeholders (``str.format`` syntax).
Catalogues are found by listing that folder: a new area is a new file, nothing else.

:func:`localize` renders in the active language (Django's ``get_language()``, set by
``LocaleMiddleware`` from the request): French by default, the English developer text
when the client asks for English (``Accept-Language: en``).

With ``MESSAGES_STRICT`` on (the test settings), a code without French text or a
placeholder without its value raises, so the suite finds every gap; in production the
gap is logged and the reader gets the English text (no code) or an ellipsis in place
of the missing value.
"""

from __future__ import annotations

import functools
import importlib
import logging
import pkgutil
from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import translation

from core import errors
from core.messages import catalogue as _catalogue_package
from core.problems import Problem

logger = logging.getLogger(__name__)


class MissingFrenchText(LookupError):
    """A code without French text, or a placeholder without its value (strict mode)."""


@functools.cache
def french_catalogue() -> Mapping[str, str]:
    """Every code's French text, from every catalogue module; a code given two different
    texts by two modules is a configuration error."""
    merged: dict[str, str] = {}
    origin: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(_catalogue_package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{_catalogue_package.__name__}.{info.name}")
        for code, text in module.FRENCH.items():
            if code in merged and merged[code] != text:
                raise ImproperlyConfigured(
                    f"Message code {code!r} has two French texts ({origin[code]} and {info.name})."
                )
            merged[code] = text
            origin[code] = info.name
    return merged


def _strict() -> bool:
    return bool(getattr(settings, "MESSAGES_STRICT", False))


class _Values(dict):
    """The params of a message, each value written the French way; a missing one is an
    ellipsis (or raises, in strict mode)."""

    def __missing__(self, key: str) -> str:
        if _strict():
            raise MissingFrenchText(f"no value for {{{key}}}")
        logger.warning("French message placeholder {%s} has no value", key)
        return "…"


def french_value(value: object) -> str:
    """A value as French text: decimal comma; other values as they are."""
    if isinstance(value, float):
        text = f"{value:g}" if value != int(value) else str(int(value))
        return text.replace(".", ",")
    return str(value)


def french(code: str, message: str, params: Mapping[str, object] | None = None) -> str:
    """The French text of ``code`` with its ``params``; ``message`` is the English text,
    used (and the gap logged) only when the code has no French text outside strict mode."""
    template = french_catalogue().get(code)
    if template is None:
        if _strict():
            raise MissingFrenchText(f"message code {code!r} has no French text")
        logger.warning("message code %r has no French text", code)
        return message
    values = _Values({key: french_value(value) for key, value in (params or {}).items()})
    return template.format_map(values)


def localize(
    code: str,
    message: str,
    params: Mapping[str, object] | None = None,
    *,
    language: str | None = None,
) -> str:
    """The message in ``language`` (default: the active one): French unless English is
    asked for."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if language.split("-")[0] == "en":
        return message
    return french(code, message, params)


def problem_message(problem: Problem, *, language: str | None = None) -> str:
    """A located problem's message, for a person or a client, in the active language."""
    return localize(problem.code, problem.message, problem.params, language=language)


def error_message(error: errors.ServiceError, *, language: str | None = None) -> str:
    """A service's refusal, for a person or a client, in the active language."""
    return localize(error.code, error.message, error.params, language=language)


__all__ = [
    "MissingFrenchText",
    "error_message",
    "french",
    "french_catalogue",
    "french_value",
    "localize",
    "problem_message",
]
