"""« Tournoi à grosse dotation » (chapter 2): the plans, the printed layouts, the final
positions' movement, and who plays on."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competitions.rules.engine.big_prize import (
    BigPrizeFormula,
    check_big_prize_plan,
    final_positions,
    finalists_of,
    starting_layout,
)
from competitions.rules.engine.movements.plan import TableSeats
from core.problems import RuleViolation
from core.vocabulary import Format

# « POSITION DE DEPART DES 16 JOUEURS FINALISTES » and « … DES 20 … » as printed (N, S, E, W)
PRINTED_16 = [(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)]
PRINTED_20 = [(1, 6, 11, 16), (2, 7, 12, 17), (3, 8, 13, 18), (4, 9, 14, 19), (5, 10, 15, 20)]


@pytest.mark.parametrize(("finalists", "printed"), [(16, PRINTED_16), (20, PRINTED_20)])
def test_the_printed_starting_layouts(finalists, printed):
    assert [t.seats for t in starting_layout(finalists)] == printed


def test_the_24_deal_formula():
    plan = check_big_prize_plan("24_deals", 12, format=Format.INDIVIDUAL)
    assert (plan.common_positions, plan.common_deals_per_position) == (5, 4)
    assert (plan.final_positions, plan.final_deals_per_position) == (1, 4)
    assert plan.deals_for_finalists == 24
    assert [t.seats for t in final_positions(plan)[0]] == [
        (1, 4, 7, 10),
        (2, 5, 8, 11),
        (3, 6, 9, 12),
    ]


def test_the_25_deal_formula_plays_five_single_deals_with_the_normal_movement():
    plan = check_big_prize_plan(BigPrizeFormula.TWENTY_FIVE_DEALS, None, format="individual")
    assert plan.finalists == 20
    assert plan.deals_for_finalists == 30
    positions = final_positions(plan)
    assert [t.seats for t in positions[0]] == PRINTED_20
    # second position: N fixed, S + 1, E + 2, W − 2
    assert positions[1][0] == TableSeats(1, 1, 10, 14, 18)
    assert positions[1][1] == TableSeats(2, 2, 6, 15, 19)
    # every finalist plays each position once, and no two finalists meet twice
    met = set()
    for position in positions:
        assert sorted(n for t in position for n in t.numbers) == list(range(1, 21))
        for table in position:
            for pair in itertools.combinations(sorted(table.numbers), 2):
                assert pair not in met
                met.add(pair)


def test_plans_the_text_does_not_give_are_refused():
    with pytest.raises(RuleViolation) as refused:
        check_big_prize_plan("24_deals", 8, format="duo")
    assert {(p.field, p.code) for p in refused.value.problems} == {
        ("big_prize.finalists", "big_prize_finalists_not_allowed"),
        ("big_prize.formula", "big_prize_individual_only"),
    }
    with pytest.raises(RuleViolation) as unknown:
        check_big_prize_plan("30_deals", 20, format="individual")
    assert unknown.value.problems[0].code == "unknown_big_prize_formula"
    with pytest.raises(RuleViolation):
        check_big_prize_plan("24_deals", None, format="individual")  # 12, 16 or 20: say which


def test_who_plays_on():
    plan = check_big_prize_plan("24_deals", 12, format="individual")
    ranking = [(f"e{i}", i) for i in range(1, 30)]
    assert finalists_of(reversed(ranking), plan) == tuple(f"e{i}" for i in range(1, 13))
    tied = [*ranking[:11], ("x", 12), ("y", 12), *ranking[13:]]
    with pytest.raises(RuleViolation) as refused:
        finalists_of(tied, plan)
    assert refused.value.problems[0].code == "big_prize_tie_at_cut"
    with pytest.raises(RuleViolation) as small:
        finalists_of(ranking[:12], plan)
    assert small.value.problems[0].code == "big_prize_field_too_small"


@given(st.sampled_from([12, 16, 20]))
def test_a_layout_seats_each_finalist_once_best_scores_north(finalists):
    layout = starting_layout(finalists)
    assert sorted(n for t in layout for n in t.numbers) == list(range(1, finalists + 1))
    assert [t.north for t in layout] == list(range(1, finalists // 4 + 1))
