"""A tournament's planned formula: how many positions of how many deals.

Source: chapter 2, « Tournoi à grosse dotation » (fasc. 571): « Les tournois de Tarot se
déroulent soit en 24 (6 x 4), soit en 25 (5 x 5) donnes jouées … Il est possible
d'organiser un tournoi en 3 positions de 8 donnes. » The text names three formulas; it
forbids none (championship sessions are « de 20 donnes minimum », chapter 3, and the
big-prize formulas of :mod:`competitions.rules.engine.big_prize` play others), so any
formula of whole positions is planned, and :func:`formula_problems` says whether the
movement can play it for a field: its positions are played positions (a team tournament's
rows 2 onwards, :func:`~.planning.max_positions`). See ``docs/engine-movements.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from competitions.rules.engine.movements.planning import max_positions
from competitions.rules.engine.movements.settings import MovementSettings
from core.problems import Problem, RuleViolation
from core.vocabulary import Format


@dataclass(frozen=True, slots=True)
class DealFormula:
    """``positions`` played positions of ``deals_per_position`` deals each."""

    positions: int
    deals_per_position: int

    @property
    def deals(self) -> int:
        return self.positions * self.deals_per_position


PRINTED_FORMULAS = (DealFormula(6, 4), DealFormula(5, 5), DealFormula(3, 8))
"""« 24 (6 x 4) », « 25 (5 x 5) » and « 3 positions de 8 donnes » (fasc. 571)."""


def formula_problems(
    formula: DealFormula,
    players: int,
    format: Format = Format.INDIVIDUAL,
    settings: MovementSettings | None = None,
) -> list[Problem]:
    """Every problem of playing ``formula`` with ``players`` players, located: each count a
    whole number from 1, and no more positions than the movement plays for that field."""
    problems = [
        Problem(
            name,
            "formula_not_positive",
            f"A formula has at least one {what}, not {value!r}.",
            {"value": repr(value)},
        )
        for name, what, value in (
            ("positions", "position", formula.positions),
            ("deals_per_position", "deal a position", formula.deals_per_position),
        )
        if isinstance(value, bool) or not isinstance(value, int) or value < 1
    ]
    if problems:
        return problems
    try:
        allowed = max_positions(players, format, settings)
    except RuleViolation as refused:  # no movement for this field at all
        return list(refused.problems)
    if formula.positions > allowed:
        problems.append(
            Problem(
                "positions",
                "formula_too_many_positions",
                f"{formula.positions} positions of {formula.deals_per_position} deals: with "
                f"{players} players the {Format(format)} movement plays at most {allowed} "
                "positions.",
                {
                    "positions": formula.positions,
                    "deals_per_position": formula.deals_per_position,
                    "players": players,
                    "allowed": allowed,
                },
            )
        )
    return problems
