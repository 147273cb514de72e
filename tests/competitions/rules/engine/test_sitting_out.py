"""A table of 5 inside a tournament (fasc. 459: « le mort »), and annulled deals (chapter 4)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.scoring import Contract, Deal, Poignee, score_deal
from competitions.rules.engine.sheets import DealLine, ScoreSheet, total_sheet
from competitions.rules.engine.sitting_out import (
    MortLine,
    expected_morts,
    in_play,
    rotation_problems,
    rotations,
    times_sitting_out,
)
from competitions.rules.engine.tables import Orientation, TableSize, seats
from core.problems import RuleViolation

N, S, E, W, FIFTH = Orientation
THREE, FOUR, FIVE = TableSize
PLAYERS5 = {N: "1", S: "2", E: "3", W: "4", FIFTH: "5"}
PLAYERS4 = {N: "1", S: "2", E: "3", W: "4"}
# N, W, S, E in the direction of play; the fifth seat after East.
TURN = (N, W, S, E, FIFTH)


def sheet(lines, players=PLAYERS5):
    return ScoreSheet(table=1, position=1, players=players, deals=tuple(lines))


def refusal(a_sheet):
    with pytest.raises(RuleViolation) as refused:
        total_sheet(a_sheet)
    return refused.value.problems


def garde(taker, points=51, oudlers=2):
    return Deal(FOUR, Contract.GARDE, taker, oudlers=oudlers, attack_points=points)


def test_rotations_are_the_direction_of_play_with_the_fifth_seat_anywhere():
    assert set(rotations()) == {
        (N, FIFTH, W, S, E),
        (N, W, FIFTH, S, E),
        (N, W, S, FIFTH, E),
        (N, W, S, E, FIFTH),
    }


def test_the_mort_scores_zero_and_the_four_others_play_the_4_player_game():
    # Five deals, each sat out in turn; the taker is the player after the mort.
    lines = [DealLine(facts=garde(TURN[(k + 1) % 5]), sitting_out=TURN[k]) for k in range(5)]
    totals = total_sheet(sheet(lines))
    assert totals.table_size == FIVE
    assert not totals.five_player_game
    assert totals.sitting_out == TURN
    assert totals.deals_played == 5
    for k, marks in enumerate(totals.deal_marks):
        assert marks[TURN[k]] == 0
        assert sum(marks.values()) == 0
        # A garde made by 10 (2 oudlers, 51 points): (25 + 10) x 2 = 70 from each defender.
        assert marks[TURN[(k + 1) % 5]] == 210
        assert sorted(marks.values()) == [-70, -70, -70, 0, 210]
    assert sum(t.balance for t in totals.players.values()) == 0


def test_the_fifth_seat_may_take():
    lines = [DealLine(facts=garde(FIFTH, 40, 2), sitting_out=N)]
    marks = total_sheet(sheet(lines)).deal_marks[0]
    assert marks == {N: 0, S: 52, E: 52, W: 52, FIFTH: -156}  # lost by 1: (25 + 1) x 2


def test_written_marks_of_a_mort_line_are_checked():
    lines = [DealLine(marks={N: 0, S: 210, E: -70, W: -70, FIFTH: -70}, sitting_out=N)]
    assert total_sheet(sheet(lines)).players[S].balance == 210
    # The mort's column may be left blank.
    blank = [DealLine(marks={S: 210, E: -70, W: -70, FIFTH: -70}, sitting_out=N)]
    assert total_sheet(sheet(blank)).players[N].balance == 0
    marked = [DealLine(marks={N: 70, S: 140, E: -70, W: -70, FIFTH: -70}, sitting_out=N)]
    assert [p.code for p in refusal(sheet(marked))] == ["sitting_out_marked"]
    # A called-king split (taker 2x, partner x) fits no 4-player deal.
    king = [DealLine(marks={N: 0, S: 140, E: 70, W: -105, FIFTH: -105}, sitting_out=N)]
    assert [p.code for p in refusal(sheet(king))] == ["marks_fit_no_deal"]


def test_the_mort_cannot_take_or_show_a_poignee():
    deal = Deal(FOUR, Contract.GARDE, N, oudlers=2, attack_points=51, poignees=(Poignee(N, 10),))
    problems = refusal(sheet([DealLine(facts=deal, sitting_out=N)]))
    assert {(p.field, p.code) for p in problems} == {
        ("deals[0].taker", "seat_not_in_play"),
        ("deals[0].poignees[0].seat", "seat_not_in_play"),
    }


def test_a_mort_line_is_scored_at_4_players():
    deal = Deal(FIVE, Contract.GARDE, S, oudlers=2, attack_points=51)
    problems = refusal(sheet([DealLine(facts=deal, sitting_out=N)]))
    assert [(p.field, p.code) for p in problems] == [
        ("deals[0].table_size", "sitting_out_deal_not_at_four")
    ]


def test_every_line_of_the_sheet_names_its_mort():
    lines = [DealLine(facts=garde(S), sitting_out=N), DealLine(facts=garde(S))]
    problems = refusal(sheet(lines))
    assert [(p.field, p.code) for p in problems] == [
        ("deals[1].sitting_out", "sitting_out_missing")
    ]


def test_only_a_table_of_5_has_a_mort():
    problems = refusal(sheet([DealLine(facts=garde(S), sitting_out=N)], PLAYERS4))
    assert ("deals[0].sitting_out", "sitting_out_not_at_table") in {
        (p.field, p.code) for p in problems
    }


def test_the_mort_out_of_turn_is_located():
    # N then S: South is two seats after North in the direction of play.
    lines = [DealLine(facts=garde(S), sitting_out=N), DealLine(facts=garde(E), sitting_out=S)]
    problems = refusal(sheet(lines))
    assert [(p.field, p.code, p.params["expected"]) for p in problems] == [
        ("deals[1].sitting_out", "sitting_out_out_of_turn", "W/5")
    ]


def test_when_everyone_passes_the_same_mort_deals_again():
    lines = [
        DealLine(facts=Deal.all_passed(FOUR), sitting_out=N),
        DealLine(facts=garde(S), sitting_out=N),
        DealLine(facts=garde(S), sitting_out=W),
    ]
    totals = total_sheet(sheet(lines))
    assert totals.deals_played == 3  # a passed deal is on the sheet: played, worth 0
    assert totals.deal_marks[0] == dict.fromkeys(seats(FIVE), 0)
    moved_on = [DealLine(facts=Deal.all_passed(FOUR), sitting_out=N), lines[2]]
    problems = refusal(sheet(moved_on))
    assert [(p.code, p.params["expected"]) for p in problems] == [("sitting_out_out_of_turn", "N")]


def test_an_annulled_deal_scores_nothing_and_is_not_played():
    lines = [
        DealLine(facts=garde(S), annulled=True),
        DealLine(marks={N: 0, S: 0, E: 0, W: 0}, annulled=True),
        DealLine(facts=garde(S)),
    ]
    totals = total_sheet(sheet(lines, PLAYERS4))
    assert totals.deals_played == 1
    assert totals.players[S].balance == 210
    marked = [DealLine(marks={N: -70, S: 210, E: -70, W: -70}, annulled=True)]
    assert {p.code for p in refusal(sheet(marked, PLAYERS4))} == {"annulled_deal_marked"}
    # Its facts are still checked.
    wrong = [DealLine(facts=garde(S, points=92), annulled=True)]
    assert {p.code for p in refusal(sheet(wrong, PLAYERS4))} == {"points_out_of_range"}


def test_an_annulled_deal_passes_the_deal_on_at_a_table_of_5():
    lines = [
        DealLine(facts=garde(S), sitting_out=N, annulled=True),
        DealLine(facts=garde(S), sitting_out=W),
    ]
    totals = total_sheet(sheet(lines))
    assert totals.deals_played == 1
    assert totals.players[S].balance == 210


def test_the_five_player_game_has_nobody_sitting_out():
    deal = Deal(FIVE, Contract.GARDE, N, called_partner=S, oudlers=2, attack_points=51)
    totals = total_sheet(sheet([DealLine(facts=deal)]))
    assert totals.five_player_game
    assert totals.sitting_out == (None,)


@st.composite
def mort_sheets(draw):
    """A valid table-of-5 sheet: a rotation, a first mort, deals passed or played."""
    rotation = draw(st.sampled_from(rotations()))
    first = draw(st.sampled_from(seats(FIVE)))
    count = draw(st.integers(1, 25))
    passed = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    morts = expected_morts(first, rotation, passed)
    lines = []
    for mort, was_passed in zip(morts, passed, strict=True):
        if was_passed:
            lines.append(DealLine(facts=Deal.all_passed(FOUR), sitting_out=mort))
            continue
        playing = in_play(mort)
        taker = draw(st.sampled_from(playing))
        contract = draw(st.sampled_from(list(Contract)))
        oudlers = draw(st.integers(0, 3))
        points = draw(st.integers(20 + 5 * oudlers, 70))
        lines.append(
            DealLine(
                facts=Deal(FOUR, contract, taker, oudlers=oudlers, attack_points=points),
                sitting_out=mort,
            )
        )
    return lines


@settings(max_examples=150, deadline=None)
@given(mort_sheets())
def test_mort_sheets_sum_to_zero_and_each_player_sits_out_in_turn(lines):
    totals = total_sheet(sheet(lines))
    played = [line for line in lines if not line.passed]
    assert totals.deals_played == len(lines)
    for line, marks in zip(lines, totals.deal_marks, strict=True):
        assert marks[line.sitting_out] == 0
        assert sum(marks.values()) == 0
        if not line.passed:
            playing = in_play(line.sitting_out)
            assert {s: marks[s] for s in playing} == score_deal(line.facts, in_play=playing).marks
    assert sum(t.balance for t in totals.players.values()) == 0
    counts = times_sitting_out([MortLine(line.sitting_out, line.passed) for line in lines])
    assert sum(counts.values()) == len(played)
    assert set(counts.values()) <= {len(played) // 5, len(played) // 5 + 1}


@settings(max_examples=150, deadline=None)
@given(mort_sheets(), st.data())
def test_another_mort_is_out_of_turn_once_the_turn_is_known(lines, data):
    if len(lines) < 2:
        return
    index = data.draw(st.integers(1, len(lines) - 1))
    morts = [MortLine(line.sitting_out, line.passed) for line in lines]
    wrong = data.draw(st.sampled_from([s for s in seats(FIVE) if s != morts[index].sitting_out]))
    changed = [*morts[:index], MortLine(wrong, morts[index].passed), *morts[index + 1 :]]
    problems = rotation_problems(changed)
    handovers = sum(not m.passed for m in morts[:index])
    # After a passed deal the same mort deals again; once four deals have been handed on,
    # the turn (where the fifth seat sits) is known: any other mort is out of turn.
    if morts[index - 1].passed or handovers >= 4:
        assert [(p.field, p.code) for p in problems] == [
            (f"deals[{index}].sitting_out", "sitting_out_out_of_turn")
        ]
    for problem in problems:
        assert problem.code == "sitting_out_out_of_turn"
