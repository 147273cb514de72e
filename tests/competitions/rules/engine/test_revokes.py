"""A revoke in defence on a score sheet: the taker's choice, scored or not (chapter 1,
fasc. 214; chapter 4, « Renonce », fasc. 1394–1400; article 28, « la marque »)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.revokes import DefenceRevoke, TakerChoice
from competitions.rules.engine.scoring import Contract, Deal, score_deal
from competitions.rules.engine.sheets import DealLine, ScoreSheet, total_sheet
from competitions.rules.engine.tables import Orientation, TableSize, seats
from core.problems import RuleViolation
from tests.competitions.rules.engine.test_sheets import deals_at

N, S, E, W, FIFTH = Orientation
FOUR = TableSize.FOUR
SCORED, NOT_SCORED = TakerChoice.SCORED, TakerChoice.NOT_SCORED
PLAYERS = {N: "1", S: "2", E: "3", W: "4"}

# East takes a garde and fails by 6 (2 oudlers, 35 points): x = -(25 + 6) × 2 = -62.
FAILED = Deal(FOUR, Contract.GARDE, E, oudlers=2, attack_points=35)
# North takes a prise and makes it by 10 (1 oudler, 61 points): x = 35.
MADE = Deal(FOUR, Contract.PRISE, N, oudlers=1, attack_points=61)


def sheet(*lines):
    return ScoreSheet(table=1, position=1, players=PLAYERS, deals=tuple(lines))


def codes(built):
    with pytest.raises(RuleViolation) as refused:
        total_sheet(built)
    return {(p.field, p.code) for p in refused.value.problems}


def test_the_taker_who_fails_may_have_the_deal_not_scored():
    totals = total_sheet(
        sheet(DealLine(facts=FAILED, defence_revoke=DefenceRevoke(NOT_SCORED, by=S)))
    )
    assert dict(totals.deal_marks[0]) == {N: 0, S: 0, E: 0, W: 0}
    assert totals.deals_played == 0  # annulled at the taker's choice: not a deal played


def test_the_taker_who_fails_may_have_it_scored_all_the_same():
    totals = total_sheet(sheet(DealLine(facts=FAILED, defence_revoke=DefenceRevoke(SCORED))))
    assert dict(totals.deal_marks[0]) == {N: 62, S: 62, E: -186, W: 62}
    assert totals.deals_played == 1


@pytest.mark.parametrize("choice", list(TakerChoice))
def test_the_choice_is_his_whatever_the_result(choice):
    """Chapter 4: « quel que soit le résultat » (chapter 1 names only the fall)."""
    totals = total_sheet(sheet(DealLine(facts=MADE, defence_revoke=DefenceRevoke(choice, by=E))))
    expected = dict(score_deal(MADE).marks) if choice is SCORED else dict.fromkeys(PLAYERS, 0)
    assert dict(totals.deal_marks[0]) == expected


def test_written_marks_of_a_deal_not_scored_must_be_zero():
    line = DealLine(marks={N: 62, S: 62, E: -186, W: 62}, defence_revoke=DefenceRevoke(NOT_SCORED))
    assert ("deals[0].marks.N", "revoke_not_scored_marked") in codes(sheet(line))
    zero = DealLine(marks=dict.fromkeys(PLAYERS, 0), defence_revoke=DefenceRevoke(NOT_SCORED))
    assert total_sheet(sheet(zero)).deals_played == 0


def test_only_a_defender_revokes_in_defence():
    line = DealLine(facts=FAILED, defence_revoke=DefenceRevoke(NOT_SCORED, by=E))
    assert codes(sheet(line)) == {("deals[0].defence_revoke.by", "revoke_not_by_defender")}


def test_the_revoker_is_a_seat_of_the_table():
    three = ScoreSheet(
        1,
        1,
        {S: "2", E: "3", W: "4"},
        (
            DealLine(
                facts=Deal(TableSize.THREE, Contract.PRISE, E, oudlers=1, attack_points=61),
                defence_revoke=DefenceRevoke(SCORED, by=N),
            ),
        ),
    )
    assert codes(three) == {("deals[0].defence_revoke.by", "revoke_seat_not_in_play")}


def test_an_unknown_choice_is_refused():
    line = DealLine(facts=FAILED, defence_revoke=DefenceRevoke("maybe"))  # type: ignore[arg-type]
    assert codes(sheet(line)) == {("deals[0].defence_revoke.taker_choice", "unknown_revoke_choice")}


def test_no_revoke_on_an_annulled_or_passed_deal():
    annulled = DealLine(facts=FAILED, annulled=True, defence_revoke=DefenceRevoke(SCORED))
    assert codes(sheet(annulled)) == {("deals[0].defence_revoke", "revoke_on_annulled_deal")}
    passed = DealLine(facts=Deal.all_passed(FOUR), defence_revoke=DefenceRevoke(NOT_SCORED))
    assert codes(sheet(passed)) == {("deals[0].defence_revoke", "revoke_on_passed_deal")}


def test_the_revoker_may_not_take_the_next_deal():
    """« ne peut pas annoncer de contrat à la distribution suivante »."""
    revoke = DealLine(facts=FAILED, defence_revoke=DefenceRevoke(NOT_SCORED, by=N))
    refused = codes(sheet(revoke, DealLine(facts=MADE)))
    assert refused == {("deals[1].taker", "revoker_took_next_deal")}
    # the deal after next, or another player, is fine
    later = total_sheet(sheet(revoke, DealLine(facts=FAILED), DealLine(facts=MADE)))
    assert later.deals_played == 2


def test_a_deal_not_scored_hands_the_deal_on_at_a_table_of_five():
    """The deal was dealt and played: the next player sits out, as after an annulled deal."""
    players = {**PLAYERS, FIFTH: "5"}
    first = DealLine(
        facts=Deal(FOUR, Contract.GARDE, E, oudlers=2, attack_points=35),
        sitting_out=N,
        defence_revoke=DefenceRevoke(NOT_SCORED, by=W),
    )
    again = DealLine(facts=Deal.all_passed(FOUR), sitting_out=N)  # N again: out of turn
    built = ScoreSheet(1, 1, players, (first, again))
    assert any(code == "sitting_out_out_of_turn" for _, code in codes(built))


# --- invariants ----------------------------------------------------------------------------


@st.composite
def revoked_sheets(draw):
    size = draw(st.sampled_from(TableSize))
    deals = draw(st.lists(deals_at(size), min_size=1, max_size=6))
    lines = []
    for i, deal in enumerate(deals):
        revoke = None
        if draw(st.booleans()):
            defenders = [s for s in seats(size) if s not in (deal.taker, deal.called_partner)]
            nxt = deals[i + 1].taker if i + 1 < len(deals) else None
            allowed = [s for s in defenders if s != nxt]
            by = draw(st.none() | st.sampled_from(allowed)) if allowed else None
            revoke = DefenceRevoke(draw(st.sampled_from(TakerChoice)), by)
        written = draw(st.booleans())
        marks = None
        if written:
            marks = (
                dict.fromkeys(seats(size), 0)
                if revoke is not None and revoke.taker_choice is NOT_SCORED
                else dict(score_deal(deal).marks)
            )
        facts = deal if not written or draw(st.booleans()) else None
        lines.append(DealLine(facts=facts, marks=marks, defence_revoke=revoke))
    players = {seat: f"licence-{i}" for i, seat in enumerate(seats(size))}
    return ScoreSheet(1, 1, players, tuple(lines))


@settings(max_examples=80, deadline=None)
@given(revoked_sheets())
def test_every_choice_keeps_the_sheet_at_zero_and_follows_the_taker(built):
    totals = total_sheet(built)
    assert sum(p.balance for p in totals.players.values()) == 0
    for line, marks in zip(built.deals, totals.deal_marks, strict=True):
        assert sum(marks.values()) == 0
        if line.defence_revoke is not None and line.defence_revoke.taker_choice is NOT_SCORED:
            assert set(marks.values()) == {0}
        elif line.facts is not None:
            assert dict(marks) == dict(score_deal(line.facts).marks)
    assert totals.deals_played == sum(
        1
        for line in built.deals
        if line.defence_revoke is None or line.defence_revoke.taker_choice is SCORED
    )


@settings(max_examples=50, deadline=None)
@given(revoked_sheets())
def test_declining_the_score_is_the_same_as_removing_the_deal(built):
    """A deal not scored changes nobody's balance: the sheet totals as without it."""
    kept = tuple(
        line
        for line in built.deals
        if line.defence_revoke is None or line.defence_revoke.taker_choice is SCORED
    )
    without = ScoreSheet(
        built.table,
        built.position,
        built.players,
        tuple(DealLine(facts=line.facts, marks=line.marks) for line in kept),
    )
    balances = {s: p.balance for s, p in total_sheet(built).players.items()}
    assert balances == {s: p.balance for s, p in total_sheet(without).players.items()}
