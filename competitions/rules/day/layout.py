"""A drawn session's layout: at every position, every table and its seats by starting number,
and who holds each starting number (an entry's member). What a played session stores (its
``plan`` and ``seating``), read back by the score entry, the printouts and the results.

The layout comes from the engine's movement plan (:func:`layout_of`); its JSON form is
plain: ``{"format": "individual", "deals_per_position": 4, "positions": [[{"table": 1,
"seats": {"N": 1, "S": 2, "E": 3, "W": 4}}, ...], ...]}`` (seat ``"5"``: a table of 5's fifth
player). A seating is ``{"<starting number>": {"entry": 7, "member": 1}}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from competitions.rules.engine.movements.plan import MovementPlan, PositionSeats, TableSeats
from competitions.rules.engine.movements.printed import SEAT_ORDER, MovementKind, tables_for
from competitions.rules.engine.movements.settings import ShortTableRule
from competitions.rules.engine.tables import Orientation
from core.problems import RuleViolation
from core.vocabulary import Format

SHEET_ORDER: tuple[Orientation, ...] = (*SEAT_ORDER, Orientation.FIFTH)
"""The seats in the order a score sheet lists them: N, S, E, W, then a table of 5's fifth."""


@dataclass(frozen=True, slots=True)
class TableAt:
    """One table at one position: its seats (only those taken), by starting number."""

    position: int
    table: int
    seats: Mapping[Orientation, int]

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True, slots=True)
class SessionLayout:
    """Every table of every position of a session, and how many deals a position has."""

    format: Format
    deals_per_position: int
    positions: tuple[tuple[TableAt, ...], ...]

    def tables_at(self, position: int) -> tuple[TableAt, ...]:
        if not 1 <= position <= len(self.positions):
            raise RuleViolation.single(
                "position",
                "unknown_position",
                f"Position {position} is not in this session, which has "
                f"{len(self.positions)} positions.",
                {"position": position, "positions": len(self.positions)},
            )
        return self.positions[position - 1]

    def table(self, position: int, table: int) -> TableAt:
        for found in self.tables_at(position):
            if found.table == table:
                return found
        raise RuleViolation.single(
            "table",
            "unknown_table",
            f"Table {table} does not play position {position}.",
            {"table": table, "position": position},
        )

    def seat_of(self, number: int, position: int) -> TableAt | None:
        """The table where starting number ``number`` sits at ``position`` (None: nowhere)."""
        for found in self.tables_at(position):
            if number in found.seats.values():
                return found
        return None


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a starting number: an entry (by its number) and which of its members."""

    entry: int
    member: int = 1


def layout_of(plan: MovementPlan, deals_per_position: int) -> SessionLayout:
    """The layout of an engine plan, with ``deals_per_position`` deals at each position."""
    positions = []
    for seats in plan.positions:
        tables = []
        for table in seats.tables:
            taken = {
                orientation: number
                for orientation in SHEET_ORDER
                if (number := table.number_at(orientation)) is not None
            }
            tables.append(TableAt(seats.position, table.table, taken))
        positions.append(tuple(tables))
    return SessionLayout(Format(plan.format), deals_per_position, tuple(positions))


MOVEMENT_FROM = 9
"""The regulations' movements start at 3 tables (9 players)."""


def single_position_plan(players: int) -> MovementPlan | None:
    """One position of an individual tournament seated without a movement, for a field
    too small for one (a phase of one position after a cut: the « dernière position jouée
    à 4 joueurs » of chapter 3, art. 3): tables of 4, the last ``4 − players mod 4`` at 3
    with their North seat removed, as the FFT movement removes them; None when the field
    cannot be seated so (fewer than 3 players, or 5)."""
    tables = tables_for(players)
    short = 4 * tables - players
    if players < 3 or short > tables:
        return None
    vacant = tuple(4 * (t - 1) + 1 for t in range(tables - short + 1, tables + 1))
    seats = tuple(
        TableSeats(
            t,
            None if 4 * (t - 1) + 1 in vacant else 4 * (t - 1) + 1,
            4 * (t - 1) + 2,
            4 * (t - 1) + 3,
            4 * (t - 1) + 4,
        )
        for t in range(1, tables + 1)
    )
    return MovementPlan(
        format=Format.INDIVIDUAL,
        kind=MovementKind.HOWELL,
        tables=tables,
        players=players,
        vacant=vacant,
        teams=(),
        repeats_allowed=False,
        short_table_rule=ShortTableRule.BEST_EFFORT,
        positions=(PositionSeats(1, 1, None, seats),),
        repeats=(),
    )


def layout_to_json(layout: SessionLayout) -> dict[str, Any]:
    return {
        "format": layout.format.value,
        "deals_per_position": layout.deals_per_position,
        "positions": [
            [{"table": t.table, "seats": {o.value: n for o, n in t.seats.items()}} for t in tables]
            for tables in layout.positions
        ],
    }


def layout_from_json(data: Mapping[str, Any]) -> SessionLayout:
    """The layout a played session stored (written by :func:`layout_to_json`)."""
    positions = tuple(
        tuple(
            TableAt(
                index,
                int(t["table"]),
                {o: int(t["seats"][o.value]) for o in SHEET_ORDER if o.value in t["seats"]},
            )
            for t in tables
        )
        for index, tables in enumerate(data["positions"], start=1)
    )
    return SessionLayout(Format(data["format"]), int(data["deals_per_position"]), positions)


def with_phase(
    layout: SessionLayout,
    seating: Mapping[int, Holder],
    after_position: int,
    phase: SessionLayout,
    holders: Mapping[int, Holder],
) -> tuple[SessionLayout, dict[int, Holder]]:
    """A session's layout and seating with ``phase`` (the rest of the session after a cut
    between positions, drawn for the entries that play on) in place of whatever followed
    position ``after_position``: its positions numbered on from it, its starting numbers
    after those of the positions kept (so that a player holds one number per phase)."""
    before = layout.positions[:after_position]
    offset = max((n for tables in before for t in tables for n in t.seats.values()), default=0)
    appended = tuple(
        tuple(
            TableAt(
                after_position + t.position, t.table, {o: n + offset for o, n in t.seats.items()}
            )
            for t in tables
        )
        for tables in phase.positions
    )
    kept = {n: h for n, h in seating.items() if n <= offset}
    return (
        SessionLayout(layout.format, layout.deals_per_position, (*before, *appended)),
        kept | {n + offset: h for n, h in holders.items()},
    )


def seating_to_json(seating: Mapping[int, Holder]) -> dict[str, dict[str, int]]:
    return {
        str(number): {"entry": holder.entry, "member": holder.member}
        for number, holder in sorted(seating.items())
    }


def seating_from_json(data: Mapping[str, Mapping[str, int]]) -> dict[int, Holder]:
    return {
        int(number): Holder(int(held["entry"]), int(held.get("member", 1)))
        for number, held in data.items()
    }
