"""The movements as chapter 2 prints them: the seat numbering, the Howell FFT tables for 3
and 4 tables, and the normal FFT movement for 5 tables and more (its base moves, its special
cases, and the rows they give).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from competitions.rules.engine.tables import Orientation

SEAT_ORDER: tuple[Orientation, ...] = (Orientation.N, Orientation.S, Orientation.E, Orientation.W)
"""The four seats of a table in numbering and printing order (Nord, Sud, Est, Ouest)."""


class MovementKind(StrEnum):
    """Which movement of chapter 2 a plan follows."""

    HOWELL = "howell"  # Mouvement Howell FFT : 3 et 4 tables
    FFT_NORMAL = "fft_normal"  # Mouvement normal FFT : 5 tables et plus


@dataclass(frozen=True, slots=True)
class Moves:
    """Tables each orientation moves by to reach a position (North stays: "NORD reste fixe")."""

    south: int
    east: int
    west: int

    def of(self, orientation: Orientation) -> int:
        return {
            Orientation.N: 0,
            Orientation.S: self.south,
            Orientation.E: self.east,
            Orientation.W: self.west,
        }[orientation]

    def replaced(self, orientation: Orientation, tables: int) -> Moves:
        if orientation is Orientation.S:
            return Moves(tables, self.east, self.west)
        if orientation is Orientation.E:
            return Moves(self.south, tables, self.west)
        if orientation is Orientation.W:
            return Moves(self.south, self.east, tables)
        raise ValueError("North never moves in the FFT movement")


@dataclass(frozen=True, slots=True)
class HowellTable:
    """A printed Howell movement: for each position, the player numbers seated at table 1
    North, South, East, West, then table 2 North, ..., in printing order."""

    tables: int
    rows: tuple[tuple[int, ...], ...]
    repeats_allowed: bool
    """True when the printed movement itself makes players meet more than once."""
    duo_teams: tuple[tuple[int, int], ...] = ()
    """Partners of a duo tournament when they are not (1, 2), (3, 4), ...: pairs of numbers
    who start at one table and never share a table in the played rows (from the second)."""


@dataclass(frozen=True, slots=True)
class SpecialCase:
    """A table count whose normal movement is changed ("mouvements spéciaux")."""

    tables: tuple[int, ...]
    base: Moves
    """The movement between positions not listed in ``deviations`` (the table's header)."""
    deviations: tuple[tuple[int, Orientation, int], ...]
    """``(position, orientation, tables)``: to reach that position, that orientation moves by
    that many tables instead of its base move."""
    max_positions: int | None
    """The printed "(n positions maximum)", when the regulations print one."""


# Howell FFT, 3 tables, 12 players numbered 1 to 12: Fascicule 2, chapter 2, page 25,
# "3 TABLES : 12 JOUEURS NUMEROTES DE 1 à 12". This printed movement makes players meet up
# to four times (11 opponents cannot fill 6 positions of 3 opponents each).
HOWELL_3_TABLES = HowellTable(
    tables=3,
    rows=(
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
        (1, 2, 7, 12, 5, 6, 11, 3, 9, 10, 4, 8),
        (1, 8, 7, 10, 5, 2, 11, 12, 9, 3, 4, 6),
        (1, 8, 6, 11, 5, 2, 4, 10, 9, 3, 12, 7),
        (1, 9, 5, 3, 7, 11, 4, 10, 2, 6, 12, 8),
        (1, 9, 7, 2, 5, 11, 4, 12, 10, 6, 3, 8),
    ),
    repeats_allowed=True,
    # Six duos: these pairs start at one table and never share one in rows 2 to 6 (the
    # usual pairs (1, 2), (3, 4), ... sit together again at row 2).
    duo_teams=((1, 4), (2, 3), (5, 8), (6, 7), (9, 11), (10, 12)),
)

# Howell FFT, 4 tables, 16 players numbered 1 to 16: Fascicule 2, chapter 2, page 26,
# "4 TABLES : 16 JOUEURS NUMEROTES DE 1 à 16". Every pair of players meets exactly once.
HOWELL_4_TABLES = HowellTable(
    tables=4,
    rows=(
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16),
        (1, 8, 10, 15, 16, 9, 7, 2, 6, 3, 13, 12, 11, 14, 4, 5),
        (1, 7, 12, 14, 15, 9, 6, 4, 8, 2, 13, 11, 10, 16, 3, 5),
        (1, 6, 11, 16, 14, 9, 8, 3, 7, 4, 13, 10, 12, 15, 2, 5),
        (1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 16),
    ),
    repeats_allowed=False,
)

# "MOUVEMENT DE BASE PRECONISE PAR LA F.F.T.": page 26.
BASE_MOVES = Moves(south=+1, east=+2, west=-2)

_WEST_DOWN_ONE = Moves(south=+1, east=+2, west=-1)  # "ATTENTION : OUEST (-1)"

# The special-case tables, page 27. A row "3ème | | | +3 |" under "EST (+2)" means that to
# reach the 3rd position East moves 3 tables up instead of 2 (see docs/engine-movements.md
# for why the row is the position reached, not the one left).
SPECIAL_CASES: tuple[SpecialCase, ...] = (
    SpecialCase(
        tables=(6,),
        base=_WEST_DOWN_ONE,
        deviations=((3, Orientation.E, +3), (4, Orientation.W, -2)),
        max_positions=5,
    ),
    SpecialCase(
        tables=(8,),
        base=_WEST_DOWN_ONE,
        deviations=((5, Orientation.S, +2), (5, Orientation.E, +3), (6, Orientation.E, +4)),
        max_positions=6,
    ),
    SpecialCase(
        tables=(9,),
        base=BASE_MOVES,
        deviations=(
            (4, Orientation.E, +3),
            (4, Orientation.W, -3),
            (5, Orientation.E, +3),
            (5, Orientation.W, -3),
        ),
        max_positions=None,
    ),
    SpecialCase(
        tables=(10,),
        base=_WEST_DOWN_ONE,
        deviations=((6, Orientation.E, +3), (6, Orientation.W, -2)),
        max_positions=None,
    ),
    SpecialCase(
        tables=(12,),
        base=BASE_MOVES,
        deviations=((4, Orientation.W, -3), (7, Orientation.E, +3)),
        max_positions=None,
    ),
    SpecialCase(
        tables=(14, 15),
        base=BASE_MOVES,
        deviations=((5, Orientation.W, -3),),
        max_positions=None,
    ),
    SpecialCase(
        tables=(16,),
        base=BASE_MOVES,
        deviations=((5, Orientation.W, -3), (6, Orientation.W, -3)),
        max_positions=None,
    ),
    SpecialCase(
        tables=(18, 20),
        base=BASE_MOVES,
        deviations=((6, Orientation.W, -3),),
        max_positions=None,
    ),
)


def seat_number(table: int, orientation: Orientation) -> int:
    """The starting number of a seat: table 1 North is 1, South 2, East 3, West 4, table 2
    North 5, ... (the Howell tables' numbering)."""
    return 4 * (table - 1) + SEAT_ORDER.index(orientation) + 1


def starting_seat(number: int) -> tuple[int, Orientation]:
    """The table and orientation of starting number ``number`` at the movement's first row."""
    return (number - 1) // 4 + 1, SEAT_ORDER[(number - 1) % 4]


def tables_for(players: int) -> int:
    """Tables needed: 4 players a table, the last ones at 3 when ``players`` is not a multiple
    of 4."""
    return -(-players // 4)


def special_case(tables: int, special_cases: tuple[SpecialCase, ...]) -> SpecialCase | None:
    """The special case of ``tables`` tables, if it is one."""
    return next((s for s in special_cases if tables in s.tables), None)


def normal_rows(
    tables: int, rows: int, base_moves: Moves, special_cases: tuple[SpecialCase, ...]
) -> tuple[list[tuple[int, ...]], list[Moves | None]]:
    """Rows of the normal movement in Howell printing order, and the moves reaching each."""
    special = special_case(tables, special_cases)
    base = special.base if special else base_moves
    offsets = dict.fromkeys(SEAT_ORDER, 0)
    all_rows: list[tuple[int, ...]] = []
    all_moves: list[Moves | None] = [None]
    for row in range(1, rows + 1):
        if row > 1:
            moves = base
            for position, orientation, by in special.deviations if special else ():
                if position == row:
                    moves = moves.replaced(orientation, by)
            all_moves.append(moves)
            for orientation in SEAT_ORDER:
                offsets[orientation] += moves.of(orientation)
        shifts = [offsets[orientation] for orientation in SEAT_ORDER]
        all_rows.append(
            tuple(
                4 * ((table - shift) % tables) + seat + 1
                for table in range(tables)
                for seat, shift in enumerate(shifts)
            )
        )
    return all_rows, all_moves
