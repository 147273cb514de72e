"""Tables of 5 in the movement planner (fasc. 457-461): an individual field not a multiple
of 4 seats its extra players as the fifth of a table, on request; every player seated once
a position, tables of 4 and 5 only, every repeat reported exactly."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.movements.checker import check_plan
from competitions.rules.engine.movements.plan import RepeatKind
from competitions.rules.engine.movements.planning import max_positions, plan_movement
from competitions.rules.engine.movements.settings import MovementSettings, ShortTableRule
from competitions.rules.engine.seating import Entrant, random_seating
from competitions.rules.engine.tables import Orientation
from core.problems import RuleViolation
from core.vocabulary import Format

FIVES = MovementSettings(tables_of_five=True)

NOT_MULTIPLES_OF_4 = st.integers(min_value=13, max_value=200).filter(lambda n: n % 4)


def expected_repeats(plan) -> set[tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """The repeats, recomputed from the seats alone."""
    five: dict[int, list[tuple[int, int]]] = defaultdict(list)
    met: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for seats in plan.positions:
        for table in seats.tables:
            present = [
                n for n in (table.north, table.south, table.east, table.west, table.fifth) if n
            ]
            if len(present) == 5:
                for n in present:
                    five[n].append((seats.position, table.table))
            for pair in combinations(sorted(present), 2):
                met[pair].append((seats.position, table.table))
    found = set()
    for kind, seen_by in ((RepeatKind.TABLE_OF_FIVE, five), (RepeatKind.MEETING, met)):
        for who, seen in seen_by.items():
            if len(seen) > 1:
                players = who if isinstance(who, tuple) else (who,)
                found.add(
                    (kind.value, players, tuple(p for p, _ in seen), tuple(t for _, t in seen))
                )
    return found


@settings(max_examples=60, deadline=None)
@given(NOT_MULTIPLES_OF_4, st.data())
def test_every_player_once_a_position_at_tables_of_4_or_5(players: int, data) -> None:
    most = max_positions(players, settings=FIVES)
    assert most == max_positions(4 * (players // 4))  # the full tables' movement decides
    positions = data.draw(st.integers(min_value=1, max_value=most))
    plan = plan_movement(players, positions, settings=FIVES)
    assert plan.tables == players // 4
    assert len(plan.fifth_players) == players % 4
    assert plan.vacant == ()
    assert check_plan(plan) == ()
    assert len(plan.positions) == positions
    for seats in plan.positions:
        seated = [n for table in seats.tables for n in table.numbers]
        assert sorted(seated) == list(range(1, players + 1))  # everyone, once
        sizes = [len(table.numbers) for table in seats.tables]
        assert set(sizes) <= {4, 5}
        assert sizes.count(5) == players % 4
        for table in seats.tables:
            if table.fifth is not None:
                assert table.fifth in plan.fifth_players
    got = {(r.kind.value, r.players, r.positions, r.tables) for r in plan.repeats}
    assert got == expected_repeats(plan)
    # Only the fifth players (and the printed 3-table Howell) make anyone meet again.
    if not plan.repeats_allowed:
        for repeat in plan.repeats:
            if repeat.kind is RepeatKind.MEETING:
                assert set(repeat.players) & set(plan.fifth_players)
    for number in plan.fifth_players:
        sheet = plan.personal_sheet(number)
        assert [line.orientation for line in sheet] == [Orientation.FIFTH] * positions
        tables = [line.table for line in sheet]
        assert all(
            (b - a) % plan.tables == plan.fifth_step % plan.tables for a, b in pairwise(tables)
        )


@pytest.mark.parametrize("players", [21, 101, 199])  # fifth players at 5, 25, 49 tables
def test_a_fifth_player_in_a_large_room_meets_nobody_twice(players: int) -> None:
    plan = plan_movement(players, max_positions(players, settings=FIVES), settings=FIVES)
    assert [r for r in plan.repeats if r.kind is RepeatKind.MEETING] == []


def test_thirteen_players_play_two_tables_of_4_and_one_of_5() -> None:
    plan = plan_movement(13, 6, settings=FIVES)
    assert plan.tables == 3
    assert plan.fifth_players == (13,)
    assert [len(t.numbers) for t in plan.positions[0].tables].count(5) == 1
    assert plan.homologable


def test_the_option_changes_nothing_for_a_multiple_of_4() -> None:
    assert plan_movement(24, 5, settings=FIVES) == plan_movement(24, 5)


def test_the_strict_rule_for_tables_of_3_does_not_bear_on_tables_of_5() -> None:
    strict = MovementSettings(tables_of_five=True, short_table_rule=ShortTableRule.STRICT)
    assert max_positions(50, settings=strict) == max_positions(48)


@pytest.mark.parametrize(
    ("players", "fmt", "codes"),
    [
        (11, Format.INDIVIDUAL, {("players", "too_few_players_for_tables_of_five")}),
        (
            26,
            Format.DUO,
            {("tables_of_five", "movement_tables_of_five_individual_only")},
        ),
    ],
)
def test_refusals(players: int, fmt: Format, codes: set[tuple[str, str]]) -> None:
    with pytest.raises(RuleViolation) as refused:
        plan_movement(players, 3, fmt, FIVES)
    assert {(p.field, p.code) for p in refused.value.problems} == codes


def test_too_many_positions_is_that_of_the_full_tables() -> None:
    with pytest.raises(RuleViolation) as refused:
        plan_movement(21, 6, settings=FIVES)  # 5 tables: 5 positions at most
    assert [p.code for p in refused.value.problems] == ["too_many_positions"]


def test_a_random_seating_seats_the_fifth_players() -> None:
    import random

    plan = plan_movement(22, 5, settings=FIVES)
    seating = random_seating(plan, [Entrant(id=str(k)) for k in range(1, 23)], random.Random(3))
    fifth = [a for a in seating.assignments if a.orientation is Orientation.FIFTH]
    assert sorted(a.number for a in fifth) == [21, 22]
    assert len({a.player for a in seating.assignments}) == 22
