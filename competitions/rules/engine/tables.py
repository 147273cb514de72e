"""Table sizes and the seats (orientations) they use.

A table seats 4 players (the rule), 3 (when the number of players is not a
multiple of 4, the North seat of the highest table is removed: chapter 2,
"Accueil des joueurs") or 5 (small, non-homologable tournaments: chapter 1,
"Le jeu à 5 joueurs"). The regulations name no fifth orientation; this
service calls it ``FIFTH``.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Orientation(StrEnum):
    """A seat at a table, as written on the score sheet (feuille de marque)."""

    N = "N"  # Nord
    S = "S"  # Sud
    E = "E"  # Est
    W = "W"  # Ouest
    FIFTH = "5"  # cinquième joueur d'une table de 5 (no name in the regulations)


_SEAT_WORDS: dict[str, str] = {"N": "Nord", "S": "Sud", "E": "Est", "W": "Ouest", "5": "5e"}


def seat_word(seat: str) -> str:
    """A seat's code (N, S, E, W, 5) as a French reader names it: « Nord », « Sud »,
    « Est », « Ouest », « 5e »; an unknown code as it is. The one place for these words."""
    return _SEAT_WORDS.get(str(seat), str(seat))


def seat_letter(seat: str) -> str:
    """The word's initial, as a French score sheet heads its columns: N, S, E, O, 5."""
    return seat_word(seat)[:1]


class TableSize(IntEnum):
    """How many players sit at a table."""

    THREE = 3
    FOUR = 4
    FIVE = 5


_SEATS: dict[TableSize, tuple[Orientation, ...]] = {
    TableSize.THREE: (Orientation.S, Orientation.E, Orientation.W),
    TableSize.FOUR: (Orientation.N, Orientation.S, Orientation.E, Orientation.W),
    TableSize.FIVE: (
        Orientation.N,
        Orientation.S,
        Orientation.E,
        Orientation.W,
        Orientation.FIFTH,
    ),
}


def seats(size: TableSize) -> tuple[Orientation, ...]:
    """The seats used at a table of ``size`` players, in sheet order (N, S, E, W, fifth)."""
    return _SEATS[TableSize(size)]
