"""Sessions with eliminations and divided scores: the two choices the texts leave open.

Chapter 3, article 3 (fasc. 1066): « Les points peuvent être divisés au maximum par 2
entre 2 séances à condition d'éliminer au moins 20 % des participants de la séance »
(articles 9, 15 and 20 alike, « entre 2 séances ou 2 positions successives »); chapter 2
(fasc. 609): the tournament software may « abattre les scores entre 2 positions ou 2
séances successives ». The texts say neither how an odd score is rounded when it is
halved, nor how the entries eliminated at one cut rank among themselves: both are
settings of the season's rulebook (``Rulebook.eliminations``), documented in
``docs/results-format.md`` (« Sessions with eliminations »).

Pure: no Django.
"""

from __future__ import annotations

from enum import StrEnum


class HalvingRounding(StrEnum):
    """How a score carried into the next session is rounded when its division is not whole."""

    HALF_AWAY_FROM_ZERO = "half_away_from_zero"
    """To the nearest whole number, a half away from zero: 75 / 2 → 38, −75 / 2 → −38
    (the default: the usual « arrondi », the same for a positive and a negative score)."""
    TOWARD_ZERO = "toward_zero"
    """Truncated: 75 / 2 → 37, −75 / 2 → −37."""
    DOWN = "down"
    """Rounded down: 75 / 2 → 37, −75 / 2 → −38."""
    UP = "up"
    """Rounded up: 75 / 2 → 38, −75 / 2 → −37."""


class EliminatedOrder(StrEnum):
    """How the entries eliminated at the same cut rank among themselves (all of them rank
    after every entry that played on)."""

    SCORE_THEN_ARTICLE_29 = "score_then_article_29"
    """By their total when eliminated, then (in a competition with tie-break rules) by
    article 29; entries level on both share (the default: the ranking of the session
    they last played, as article 29 « pour le tour suivant » breaks ties at each cut)."""
    SHARED = "shared"
    """They share one place, the best of the places they occupy."""


def divided(score: int, divisor: int, rounding: HalvingRounding) -> int:
    """``score`` divided by ``divisor`` (1: unchanged), rounded as ``rounding`` says."""
    if divisor == 1:
        return score
    quotient, remainder = divmod(score, divisor)  # floor division
    if remainder == 0 or rounding is HalvingRounding.DOWN:
        return quotient
    if rounding is HalvingRounding.UP:
        return quotient + 1
    if rounding is HalvingRounding.TOWARD_ZERO:
        return quotient + 1 if score < 0 else quotient
    # Half away from zero: compare twice the remainder with the divisor.
    twice = 2 * remainder
    if twice > divisor or (twice == divisor and score > 0):
        return quotient + 1
    return quotient
