"""A chelem against poignées: the engine accepts a deal only if some play gives it.

The witness here deals concrete trumps (numbered 1 to 21) to the poignées and plays the
trump tricks out: the winning side leads its highest trump, every losing player still
holding a trump must play one; the chelem holds if the winning side's trump tops every
trick. The engine's rule (chelem_trumps) is checked against this play, both ways.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.card_counts import Talon, Tricks, possible_counts
from competitions.rules.engine.scoring import (
    Contract,
    Deal,
    Poignee,
    ScoringRules,
    Side,
    deal_problems,
)
from competitions.rules.engine.tables import Orientation, TableSize, seats

N, S, E, W, FIFTH = Orientation
THREE, FOUR, FIVE = TableSize
ATTACK, DEFENCE = Side
CODE = ("chelem_made_by", "chelem_against_a_poignee")
TALON = {
    Contract.PRISE: Talon.ECART,
    Contract.GARDE: Talon.ECART,
    Contract.GARDE_SANS: Talon.CHIEN_FOR_ATTACK,
    Contract.GARDE_CONTRE: Talon.CHIEN_FOR_DEFENCE,
}
TRICKS = {ATTACK: Tricks.ALL_TO_ATTACK, DEFENCE: Tricks.ALL_TO_DEFENCE}


def codes(deal):
    return {(p.field, p.code) for p in deal_problems(deal)}


def trump_play_wins_every_trick(losers: list[int], winners: list[int], extra: bool) -> bool:
    """Deal the losers the lowest trumps and the winners the highest, then play.

    ``losers`` / ``winners``: the trumps each player holds (a poignée's exact count);
    ``extra``: a winning player may hold trumps beyond his poignée (he showed no excuse).
    """
    deck = list(range(1, 22))
    hands = []
    for count in losers:
        hands.append(deck[:count])
        del deck[:count]
    if sum(winners) > len(deck):
        return False
    winning = deck if extra else deck[len(deck) - sum(winners) :]
    winning = sorted(winning, reverse=True)
    while any(hands):
        if not winning:
            return False
        led = winning.pop(0)
        for hand in hands:
            if hand:
                played = hand.pop()  # the loser's highest: the hardest to beat
                if played > led:
                    return False
    return True


def witness_exists(deal: Deal) -> bool:
    attack = {deal.taker, deal.called_partner}
    chelem_by = deal.chelem_made_by
    lose = [p for p in deal.poignees if (p.seat in attack) != (chelem_by == ATTACK)]
    win = [p for p in deal.poignees if p not in lose]
    # 3 oudlers to an attack's chelem: the attack's pile has the excuse; no oudler to the
    # attack on a defence's chelem: the attack never held it
    excuse_with_losers = deal.oudlers != (3 if chelem_by == ATTACK else 0)
    # fewer than 3 oudlers to an attack's chelem: a defender kept the excuse (but on a garde
    # contre, whose chien the defence keeps); one oudler to the attack on a defence's chelem:
    # the attack held the excuse (but on a garde sans, whose chien counts for the attack)
    if chelem_by == ATTACK:
        with_winners = deal.oudlers == 3 or deal.contract == Contract.GARDE_CONTRE
    else:
        with_winners = deal.oudlers == 0 or deal.contract == Contract.GARDE_SANS
    holders = [None, *(win if with_winners else [])]
    if excuse_with_losers:
        holders += lose
    for holder in holders:
        losers = [p.trumps - (p is holder) for p in lose]
        winners = [p.trumps - (p is holder) for p in win]
        # a winning player who did not show the excuse may hide more trumps; one who has
        # no poignée may hold any; the taker alone who showed the excuse has no more
        winning_seats = [
            s for s in seats(deal.table_size) if (s in attack) == (chelem_by == ATTACK)
        ]
        extra = any(holder is None or s != holder.seat for s in winning_seats)
        if trump_play_wins_every_trick(losers, winners, extra):
            return True
    return False


@st.composite
def chelem_deals(draw):
    size = draw(st.sampled_from(list(TableSize)))
    table = seats(size)
    taker = draw(st.sampled_from(table))
    partner = None
    if size == FIVE:
        partner = draw(st.none() | st.sampled_from([s for s in table if s != taker]))
    contract = draw(st.sampled_from(Contract))
    chelem_by = draw(st.sampled_from([ATTACK, DEFENCE]))
    counts = sorted(possible_counts(size, TALON[contract], TRICKS[chelem_by]))
    oudlers, points = draw(st.sampled_from(counts))
    allowed = ScoringRules().poignee_trumps(size)
    poignees, shown = [], 0
    for seat in draw(st.lists(st.sampled_from(table), unique=True, min_size=1, max_size=3)):
        trumps = draw(st.sampled_from(allowed))
        if shown + trumps <= 22:
            poignees.append(Poignee(seat, trumps))
            shown += trumps
    return Deal(
        size,
        contract,
        taker,
        partner,
        oudlers,
        points,
        tuple(poignees),
        chelem_announced=draw(st.booleans()),
        chelem_made_by=chelem_by,
    )


@settings(max_examples=400, deadline=None)
@given(chelem_deals())
def test_a_chelem_is_accepted_exactly_when_some_play_gives_it(deal):
    assert (CODE not in codes(deal)) == witness_exists(deal)


@settings(max_examples=200, deadline=None)
@given(chelem_deals())
def test_every_accepted_chelem_has_a_play(deal):
    if not deal_problems(deal):
        assert witness_exists(deal)


# The seven shapes random deals found accepted although no play gives them: a player
# alone against a chelem showing a poignée of 12 cards or more (11 trumps at least).
KNOWN = {
    "3p attack chelem, defender 13": Deal(
        THREE, Contract.GARDE, E, None, 3, 91, (Poignee(S, 13),), chelem_made_by=ATTACK
    ),
    "3p attack chelem, defender 15": Deal(
        THREE, Contract.PRISE, S, None, 2, 87, (Poignee(E, 15),), chelem_made_by=ATTACK
    ),
    "3p attack chelem, defender 18": Deal(
        THREE, Contract.GARDE_SANS, W, None, 3, 91, (Poignee(S, 18),), chelem_made_by=ATTACK
    ),
    "3p defence chelem, taker 13": Deal(
        THREE, Contract.GARDE, W, None, 0, 3, (Poignee(W, 13),), chelem_made_by=DEFENCE
    ),
    "4p defence chelem, taker 13": Deal(
        FOUR, Contract.GARDE, E, None, 0, 3, (Poignee(E, 13),), chelem_made_by=DEFENCE
    ),
    "4p defence chelem, taker 15": Deal(
        FOUR, Contract.GARDE_CONTRE, E, None, 1, 4, (Poignee(E, 15),), chelem_made_by=DEFENCE
    ),
    "5p defence chelem, taker alone 13": Deal(
        FIVE, Contract.PRISE, E, None, 0, 1.5, (Poignee(E, 13),), chelem_made_by=DEFENCE
    ),
}


@pytest.mark.parametrize("deal", KNOWN.values(), ids=KNOWN.keys())
def test_the_known_impossible_shapes_are_refused(deal):
    assert codes(deal) == {CODE}
    assert not witness_exists(deal)


@pytest.mark.parametrize(
    "deal",
    [
        # a defender's 10 trumps beaten by the taker's 11 highest
        Deal(FOUR, Contract.GARDE, E, None, 3, 91, (Poignee(N, 10),), chelem_made_by=ATTACK),
        # the taker's 10 (with the excuse: 9 trumps) under the defence's 12 others
        Deal(FOUR, Contract.GARDE, E, None, 1, 7, (Poignee(E, 10),), chelem_made_by=DEFENCE),
        # at 5, a defender's 10 against the taker and partner
        Deal(FIVE, Contract.GARDE, E, N, 3, 91, (Poignee(S, 10),), chelem_made_by=ATTACK),
        # the chelem side's own poignée is no obstacle
        Deal(THREE, Contract.GARDE, S, None, 3, 91, (Poignee(S, 18),), chelem_made_by=ATTACK),
    ],
)
def test_a_chelem_the_trumps_allow_is_accepted(deal):
    assert CODE not in codes(deal)
    assert witness_exists(deal)


def test_two_defenders_poignees_of_ten_leave_the_taker_too_few_trumps():
    deal = Deal(
        FOUR,
        Contract.GARDE,
        E,
        None,
        2,
        87,
        (Poignee(N, 10), Poignee(S, 10)),
        chelem_made_by=ATTACK,
    )
    assert CODE in codes(deal)
