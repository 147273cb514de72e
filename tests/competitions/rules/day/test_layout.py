"""A session's layout: from the engine's plan, and back from its stored JSON."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.day.layout import (
    Holder,
    layout_from_json,
    layout_of,
    layout_to_json,
    seating_from_json,
    seating_to_json,
)
from competitions.rules.engine.movements.planning import plan_movement
from competitions.rules.engine.movements.settings import MovementSettings
from competitions.rules.engine.tables import Orientation
from core.problems import RuleViolation


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=12, max_value=60), fives=st.booleans())
def test_every_player_sits_once_per_position_and_the_json_gives_the_same_layout(players, fives):
    movement = MovementSettings(tables_of_five=fives)
    try:
        plan = plan_movement(players, 3, settings=movement)
    except RuleViolation:
        return  # a field the movement cannot seat for 3 positions: the engine says why
    layout = layout_of(plan, deals_per_position=4)
    assert layout_from_json(layout_to_json(layout)) == layout
    for tables in layout.positions:
        seated = [number for table in tables for number in table.seats.values()]
        assert sorted(seated) == sorted(plan.numbers)
        assert all(3 <= table.size <= 5 for table in tables)


def test_a_table_of_five_lists_its_fifth_player_last():
    plan = plan_movement(30, 3, settings=MovementSettings(tables_of_five=True))
    layout = layout_of(plan, deals_per_position=5)
    fives = [t for t in layout.tables_at(1) if t.size == 5]
    assert len(fives) == 2
    assert list(fives[0].seats)[-1] is Orientation.FIFTH


def test_an_unknown_table_or_position_is_refused_with_its_reason():
    layout = layout_of(plan_movement(16, 2), deals_per_position=4)
    with pytest.raises(RuleViolation) as table:
        layout.table(1, 9)
    with pytest.raises(RuleViolation) as position:
        layout.tables_at(3)
    assert table.value.problems[0].code == "unknown_table"
    assert position.value.problems[0].code == "unknown_position"


def test_seating_round_trips():
    seating = {1: Holder(7), 2: Holder(7, 2), 3: Holder(1)}
    assert seating_from_json(seating_to_json(seating)) == seating
