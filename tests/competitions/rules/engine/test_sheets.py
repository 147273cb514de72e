"""Score sheets: the example feuille de marque of chapter 1 and its checks."""

from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.card_counts import Talon, Tricks, possible_counts
from competitions.rules.engine.scoring import Contract, Deal, Poignee, Side, score_deal
from competitions.rules.engine.sheets import DealLine, ScoreSheet, total_sheet
from competitions.rules.engine.tables import Orientation, TableSize, seats
from core.problems import RuleViolation

N, S, E, W, FIFTH = Orientation
THREE, FOUR, FIVE = TableSize
ATTACK, DEFENCE = Side

PLAYERS = {N: "DURAND", S: "DUPONT", E: "DUBOIS", W: "DESPRES"}

# The five deals of the example sheet (position 1, table 3, 15 August 2008): the five
# worked examples of "La marque en donnes libres", each with the taker the sheet shows.
EXAMPLE_FACTS = (
    Deal(FOUR, Contract.GARDE, E, oudlers=2, attack_points=49,
         poignees=(Poignee(E, 10),), petit_au_bout=ATTACK),
    Deal(FOUR, Contract.GARDE_SANS, W, oudlers=1, attack_points=55, petit_au_bout=DEFENCE),
    Deal(FOUR, Contract.PRISE, S, oudlers=2, attack_points=34,
         poignees=(Poignee(S, 10),), petit_au_bout=ATTACK),
    Deal(FOUR, Contract.GARDE, N, oudlers=0, attack_points=67, poignees=(Poignee(E, 10),)),
    Deal(FOUR, Contract.GARDE, S, oudlers=2, attack_points=87, poignees=(Poignee(S, 10),),
         petit_au_bout=ATTACK, chelem_announced=True, chelem_made_by=ATTACK),
)  # fmt: skip

# The marks as printed, one row per deal ("+" column positive, "-" column negative).
EXAMPLE_MARKS = (
    {N: -106, S: -106, E: +318, W: -106},
    {N: -76, S: -76, E: -76, W: +228},
    {N: +42, S: -126, E: +42, W: +42},
    {N: +276, S: -92, E: -92, W: -92},
    {N: -582, S: +1746, E: -582, W: -582},
)

# The printed "Total" (+ and -) and "Bilan" rows.
EXAMPLE_TOTALS = [
    (N, 318, 764, -446),
    (S, 1746, 400, 1346),
    (E, 360, 750, -390),
    (W, 270, 780, -510),
]


def example_sheet(lines, players=PLAYERS):
    return ScoreSheet(table=3, position=1, players=players, deals=tuple(lines))


def refusal(sheet):
    with pytest.raises(RuleViolation) as refused:
        total_sheet(sheet)
    return refused.value.problems


def fields_and_codes(sheet):
    return {(p.field, p.code) for p in refusal(sheet)}


FACTS_ONLY = example_sheet(DealLine(facts=deal) for deal in EXAMPLE_FACTS)
MARKS_ONLY = example_sheet(DealLine(marks=marks) for marks in EXAMPLE_MARKS)
BOTH = example_sheet(
    DealLine(facts=deal, marks=marks)
    for deal, marks in zip(EXAMPLE_FACTS, EXAMPLE_MARKS, strict=True)
)


@pytest.mark.parametrize("sheet", [FACTS_ONLY, MARKS_ONLY, BOTH], ids=["facts", "marks", "both"])
@pytest.mark.parametrize(("seat", "plus", "minus", "balance"), EXAMPLE_TOTALS)
def test_example_sheet_totals_as_printed(sheet, seat, plus, minus, balance):
    totals = total_sheet(sheet)
    player = totals.players[seat]
    assert (player.plus, player.minus, player.balance) == (plus, minus, balance)
    assert player.player == PLAYERS[seat]
    assert (totals.table, totals.position, totals.table_size) == (3, 1, FOUR)


def test_example_sheet_rows_as_printed():
    totals = total_sheet(FACTS_ONLY)
    assert totals.deal_marks == EXAMPLE_MARKS
    assert [p.balance for p in totals.players.values()] == [-446, 1346, -390, -510]
    assert sum(p.balance for p in totals.players.values()) == 0


def test_example_deals_are_the_worked_examples():
    assert [score_deal(deal).base for deal in EXAMPLE_FACTS] == [106, 76, -42, 92, 582]


# --- refusals ------------------------------------------------------------------------------


def replace_marks(index, **seat_marks):
    marks = list(EXAMPLE_MARKS)
    marks[index] = {**marks[index], **{Orientation[k]: v for k, v in seat_marks.items()}}
    return example_sheet(DealLine(marks=m) for m in marks)


def test_marks_that_do_not_sum_to_zero_are_refused_with_the_deal():
    problems = refusal(replace_marks(1, W=229))
    assert [(p.field, p.code) for p in problems] == [("deals[1].marks", "marks_do_not_sum_to_zero")]
    assert "Deal 2" in problems[0].message
    assert "+1" in problems[0].message


def test_marks_that_fit_no_deal_are_refused():
    sheet = replace_marks(3, N=100, S=-50, E=-50, W=0)
    assert fields_and_codes(sheet) == {("deals[3].marks", "marks_fit_no_deal")}


def test_missing_player_is_refused():
    players = {N: "DURAND", S: "DUPONT", E: "DUBOIS"}
    sheet = example_sheet((DealLine(facts=deal) for deal in EXAMPLE_FACTS), players)
    assert fields_and_codes(sheet) == {("players.W", "missing_player")}


@pytest.mark.parametrize("blank", [None, ""])
def test_blank_player_is_refused(blank):
    sheet = example_sheet((DealLine(facts=deal) for deal in EXAMPLE_FACTS), {**PLAYERS, E: blank})
    assert fields_and_codes(sheet) == {("players.E", "missing_player")}


def test_same_player_twice_is_refused():
    sheet = example_sheet(
        (DealLine(facts=deal) for deal in EXAMPLE_FACTS), {**PLAYERS, W: "DUPONT"}
    )
    assert fields_and_codes(sheet) == {("players.W", "duplicate_player")}


def with_fact(index, **changes):
    facts = list(EXAMPLE_FACTS)
    facts[index] = replace(facts[index], **changes)
    return example_sheet(DealLine(facts=f) for f in facts)


@pytest.mark.parametrize(
    ("index", "changes", "field", "code"),
    [
        (2, {"attack_points": 92}, "deals[2].attack_points", "points_out_of_range"),
        (0, {"oudlers": 4}, "deals[0].oudlers", "oudlers_out_of_range"),
        (3, {"poignees": (Poignee(E, 11),)}, "deals[3].poignees[0].trumps",
         "poignee_size_not_allowed"),
        (4, {"called_partner": N}, "deals[4].called_partner", "partner_only_at_five_players"),
        (1, {"attack_points": Decimal("55.5")}, "deals[1].attack_points",
         "half_point_at_four_players"),
        (1, {"table_size": THREE}, "deals[1].table_size", "table_size_mismatch"),
    ],
)  # fmt: skip
def test_impossible_deal_is_refused_with_its_index(index, changes, field, code):
    problems = refusal(with_fact(index, **changes))
    assert [(p.field, p.code) for p in problems] == [(field, code)]
    assert problems[0].message.endswith(".")


def test_poignee_a_three_player_table_does_not_allow():
    deal = Deal(THREE, Contract.GARDE, S, oudlers=2, attack_points=50, poignees=(Poignee(E, 10),))
    sheet = ScoreSheet(1, 1, {S: "a", E: "b", W: "c"}, (DealLine(facts=deal),))
    problems = refusal(sheet)
    assert [(p.field, p.code) for p in problems] == [
        ("deals[0].poignees[0].trumps", "poignee_size_not_allowed")
    ]
    assert "13, 15 or 18" in problems[0].message


def test_written_mark_that_disagrees_with_the_facts_is_refused():
    lines = [DealLine(facts=d, marks=m) for d, m in zip(EXAMPLE_FACTS, EXAMPLE_MARKS, strict=True)]
    lines[0] = DealLine(facts=EXAMPLE_FACTS[0], marks={N: -116, S: -106, E: 328, W: -106})
    problems = refusal(example_sheet(lines))
    assert [(p.field, p.code) for p in problems] == [
        ("deals[0].marks.N", "mark_disagrees_with_facts"),
        ("deals[0].marks.E", "mark_disagrees_with_facts"),
    ]
    assert "-116" in problems[0].message
    assert "-106" in problems[0].message


def test_every_problem_of_a_sheet_is_collected():
    lines = [DealLine(marks=m) for m in EXAMPLE_MARKS]
    lines[0] = DealLine()
    lines[1] = DealLine(marks={N: -76, S: -76, E: -76})
    lines[2] = DealLine(marks={N: 42, S: -126, E: 42, W: 42.0})
    lines[3] = DealLine(marks={**EXAMPLE_MARKS[3], FIFTH: 0})
    sheet = ScoreSheet(table=0, position=-1, players={**PLAYERS, S: "DURAND"}, deals=tuple(lines))
    assert fields_and_codes(sheet) == {
        ("table", "not_a_positive_integer"),
        ("position", "not_a_positive_integer"),
        ("players.S", "duplicate_player"),
        ("deals[0]", "empty_line"),
        ("deals[1].marks.W", "missing_mark"),
        ("deals[2].marks.W", "not_an_integer"),
        ("deals[3].marks.5", "seat_not_at_table"),
    }


def test_three_player_table_has_no_north():
    sheet = ScoreSheet(1, 1, {N: "a", S: "b", E: "c"}, (DealLine(marks={N: 52, S: -26, E: -26}),))
    assert fields_and_codes(sheet) == {
        ("players.N", "seat_not_at_table"),
        ("players.W", "missing_player"),
        ("deals[0].marks.N", "seat_not_at_table"),
        ("deals[0].marks.W", "missing_mark"),
    }


def test_a_sheet_names_three_to_five_players():
    sheet = ScoreSheet(1, 1, {N: "a", S: "b"}, (DealLine(marks={N: 0, S: 0}),))
    assert fields_and_codes(sheet) == {("players", "wrong_player_count")}


# --- 3 and 5 players, passes ---------------------------------------------------------------


def test_three_player_sheet():
    deals = (
        Deal(THREE, Contract.PRISE, S, oudlers=2, attack_points=Decimal("41.5")),  # +26
        Deal(THREE, Contract.GARDE, W, oudlers=2, attack_points=Decimal("40.5")),  # -52
        Deal.all_passed(THREE),
    )
    sheet = ScoreSheet(7, 2, {S: "a", E: "b", W: "c"}, tuple(DealLine(facts=d) for d in deals))
    totals = total_sheet(sheet)
    assert totals.deal_marks == (
        {S: 52, E: -26, W: -26},
        {S: 52, E: 52, W: -104},
        {S: 0, E: 0, W: 0},
    )
    assert {s: (t.plus, t.minus, t.balance) for s, t in totals.players.items()} == {
        S: (104, 0, 104),
        E: (52, 26, 26),
        W: (0, 130, -130),
    }


def test_five_player_sheet_with_partner_and_alone():
    players = {N: "a", S: "b", E: "c", W: "d", FIFTH: "e"}
    lines = (
        DealLine(facts=Deal(FIVE, Contract.GARDE_SANS, E, S, oudlers=1, attack_points=55,
                            petit_au_bout=DEFENCE)),  # 76: E +152, S +76
        DealLine(marks={N: -92, S: -92, E: 368, W: -92, FIFTH: -92}),  # E alone
        DealLine(marks={N: 42, S: 42, E: 42, W: -84, FIFTH: -42}),  # W with FIFTH, failed
    )  # fmt: skip
    totals = total_sheet(ScoreSheet(2, 3, players, lines))
    assert {s: t.balance for s, t in totals.players.items()} == {
        N: -76 - 92 + 42,
        S: 76 - 92 + 42,
        E: 152 + 368 + 42,
        W: -76 - 92 - 84,
        FIFTH: -76 - 92 - 42,
    }


def test_five_player_marks_with_a_partner_must_be_two_to_one():
    players = {N: "a", S: "b", E: "c", W: "d", FIFTH: "e"}
    line = DealLine(marks={N: 42, S: 42, E: 42, W: -63, FIFTH: -63})
    assert fields_and_codes(ScoreSheet(2, 3, players, (line,))) == {
        ("deals[0].marks", "marks_fit_no_deal")
    }


# --- invariants ----------------------------------------------------------------------------


@st.composite
def deals_at(draw, size):
    table = seats(size)
    taker = draw(st.sampled_from(table))
    partner = None
    if size == FIVE:
        partner = draw(st.none() | st.sampled_from([s for s in table if s != taker]))
    contract = draw(st.sampled_from(Contract))
    talon = Talon.ECART if contract in (Contract.PRISE, Contract.GARDE) else Talon.CHIEN_FOR_ATTACK
    if contract is Contract.GARDE_CONTRE:
        talon = Talon.CHIEN_FOR_DEFENCE
    # a count the cards allow without a chelem (card_counts)
    oudlers, points = draw(st.sampled_from(sorted(possible_counts(size, talon, Tricks.SHARED))))
    poignees = ()
    if draw(st.booleans()):
        trumps = {THREE: (13, 15, 18), FOUR: (10, 13, 15), FIVE: (8, 10, 13)}[size]
        poignees = (Poignee(draw(st.sampled_from(table)), draw(st.sampled_from(trumps))),)
    petit = [None] + [ATTACK] * (oudlers > 0) + [DEFENCE] * (oudlers < 3)
    return Deal(
        size,
        contract,
        taker,
        partner,
        oudlers,
        points,
        poignees,
        draw(st.sampled_from(petit)),
        draw(st.booleans()),
    )


@st.composite
def sheets(draw):
    size = draw(st.sampled_from(TableSize))
    deals = draw(st.lists(deals_at(size) | st.just(Deal.all_passed(size)), max_size=6))
    lines = [
        DealLine(facts=d) if draw(st.booleans()) else DealLine(marks=dict(score_deal(d).marks))
        for d in deals
    ]
    players = {seat: f"licence-{i}" for i, seat in enumerate(seats(size))}
    return ScoreSheet(draw(st.integers(1, 40)), draw(st.integers(1, 8)), players, tuple(lines))


@settings(max_examples=80, deadline=None)
@given(sheets())
def test_a_sheet_balances_sum_to_zero(sheet):
    totals = total_sheet(sheet)
    players = totals.players.values()
    assert sum(p.balance for p in players) == 0
    assert sum(p.plus for p in players) == sum(p.minus for p in players)
    for seat, player in totals.players.items():
        assert player.balance == sum(marks[seat] for marks in totals.deal_marks)
        assert player.plus >= 0
        assert player.minus >= 0


@settings(max_examples=50, deadline=None)
@given(sheets())
def test_written_marks_total_like_the_facts(sheet):
    written = ScoreSheet(
        sheet.table,
        sheet.position,
        sheet.players,
        tuple(
            DealLine(marks=line.marks or dict(score_deal(line.facts).marks)) for line in sheet.deals
        ),
    )
    assert total_sheet(written) == total_sheet(sheet)
