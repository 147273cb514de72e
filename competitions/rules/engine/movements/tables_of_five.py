"""Tables of 5 with a mort (fasc. 457, « certains petits tournois libres dont le nombre de
joueurs n'est pas multiple de 4 peuvent inclure des tables de 5 joueurs »): the players after
the full tables' are each the fifth player of a table, moving up by one step a position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from competitions.rules.engine.movements.checker import check_plan
from competitions.rules.engine.movements.plan import MovementPlan, PositionSeats, repeats_of
from core.problems import RuleViolation


def with_fifth_players(base: MovementPlan, players: int) -> MovementPlan:
    """``base``, the plan of the ``players // 4`` full tables, with the ``players % 4``
    others as fifth players, who start at the highest tables (or spread over the room) and
    all move up by one step a position, so that two of them never share a table. Among the
    steps and the two starts, the plan takes the one making the fewest pairs meet again,
    then the fewest players sit at a table of 5 twice, then three times (first step and
    start on a tie). Every repeat is reported; a fifth player's meetings are never a fault
    of the plan (as far as possible, not always: 4 new opponents at each position cannot
    always be found)."""
    tables, extra = divmod(players, 4)
    fifth = tuple(range(4 * tables + 1, 4 * tables + extra + 1))
    at_tables = [tuple(t.numbers for t in seats.tables) for seats in base.positions]
    starts_options = [
        tuple(tables - j for j in range(extra)),
        tuple(tables - j * (tables // extra) for j in range(extra)),
    ]
    best: tuple[tuple[int, int, int], int, tuple[int, ...]] | None = None
    for step in range(1, tables):
        for starts in dict.fromkeys(starts_options):
            cost = _fifth_cost(at_tables, starts, step, tables)
            if best is None or cost < best[0]:
                best = (cost, step, starts)
    assert best is not None  # tables >= 3: at least two steps
    _, step, starts = best
    seats = tuple(
        PositionSeats(
            position=position.position,
            row=position.row,
            moves=position.moves,
            tables=tuple(
                replace(
                    table,
                    fifth=next(
                        (
                            number
                            for number, start in zip(fifth, starts, strict=True)
                            if _fifth_table(start, step, p, tables) == table.table
                        ),
                        None,
                    ),
                )
                for table in position.tables
            ),
        )
        for p, position in enumerate(base.positions)
    )
    plan = replace(
        base,
        players=players,
        positions=seats,
        repeats=repeats_of(seats),
        fifth_players=fifth,
        fifth_step=step,
    )
    problems = check_plan(plan)
    if problems:  # pragma: no cover - a fifth seat never breaks the full tables' plan
        raise RuleViolation(problems)
    return plan


def _fifth_table(start: int, step: int, index: int, tables: int) -> int:
    """The table of a fifth player starting at ``start`` at the ``index``-th position (from 0)."""
    return (start - 1 + step * index) % tables + 1


def _fifth_cost(
    at_tables: Sequence[tuple[tuple[int, ...], ...]],
    starts: tuple[int, ...],
    step: int,
    tables: int,
) -> tuple[int, int, int]:
    """Pairs meeting again, players at a table of 5 twice, three times or more."""
    meetings: Counter[tuple[int, int]] = Counter()
    at_five: Counter[int] = Counter()
    for index, row in enumerate(at_tables):
        for j, start in enumerate(starts):
            for number in row[_fifth_table(start, step, index, tables) - 1]:
                meetings[(j, number)] += 1
                at_five[number] += 1
    return (
        sum(1 for n in meetings.values() if n > 1),
        sum(1 for n in at_five.values() if n > 1),
        sum(1 for n in at_five.values() if n > 2),
    )
