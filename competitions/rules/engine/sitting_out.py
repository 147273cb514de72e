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

from competitions.rules.engine.tables import Orientation, TableSize, seats
from core.problems import Problem

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
            {"deal": k + 1, "seat": str(morts[k]), "expected": "/".join(possible)},
        )
    ]


def times_sitting_out(lines: Sequence[MortLine]) -> dict[Orientation, int]:
    """How many deals each seat sat out, not counting passed deals (dealt again)."""
    counts = dict.fromkeys(seats(TableSize.FIVE), 0)
    for line in lines:
        if not line.passed:
            counts[line.sitting_out] += 1
    return counts
