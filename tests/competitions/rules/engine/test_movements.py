"""Player movements of chapter 2: Howell, FFT normal movement, special cases, tables of 3,
team tournaments, and the plan checker."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.movements.checker import check_plan
from competitions.rules.engine.movements.formulas import (
    PRINTED_FORMULAS,
    DealFormula,
    formula_problems,
)
from competitions.rules.engine.movements.plan import (
    MovementPlan,
    PositionSeats,
    Repeat,
    RepeatKind,
    SheetLine,
    TableSeats,
)
from competitions.rules.engine.movements.planning import max_positions, plan_movement
from competitions.rules.engine.movements.printed import (
    MovementKind,
    Moves,
    seat_number,
    starting_seat,
)
from competitions.rules.engine.movements.settings import MovementSettings, ShortTableRule
from competitions.rules.engine.tables import Orientation
from core.problems import RuleViolation
from core.vocabulary import Format

N, S, E, W = Orientation.N, Orientation.S, Orientation.E, Orientation.W
INDIVIDUAL, DUO, TEAM4 = Format.INDIVIDUAL, Format.DUO, Format.TEAM4
STRICT = MovementSettings(short_table_rule=ShortTableRule.STRICT)


def codes(excinfo: pytest.ExceptionInfo[RuleViolation]) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in excinfo.value.problems]


def rows_of(plan: MovementPlan) -> list[tuple[tuple[int | None, ...], ...]]:
    return [
        tuple((t.north, t.south, t.east, t.west) for t in seats.tables) for seats in plan.positions
    ]


def assert_valid(plan: MovementPlan, players: int, positions: int) -> None:
    """An independent statement of what every produced plan must satisfy: each seat filled
    once, every player present, tables of 3 or 4, partners apart, nobody meeting twice (but in
    the printed 3-table Howell), nobody twice at a table of 3 when the rule is strict, and
    every repeat in the plan's report, exactly."""
    assert plan.players == players
    assert len(plan.positions) == positions
    numbers = set(range(1, 4 * plan.tables + 1)) - set(plan.vacant)
    assert len(numbers) == players
    team_of = {n: i for i, team in enumerate(plan.teams) for n in team}
    meetings: dict[tuple[int, int], list[tuple[int, int]]] = {}
    short_visits: dict[int, list[tuple[int, int]]] = {}
    for index, seats in enumerate(plan.positions):
        assert seats.position == index + 1
        assert [t.table for t in seats.tables] == list(range(1, plan.tables + 1))
        seated = [n for t in seats.tables for n in (t.north, t.south, t.east, t.west) if n]
        assert sorted(seated) == sorted(numbers), "each seat filled exactly once, all present"
        for table in seats.tables:
            present = table.numbers
            assert len(present) >= 3
            if len(present) == 3:
                for n in present:
                    short_visits.setdefault(n, []).append((seats.position, table.table))
            for a, b in combinations(sorted(present), 2):
                assert team_of.get(a, -1) != team_of.get(b, -2), "partners meet"
                meetings.setdefault((a, b), []).append((seats.position, table.table))
    if not plan.repeats_allowed:
        assert max(len(m) for m in meetings.values()) == 1, "a pair meets twice"
        if plan.short_table_rule is ShortTableRule.STRICT:
            assert max(map(len, short_visits.values()), default=1) == 1, "twice at a table of 3"
    reported = {
        (r.kind, r.players): list(zip(r.positions, r.tables, strict=True)) for r in plan.repeats
    }
    expected = {(RepeatKind.SHORT_TABLE, (n,)): v for n, v in short_visits.items() if len(v) > 1}
    expected |= {(RepeatKind.MEETING, pair): v for pair, v in meetings.items() if len(v) > 1}
    assert reported == expected, "every repeat reported, exactly"
    assert len(reported) == len(plan.repeats)


# --- Howell FFT: 3 and 4 tables, as printed on pages 25-26 -------------------------------------

# Transcribed again from the regulations, table by table (N, S, E, W).
PRINTED_HOWELL_3 = [
    ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)),
    ((1, 2, 7, 12), (5, 6, 11, 3), (9, 10, 4, 8)),
    ((1, 8, 7, 10), (5, 2, 11, 12), (9, 3, 4, 6)),
    ((1, 8, 6, 11), (5, 2, 4, 10), (9, 3, 12, 7)),
    ((1, 9, 5, 3), (7, 11, 4, 10), (2, 6, 12, 8)),
    ((1, 9, 7, 2), (5, 11, 4, 12), (10, 6, 3, 8)),
]
PRINTED_HOWELL_4 = [
    ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)),
    ((1, 8, 10, 15), (16, 9, 7, 2), (6, 3, 13, 12), (11, 14, 4, 5)),
    ((1, 7, 12, 14), (15, 9, 6, 4), (8, 2, 13, 11), (10, 16, 3, 5)),
    ((1, 6, 11, 16), (14, 9, 8, 3), (7, 4, 13, 10), (12, 15, 2, 5)),
    ((1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)),
]


@pytest.mark.parametrize(("players", "printed"), [(12, PRINTED_HOWELL_3), (16, PRINTED_HOWELL_4)])
def test_howell_plans_reproduce_the_printed_tables(players: int, printed: list) -> None:
    plan = plan_movement(players, len(printed))
    assert plan.kind is MovementKind.HOWELL
    assert rows_of(plan) == printed
    assert all(seats.moves is None for seats in plan.positions)


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        # "EXEMPLE DE FICHE INDIVIDUELLE (3 tables)", joueur n° 7, page 25.
        (12, [(2, E), (1, E), (1, E), (3, W), (2, N), (1, E)]),
        # "EXEMPLE DE FICHE INDIVIDUELLE (4 tables)", joueur n° 7, page 26.
        (16, [(2, E), (2, E), (1, S), (3, N), (3, S)]),
    ],
)
def test_personal_sheet_of_player_7_matches_the_printed_example(
    players: int, expected: list[tuple[int, Orientation]]
) -> None:
    plan = plan_movement(players, len(expected))
    assert plan.personal_sheet(7) == tuple(
        SheetLine(position, table, orientation)
        for position, (table, orientation) in enumerate(expected, start=1)
    )


def test_four_table_howell_makes_every_pair_meet_exactly_once() -> None:
    plan = plan_movement(16, 5)
    meetings = Counter(
        pair
        for seats in plan.positions
        for table in seats.tables
        for pair in combinations(table.numbers, 2)
    )
    assert len(meetings) == 16 * 15 // 2
    assert set(meetings.values()) == {1}


def test_three_table_howell_repeats_meetings_by_design_and_is_accepted() -> None:
    plan = plan_movement(12, 6)
    assert plan.repeats_allowed
    assert check_plan(plan) == ()
    met = Counter(
        frozenset(pair)
        for seats in plan.positions
        for t in seats.tables
        for pair in combinations(t.numbers, 2)
    )
    assert met[frozenset((1, 2))] == 3  # N/S of table 1 at positions 1, 2 and 6
    assert len(met) == 12 * 11 // 2  # everyone meets everyone at least once


@pytest.mark.parametrize(("players", "positions"), [(12, 7), (16, 6)])
def test_howell_is_refused_beyond_its_printed_positions(players: int, positions: int) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(players, positions)
    assert codes(excinfo) == [("positions", "too_many_positions")]
    assert "Howell movement is printed for" in excinfo.value.problems[0].message


# --- FFT normal movement: N fixed, S +1, E +2, W -2 (page 26) -----------------------------------


@pytest.mark.parametrize("tables", [7, 11, 13, 17, 19, 21, 22, 23, 25, 29, 30])
def test_normal_movement_moves_south_up_one_east_up_two_west_down_two(tables: int) -> None:
    plan = plan_movement(4 * tables, 7)
    assert plan.kind is MovementKind.FFT_NORMAL
    for number in plan.numbers:
        start, orientation = starting_seat(number)
        step = {N: 0, S: +1, E: +2, W: -2}[orientation]
        for line in plan.personal_sheet(number):
            assert line.orientation is orientation  # "conserve son orientation de départ"
            assert line.table == (start - 1 + step * (line.position - 1)) % tables + 1
    assert [seats.moves for seats in plan.positions] == [None] + [Moves(1, 2, -2)] * 6


# The special-case tables of page 27: (tables, position, orientation, tables moved to reach it).
PRINTED_SPECIAL_MOVES = [
    (6, 3, E, +3),
    (6, 4, W, -2),
    (8, 5, S, +2),
    (8, 5, E, +3),
    (8, 6, E, +4),
    (9, 4, E, +3),
    (9, 4, W, -3),
    (9, 5, E, +3),
    (9, 5, W, -3),
    (10, 6, E, +3),
    (10, 6, W, -2),
    (12, 4, W, -3),
    (12, 7, E, +3),
    (14, 5, W, -3),
    (15, 5, W, -3),
    (16, 5, W, -3),
    (16, 6, W, -3),
    (18, 6, W, -3),
    (20, 6, W, -3),
]
# "ATTENTION : OUEST (-1)" for 6, 8 and 10 tables.
SPECIAL_BASE_WEST = {6: -1, 8: -1, 9: -2, 10: -1, 12: -2, 14: -2, 15: -2, 16: -2, 18: -2, 20: -2}


@pytest.mark.parametrize("tables", sorted(SPECIAL_BASE_WEST))
def test_special_case_moves_are_exactly_the_printed_ones(tables: int) -> None:
    plan = plan_movement(4 * tables, max_positions(4 * tables))
    printed = {(p, o): by for t, p, o, by in PRINTED_SPECIAL_MOVES if t == tables}
    base = {S: +1, E: +2, W: SPECIAL_BASE_WEST[tables]}
    for seats in plan.positions[1:]:
        for orientation in (S, E, W):
            expected = printed.get((seats.position, orientation), base[orientation])
            assert seats.moves is not None
            assert seats.moves.of(orientation) == expected, (seats.position, orientation)
    for number in plan.numbers:
        if starting_seat(number)[1] is N:
            assert {line.table for line in plan.personal_sheet(number)} == {
                starting_seat(number)[0]
            }


@pytest.mark.parametrize(
    ("tables", "maximum"),
    # 6 and 8: the printed "(5 positions maximum)", "(6 positions maximum)"; 10: derived (at
    # the 7th position the base movement repeats meetings); the others: the 7-position limit.
    [(6, 5), (8, 6), (9, 7), (10, 6), (12, 7), (14, 7), (15, 7), (16, 7), (18, 7), (20, 7)],
)
def test_special_case_maximum_number_of_positions(tables: int, maximum: int) -> None:
    assert max_positions(4 * tables) == maximum
    assert_valid(plan_movement(4 * tables, maximum), 4 * tables, maximum)
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(4 * tables, maximum + 1)
    assert codes(excinfo) == [("positions", "too_many_positions")]


@pytest.mark.parametrize("tables", [6, 8, 9, 10, 12, 15, 16, 18, 20])
def test_without_its_special_case_the_base_movement_repeats_meetings_earlier(tables: int) -> None:
    plain = MovementSettings(special_cases=())
    assert max_positions(4 * tables, settings=plain) < max_positions(4 * tables)


def test_fourteen_tables_special_case_is_not_needed_within_seven_positions() -> None:
    """A reading: at 14 tables the base movement repeats no meeting within 7 positions (the
    first repeat would need 7 moves of 2 tables); the printed change is applied anyway."""
    plain = MovementSettings(special_cases=())
    assert max_positions(56, settings=plain) == max_positions(56) == 7
    assert plan_movement(56, 5).positions[4].moves == Moves(1, 2, -3)


def test_refusal_names_the_limit_and_the_reason() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(32, 7)
    assert excinfo.value.problems[0].message.startswith(
        "7 positions requested but at 8 tables the individual movement allows at most 6: "
    )


@pytest.mark.parametrize(("tables", "maximum"), [(5, 5), (24, 6)])
def test_listed_normal_counts_that_repeat_meetings_within_seven_positions(
    tables: int, maximum: int
) -> None:
    """Page 26 lists 5 and "jusqu'à 150" tables as valid for 7 positions; the arithmetic says
    otherwise (5 tables: everyone is back at the start at position 6; 24 tables: East and West
    meet again after 6 moves of 4 tables)."""
    assert max_positions(4 * tables) == maximum
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(4 * tables, maximum + 1)
    assert "without a repeated meeting" in excinfo.value.problems[0].message


def offsets_max_positions(tables: int) -> int:
    """Oracle for full tables: rows of the normal movement are distinct for every pair of
    orientations as long as their relative offsets differ (computed from the printed moves)."""
    base = {6: -1, 8: -1, 10: -1}.get(tables, -2)
    special = {(t, p, o): by for t, p, o, by in PRINTED_SPECIAL_MOVES}
    offsets = {N: [0], S: [0], E: [0], W: [0]}
    for row in range(2, 8):
        for o, default in ((S, 1), (E, 2), (W, base)):
            offsets[o].append(offsets[o][-1] + special.get((tables, row, o), default))
        offsets[N].append(0)
    best = 0
    for rows in range(1, 8):
        relative_ok = all(
            len({(offsets[a][r] - offsets[b][r]) % tables for r in range(rows)}) == rows
            for a, b in combinations((N, S, E, W), 2)
        )
        if not relative_ok:
            break
        best = rows
    printed_max = {6: 5, 8: 6}.get(tables, 7)
    return min(best, printed_max)


@pytest.mark.parametrize("tables", range(5, 31))
def test_normal_movement_maximum_agrees_with_the_offset_arithmetic(tables: int) -> None:
    assert max_positions(4 * tables) == offsets_max_positions(tables)


# --- Every table count from 3 to 30 ----------------------------------------------------------

# Derived by the checker; the same tables are in docs/engine-movements.md.
# tables: (individual full, one table of 3, two tables of 3, three tables of 3, duo, team4),
# with the default rule for tables of 3 (best effort: repeats reported).
MAXIMA = {
    3: (6, 6, 4, 4, 5, 0),
    4: (5, 5, 4, 4, 4, 4),
    5: (5, 5, 5, 5, 4, 4),
    6: (5, 5, 5, 5, 4, 4),
    7: (7, 7, 7, 7, 6, 6),
    8: (6, 6, 6, 6, 5, 5),
    9: (7, 7, 7, 7, 6, 6),
    10: (6, 6, 6, 6, 5, 5),
    **dict.fromkeys(range(11, 24), (7, 7, 7, 7, 6, 6)),
    24: (6, 6, 6, 6, 5, 5),
    **dict.fromkeys(range(25, 31), (7, 7, 7, 7, 6, 6)),
}
# Two and three tables of 3 when nobody may sit twice at a table of 3 (the strict rule).
STRICT_MAXIMA = {
    3: (4, 4),
    4: (1, 1),
    5: (1, 1),
    6: (2, 1),
    7: (2, 1),
    8: (3, 1),
    9: (3, 3),
    10: (5, 2),
    11: (3, 3),
    12: (3, 3),
    13: (4, 3),
    14: (4, 3),
    15: (4, 4),
    16: (4, 3),
    17: (5, 5),
    18: (5, 4),
    19: (6, 5),
    20: (5, 5),
    21: (7, 7),
    22: (7, 5),
    23: (7, 7),
    24: (6, 5),
    25: (7, 7),
    26: (7, 6),
    27: (7, 7),
    28: (7, 7),
    29: (7, 7),
    30: (7, 7),
}
CASES = [
    (players, format, maximum)
    for tables, row in MAXIMA.items()
    for players, format, maximum in zip(
        (4 * tables, 4 * tables - 1, 4 * tables - 2, 4 * tables - 3, 4 * tables, 4 * tables),
        (INDIVIDUAL, INDIVIDUAL, INDIVIDUAL, INDIVIDUAL, DUO, TEAM4),
        row,
        strict=True,
    )
]


@pytest.mark.parametrize(("players", "format", "maximum"), CASES)
def test_every_allowed_plan_is_valid_and_one_more_position_is_refused(
    players: int, format: Format, maximum: int
) -> None:
    assert max_positions(players, format) == maximum
    for positions in sorted({1, maximum}) if maximum else ():  # others: the field-size test
        plan = plan_movement(players, positions, format)
        assert_valid(plan, players, positions)
        assert check_plan(plan) == ()
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(players, maximum + 1, format)
    expected = "no_movement" if maximum == 0 else "too_many_positions"
    assert [p.code for p in excinfo.value.problems] == [expected]


@pytest.mark.parametrize(
    ("players", "maximum"),
    [
        (4 * tables - short, maximum)
        for tables, row in STRICT_MAXIMA.items()
        for short, maximum in zip((2, 3), row, strict=True)
    ],
)
def test_strict_rule_allows_fewer_positions_and_seats_nobody_twice_at_a_table_of_3(
    players: int, maximum: int
) -> None:
    assert max_positions(players, settings=STRICT) == maximum
    plan = plan_movement(players, maximum, settings=STRICT)
    assert_valid(plan, players, maximum)
    if not plan.repeats_allowed:
        assert plan.repeats == ()
    with pytest.raises(RuleViolation):
        plan_movement(players, maximum + 1, settings=STRICT)


@pytest.mark.parametrize("format", Format)
@pytest.mark.parametrize("players", range(12, 201))
@settings(max_examples=1, deadline=None)  # 567 sizes and formats: one drawn case each
@given(data=st.data(), rule=st.sampled_from(ShortTableRule))
def test_every_field_size_from_12_to_200_plans_or_is_refused_precisely(
    players: int, data: st.DataObject, format: Format, rule: ShortTableRule
) -> None:
    settings = MovementSettings(short_table_rule=rule)
    if players % format.team_size:
        with pytest.raises(RuleViolation) as excinfo:
            max_positions(players, format, settings)
        code = "incomplete_duos" if format is DUO else "incomplete_team_tables"
        assert codes(excinfo) == [("players", code)]
        return
    maximum = max_positions(players, format, settings)
    if format is TEAM4 and players == 12:  # three teams cannot fill a table of 4 strangers
        assert maximum == 0
        return
    if rule is ShortTableRule.BEST_EFFORT:
        assert maximum >= 4, "every club field plays a real tournament"
    positions = data.draw(st.integers(1, maximum), label="positions")
    assert_valid(plan_movement(players, positions, format, settings), players, positions)


# --- Tables of 3 players (page 17) ----------------------------------------------------------


def test_one_missing_player_removes_north_of_the_highest_table() -> None:
    plan = plan_movement(4 * 13 - 1, 7)
    assert plan.vacant == (seat_number(13, N),)
    assert all(plan.short_tables(p) == (13,) for p in range(1, 8))
    assert plan.position(1).tables[12] == TableSeats(13, None, 50, 51, 52)


def test_two_tables_of_three_never_take_the_same_player_twice() -> None:
    plan = plan_movement(4 * 21 - 2, 7)
    assert seat_number(21, N) in plan.vacant
    assert_valid(plan, 82, 7)
    visits = Counter(n for p in plan.positions for t in p.tables if t.is_short for n in t.numbers)
    assert set(visits.values()) == {1}


def test_the_highest_suitable_tables_are_removed_for_the_positions_asked() -> None:
    assert plan_movement(30, 1).vacant == (seat_number(7, N), seat_number(8, N))
    # At 3 positions table 7 would bring players back to a table of 3: table 5 is the highest
    # suitable one.
    assert plan_movement(30, 3).vacant == (seat_number(5, N), seat_number(8, N))


def test_howell_with_a_missing_player_gives_each_player_one_table_of_three() -> None:
    plan = plan_movement(15, 5)
    assert plan.vacant == (13,)
    visits = Counter(n for p in plan.positions for t in p.tables if t.is_short for n in t.numbers)
    assert set(visits) == set(plan.numbers)
    assert set(visits.values()) == {1}


def test_strict_refusal_when_no_north_seats_keep_players_off_a_second_table_of_three() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(50, 5, settings=STRICT)
    (problem,) = excinfo.value.problems
    assert (problem.field, problem.code) == ("positions", "too_many_positions")
    assert "at most 4 without a player sitting twice at a table of 3" in problem.message


def test_best_effort_plays_fifty_players_seven_positions_and_reports_who_and_when() -> None:
    plan = plan_movement(50, 7)
    assert plan.short_table_rule is ShortTableRule.BEST_EFFORT
    assert plan.vacant == (seat_number(12, N), seat_number(13, N))
    assert_valid(plan, 50, 7)
    short = [r for r in plan.repeats if r.kind is RepeatKind.SHORT_TABLE]
    assert len(short) == 8
    assert all(len(r.positions) == 2 and set(r.tables) == {12, 13} for r in short)
    # South player 46 starts at table 12 (a table of 3) and reaches table 13 one move later.
    assert Repeat(RepeatKind.SHORT_TABLE, (46,), (1, 2), (12, 13)) in short


def fewest_players_twice_at_a_table_of_3(players: int, positions: int) -> tuple[int, int]:
    """(players twice or more, players three times) of the best choice of North seats,
    by trying every choice (highest table always removed, removed seats never together)."""
    tables, short = -(-players // 4), -players % 4
    full = plan_movement(4 * tables, positions)
    best = None
    for rest in combinations(range(tables - 1, 0, -1), short - 1):
        removed = {seat_number(t, N) for t in (tables, *rest)}
        sittings: Counter[int] = Counter()
        together = False
        for seats in full.positions:
            for table in seats.tables:
                gone = removed.intersection(table.numbers)
                together |= len(gone) > 1
                if gone:
                    sittings.update(n for n in table.numbers if n not in removed)
        if not together:
            cost = (sum(v >= 2 for v in sittings.values()), sum(v >= 3 for v in sittings.values()))
            best = cost if best is None else min(best, cost)
    assert best is not None
    return best


@pytest.mark.parametrize(
    ("players", "positions"),
    [(17, 5), (18, 5), (21, 5), (22, 5), (29, 6), (37, 6), (50, 7), (57, 7)],
)
def test_best_effort_seats_the_fewest_players_twice_then_three_times(
    players: int, positions: int
) -> None:
    plan = plan_movement(players, positions)
    visits = Counter(
        r.players[0] for r in plan.repeats if r.kind is RepeatKind.SHORT_TABLE for _ in r.positions
    )
    achieved = (len(visits), sum(v >= 3 for v in visits.values()))
    assert achieved == fewest_players_twice_at_a_table_of_3(players, positions)


@pytest.mark.parametrize("players", [13, 14])
def test_four_tables_with_two_or_three_tables_of_3_play_four_positions(players: int) -> None:
    plan = plan_movement(players, 4)
    assert_valid(plan, players, 4)
    assert plan.repeats, "tables of 3 three positions out of four: some sit there twice"
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(players, 5)
    (problem,) = excinfo.value.problems
    assert problem.code == "too_many_positions"
    assert "without two removed seats at one table" in problem.message
    assert "a table of 2 players" in problem.message


# --- Team tournaments (page 27) -------------------------------------------------------------


@pytest.mark.parametrize("format", [DUO, TEAM4])
def test_team_tournaments_start_at_the_second_position(format: Format) -> None:
    individual = plan_movement(4 * 11, 7)
    teams = plan_movement(4 * 11, 6, format)
    assert [p.row for p in teams.positions] == [2, 3, 4, 5, 6, 7]
    assert [p.position for p in teams.positions] == [1, 2, 3, 4, 5, 6]
    assert [p.tables for p in teams.positions] == [p.tables for p in individual.positions[1:]]


def test_team_partners_start_together() -> None:
    assert plan_movement(32, 1, DUO).teams[:3] == ((1, 2), (3, 4), (5, 6))
    assert plan_movement(32, 1, TEAM4).teams[:2] == ((1, 2, 3, 4), (5, 6, 7, 8))


def test_four_table_howell_for_teams_plays_rows_two_to_five() -> None:
    plan = plan_movement(16, 4, TEAM4)
    assert rows_of(plan) == PRINTED_HOWELL_4[1:]


def test_no_team4_tournament_at_three_tables() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(12, 1, TEAM4)
    assert codes(excinfo) == [("format", "no_movement")]
    assert "partners 1 and 2" in excinfo.value.problems[0].message


def test_six_duos_play_the_printed_three_table_howell_from_its_second_row() -> None:
    plan = plan_movement(12, 5, DUO)
    assert plan.kind is MovementKind.HOWELL
    assert plan.teams == ((1, 4), (2, 3), (5, 8), (6, 7), (9, 11), (10, 12))
    assert rows_of(plan) == PRINTED_HOWELL_3[1:]
    assert check_plan(plan) == ()
    assert_valid(plan, 12, 5)
    # The printed movement repeats meetings; each one is reported with its positions.
    assert Repeat(RepeatKind.MEETING, (1, 9), (4, 5), (1, 1)) in plan.repeats
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(12, 6, DUO)
    assert codes(excinfo) == [("positions", "too_many_positions")]


def test_the_usual_duo_pairs_would_meet_in_the_three_table_howell() -> None:
    plan = plan_movement(12, 5, DUO)
    problems = check_plan(plan, partners=[(1, 2), (3, 4)])
    assert {(p.code, p.field) for p in problems} >= {("partners_meet", "positions[0].tables[0]")}


@pytest.mark.parametrize("tables", range(3, 31))
def test_every_duo_field_up_to_thirty_tables_has_a_movement(tables: int) -> None:
    maximum = max_positions(4 * tables, DUO)
    assert maximum >= 4
    assert_valid(plan_movement(4 * tables, maximum, DUO), 4 * tables, maximum)
    # One duo fewer (an odd number of duos) plays as many positions, with two tables of 3.
    assert max_positions(4 * tables - 2, DUO) == maximum
    assert_valid(plan_movement(4 * tables - 2, maximum, DUO), 4 * tables - 2, maximum)


@pytest.mark.parametrize(
    ("players", "format", "code"),
    [
        (43, DUO, "incomplete_duos"),
        (31, DUO, "incomplete_duos"),
        (43, TEAM4, "incomplete_team_tables"),
        (42, TEAM4, "incomplete_team_tables"),
    ],
)
def test_team_entries_must_be_whole_teams(players: int, format: Format, code: str) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(players, 3, format)
    assert codes(excinfo) == [("players", code)]


@pytest.mark.parametrize(("players", "positions"), [(42, 6), (14, 4), (10, 5), (30, 5)])
def test_an_odd_number_of_duos_removes_the_last_duo(players: int, positions: int) -> None:
    plan = plan_movement(players, positions, DUO)
    last = (4 * plan.tables - 1, 4 * plan.tables) if plan.tables > 3 else (10, 12)
    assert plan.vacant == last
    assert last not in plan.teams
    assert len(plan.teams) == players // 2
    assert all(len(plan.short_tables(p)) == 2 for p in range(1, positions + 1))
    assert_valid(plan, players, positions)
    assert max_positions(players, DUO) == positions


# --- Refused requests -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "positions", "format", "expected"),
    [
        (8, 3, INDIVIDUAL, [("players", "too_few_players")]),
        (0, 3, INDIVIDUAL, [("players", "too_few_players")]),
        (601, 3, INDIVIDUAL, [("players", "too_many_players")]),
        (40, 0, INDIVIDUAL, [("positions", "no_positions")]),
        (
            43,
            0,
            DUO,
            [("players", "incomplete_duos"), ("positions", "no_positions")],
        ),
    ],
)
def test_invalid_requests_are_refused_with_every_problem(
    players: int, positions: int, format: Format, expected: list[tuple[str, str]]
) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(players, positions, format)
    assert codes(excinfo) == expected


def test_a_huge_position_count_is_refused() -> None:
    # How fast: benchmarks/engine_speed.py (the refusal does not loop over the positions).
    with pytest.raises(RuleViolation) as excinfo:
        plan_movement(40, 10**9)
    assert ("positions", "too_many_positions") in codes(excinfo)


def test_settings_change_the_position_limit() -> None:
    assert max_positions(44, settings=MovementSettings(max_positions=5)) == 5
    with pytest.raises(RuleViolation):
        plan_movement(44, 6, settings=MovementSettings(max_positions=5))
    assert max_positions(600) == 7
    with pytest.raises(RuleViolation):
        plan_movement(600, 3, settings=MovementSettings(max_tables=100))


def test_personal_sheet_of_an_unknown_or_removed_number_is_refused() -> None:
    plan = plan_movement(15, 3)
    for number in (13, 17, 0):
        with pytest.raises(RuleViolation) as excinfo:
            plan.personal_sheet(number)
        assert codes(excinfo) == [("number", "unknown_number")]


def test_thirty_tables_play_their_longest_movement() -> None:
    # How fast: benchmarks/engine_speed.py.
    for short in range(4):
        players = 120 - short
        positions = max_positions(players)
        assert_valid(plan_movement(players, positions), players, positions)


# --- The checker ----------------------------------------------------------------------------


def with_table(plan: MovementPlan, position: int, table: TableSeats) -> MovementPlan:
    seats = plan.positions[position - 1]
    tables = tuple(table if t.table == table.table else t for t in seats.tables)
    positions = list(plan.positions)
    positions[position - 1] = replace(seats, tables=tables)
    return replace(plan, positions=tuple(positions))


def test_checker_locates_a_player_seated_twice_and_one_missing() -> None:
    plan = plan_movement(20, 2)
    broken = with_table(plan, 2, replace(plan.positions[1].tables[0], south=1))
    problems = {(p.field, p.code) for p in check_plan(broken)}
    assert ("positions[1].tables[0].south", "number_seated_twice") in problems
    assert ("positions[1]", "player_missing") in problems


def test_checker_flags_a_removed_seat_used_and_a_table_of_two() -> None:
    plan = plan_movement(15, 2)
    table_four = plan.positions[0].tables[3]
    broken = with_table(plan, 1, replace(table_four, north=13))
    assert ("positions[0].tables[3].north", "vacant_number_seated") in {
        (p.field, p.code) for p in check_plan(broken)
    }
    broken = with_table(plan, 1, replace(table_four, south=None))
    assert ("positions[0].tables[3]", "table_too_short") in {
        (p.field, p.code) for p in check_plan(broken)
    }


def test_checker_flags_unknown_numbers_and_bad_numbering() -> None:
    plan = plan_movement(20, 2)
    broken = with_table(plan, 1, replace(plan.positions[0].tables[0], west=99))
    assert ("positions[0].tables[0].west", "unknown_number") in {
        (p.field, p.code) for p in check_plan(broken)
    }
    renumbered = replace(plan, positions=(plan.positions[1], plan.positions[0]))
    assert {p.code for p in check_plan(renumbered)} >= {"position_numbering"}


def test_checker_flags_partners_meeting() -> None:
    plan = plan_movement(20, 3)
    problems = check_plan(plan, partners=[(1, 2)])
    assert [(p.field, p.code) for p in problems] == [("positions[0].tables[0]", "partners_meet")]


def test_checker_flags_a_repeated_meeting_in_a_hand_made_plan() -> None:
    plan = plan_movement(20, 5)
    repeated = replace(plan, positions=(*plan.positions, replace(plan.positions[0], position=6)))
    problems = check_plan(repeated)
    assert problems
    assert {p.code for p in problems} == {"repeated_meeting"}
    assert problems[0].field == "positions[5].tables[0]"
    assert "after position 1" in problems[0].message


def test_checker_flags_a_second_table_of_three_under_the_strict_rule() -> None:
    plan = plan_movement(19, 3, settings=STRICT)
    replayed = replace(plan, positions=(plan.positions[0], replace(plan.positions[0], position=2)))
    problems = [p for p in check_plan(replayed) if p.code == "short_table_twice"]
    assert [p.field for p in problems] == ["positions[1].tables[4]"] * 3
    assert "Player 18 sits at a table of 3 again at position 2" in problems[0].message
    best_effort = replace(replayed, short_table_rule=ShortTableRule.BEST_EFFORT)
    assert "short_table_twice" not in {p.code for p in check_plan(best_effort)}


@settings(max_examples=60, deadline=None)
@given(
    position=st.integers(1, 5),
    first=st.integers(1, 16),
    second=st.integers(1, 16),
)
def test_checker_catches_any_swap_in_the_four_table_howell(
    position: int, first: int, second: int
) -> None:
    plan = plan_movement(16, 5)
    seats = plan.positions[position - 1]
    table_of = {n: t.table for t in seats.tables for n in t.numbers}
    if table_of[first] == table_of[second]:
        return
    swap = {first: second, second: first}

    def swapped(n: int | None) -> int | None:
        return swap.get(n, n) if n is not None else None

    tables = tuple(
        TableSeats(t.table, *(swapped(t.number_at(o)) for o in (N, S, E, W))) for t in seats.tables
    )
    positions = list(plan.positions)
    positions[position - 1] = PositionSeats(seats.position, seats.row, seats.moves, tables)
    problems = check_plan(replace(plan, positions=tuple(positions)))
    assert "repeated_meeting" in {p.code for p in problems}


# --- Team tournaments: the checker (page 27, « commencent à la même table … passent
# directement à la deuxième position ») -----------------------------------------------------


@pytest.mark.parametrize("format", [DUO, TEAM4])
def test_checker_refuses_a_team_plan_that_plays_the_first_row(format: Format) -> None:
    individual = plan_movement(4 * 11, 3)
    teams = plan_movement(4 * 11, 3, format)
    from_row_one = replace(teams, positions=individual.positions)
    problems = {(p.field, p.code) for p in check_plan(from_row_one)}
    assert {
        ("positions[0].row", "team_position_row"),
        ("positions[2].row", "team_position_row"),
    } <= problems
    # at row 1 the partners sit at their starting table
    assert ("positions[0].tables[0]", "partners_meet") in problems
    assert check_plan(teams) == ()


def test_checker_refuses_a_team_that_does_not_start_at_one_table() -> None:
    plan = plan_movement(4 * 11, 3, DUO)
    split = replace(plan, teams=((1, 5), *plan.teams[1:]))
    problems = [(p.field, p.code) for p in check_plan(split, partners=plan.teams)]
    assert problems == [("teams[0]", "team_not_at_one_table")]
    team4 = plan_movement(4 * 11, 3, TEAM4)
    short = replace(team4, teams=((1, 2, 3), *team4.teams[1:]))
    assert [p.code for p in check_plan(short, partners=team4.teams)] == ["team_not_at_one_table"]


def test_an_individual_plan_may_play_the_first_row() -> None:
    assert check_plan(plan_movement(4 * 11, 3)) == ()


# --- Planned formulas (fasc. 571: « 24 (6 x 4) », « 25 (5 x 5) », « 3 positions de 8 donnes »)


def test_the_printed_formulas_include_three_positions_of_eight_deals() -> None:
    assert [(f.positions, f.deals_per_position, f.deals) for f in PRINTED_FORMULAS] == [
        (6, 4, 24),
        (5, 5, 25),
        (3, 8, 24),
    ]


@pytest.mark.parametrize("format", [INDIVIDUAL, DUO, TEAM4])
def test_three_positions_of_eight_deals_are_played_by_the_movement(format: Format) -> None:
    three_by_eight = DealFormula(3, 8)
    assert formula_problems(three_by_eight, 4 * 11, format) == []
    # teams play rows 2 onwards: three played positions are rows 2 to 4
    assert [p.row for p in plan_movement(4 * 11, 3, format).positions] == (
        [1, 2, 3] if format is INDIVIDUAL else [2, 3, 4]
    )


def test_a_formula_the_movement_cannot_play_is_located() -> None:
    # four tables of teams of 4: the Howell's rows 2 to 5, four played positions
    problems = formula_problems(DealFormula(6, 4), 16, TEAM4)
    assert [(p.field, p.code, p.params["allowed"]) for p in problems] == [
        ("positions", "formula_too_many_positions", 4)
    ]
    assert formula_problems(DealFormula(3, 8), 16, TEAM4) == []
    assert [p.field for p in formula_problems(DealFormula(0, 8), 16)] == ["positions"]
