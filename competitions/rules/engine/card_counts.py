"""What the 78 cards allow a deal to end with: the attack's oudlers and points.

Source: fascicule 2, chapter 1 ("Les cartes", "La distribution", "Le chien et l'écart",
"Le chelem", "Le jeu de la carte", "Le jeu à 3 joueurs", "Le jeu à 5 joueurs"). The
attack's count is the value of the cards it ends the deal with (its *pile*); which piles
a deal allows follows from the deal, the chien and the tricks:

- every card is worth ½ point more than its *extra*: an oudler or a king 4, a queen 3,
  a knight 2, a jack 1, any of the 59 other cards 0 (91 points in all);
- each player plays one card a trick: a trick holds ``size`` cards and a deal has
  ``(78 − chien) / size`` tricks (chien: 6 cards at 3 and 4 players, 3 at 5);
- the chien counts for the attack as its écart (prise, garde: never a king nor an oudler)
  or unseen (garde sans), for the defence on a garde contre;
- the excuse never wins a trick but stays with its side, which gives a low card instead,
  so the piles keep their number of cards; except when its side takes no trick at all:
  then it "compte pour 4 points" (the defence's excuse on an attack's chelem, and, read
  the same way, the attack's excuse on a defence's chelem).

So, with ``t`` the attack's tricks:

- no chelem (1 ≤ t < tricks): the attack holds ``size × t`` cards, plus the chien when it
  is the attack's, any of them, but the écart's cards are no king and no oudler;
- chelem by the attack: every card but the chien on a garde contre, and but the excuse
  (counted 4 points) when a defender held it;
- chelem by the defence: the chien when it is the attack's (the écart, or the whole
  chien on a garde sans), nothing on a garde contre, plus the excuse (counted 4 points)
  when the attack held it.

:func:`possible_counts` lists every (oudlers, points) these piles give: an exact
characterisation, computed once per case by counting the cards of each kind. What the
play itself allows (who can win which trick) is not modelled. See
``docs/engine-scoring.md``.
"""

from __future__ import annotations

import functools
import itertools
from enum import StrEnum
from fractions import Fraction

from competitions.rules.engine.tables import TableSize

CHIEN_CARDS = {TableSize.THREE: 6, TableSize.FOUR: 6, TableSize.FIVE: 3}
"""The chien: 6 cards at 3 and 4 players, 3 at 5."""
DECK = 78
OUDLERS = 3
LOW_CARDS = 59  # the 40 suit cards from 1 to 10 and the 19 trumps from 2 to 20
HONOURS_OF_A_RANK = 4  # kings, queens, knights, jacks
# In half points: every card 1, plus its extra (oudler or king 8, queen 6, knight 4, jack 2).
OUDLER_EXTRA = 8
EXCUSE_ALONE = 8  # "compte pour 4 points": the lone excuse, in half points
ALL_CARDS = 182  # 91 points


class Talon(StrEnum):
    """Whose the chien is at the end of the deal, as the contract says."""

    ECART = "ecart"
    """Prise, garde: the taker's écart counts for the attack; it holds no king, no oudler."""
    CHIEN_FOR_ATTACK = "chien_for_attack"
    """Garde sans: the unseen chien counts for the attack."""
    CHIEN_FOR_DEFENCE = "chien_for_defence"
    """Garde contre: the unseen chien counts for the defence."""


class Tricks(StrEnum):
    """How the tricks were shared."""

    SHARED = "shared"
    """Each side took at least one trick."""
    ALL_TO_ATTACK = "all_to_attack"
    """Chelem by the attack."""
    ALL_TO_DEFENCE = "all_to_defence"
    """Chelem by the defence."""


def tricks_per_deal(size: TableSize) -> int:
    """Tricks in a deal: 24 at 3 players, 18 at 4, 15 at 5."""
    return (DECK - CHIEN_CARDS[size]) // int(size)


# Every choice of kings, queens, knights and jacks: (cards, kings, extra in half points).
_HONOURS = frozenset(
    (kings + queens + knights + jacks, kings, 8 * kings + 6 * queens + 4 * knights + 2 * jacks)
    for kings, queens, knights, jacks in itertools.product(range(HONOURS_OF_A_RANK + 1), repeat=4)
)

Pile = tuple[int, int]
"""(oudlers, half points) of a set of cards."""


def _piles(
    cards: int, *, kings_and_oudlers_at_most: int = OUDLERS + HONOURS_OF_A_RANK
) -> set[Pile]:
    """Every (oudlers, half points) of ``cards`` cards holding at most that many kings and
    oudlers together."""
    found: set[Pile] = set()
    for oudlers in range(OUDLERS + 1):
        for honours, kings, extra in _HONOURS:
            low = cards - oudlers - honours
            if 0 <= low <= LOW_CARDS and oudlers + kings <= kings_and_oudlers_at_most:
                found.add((oudlers, cards + OUDLER_EXTRA * oudlers + extra))
    return found


@functools.cache
def possible_counts(
    size: TableSize, talon: Talon, tricks: Tricks
) -> frozenset[tuple[int, Fraction]]:
    """Every (oudlers, points) the attack can end a deal with; see the module's docstring."""
    chien = CHIEN_CARDS[size]
    found: set[Pile] = set()
    if tricks is Tricks.SHARED:
        for taken in range(1, tricks_per_deal(size)):
            in_tricks = int(size) * taken
            if talon is Talon.ECART:  # the écart's cards are no king and no oudler
                found |= _piles(in_tricks + chien, kings_and_oudlers_at_most=in_tricks)
            elif talon is Talon.CHIEN_FOR_ATTACK:
                found |= _piles(in_tricks + chien)
            else:
                found |= _piles(in_tricks)
    elif tricks is Tricks.ALL_TO_ATTACK:
        defence = _piles(chien) if talon is Talon.CHIEN_FOR_DEFENCE else {(0, 0)}
        for oudlers, half_points in defence:
            found.add((OUDLERS - oudlers, ALL_CARDS - half_points))
            if oudlers < OUDLERS:  # and a defender kept the excuse
                found.add((OUDLERS - oudlers - 1, ALL_CARDS - half_points - EXCUSE_ALONE))
    else:
        attack = {
            Talon.ECART: _piles(chien, kings_and_oudlers_at_most=0),
            Talon.CHIEN_FOR_ATTACK: _piles(chien),
            Talon.CHIEN_FOR_DEFENCE: {(0, 0)},
        }[talon]
        for oudlers, half_points in attack:
            found.add((oudlers, half_points))
            if oudlers < OUDLERS:  # and the attack kept the excuse
                found.add((oudlers + 1, half_points + EXCUSE_ALONE))
    return frozenset((oudlers, Fraction(half, 2)) for oudlers, half in found)


def points_range(
    counts: frozenset[tuple[int, Fraction]], oudlers: int
) -> tuple[Fraction, Fraction] | None:
    """The fewest and most points possible with ``oudlers`` oudlers (``None``: no count)."""
    points = [p for k, p in counts if k == oudlers]
    return (min(points), max(points)) if points else None
