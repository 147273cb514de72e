"""A table of 5 inside a tournament: each deal, one player (*le mort*) sits out.

Chapter 1, "Le jeu à 5 joueurs", preamble (fasc. 457-459): « Certains petits tournois
libres dont le nombre de joueurs n'est pas multiple de 4 peuvent inclure des tables de 5
joueurs. Dans ce cas, un des joueurs (le mort) procède à la distribution aux 4 autres
joueurs et ne prend part à la partie en cours. Le mort ne compte pas dans les comptes de
cette partie. Chaque joueur est « mort » à tour de rôle dans le sens du jeu, et procède à
la distribution tant que personne ne prend. »

This is not the 5-player game (called king, 3 cards to the chien), which the same section
then describes and of which it says « Les tournois à 5 joueurs ne sont pas homologables »:
at a table of 5 *with a mort* the four others play the ordinary 4-player game, and the
mort marks 0 for that deal.

Readings (``docs/engine-scoring.md``, "Tables of 5"):

- the mort is the dealer: he deals each deal his turn lasts;
- « tant que personne ne prend »: when the four players all pass, the same mort deals
  again, so a passed line keeps the mort; any other line (a deal played, or annulled by
  the arbiter) hands the deal to the next player;
- « à tour de rôle dans le sens du jeu »: the game turns anticlockwise (the player at
  the dealer's right speaks and deals next, fasc. 228-230), so around the compass seats
  North → West → South → East; the sheet does not say where the fifth seat sits, so the
  fifth player may come between any two of them, as long as the order stays the same for
  the whole sheet. There are four such cycles; a sheet's morts must follow one of them.
  The first mort is any seat (the first dealer is drawn, fasc. 194).

Consequently, over the lines that hand the deal on, every player is mort once in each run
of five: over ``n`` such lines each player sits out ``n // 5`` or ``n // 5 + 1`` of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

from competitions.rules.engine.scoring import (
    DEFAULT_SCORING_RULES,
    Deal,
    DealScore,
    ScoringRules,
    score_deal,
    shown,
)
from competitions.rules.engine.tables import Orientation, TableSize, seat_word, seats
from core.problems import Problem, RuleViolation

GAME_DIRECTION: tuple[Orientation, ...] = (
    Orientation.N,
    Orientation.W,
    Orientation.S,
    Orientation.E,
)
"""The compass seats in the order the deal passes (anticlockwise, « dans le sens du jeu »)."""


def rotations() -> tuple[tuple[Orientation, ...], ...]:
    """The four orders in which the mort may go round a table of 5, each starting at North.

    The fifth seat comes after North, West, South or East.
    """
    return tuple(
        (*GAME_DIRECTION[: k + 1], Orientation.FIFTH, *GAME_DIRECTION[k + 1 :]) for k in range(4)
    )


def in_play(sitting_out: Orientation) -> tuple[Orientation, ...]:
    """The four seats playing a deal that ``sitting_out`` sits out, in sheet order."""
    return tuple(seat for seat in seats(TableSize.FIVE) if seat != sitting_out)


def score_deal_sitting_out(
    deal: Deal, sitting_out: object, rules: ScoringRules = DEFAULT_SCORING_RULES
) -> DealScore:
    """Score a deal of a table of 5 that ``sitting_out`` sits out: the four others play the
    4-player game (``deal.table_size`` is 4) and the mort marks 0.

    Raises :class:`RuleViolation` with every problem (a mort who is no seat of a table of 5,
    a deal not at 4 players, the deal's own problems).
    """
    try:
        mort = Orientation(sitting_out)  # type: ignore[arg-type]  # any value is checked
    except (ValueError, TypeError):
        mort = None
    if mort is None:
        raise RuleViolation.single(
            "sitting_out",
            "sitting_out_not_at_table",
            f"{shown(sitting_out)} cannot sit out: it is no seat of a table of 5 "
            f"({', '.join(seats(TableSize.FIVE))}).",
            {"deal": 1, "seat": shown(sitting_out), "seats": ", ".join(seats(TableSize.FIVE))},
        )
    if deal.table_size != TableSize.FOUR:
        raise RuleViolation.single(
            "table_size",
            "sitting_out_deal_not_at_four",
            f"The deal is scored for {shown(deal.table_size)} players but at a table of 5 with "
            f"a player sitting out (le mort) the four others play the 4-player game.",
            {"deal": 1, "table_size": shown(deal.table_size), "size": 4},
        )
    score = score_deal(deal, rules, in_play=in_play(mort))
    marks = MappingProxyType({seat: score.marks.get(seat, 0) for seat in seats(TableSize.FIVE)})
    return DealScore(base=score.base, marks=marks, breakdown=score.breakdown)


@dataclass(frozen=True, slots=True)
class MortLine:
    """What the rotation needs of a sheet's line: who sat out, and whether all passed."""

    sitting_out: Orientation
    passed: bool  # everyone passed: the same mort deals again


def expected_morts(
    first: Orientation, rotation: Sequence[Orientation], passed: Sequence[bool]
) -> list[Orientation]:
    """The mort of each line when the first is ``first`` and the deal goes round ``rotation``."""
    morts = []
    current = rotation.index(first)
    for was_passed in passed:
        morts.append(rotation[current])
        if not was_passed:
            current = (current + 1) % len(rotation)
    return morts


def rotation_problems(lines: Sequence[MortLine], prefix: str = "deals") -> list[Problem]:
    """The first line where the morts of ``lines`` leave every rotation allowed, if any.

    Empty when some rotation (:func:`rotations`) gives exactly these morts.
    """
    if not lines:
        return []
    passed = [line.passed for line in lines]
    morts = [line.sitting_out for line in lines]
    best_wrong, expecteds = -1, set[Orientation]()
    for rotation in rotations():
        expected = expected_morts(morts[0], rotation, passed)
        wrong = next(
            (k for k, (a, b) in enumerate(zip(morts, expected, strict=True)) if a != b), None
        )
        if wrong is None:
            return []
        if wrong > best_wrong:
            best_wrong, expecteds = wrong, set[Orientation]()
        if wrong == best_wrong:
            expecteds.add(expected[wrong])
    k = best_wrong
    previous = lines[k - 1]
    possible = [seat for seat in seats(TableSize.FIVE) if seat in expecteds]
    expected_text = " or ".join(possible)
    if previous.passed:
        why = (
            f"everyone passed on deal {k}, so {previous.sitting_out} deals again and sits out "
            f"deal {k + 1}"
        )
    else:
        why = (
            "each player sits out in turn in the direction of play (North, West, South, East, "
            "the fifth seat keeping its place in the turn), so deal "
            f"{k + 1} is sat out by {expected_text}"
        )
    return [
        Problem(
            f"{prefix}[{k}].sitting_out",
            "sitting_out_out_of_turn",
            f"Deal {k + 1}: {morts[k]} sits out (le mort) but {why}.",
            {
                "deal": k + 1,
                "seat": str(morts[k]),
                "expected": "/".join(possible),
                "seat_word": seat_word(morts[k]),
                "expected_words": " ou ".join(seat_word(seat) for seat in possible),
            },
        )
    ]


def times_sitting_out(lines: Sequence[MortLine]) -> dict[Orientation, int]:
    """How many deals each seat sat out, not counting passed deals (dealt again)."""
    counts = dict.fromkeys(seats(TableSize.FIVE), 0)
    for line in lines:
        if not line.passed:
            counts[line.sitting_out] += 1
    return counts
