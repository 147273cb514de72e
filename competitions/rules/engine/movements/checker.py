"""Checking a movement plan: every fault, located (a seat with an unknown or removed number,
a player seated twice or missing, a table of fewer than 3, partners meeting, two players
meeting twice, a second table of 3 when the plan is strict, a team tournament whose partners
do not start at one table or that plays the movement's first row)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import combinations

from competitions.rules.engine.movements.plan import MovementPlan, listed
from competitions.rules.engine.movements.printed import SEAT_ORDER, starting_seat
from competitions.rules.engine.movements.settings import ShortTableRule
from competitions.rules.engine.tables import Orientation
from core.problems import Problem
from core.vocabulary import Format


def check_plan(
    plan: MovementPlan, partners: Iterable[Collection[int]] | None = None
) -> tuple[Problem, ...]:
    """Every fault of ``plan``, located: a seat with an unknown or removed number, a player
    seated twice or missing at a position, a table of fewer than 3 players, partners at the same
    table, and, unless the plan's movement repeats meetings by design (3-table Howell), two
    players meeting twice or, when the plan is strict about tables of 3, a player sitting twice
    at a table of 3.

    ``partners`` defaults to the plan's teams. In a team tournament (duo, team of 4) each
    team starts at one table and the first played position is the movement's second row
    (:func:`team_start_problems`).
    """
    problems: list[Problem] = team_start_problems(plan)
    expected = set(plan.numbers)
    vacant = set(plan.vacant)
    team_of: dict[int, int] = {}
    for index, team in enumerate(plan.teams if partners is None else partners):
        for member in team:
            team_of[member] = index
    met: dict[tuple[int, int], tuple[int, int]] = {}
    first_short: dict[int, int] = {}
    fifth_players = set(plan.fifth_players)  # their meetings are reported, never a fault
    for p, seats in enumerate(plan.positions):
        where = f"positions[{p}]"
        if seats.position != p + 1:
            problems.append(
                Problem(
                    f"{where}.position",
                    "position_numbering",
                    f"Position at index {p} is numbered {seats.position}; positions are "
                    "numbered from 1 in order.",
                    {"index": p, "position": seats.position},
                )
            )
        if [t.table for t in seats.tables] != list(range(1, plan.tables + 1)):
            problems.append(
                Problem(
                    f"{where}.tables",
                    "table_numbering",
                    f"Position {seats.position} lists tables "
                    f"{[t.table for t in seats.tables]}, expected 1 to {plan.tables} in order.",
                    {"position": seats.position, "tables": plan.tables},
                )
            )
        seen: set[int] = set()
        for t, table in enumerate(seats.tables):
            at = f"{where}.tables[{t}]"
            for orientation, number in (
                *zip(SEAT_ORDER, table.seats, strict=True),
                (Orientation.FIFTH, table.fifth),
            ):
                if number is None:
                    continue
                if number in expected and number not in seen:
                    seen.add(number)
                    continue
                field = f"{at}.{_SEAT_FIELD[orientation]}"
                if number in vacant:
                    problems.append(
                        Problem(
                            field,
                            "vacant_number_seated",
                            f"Number {number} is seated at table {table.table} position "
                            f"{seats.position} but its seat was removed (table of 3 players).",
                            {"number": number, "table": table.table, "position": seats.position},
                        )
                    )
                elif number not in expected:
                    problems.append(
                        Problem(
                            field,
                            "unknown_number",
                            f"Number {number} at table {table.table} position {seats.position} "
                            f"is not a starting number of this {plan.tables}-table plan.",
                            {
                                "number": number,
                                "table": table.table,
                                "position": seats.position,
                                "tables": plan.tables,
                            },
                        )
                    )
                elif number in seen:
                    problems.append(
                        Problem(
                            field,
                            "number_seated_twice",
                            f"Player {number} is seated twice at position {seats.position}.",
                            {"number": number, "position": seats.position},
                        )
                    )
                seen.add(number)
            present = table.numbers
            if len(present) < 3:
                problems.append(
                    Problem(
                        at,
                        "table_too_short",
                        f"Table {table.table} has {len(present)} players at position "
                        f"{seats.position}; a table seats 4 players, or 3 at least.",
                        {"table": table.table, "players": len(present), "position": seats.position},
                    )
                )
            if (
                len(present) == 3
                and plan.short_table_rule is ShortTableRule.STRICT
                and not plan.repeats_allowed
            ):
                for number in present:
                    if number in first_short:
                        problems.append(
                            Problem(
                                at,
                                "short_table_twice",
                                f"Player {number} sits at a table of 3 again at position "
                                f"{seats.position} (table {table.table}) after position "
                                f"{first_short[number]}; nobody should play twice at a "
                                "table of 3.",
                                {
                                    "number": number,
                                    "position": seats.position,
                                    "table": table.table,
                                    "first": first_short[number],
                                },
                            )
                        )
                    else:
                        first_short[number] = seats.position
            for a, b in combinations(sorted(present), 2):
                if a in team_of and team_of[a] == team_of.get(b):
                    problems.append(
                        Problem(
                            at,
                            "partners_meet",
                            f"Partners {a} and {b} sit at the same table ({table.table}) at "
                            f"position {seats.position}; team-mates never play each other.",
                            {
                                "first": a,
                                "second": b,
                                "table": table.table,
                                "position": seats.position,
                            },
                        )
                    )
                elif (
                    (a, b) in met
                    and not plan.repeats_allowed
                    and a not in fifth_players
                    and b not in fifth_players
                ):
                    before_position, before_table = met[(a, b)]
                    problems.append(
                        Problem(
                            at,
                            "repeated_meeting",
                            f"Players {a} and {b} meet again at position {seats.position} "
                            f"(table {table.table}) after position {before_position} "
                            f"(table {before_table}); the FFT movement lets nobody meet an "
                            "opponent twice.",
                            {
                                "first": a,
                                "second": b,
                                "position": seats.position,
                                "table": table.table,
                                "before_position": before_position,
                                "before_table": before_table,
                            },
                        )
                    )
                else:
                    met.setdefault((a, b), (seats.position, table.table))
        missing = expected - seen
        if missing:
            problems.append(
                Problem(
                    where,
                    "player_missing",
                    f"Players {listed(sorted(missing))} have no seat at position {seats.position}.",
                    {"players": listed(sorted(missing)), "position": seats.position},
                )
            )
    return tuple(problems)


def team_start_problems(plan: MovementPlan) -> list[Problem]:
    """Chapter 2, « Tournoi libre par équipes de 2 joueurs / de 4 joueurs »: « Les joueurs
    d'une même équipe … commencent à la même table. Cependant ils ne jouent pas la première
    position et passent directement à la deuxième position … la première position
    effectivement jouée par les joueurs correspond à la deuxième position des tableaux »:
    played position *k* is row *k + 1* of the movement, and each team's starting numbers
    (row 1, not played) are seats of one table."""
    if plan.format is Format.INDIVIDUAL:
        return []
    problems = [
        Problem(
            f"positions[{p}].row",
            "team_position_row",
            f"Played position {seats.position} of a {plan.format} tournament is row "
            f"{seats.row} of the movement, not row {p + 2}: teams start together at one "
            "table, skip the first position and play from the movement's second.",
            {"position": seats.position, "row": seats.row, "expected": p + 2},
        )
        for p, seats in enumerate(plan.positions)
        if seats.row != p + 2
    ]
    for index, team in enumerate(plan.teams):
        tables = sorted({starting_seat(number)[0] for number in team})
        if len(team) != plan.format.team_size or len(tables) != 1:
            problems.append(
                Problem(
                    f"teams[{index}]",
                    "team_not_at_one_table",
                    f"Team {index + 1} (numbers {listed(sorted(team))}) does not start at one "
                    f"table: the {plan.format.team_size} players of a {plan.format} team "
                    "start together at one table.",
                    {"team": index + 1, "numbers": listed(sorted(team))},
                )
            )
    return problems


_SEAT_FIELD = {
    Orientation.N: "north",
    Orientation.S: "south",
    Orientation.E: "east",
    Orientation.W: "west",
    Orientation.FIFTH: "fifth",
}
