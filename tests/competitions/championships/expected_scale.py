"""The PCN a stage should give, from chapter 5 of the regulations written out again
here, independently of competitions/rules/pcn/scales.py."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction


def expected_scale(tables: int, index: str, count: int, *, exponent: int = 1, cap: int = 3000):
    """Chapter 5, written out independently: the first place has 40 PCN per table (every
    session's tables counted), each next place the previous × the reduction coefficient
    (0.69 at 3 tables, +0.01 a table, at most 0.95, raised to the format's exponent, at
    least 0.5), × the stage index, truncated, at least 50, at most the cap."""
    base = min(Decimal("0.95"), Decimal("0.69") + Decimal("0.01") * (tables - 3))
    coefficient = max(Fraction(base) ** exponent, Fraction(1, 2))
    raw = Fraction(40 * tables)
    values = []
    for _ in range(count):
        values.append(min(cap, max(50, math.floor(raw * Fraction(Decimal(index))))))
        raw *= coefficient
    return values
