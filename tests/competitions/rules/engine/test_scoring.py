"""Deal scoring: fascicule 2 chapter 1 and the 5-player regulation."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.card_counts import Talon, Tricks, possible_counts
from competitions.rules.engine.chelem_trumps import chelem_allows_poignees
from competitions.rules.engine.scoring import (
    DEFAULT_SCORING_RULES,
    Contract,
    Deal,
    Poignee,
    ScoringRules,
    Side,
    deal_problems,
    marks_for,
    score_deal,
)
from competitions.rules.engine.tables import Orientation, TableSize, seats
from core.problems import RuleViolation

N, S, E, W, FIFTH = Orientation
THREE, FOUR, FIVE = TableSize
ATTACK, DEFENCE = Side


def four(contract, taker=E, **facts):
    return Deal(FOUR, contract, taker, **facts)


def codes(deal, rules=DEFAULT_SCORING_RULES):
    return {(p.field, p.code) for p in deal_problems(deal, rules)}


# --- printed tables -------------------------------------------------------------------------


@pytest.mark.parametrize(("oudlers", "needed"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_points_needed_by_oudlers_juste_fait_is_won_for_25(oudlers, needed):
    score = score_deal(four(Contract.PRISE, oudlers=oudlers, attack_points=needed))
    assert score.breakdown.points_needed == needed
    assert score.breakdown.contract_won
    assert score.breakdown.difference == 0
    assert score.base == 25
    lost = score_deal(four(Contract.PRISE, oudlers=oudlers, attack_points=needed - 1))
    assert not lost.breakdown.contract_won
    assert lost.base == -26


@pytest.mark.parametrize(
    ("contract", "multiplier"),
    [
        (Contract.PRISE, 1),
        (Contract.GARDE, 2),
        (Contract.GARDE_SANS, 4),
        (Contract.GARDE_CONTRE, 6),
    ],
)
def test_contract_multiplier(contract, multiplier):
    score = score_deal(four(contract, oudlers=1, attack_points=61))  # won by 10
    assert score.breakdown.multiplier == multiplier
    assert score.base == (25 + 10) * multiplier


@pytest.mark.parametrize(
    ("size", "taker", "trumps", "bonus"),
    [
        (FOUR, E, 10, 20),
        (FOUR, E, 13, 30),
        (FOUR, E, 15, 40),
        (THREE, E, 13, 20),
        (THREE, E, 15, 30),
        (THREE, E, 18, 40),
        (FIVE, E, 8, 20),
        (FIVE, E, 10, 30),
        (FIVE, E, 13, 40),
    ],
)
def test_poignee_sizes_and_bonuses_by_table_size(size, taker, trumps, bonus):
    deal = Deal(
        size, Contract.GARDE, taker, oudlers=2, attack_points=51, poignees=(Poignee(W, trumps),)
    )
    score = score_deal(deal)
    assert score.breakdown.poignees == bonus
    assert score.base == (25 + 10) * 2 + bonus


@pytest.mark.parametrize(
    ("size", "trumps"),
    [(FOUR, 8), (FOUR, 11), (FOUR, 18), (THREE, 10), (THREE, 14), (FIVE, 15), (FIVE, 9)],
)
def test_poignee_size_the_table_does_not_allow_is_refused(size, trumps):
    deal = Deal(
        size, Contract.GARDE, E, oudlers=2, attack_points=51, poignees=(Poignee(W, trumps),)
    )
    assert ("poignees[0].trumps", "poignee_size_not_allowed") in codes(deal)


# --- worked examples, 4 players ("La marque en donnes libres") -----------------------------

FOUR_PLAYER_EXAMPLES = {
    "garde, poignée, petit au bout, 49 with 2 bouts": (
        four(
            Contract.GARDE,
            oudlers=2,
            attack_points=49,
            poignees=(Poignee(E, 10),),
            petit_au_bout=ATTACK,
        ),
        (66, 20, 20, 0),
        106,
    ),
    "garde sans won by 4, petit au bout to the defence": (
        four(Contract.GARDE_SANS, oudlers=1, attack_points=55, petit_au_bout=DEFENCE),
        (116, -40, 0, 0),
        76,
    ),
    "prise failed by 7 with poignée, petit au bout to the attack": (
        four(
            Contract.PRISE,
            oudlers=2,
            attack_points=34,
            poignees=(Poignee(E, 10),),
            petit_au_bout=ATTACK,
        ),
        (-32, 10, -20, 0),
        -42,
    ),
    "garde won by 11, poignée shown by the defence": (
        four(Contract.GARDE, oudlers=0, attack_points=67, poignees=(Poignee(N, 10),)),
        (72, 0, 20, 0),
        92,
    ),
    "garde, chelem announced and made, poignée, petit au bout, 87 with 2 bouts": (
        four(
            Contract.GARDE,
            oudlers=2,
            attack_points=87,
            poignees=(Poignee(E, 10),),
            petit_au_bout=ATTACK,
            chelem_announced=True,
            chelem_made_by=ATTACK,
        ),
        (142, 20, 20, 400),
        582,
    ),
}


@pytest.mark.parametrize(
    ("deal", "parts", "base"), FOUR_PLAYER_EXAMPLES.values(), ids=FOUR_PLAYER_EXAMPLES.keys()
)
def test_four_player_worked_examples(deal, parts, base):
    score = score_deal(deal)
    b = score.breakdown
    assert (b.contract_points, b.petit_au_bout, b.poignees, b.chelem) == parts
    assert score.base == base
    assert score.marks == {N: -base, S: -base, E: 3 * base, W: -base}


def test_first_example_breakdown_reads_as_the_text():
    b = score_deal(
        FOUR_PLAYER_EXAMPLES["garde, poignée, petit au bout, 49 with 2 bouts"][0]
    ).breakdown
    assert (b.counted_points, b.points_needed, b.difference) == (49, 41, 8)  # 49 - 41 = 8
    assert (b.contract_value, b.multiplier) == (25, 2)  # (25 + 8) x 2 = 66


# --- worked examples, 5 players (règlement officiel à 5 joueurs) ---------------------------

FIVE_PLAYER_EXAMPLES = [
    # (facts, base, taker and partner marks, taker alone mark)
    (
        {
            "contract": Contract.GARDE,
            "oudlers": 2,
            "attack_points": 49,
            "poignees": (Poignee(E, 8),),
            "petit_au_bout": ATTACK,
        },
        106,
        (212, 106),
        424,
    ),
    (
        {
            "contract": Contract.GARDE_SANS,
            "oudlers": 1,
            "attack_points": 55,
            "petit_au_bout": DEFENCE,
        },
        76,
        (152, 76),
        304,
    ),
    (
        {
            "contract": Contract.PRISE,
            "oudlers": 2,
            "attack_points": 34,
            "poignees": (Poignee(E, 8),),
            "petit_au_bout": ATTACK,
        },
        -42,
        (-84, -42),
        -168,
    ),
    (
        {
            "contract": Contract.GARDE,
            "oudlers": 0,
            "attack_points": 67,
            "poignees": (Poignee(W, 8),),
        },
        92,
        (184, 92),
        368,
    ),
    (
        {
            "contract": Contract.GARDE,
            "oudlers": 2,
            "attack_points": 87,
            "poignees": (Poignee(E, 8),),
            "petit_au_bout": ATTACK,
            "chelem_announced": True,
            "chelem_made_by": ATTACK,
        },
        582,
        (1164, 582),
        2328,
    ),
]


@pytest.mark.parametrize(("facts", "base", "pair_marks", "alone_mark"), FIVE_PLAYER_EXAMPLES)
def test_five_player_worked_examples(facts, base, pair_marks, alone_mark):
    with_partner = score_deal(Deal(FIVE, taker=E, called_partner=S, **facts))
    assert with_partner.base == base
    assert with_partner.marks == {
        E: pair_marks[0],
        S: pair_marks[1],
        N: -base,
        W: -base,
        FIFTH: -base,
    }
    alone = score_deal(Deal(FIVE, taker=E, **facts))
    assert alone.base == base
    assert alone.marks == {E: alone_mark, N: -base, S: -base, W: -base, FIFTH: -base}


# --- 3 players and the half point ----------------------------------------------------------


@pytest.mark.parametrize("size", [THREE, FIVE])
@pytest.mark.parametrize(
    ("points", "won", "counted", "difference"),
    [
        (Decimal("40.5"), False, 40, 1),  # "il réalise donc 40 points et chute de UN point"
        (Decimal("41.5"), True, 42, 1),  # "il réalise donc 42 points et passe de UN point"
        (41, True, 41, 0),  # juste fait
        (Fraction(81, 2), False, 40, 1),
        (40.5, False, 40, 1),
    ],
)
def test_half_point_goes_to_the_winning_side(size, points, won, counted, difference):
    score = score_deal(Deal(size, Contract.PRISE, E, oudlers=2, attack_points=points))
    b = score.breakdown
    assert (b.contract_won, b.counted_points, b.difference) == (won, counted, difference)
    assert score.base == (25 + difference) * (1 if won else -1)


def test_three_player_taker_marks_twice_each_defender():
    score = score_deal(Deal(THREE, Contract.PRISE, S, oudlers=2, attack_points=Decimal("41.5")))
    assert score.marks == {S: 52, E: -26, W: -26}
    failed = score_deal(Deal(THREE, Contract.GARDE, W, oudlers=2, attack_points=Decimal("40.5")))
    assert failed.marks == {S: 52, E: 52, W: -104}


def test_half_point_at_four_players_is_refused():
    deal = four(Contract.PRISE, oudlers=2, attack_points=Decimal("41.5"))
    assert codes(deal) == {("attack_points", "half_point_at_four_players")}


# --- poignée, petit au bout and chelem examples --------------------------------------------


@pytest.mark.parametrize(
    ("seat", "trumps", "points", "expected"),
    [
        (E, 13, 60, 30),  # the attack shows a double poignée and wins: each defender pays 30
        (E, 13, 40, -30),  # ... and loses: the attack pays 30 to each defender
        (N, 10, 60, 20),  # a defender shows ten trumps, the attack wins: the attack gets 20
        (N, 10, 40, -20),  # ... the attack loses: each defender receives 20
    ],
)
def test_poignee_goes_to_the_side_that_wins_the_deal(seat, trumps, points, expected):
    score = score_deal(
        four(Contract.GARDE, oudlers=1, attack_points=points, poignees=(Poignee(seat, trumps),))
    )
    assert score.breakdown.poignees == expected


@pytest.mark.parametrize(
    ("contract", "side", "points", "petit", "base"),
    [
        (Contract.GARDE_SANS, DEFENCE, 55, -40, (25 + 4) * 4 - 40),  # deducted from the gains
        (Contract.GARDE_SANS, DEFENCE, 45, -40, -(25 + 6) * 4 - 40),
        (Contract.PRISE, DEFENCE, 60, -10, 25 + 9 - 10),
        (Contract.PRISE, ATTACK, 40, 10, -(25 + 11) + 10),  # whatever the result
        (Contract.GARDE_CONTRE, ATTACK, 60, 60, (25 + 9) * 6 + 60),
    ],
)
def test_petit_au_bout_is_ten_times_the_multiplier_whatever_the_result(
    contract, side, points, petit, base
):
    score = score_deal(four(contract, oudlers=1, attack_points=points, petit_au_bout=side))
    assert score.breakdown.petit_au_bout == petit
    assert score.base == base


@pytest.mark.parametrize(
    ("announced", "made_by", "points", "oudlers", "chelem"),
    [
        (True, ATTACK, 91, 3, 400),  # annoncé et réalisé
        (False, ATTACK, 91, 3, 200),  # non annoncé mais réalisé
        (True, None, 80, 3, -200),  # annoncé mais non réalisé
        (False, DEFENCE, 3, 0, -200),  # infligé par la défense: +200 to each defender
        (True, DEFENCE, 3, 0, -400),  # reading: announced, failed and inflicted by the defence
    ],
)
def test_chelem_bonuses(announced, made_by, points, oudlers, chelem):
    deal = four(
        Contract.GARDE,
        oudlers=oudlers,
        attack_points=points,
        chelem_announced=announced,
        chelem_made_by=made_by,
    )
    score = score_deal(deal)
    assert score.breakdown.chelem == chelem
    c = score.breakdown.contract_points
    assert score.base == c + chelem
    assert score.marks[N] == -(c + chelem)


def test_chelem_bonus_is_shared_two_thirds_one_third_at_five():
    deal = Deal(FIVE, Contract.PRISE, N, W, oudlers=3, attack_points=91, chelem_made_by=ATTACK)
    score = score_deal(deal)
    assert score.base == 25 + 55 + 200
    assert (score.marks[N], score.marks[W]) == (2 * 280, 280)


def test_defence_chelem_pays_each_defender_200_more():
    # the attack has only its écart: 6 low cards, 3 points; lost by 56 - 3 = 53
    slam = score_deal(four(Contract.PRISE, oudlers=0, attack_points=3, chelem_made_by=DEFENCE))
    for seat in (N, S, W):
        assert slam.marks[seat] == 25 + 53 + 200
    assert slam.marks[E] == -3 * (25 + 53 + 200)


def test_a_failed_chelem_announcement_can_outweigh_a_made_contract():
    score = score_deal(four(Contract.PRISE, oudlers=3, attack_points=40, chelem_announced=True))
    assert score.breakdown.contract_won
    assert score.base == 29 - 200
    assert score.marks[E] == -513


# --- everyone passes -----------------------------------------------------------------------


@pytest.mark.parametrize("size", list(TableSize))
def test_everyone_passed_scores_nothing(size):
    score = score_deal(Deal.all_passed(size))
    assert score.all_passed
    assert score.base == 0
    assert score.marks == dict.fromkeys(seats(size), 0)


def test_a_passed_deal_cannot_carry_facts():
    deal = Deal(FOUR, None, E, oudlers=2, attack_points=50, petit_au_bout=ATTACK)
    assert codes(deal) == {
        ("taker", "fact_on_passed_deal"),
        ("oudlers", "fact_on_passed_deal"),
        ("attack_points", "fact_on_passed_deal"),
        ("petit_au_bout", "fact_on_passed_deal"),
    }


# --- refusals ------------------------------------------------------------------------------


def garde(size=FOUR, taker=E, **facts):
    """A garde with 1 oudler and 50 points unless told otherwise."""
    return Deal(size, Contract.GARDE, taker, **({"oudlers": 1, "attack_points": 50} | facts))


REFUSALS = {
    "points over 91": (garde(oudlers=3, attack_points=92), "attack_points", "points_out_of_range"),
    "negative points": (garde(oudlers=0, attack_points=-1), "attack_points", "points_out_of_range"),
    "points not a number": (garde(attack_points="50"), "attack_points", "not_a_number"),
    "points not a half": (
        garde(THREE, attack_points=Decimal("50.25")),
        "attack_points",
        "not_a_half_point",
    ),
    "missing points": (garde(attack_points=None), "attack_points", "missing"),
    "four oudlers": (garde(oudlers=4), "oudlers", "oudlers_out_of_range"),
    "negative oudlers": (garde(oudlers=-1), "oudlers", "oudlers_out_of_range"),
    "oudlers not whole": (garde(oudlers=1.0), "oudlers", "not_an_integer"),
    "missing oudlers": (garde(oudlers=None), "oudlers", "missing"),
    "three oudlers, five points": (
        garde(oudlers=3, attack_points=5),
        "attack_points",
        "points_impossible_without_chelem",
    ),
    "no oudler, 85 points": (
        garde(oudlers=0, attack_points=85),
        "attack_points",
        "points_impossible_without_chelem",
    ),
    "every card without a chelem": (
        garde(oudlers=3, attack_points=91),
        "attack_points",
        "points_impossible_without_chelem",
    ),
    "a prise with no point": (
        garde(oudlers=0, attack_points=0),  # the écart and a trick hold 10 cards: 5 points
        "attack_points",
        "points_impossible_without_chelem",
    ),
    "a whole point where only a half fits, 3 players": (
        garde(THREE, oudlers=0, attack_points=5),  # 9 cards give 4½ or 5½, 12 at least 6
        "attack_points",
        "points_impossible_for_card_count",
    ),
    "petit au bout by an attack without oudler": (
        garde(oudlers=0, attack_points=60, petit_au_bout=ATTACK),
        "petit_au_bout",
        "petit_au_bout_without_oudler",
    ),
    "petit au bout by the defence, every oudler to the attack": (
        garde(oudlers=3, attack_points=60, petit_au_bout=DEFENCE),
        "petit_au_bout",
        "petit_au_bout_with_every_oudler",
    ),
    "prise chelem, 56 points without oudler": (
        Deal(FOUR, Contract.PRISE, E, oudlers=0, attack_points=56, chelem_made_by=ATTACK),
        "chelem_made_by",
        "chelem_needs_every_card",
    ),
    "attack chelem, 87 points with 3 oudlers": (
        garde(oudlers=3, attack_points=87, chelem_made_by=ATTACK),
        "chelem_made_by",
        "chelem_needs_every_card",
    ),
    "garde contre chelem, the chien's points kept": (
        Deal(FOUR, Contract.GARDE_CONTRE, E, oudlers=3, attack_points=91, chelem_made_by=ATTACK),
        "chelem_made_by",
        "chelem_leaves_the_chien_to_the_defence",
    ),
    "defence chelem, two oudlers in the écart": (
        garde(oudlers=2, attack_points=10, chelem_made_by=DEFENCE),
        "chelem_made_by",
        "defence_chelem_leaves_the_ecart",
    ),
    "defence chelem on a garde sans, more than the chien": (
        Deal(FOUR, Contract.GARDE_SANS, E, oudlers=1, attack_points=35, chelem_made_by=DEFENCE),
        "chelem_made_by",
        "defence_chelem_leaves_the_chien",
    ),
    "defence chelem on a garde contre, points left": (
        Deal(FOUR, Contract.GARDE_CONTRE, E, oudlers=0, attack_points=3, chelem_made_by=DEFENCE),
        "chelem_made_by",
        "defence_chelem_on_garde_contre",
    ),
    "unknown contract": (
        Deal(FOUR, "petite garde", E, oudlers=1, attack_points=50),
        "contract",
        "unknown_contract",
    ),
    "unknown table size": (garde(6), "table_size", "unknown_table_size"),
    "missing taker": (garde(taker=None), "taker", "missing"),
    "fifth seat at four": (garde(taker=FIFTH), "taker", "seat_not_at_table"),
    "north at three": (garde(THREE, taker=N), "taker", "seat_not_at_table"),
    "partner at four": (
        garde(called_partner=N),
        "called_partner",
        "partner_only_at_five_players",
    ),
    "partner at three": (
        garde(THREE, called_partner=S),
        "called_partner",
        "partner_only_at_five_players",
    ),
    "taker is partner": (garde(FIVE, called_partner=E), "called_partner", "partner_is_taker"),
    "poignée from no seat": (
        garde(poignees=(Poignee("X", 10),)),
        "poignees[0].seat",
        "seat_not_at_table",
    ),
    "two poignées, one player": (
        garde(poignees=(Poignee(E, 10), Poignee(E, 10))),
        "poignees[1].seat",
        "duplicate_poignee",
    ),
    "poignées over 22 trumps": (
        garde(poignees=(Poignee(E, 13), Poignee(N, 10))),
        "poignees",
        "poignees_exceed_trumps",
    ),
    "unknown side": (garde(petit_au_bout="north"), "petit_au_bout", "unknown_side"),
    "chelem not boolean": (garde(chelem_announced="yes"), "chelem_announced", "not_a_boolean"),
    "attack chelem, contract failed": (
        garde(oudlers=0, chelem_made_by=ATTACK),
        "chelem_made_by",
        "chelem_needs_every_card",
    ),
    "defence chelem, contract made": (
        garde(oudlers=3, attack_points=40, chelem_made_by=DEFENCE),
        "chelem_made_by",
        "defence_chelem_leaves_the_ecart",
    ),
    "attack chelem, defence petit au bout": (
        garde(oudlers=2, attack_points=87, chelem_made_by=ATTACK, petit_au_bout=DEFENCE),
        "petit_au_bout",
        "petit_au_bout_against_chelem",
    ),
}


@pytest.mark.parametrize(("deal", "field", "code"), REFUSALS.values(), ids=REFUSALS.keys())
def test_impossible_deal_is_refused_with_a_located_problem(deal, field, code):
    with pytest.raises(RuleViolation) as refused:
        score_deal(deal)
    found = {(p.field, p.code) for p in refused.value.problems}
    assert (field, code) in found
    assert all(p.message.endswith(".") and len(p.message) > 20 for p in refused.value.problems)


def test_every_problem_of_a_deal_is_collected():
    deal = Deal(
        THREE,
        Contract.GARDE,
        N,
        called_partner=S,
        oudlers=4,
        attack_points=95,
        poignees=(Poignee(E, 10),),
    )
    assert codes(deal) == {
        ("taker", "seat_not_at_table"),
        ("called_partner", "partner_only_at_five_players"),
        ("oudlers", "oudlers_out_of_range"),
        ("attack_points", "points_out_of_range"),
        ("poignees[0].trumps", "poignee_size_not_allowed"),
    }


def test_problem_paths_take_a_prefix():
    problems = deal_problems(four(Contract.GARDE, oudlers=9, attack_points=50), prefix="deals[2].")
    assert [p.field for p in problems] == ["deals[2].oudlers"]


def test_seats_given_as_plain_letters_are_accepted():
    score = score_deal(
        Deal(
            4,
            "garde",
            "E",
            oudlers=2,
            attack_points=49,
            poignees=(Poignee("E", 10),),
            petit_au_bout="attack",
        )
    )
    assert score.base == 106
    assert score.marks[E] == 318


def test_settings_change_the_figures():
    rules = ScoringRules(contract_value=30, garde_multiplier=3, poignee_bonuses=(25, 35, 45))
    deal = four(Contract.GARDE, oudlers=2, attack_points=49, poignees=(Poignee(E, 10),))
    assert score_deal(deal, rules).base == (30 + 8) * 3 + 25


# --- invariants ----------------------------------------------------------------------------


@st.composite
def valid_deals(draw, sizes=tuple(TableSize)):
    """Deals the cards allow (card_counts; test_card_counts.py checks its list on cards)."""
    size = draw(st.sampled_from(sizes))
    table = seats(size)
    taker = draw(st.sampled_from(table))
    partner = None
    if size == FIVE:
        partner = draw(st.none() | st.sampled_from([s for s in table if s != taker]))
    contract = draw(st.sampled_from(Contract))
    chelem_by = draw(st.sampled_from([None, ATTACK, DEFENCE]))
    talon = {
        Contract.PRISE: Talon.ECART,
        Contract.GARDE: Talon.ECART,
        Contract.GARDE_SANS: Talon.CHIEN_FOR_ATTACK,
        Contract.GARDE_CONTRE: Talon.CHIEN_FOR_DEFENCE,
    }[contract]
    tricks = {None: Tricks.SHARED, ATTACK: Tricks.ALL_TO_ATTACK, DEFENCE: Tricks.ALL_TO_DEFENCE}
    oudlers, points = draw(st.sampled_from(sorted(possible_counts(size, talon, tricks[chelem_by]))))
    allowed = ScoringRules().poignee_trumps(size)
    poignees, trumps = [], 0
    for seat in draw(st.lists(st.sampled_from(table), unique=True, max_size=2)):
        shown = draw(st.sampled_from(allowed))
        if trumps + shown <= 22:
            poignees.append(Poignee(seat, shown))
            trumps += shown
    if chelem_by is not None:  # a chelem the poignées allow (test_chelem_trumps.py plays it)
        attack = {taker, partner}
        mine = [p.trumps for p in poignees if (p.seat in attack) == (chelem_by == ATTACK)]
        theirs = [p.trumps for p in poignees if (p.seat in attack) != (chelem_by == ATTACK)]
        if not chelem_allows_poignees(theirs, mine):
            poignees = [p for p in poignees if (p.seat in attack) == (chelem_by == ATTACK)]
    sides = [None, ATTACK, DEFENCE] if chelem_by is None else [None, chelem_by]
    sides = [
        s for s in sides if not ((s == ATTACK and oudlers == 0) or (s == DEFENCE and oudlers == 3))
    ]
    return Deal(
        size,
        contract,
        taker,
        partner,
        oudlers,
        points,
        tuple(poignees),
        draw(st.sampled_from(sides)),
        draw(st.booleans()),
        chelem_by,
    )


@settings(max_examples=150, deadline=None)
@given(valid_deals())
def test_every_valid_deal_sums_to_zero(deal):
    score = score_deal(deal)
    assert sum(score.marks.values()) == 0
    assert set(score.marks) == set(seats(deal.table_size))
    defenders = set(seats(deal.table_size)) - {deal.taker, deal.called_partner}
    assert all(score.marks[d] == -score.base for d in defenders)


@settings(max_examples=150, deadline=None)
@given(valid_deals())
def test_taker_mark_has_the_sign_of_the_result(deal):
    score = score_deal(deal)
    b = score.breakdown
    taker_mark = score.marks[deal.taker]
    assert (taker_mark > 0) == (score.base > 0)
    assert (taker_mark < 0) == (score.base < 0)
    if not (deal.chelem_announced and deal.chelem_made_by is None):
        assert (taker_mark > 0) if b.contract_won else (taker_mark < 0)
    assert (b.poignees >= 0) if b.contract_won else (b.poignees <= 0)


@settings(max_examples=100, deadline=None)
@given(valid_deals(sizes=(THREE, FIVE)))
def test_half_point_is_rounded_towards_the_winner(deal):
    b = score_deal(deal).breakdown
    points = Fraction(deal.attack_points)
    assert abs(b.counted_points - points) <= Fraction(1, 2)
    assert (b.counted_points >= points) if b.contract_won else (b.counted_points <= points)
    assert b.contract_won == (b.counted_points >= b.points_needed)


@settings(max_examples=100, deadline=None)
@given(valid_deals(sizes=(FIVE,)))
def test_five_player_partner_gets_a_third_of_the_attack(deal):
    score = score_deal(deal)
    if deal.called_partner is None:
        assert score.marks[deal.taker] == 4 * score.base
    else:
        assert score.marks[deal.taker] == 2 * score.marks[deal.called_partner] == 2 * score.base


@pytest.mark.parametrize(
    ("size", "partner", "taker_mark"),
    [(THREE, None, 2), (FOUR, None, 3), (FIVE, None, 4), (FIVE, N, 2)],
)
def test_marks_for_shares_the_attack(size, partner, taker_mark):
    marks = marks_for(size, E, partner, 10)
    assert marks[E] == 10 * taker_mark
    assert sum(marks.values()) == 0


@pytest.mark.parametrize(
    ("size", "shown", "possible"),
    [
        # the poignées of a deal show at most 22 cards: the 21 trumps and the excuse, which
        # stands in for a trump in one poignée only
        (THREE, (18,), True),
        (THREE, (13, 13), False),  # so one poignée at most at 3 players
        (FOUR, (15,), True),
        (FOUR, (10, 10), True),
        (FOUR, (10, 13), False),
        (FOUR, (10, 10, 10), False),
        (FIVE, (8, 13), True),
        (FIVE, (10, 10), True),
        (FIVE, (10, 13), False),
        (FIVE, (8, 8, 8), False),
    ],
)
def test_poignees_of_a_deal_share_the_22_trumps(size, shown, possible):
    poignees = tuple(
        Poignee(seat, trumps) for seat, trumps in zip(seats(size), shown, strict=False)
    )
    deal = Deal(size, Contract.GARDE, E, oudlers=2, attack_points=50, poignees=poignees)
    assert (("poignees", "poignees_exceed_trumps") not in codes(deal)) is possible
    if possible:
        assert codes(deal) == set()
