"""The live ranking's order as numbers an order-statistics store keeps exactly.

The live ranking (``rankings/season/live_store.py``) keeps every player in Redis sorted
sets: one for the season, one per committee, one per club. A sorted set orders its
members by a score (a 64-bit float), then by the member's bytes. This module turns
the core's order (:func:`~rankings.rules.national_ranking.order_key`: higher total
PCN first, then higher total PP if it breaks ties; equal keys share a place and are
listed by licence number) into:

- :func:`score`: ``-(total PCN × 2^26 + tie PP)``, an integer below 2^53 in
  magnitude, so a float holds it exactly; ascending scores are the core's order, and
  equal keys have equal scores;
- :func:`member`: the licence number as 12 zero-padded digits, so that the bytes
  order of members with one score is the order of licence numbers.

A place is then ``1 + the number of members with a smaller score`` ("1224"), the
same count in a committee's or a club's set gives the place there, and the ranked
players (total PCN above 0) are those with a score at most :data:`RANKED_MAX_SCORE`.
A key out of the exact range is refused (``score_out_of_range``): it would need
more than 2^27 PCN, far beyond any season.

No Django, no I/O.
"""

from __future__ import annotations

from core.problems import RuleViolation

PP_SPAN = 1 << 26
"""Tie-breaking PP must be below this (67,108,864)."""
MAX_TOTAL_PCN = (1 << 53) // PP_SPAN - 1
"""The largest total PCN whose score is exact (134,217,727)."""
RANKED_MAX_SCORE = -PP_SPAN
"""Scores at most this are players with a total PCN above 0."""
MEMBER_DIGITS = 12


def score(key: tuple[int, int]) -> int:
    """The sorted-set score of an order key ``(total PCN, tie PP)``, as an exact integer
    (send it as is: below 2^53 in magnitude, the float Redis stores is the same)."""
    total_pcn, tie_pp = key
    if not (0 <= total_pcn <= MAX_TOTAL_PCN and 0 <= tie_pp < PP_SPAN):
        raise RuleViolation.single(
            "total_pcn",
            "score_out_of_range",
            f"Totals ({total_pcn} PCN, {tie_pp} PP) are out of the live ranking's exact range.",
            {"total_pcn": total_pcn, "total_pp": tie_pp},
        )
    return -(total_pcn * PP_SPAN + tie_pp)


def key_of(value: float) -> tuple[int, int]:
    """The order key back from a score (the inverse of :func:`score`)."""
    encoded = -int(value)
    return encoded // PP_SPAN, encoded % PP_SPAN


def member(licence_number: int) -> str:
    """The sorted-set member of a player: their licence number, zero-padded."""
    if not 0 <= licence_number < 10**MEMBER_DIGITS:
        raise RuleViolation.single(
            "licence_number",
            "licence_out_of_range",
            f"Licence number {licence_number} has more than {MEMBER_DIGITS} digits.",
            {"licence_number": licence_number},
        )
    return f"{licence_number:0{MEMBER_DIGITS}d}"


def licence_of(value: str | bytes) -> int:
    """The licence number back from a member."""
    return int(value)


def place_from(ahead: int) -> int:
    """A place from the number of players strictly ahead (ties share the place)."""
    return ahead + 1


LEX_OFFSET = 1 << 53
"""Added to a score to write it as 16 digits that sort as the scores do."""


def lex_member(value: int, licence_number: int) -> str:
    """A player in a set ordered by its members' bytes (every score 0): their score as
    16 digits, then their member, so that the bytes order is the core's order, ties
    by licence number included, and a range of scores is a range of bytes."""
    return f"{value + LEX_OFFSET:016d}:{member(licence_number)}"


def lex_licence(value: str) -> int:
    """The licence number back from :func:`lex_member`."""
    return int(value.rsplit(":", 1)[1])


def lex_low(value: int | None) -> str:
    """The bytes-order bound from score ``value`` on (None: from the first)."""
    return "-" if value is None else f"[{value + LEX_OFFSET:016d}"


def lex_high(value: int | None) -> str:
    """The bytes-order bound up to score ``value`` included (None: to the last)."""
    return "+" if value is None else f"({value + 1 + LEX_OFFSET:016d}"
