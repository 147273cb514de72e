"""How a value is written for a person to read, on every page (``{% load french %}``):

- ``{{ value|human }}``: a date « 19 mai 1937 », a moment « 28 novembre 2026 18:37 » in the
  site's time zone, yes/no « oui »/« non », nothing « — », a number with the language's
  separators, anything else as itself. Never an ISO timestamp, never ``True``/``None``.
- ``{{ user|person }}``: a person by their name (their user name when they gave none).

The English site gets the same in English (Django's formats of the active language).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.utils import formats, timezone
from django.utils.translation import gettext

register = template.Library()


@register.filter
def human(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, dt.datetime):
        if timezone.is_aware(value):
            value = timezone.localtime(value)
        return formats.date_format(value, "DATETIME_FORMAT")
    if isinstance(value, dt.date):
        return formats.date_format(value, "DATE_FORMAT")
    if isinstance(value, int | float):
        return formats.number_format(value)
    return str(value)


@register.filter
def person(user: Any) -> str:
    """A person as others read them: their full name, else their user name."""
    if user is None:
        return "—"
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return full or (user.get_username() if hasattr(user, "get_username") else str(user))
