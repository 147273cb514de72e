"""« Tournoi à grosse dotation » (fascicule 2, chapter 2, fasc. 569–600): the extra
position the best scores play, and the finalists' starting layouts.

The text suggests two formulas besides the usual 24 or 25 deals:

- **24 deals** (:attr:`BigPrizeFormula.TWENTY_FOUR_DEALS`): « le nombre de donnes jouées par
  l'ensemble des participants est de 5 positions de 4 donnes (soit 20 donnes) au lieu de
  6 x 4 (soit 24 donnes), mais que les 12, 16, 20 meilleurs scores joueront une position
  supplémentaire de 4 donnes »: everyone plays 5 positions of 4 deals; the 12, 16 or 20 best
  scores play a 6th position of 4 deals, on the printed layout.
- **25 deals** (:attr:`BigPrizeFormula.TWENTY_FIVE_DEALS`): « après ces 25 donnes jouées,
  les 20 meilleurs scores joueront une position supplémentaire de 5 donnes … 5 positions de
  UNE donne avec le mouvement normal de rotation : S + 1; E + 2; O - 2 »: everyone plays
  5 positions of 5 deals; the 20 best scores play 5 positions of one deal, N fixed, S + 1,
  E + 2, W − 2 over their 5 tables.

« Le classement sera définitif à l'issue de cette dernière position. »

Layouts (« POSITION DE DEPART DES 16 / 20 JOUEURS FINALISTES »): with T = finalists / 4
tables, table t seats North the t-th best score, South the (t + T)-th, East the (t + 2T)-th,
West the (t + 3T)-th. Both printed tables (16 and 20 finalists) are this rule; 12 finalists,
which the text allows but does not print, follow it too (a reading, docs/engine-movements.md).

Pure: no Django. Finalists are numbered by their rank after the common positions (1 = best).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from competitions.rules.engine.movements.plan import TableSeats
from core.problems import Problem, RuleViolation
from core.vocabulary import Format


class BigPrizeFormula(StrEnum):
    TWENTY_FOUR_DEALS = "24_deals"
    TWENTY_FIVE_DEALS = "25_deals"


@dataclass(frozen=True, slots=True)
class FormulaRules:
    """What one formula plays."""

    common_positions: int
    common_deals_per_position: int
    finalists: tuple[int, ...]
    """The numbers of best scores the text allows."""
    final_positions: int
    final_deals_per_position: int


FORMULAS: dict[BigPrizeFormula, FormulaRules] = {
    BigPrizeFormula.TWENTY_FOUR_DEALS: FormulaRules(5, 4, (12, 16, 20), 1, 4),
    BigPrizeFormula.TWENTY_FIVE_DEALS: FormulaRules(5, 5, (20,), 5, 1),
}


@dataclass(frozen=True, slots=True)
class BigPrizePlan:
    """A checked plan: the formula, how many finalists, and what everyone plays."""

    formula: BigPrizeFormula
    finalists: int
    common_positions: int
    common_deals_per_position: int
    final_positions: int
    final_deals_per_position: int

    @property
    def deals_for_finalists(self) -> int:
        return (
            self.common_positions * self.common_deals_per_position
            + self.final_positions * self.final_deals_per_position
        )


def check_big_prize_plan(
    formula: BigPrizeFormula | str, finalists: int | None, *, format: Format | str
) -> BigPrizePlan:
    """The plan of a big-prize tournament, or every problem located (``big_prize.*``).

    ``finalists`` may be omitted when the formula allows one number only (25 deals: 20).
    The formulas are for individual tournaments (« les 20 meilleurs scores »: players)."""
    problems: list[Problem] = []
    try:
        chosen = BigPrizeFormula(formula)
    except ValueError:
        raise RuleViolation.single(
            "big_prize.formula",
            "unknown_big_prize_formula",
            f"{formula!r} is not a big-prize formula; the formulas are "
            f"{', '.join(f.value for f in BigPrizeFormula)}.",
            {"value": str(formula), "formulas": ", ".join(f.value for f in BigPrizeFormula)},
        ) from None
    rules = FORMULAS[chosen]
    if finalists is None and len(rules.finalists) == 1:
        finalists = rules.finalists[0]
    if finalists not in rules.finalists:
        allowed = ", ".join(str(n) for n in rules.finalists)
        problems.append(
            Problem(
                "big_prize.finalists",
                "big_prize_finalists_not_allowed",
                f"The {chosen.value} formula lets the {allowed} best scores play on, "
                f"not {finalists}.",
                {"formula": chosen.value, "finalists": str(finalists), "allowed": allowed},
            )
        )
    if str(format) != Format.INDIVIDUAL.value:
        problems.append(
            Problem(
                "big_prize.formula",
                "big_prize_individual_only",
                "A big-prize formula is for individual tournaments (the best scores are players).",
                {"format": str(format)},
            )
        )
    if problems:
        raise RuleViolation(problems)
    assert finalists is not None
    return BigPrizePlan(
        chosen,
        finalists,
        rules.common_positions,
        rules.common_deals_per_position,
        rules.final_positions,
        rules.final_deals_per_position,
    )


def starting_layout(finalists: int) -> tuple[TableSeats, ...]:
    """The finalists' starting layout: table t seats ranks t, t+T, t+2T, t+3T (N, S, E, W)."""
    if finalists < 4 or finalists % 4:
        raise RuleViolation.single(
            "finalists",
            "big_prize_finalists_not_allowed",
            f"{finalists} finalists do not fill tables of 4.",
            {"formula": "", "finalists": str(finalists), "allowed": "12, 16, 20"},
        )
    tables = finalists // 4
    return tuple(
        TableSeats(t, t, t + tables, t + 2 * tables, t + 3 * tables) for t in range(1, tables + 1)
    )


def final_positions(plan: BigPrizePlan) -> tuple[tuple[TableSeats, ...], ...]:
    """Every final position's tables, by finalist rank: the starting layout, then (25 deals)
    the normal movement N fixed, S + 1, E + 2, W − 2 around the finalists' tables."""
    start = starting_layout(plan.finalists)
    tables = len(start)
    positions = []
    for k in range(plan.final_positions):

        def at(offset: int, t: int, k: int = k) -> int:
            """The table whose starting player of this orientation reaches table t."""
            return (t - 1 - offset * k) % tables

        positions.append(
            tuple(
                TableSeats(
                    t,
                    start[t - 1].north,
                    start[at(1, t)].south,
                    start[at(2, t)].east,
                    start[at(-2, t)].west,
                )
                for t in range(1, tables + 1)
            )
        )
    return tuple(positions)


def finalists_of(ranking: Sequence[tuple[str, int]], plan: BigPrizePlan) -> tuple[str, ...]:
    """The entries that play on, best first, from the ranking after the common positions
    (entry, place in the "1224" convention). A tie across the cut is refused: the text
    names the best *scores*, and the arbiter decides who of the tied plays on."""
    ordered = sorted(ranking, key=lambda e: e[1])
    if len(ordered) <= plan.finalists:
        raise RuleViolation.single(
            "ranking",
            "big_prize_field_too_small",
            f"{len(ordered)} players: a final of the {plan.finalists} best scores needs more.",
            {"players": len(ordered), "finalists": plan.finalists},
        )
    last_in, first_out = ordered[plan.finalists - 1], ordered[plan.finalists]
    if last_in[1] == first_out[1]:
        tied = [e for e, place in ordered if place == last_in[1]]
        raise RuleViolation.single(
            "ranking",
            "big_prize_tie_at_cut",
            f"Entries {', '.join(tied)} are level across the cut of the {plan.finalists} "
            "best scores: the arbiter decides who plays on.",
            {"entries": ", ".join(tied), "finalists": plan.finalists},
        )
    return tuple(e for e, _ in ordered[: plan.finalists])
