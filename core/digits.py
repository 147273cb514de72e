"""Whether a text is a whole number written in ASCII digits (no Django here).

``str.isdigit()`` is true of "²" and other Unicode digits that ``int()`` and PostgreSQL
refuse: a query parameter or a field checked with it alone turns a client's typo into a
500. Every "is this a number?" test of untrusted text goes through :func:`ascii_digits`.
"""

from __future__ import annotations


def ascii_digits(text: str) -> bool:
    """``text`` is non-empty and made of the digits 0–9 only."""
    return text.isascii() and text.isdigit()
