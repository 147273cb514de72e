"""Cells a spreadsheet must read as text, never as a formula (CSV/formula injection).

Every CSV the service exports goes through :func:`safe_row`. OWASP's rule: a text cell
that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is what Excel,
LibreOffice and Google Sheets evaluate (``=cmd|' /C calc'!A0``); prefixing it with a
single quote makes them show it as text. Numbers the service itself writes (``-3``
carried points) are left alone: they are values, not text a person typed.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """``value`` as a CSV cell: ``None`` is empty, text a spreadsheet would evaluate
    is prefixed with ``'``, numbers and dates are written as they are."""
    if value is None:
        return ""
    if isinstance(value, bool | int | float | Decimal | date):
        return value
    text = str(value)
    if text.startswith(FORMULA_PREFIXES):
        return "'" + text
    return text


def safe_row(values: Iterable[object]) -> list[object]:
    """One exported CSV line, every cell through :func:`safe_cell`."""
    return [safe_cell(value) for value in values]
