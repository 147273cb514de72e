"""A movement plan: who sits where at every table of every position, by starting number,
with each player's personal sheet and every repeat (a second table of 3 or of 5, a second
meeting)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from competitions.rules.engine.movements.printed import (
    SEAT_ORDER,
    MovementKind,
    Moves,
    starting_seat,
)
from competitions.rules.engine.movements.settings import ShortTableRule
from competitions.rules.engine.tables import Orientation
from core.problems import RuleViolation
from core.vocabulary import Format


class RepeatKind(StrEnum):
    """What a plan's repeat report lists."""

    SHORT_TABLE = "short_table"
    """One player at a table of 3 players at more than one position."""
    MEETING = "meeting"
    """Two players at one table at more than one position (the printed 3-table Howell, and
    the fifth player of a table of 5)."""
    TABLE_OF_FIVE = "table_of_five"
    """One player at a table of 5 (with a mort) at more than one position."""


@dataclass(frozen=True, slots=True)
class TableSeats:
    """Who sits where at one table for one position; ``None`` is an empty seat."""

    table: int
    north: int | None
    south: int | None
    east: int | None
    west: int | None
    fifth: int | None = None
    """The fifth player of a table of 5 (a mort sits out each deal in turn), if any."""

    def number_at(self, orientation: Orientation) -> int | None:
        if orientation is Orientation.FIFTH:
            return self.fifth
        return self.seats[SEAT_ORDER.index(orientation)]

    @property
    def seats(self) -> tuple[int | None, int | None, int | None, int | None]:
        """The four seats in N, S, E, W order."""
        return (self.north, self.south, self.east, self.west)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The players seated, in N, S, E, W (then fifth) order."""
        return tuple(n for n in (*self.seats, self.fifth) if n is not None)

    @property
    def is_short(self) -> bool:
        """A table of 3 players (table à 3 joueurs)."""
        return len(self.numbers) == 3


@dataclass(frozen=True, slots=True)
class PositionSeats:
    """The seats of every table for one played position."""

    position: int
    """Played position, from 1."""
    row: int
    """Row of the printed movement: the position itself, or position + 1 in a team tournament
    (its first played position is the movement's second)."""
    moves: Moves | None
    """Normal movement: how S, E, W moved to reach this row (announced by the arbiter);
    ``None`` for the movement's first row and for Howell movements."""
    tables: tuple[TableSeats, ...]


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of a player's personal sheet (fiche individuelle / fiche personnelle)."""

    position: int
    table: int
    orientation: Orientation


@dataclass(frozen=True, slots=True)
class Repeat:
    """Who sits again at a table of 3 players, or meets an opponent again, and when."""

    kind: RepeatKind
    players: tuple[int, ...]
    """One starting number (a table of 3) or two (a meeting)."""
    positions: tuple[int, ...]
    """Every played position where it happens, in order (at least two)."""
    tables: tuple[int, ...]
    """The table at each of those positions."""


@dataclass(frozen=True, slots=True)
class MovementPlan:
    """Every position of a tournament, by starting number."""

    format: Format
    kind: MovementKind
    tables: int
    players: int
    vacant: tuple[int, ...]
    """Starting numbers with no player: the North seats removed for tables of 3 players (with
    an odd number of duos, the last duo's two seats)."""
    teams: tuple[tuple[int, ...], ...]
    """Partners by starting number (duo: N/S or E/W of a table; team of 4: a whole table);
    a removed duo is not listed."""
    repeats_allowed: bool
    """True only for the printed 3-table Howell, which itself repeats meetings."""
    short_table_rule: ShortTableRule
    """Whether a player may sit at a table of 3 more than once (then reported)."""
    positions: tuple[PositionSeats, ...]
    repeats: tuple[Repeat, ...]
    """Every player at a table of 3 more than once, every player at a table of 5 more than
    once, then every pair meeting more than once (:func:`repeats_of`)."""
    fifth_players: tuple[int, ...] = ()
    """With tables of 5: the starting numbers after ``4 × tables``, each the fifth player of
    a table at every position (:attr:`MovementSettings.tables_of_five`)."""
    fifth_step: int = 0
    """With tables of 5: the tables the fifth players move up by between positions."""

    @property
    def numbers(self) -> tuple[int, ...]:
        """The starting numbers of the players present."""
        vacant = set(self.vacant)
        return (
            *(n for n in range(1, 4 * self.tables + 1) if n not in vacant),
            *self.fifth_players,
        )

    @property
    def homologable(self) -> bool:
        """Always true: a table of 5 with a mort plays the 4-player game and keeps the
        tournament homologable (docs/rankings-pcn.md R17); « les tournois à 5 joueurs ne
        sont pas homologables » (fasc. 461) is the called-king game, which no plan seats."""
        return True

    def starting_seat_of(self, number: int) -> tuple[int, Orientation]:
        """The table and seat of ``number`` at the plan's first row (a fifth player's
        table at the first played position)."""
        if number in self.fifth_players:
            first = self.positions[0]
            return next(t.table for t in first.tables if t.fifth == number), Orientation.FIFTH
        return starting_seat(number)

    def position(self, position: int) -> PositionSeats:
        if not 1 <= position <= len(self.positions):
            raise RuleViolation.single(
                "position",
                "unknown_position",
                f"Position {position} is not in this plan, which has "
                f"{len(self.positions)} positions.",
                {"position": position, "positions": len(self.positions)},
            )
        return self.positions[position - 1]

    def short_tables(self, position: int) -> tuple[int, ...]:
        """Tables played by 3 players at ``position``."""
        return tuple(t.table for t in self.position(position).tables if t.is_short)

    def personal_sheet(self, number: int) -> tuple[SheetLine, ...]:
        """The fiche individuelle of player ``number``: table and orientation at each position."""
        if number not in self.numbers:
            raise RuleViolation.single(
                "number",
                "unknown_number",
                f"No player has starting number {number}: this plan seats numbers 1 to "
                f"{4 * self.tables + len(self.fifth_players)}"
                + (f" except {listed(self.vacant)}." if self.vacant else "."),
                {"number": number, "last": 4 * self.tables + len(self.fifth_players)},
            )
        lines = []
        for seats in self.positions:
            for table in seats.tables:
                if number in table.seats:
                    orientation = SEAT_ORDER[table.seats.index(number)]
                    lines.append(SheetLine(seats.position, table.table, orientation))
                elif table.fifth == number:
                    lines.append(SheetLine(seats.position, table.table, Orientation.FIFTH))
        return tuple(lines)


def repeats_of(positions: Iterable[PositionSeats]) -> tuple[Repeat, ...]:
    """Every player seated at a table of 3 at more than one position (by number), every
    player at a table of 5 at more than one position, then every pair of players at one
    table at more than one position (by pair), with the positions and tables where it
    happens."""
    short: dict[int, list[tuple[int, int]]] = defaultdict(list)
    five: dict[int, list[tuple[int, int]]] = defaultdict(list)
    meetings: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for seats in positions:
        for table in seats.tables:
            present = table.numbers
            if len(present) == 3:
                for number in present:
                    short[number].append((seats.position, table.table))
            if len(present) == 5:
                for number in present:
                    five[number].append((seats.position, table.table))
            for pair in combinations(sorted(present), 2):
                meetings[pair].append((seats.position, table.table))
    found: list[tuple[RepeatKind, tuple[int, ...], list[tuple[int, int]]]] = sorted(
        (RepeatKind.SHORT_TABLE, (n,), seen) for n, seen in short.items() if len(seen) > 1
    )
    found += sorted(
        (RepeatKind.TABLE_OF_FIVE, (n,), seen) for n, seen in five.items() if len(seen) > 1
    )
    found += sorted(
        (RepeatKind.MEETING, pair, seen) for pair, seen in meetings.items() if len(seen) > 1
    )
    return tuple(
        Repeat(
            kind=kind,
            players=players,
            positions=tuple(position for position, _ in seen),
            tables=tuple(table for _, table in seen),
        )
        for kind, players, seen in found
    )


def listed(numbers: Iterable[int]) -> str:
    """Starting numbers for a message: ``1, 5, 9``."""
    return ", ".join(str(n) for n in numbers)
