"""The attack's possible counts (card_counts), checked against concrete cards.

Both ways: every deal the engine accepts has a witness, a concrete set of cards that the
deal allows the attack to end with (checked card by card here, not by the engine's own
counting); and every split of a shuffled deck that a deal allows is accepted.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from competitions.rules.engine.card_counts import (
    CHIEN_CARDS,
    Talon,
    Tricks,
    points_range,
    possible_counts,
    tricks_per_deal,
)
from competitions.rules.engine.scoring import Contract, Deal, Side, deal_problems, score_deal
from competitions.rules.engine.tables import Orientation, TableSize, seats

THREE, FOUR, FIVE = TableSize
ATTACK, DEFENCE = Side


@dataclass(frozen=True)
class Card:
    name: str
    half_points: int  # 9 an oudler or a king, 7 a queen, 5 a knight, 3 a jack, 1 any other

    @property
    def oudler(self) -> bool:
        return self.name in ("petit", "21", "excuse")

    @property
    def king(self) -> bool:
        return self.name.startswith("K")


PETIT, TWENTY_ONE, EXCUSE = Card("petit", 9), Card("21", 9), Card("excuse", 9)
SUITS = "♠♥♦♣"
KINGS = [Card(f"K{s}", 9) for s in SUITS]
QUEENS = [Card(f"Q{s}", 7) for s in SUITS]
KNIGHTS = [Card(f"C{s}", 5) for s in SUITS]
JACKS = [Card(f"J{s}", 3) for s in SUITS]
LOWS = [Card(f"{n}{s}", 1) for s in SUITS for n in range(1, 11)] + [
    Card(f"trump {n}", 1) for n in range(2, 21)
]
DECK = [PETIT, TWENTY_ONE, EXCUSE, *KINGS, *QUEENS, *KNIGHTS, *JACKS, *LOWS]
TALON = {
    Contract.PRISE: Talon.ECART,
    Contract.GARDE: Talon.ECART,
    Contract.GARDE_SANS: Talon.CHIEN_FOR_ATTACK,
    Contract.GARDE_CONTRE: Talon.CHIEN_FOR_DEFENCE,
}
TRICKS = {None: Tricks.SHARED, ATTACK: Tricks.ALL_TO_ATTACK, DEFENCE: Tricks.ALL_TO_DEFENCE}


def test_the_deck() -> None:
    assert len(set(DECK)) == 78
    assert sum(c.half_points for c in DECK) == 2 * 91
    assert sum(c.oudler for c in DECK) == 3


def half_points(cards: list[Card]) -> int:
    return sum(c.half_points for c in cards)


@dataclass(frozen=True)
class Split:
    """What the attack ends the deal with: ``tricks`` (won or exchanged for the excuse),
    ``talon`` (its écart or chien), and the excuse alone when it is ``lone_excuse``'s
    ("compte pour 4 points": 8 half points)."""

    tricks: list[Card]
    talon: list[Card]
    lone_excuse_attack: bool = False  # the attack kept the excuse on a defence's chelem
    lone_excuse_defence: bool = False  # a defender kept it on an attack's chelem

    @property
    def cards(self) -> list[Card]:
        return self.tricks + self.talon + ([EXCUSE] if self.lone_excuse_attack else [])

    @property
    def count(self) -> tuple[int, Fraction]:
        half = half_points(self.tricks + self.talon)
        half += 8 if self.lone_excuse_attack else 0
        half += 1 if self.lone_excuse_defence else 0  # the defence's excuse counts 4, not 4½
        return sum(c.oudler for c in self.cards), Fraction(half, 2)


def check_split(split: Split, size: TableSize, contract: Contract, chelem: Side | None) -> None:
    """The split is one the deal allows, card by card."""
    talon, chien, n = TALON[contract], CHIEN_CARDS[size], int(size)
    cards = split.cards
    assert len(set(cards)) == len(cards)
    assert set(cards) <= set(DECK)
    assert not (split.lone_excuse_attack and split.lone_excuse_defence)
    if chelem is not ATTACK:  # (on an attack's chelem every card but the chien is its own)
        assert len(split.talon) == (0 if talon is Talon.CHIEN_FOR_DEFENCE else chien)
        if talon is Talon.ECART:
            assert not any(c.king or c.oudler for c in split.talon)  # "ni roi, ni bout"
    if chelem is None:
        assert not split.lone_excuse_attack
        assert not split.lone_excuse_defence
        assert len(split.tricks) % n == 0
        assert 1 <= len(split.tricks) // n < tricks_per_deal(size)
    elif chelem is ATTACK:
        assert not split.lone_excuse_attack
        kept = 1 if split.lone_excuse_defence else 0
        defence_chien = chien if talon is Talon.CHIEN_FOR_DEFENCE else 0
        assert len(DECK) - len(cards) - kept == defence_chien
        assert not (split.lone_excuse_defence and EXCUSE in cards)
    else:
        assert split.tricks == []
        assert not split.lone_excuse_defence


HONOURS = [
    (kings, queens, knights, jacks, 9 * kings + 7 * queens + 5 * knights + 3 * jacks)
    for kings, queens, knights, jacks in itertools.product(range(5), repeat=4)
]


def pick(cards: int, oudlers: int, half: int, order: list[Card], ok) -> list[Card] | None:
    """Some ``cards`` cards with the first ``oudlers`` of ``order`` and ``half`` half points."""
    if oudlers > len(order):
        return None
    for kings, queens, knights, jacks, honours in HONOURS:
        low = cards - oudlers - kings - queens - knights - jacks
        if not 0 <= low <= len(LOWS) or 9 * oudlers + honours + low != half:
            continue
        chosen = [
            *order[:oudlers],
            *KINGS[:kings],
            *QUEENS[:queens],
            *KNIGHTS[:knights],
            *JACKS[:jacks],
            *LOWS[:low],
        ]
        if half_points(chosen) == half and ok(chosen):
            return chosen
    return None


def witness(
    size: TableSize, contract: Contract, chelem: Side | None, oudlers: int, points: Fraction, petit
) -> Split | None:
    """A split of the cards the deal allows with this count (petit placed as ``petit``)."""
    talon, chien, n, half = TALON[contract], CHIEN_CARDS[size], int(size), int(2 * points)
    order = [PETIT, TWENTY_ONE, EXCUSE] if petit is not DEFENCE else [TWENTY_ONE, EXCUSE, PETIT]
    bare = [o for o in order if o is not EXCUSE]
    if chelem is None:
        for taken in range(1, tricks_per_deal(size)):
            in_tricks = n * taken
            talon_cards = 0 if talon is Talon.CHIEN_FOR_DEFENCE else chien

            def may_talon(card: Card) -> bool:
                if talon is Talon.ECART:  # the écart holds no king and no oudler
                    return not (card.king or card.oudler)
                return card is not PETIT  # the petit au bout is in a trick

            def fits(pile: list[Card], talon_cards: int = talon_cards) -> bool:
                return sum(map(may_talon, pile)) >= talon_cards

            found = pick(in_tricks + talon_cards, oudlers, half, order, fits)
            if found is not None:
                put_aside = [c for c in found if may_talon(c)][:talon_cards]
                return Split([c for c in found if c not in put_aside], put_aside)
        return None
    if chelem is ATTACK:
        chien_cards = chien if talon is Talon.CHIEN_FOR_DEFENCE else 0
        for kept in (False, True):  # a defender kept the excuse
            defence_oudlers = 3 - oudlers - kept
            defence_half = 182 - half - (8 if kept else 0)
            if defence_oudlers < 0:
                continue
            candidates = [o for o in reversed(order) if not (kept and o is EXCUSE)]
            found = pick(chien_cards, defence_oudlers, defence_half, candidates, lambda _: True)
            if found is not None:
                rest = [c for c in DECK if c not in found and not (kept and c is EXCUSE)]
                return Split(rest, [], lone_excuse_defence=kept)
        return None
    talon_cards = 0 if talon is Talon.CHIEN_FOR_DEFENCE else chien
    for kept in (False, True):  # the attack kept the excuse
        if oudlers - kept < 0 or (talon is Talon.ECART and oudlers - kept > 0):
            continue
        found = pick(
            talon_cards,
            oudlers - kept,
            half - (8 if kept else 0),
            bare if kept else order,
            lambda pile: talon is not Talon.ECART or not any(c.king for c in pile),
        )
        if found is not None:
            return Split([], found, lone_excuse_attack=kept)
    return None


def deal_of(size, contract, chelem, oudlers, points, petit) -> Deal:
    return Deal(
        size,
        contract,
        Orientation.S,
        oudlers=oudlers,
        attack_points=points,
        petit_au_bout=petit,
        chelem_made_by=chelem,
    )


@st.composite
def deal_facts(draw):
    size = draw(st.sampled_from(TableSize))
    contract = draw(st.sampled_from(Contract))
    chelem = draw(st.sampled_from([None, ATTACK, DEFENCE]))
    petit = draw(st.sampled_from([None, ATTACK, DEFENCE]))
    oudlers = draw(st.integers(0, 3))
    # any count, or one the engine lists (so that chelems are not all filtered out)
    listed = sorted(possible_counts(size, TALON[contract], TRICKS[chelem]))
    points = draw(st.builds(Fraction, st.integers(0, 182), st.just(2)) | st.sampled_from(listed))
    if isinstance(points, tuple):
        oudlers, points = points
    return size, contract, chelem, oudlers, points, petit


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(deal_facts())
def test_every_accepted_deal_has_a_witness(facts):
    size, contract, chelem, oudlers, points, petit = facts
    assume(not deal_problems(deal_of(*facts)))
    split = witness(size, contract, chelem, oudlers, points, petit)
    assert split is not None, facts
    check_split(split, size, contract, chelem)
    assert split.count == (oudlers, points)
    if petit is ATTACK:
        assert PETIT in split.tricks  # in a trick the attack won, the last one
    if petit is DEFENCE:
        assert PETIT not in split.cards


@pytest.mark.parametrize("size", list(TableSize))
@pytest.mark.parametrize("contract", list(Contract))
@pytest.mark.parametrize("chelem", [None, ATTACK, DEFENCE])
def test_every_possible_count_has_a_witness(size, contract, chelem):
    # The engine's list itself, count by count, at the extremes of each oudler count.
    counts = possible_counts(size, TALON[contract], TRICKS[chelem])
    for oudlers in range(4):
        bounds = points_range(counts, oudlers)
        if bounds is None:
            continue
        for points in {bounds[0], bounds[0] + Fraction(1, 2), bounds[1], bounds[1] - 1}:
            if (oudlers, points) in counts:
                split = witness(size, contract, chelem, oudlers, points, None)
                assert split is not None, (oudlers, points)
                check_split(split, size, contract, chelem)
                assert split.count == (oudlers, points)


@st.composite
def dealt_splits(draw):
    """A shuffled deck split as some deal allows: the facts it gives."""
    size = draw(st.sampled_from(TableSize))
    contract = draw(st.sampled_from(Contract))
    chelem = draw(st.sampled_from([None, ATTACK, DEFENCE]))
    deck = draw(st.permutations(DECK))
    talon, chien, n = TALON[contract], CHIEN_CARDS[size], int(size)
    ecart = [c for c in deck if not (c.king or c.oudler)][:chien]
    rest = [c for c in deck if c not in ecart] if talon is Talon.ECART else deck[chien:]
    talon_cards = {Talon.ECART: ecart, Talon.CHIEN_FOR_ATTACK: deck[:chien]}.get(talon, [])
    keeps_excuse = draw(st.booleans())
    if chelem is None:
        taken = draw(st.integers(1, tricks_per_deal(size) - 1))
        split = Split(rest[: n * taken], talon_cards)
    elif chelem is ATTACK:
        defence = deck[:chien] if talon is Talon.CHIEN_FOR_DEFENCE else []
        kept = keeps_excuse and EXCUSE not in defence
        attack = [c for c in DECK if c not in defence and not (kept and c is EXCUSE)]
        split = Split(attack, [], lone_excuse_defence=kept)
    else:
        kept = keeps_excuse and EXCUSE not in talon_cards
        split = Split([], talon_cards, lone_excuse_attack=kept)
    check_split(split, size, contract, chelem)
    oudlers, points = split.count
    sides = [None]
    if PETIT in split.tricks:
        sides.append(ATTACK)
    in_chien = talon is Talon.CHIEN_FOR_DEFENCE and PETIT in deck[:chien]
    if PETIT not in split.cards and chelem is not ATTACK and not in_chien:
        sides.append(DEFENCE)
    return size, contract, chelem, oudlers, points, draw(st.sampled_from(sides))


@settings(max_examples=150, deadline=None)
@given(dealt_splits())
def test_every_split_a_deal_allows_is_accepted(facts):
    deal = deal_of(*facts)
    assert deal_problems(deal) == []
    assert sum(score_deal(deal).marks.values()) == 0
    assert set(score_deal(deal).marks) == set(seats(deal.table_size))


# --- the counts, as docs/engine-scoring.md gives them ----------------------------------------

FOUR_PLAYER_RANGES = [
    # (contract, chelem, oudlers, fewest, most)
    (Contract.PRISE, None, 0, 5, 77),  # écart and one trick: 10 cards; the defence 4 cards
    (Contract.PRISE, None, 3, 17, 89),
    (Contract.GARDE_SANS, None, 1, 9, 81),
    (Contract.GARDE_CONTRE, None, 0, 2, 74),  # one trick of 4 cards; chien and a trick
    (Contract.GARDE_CONTRE, None, 3, 14, 86),
    (Contract.GARDE, ATTACK, 3, 91, 91),
    (Contract.GARDE, ATTACK, 2, 87, 87),  # the defence kept the excuse: "compte pour 4 points"
    (Contract.GARDE_CONTRE, ATTACK, 3, 66, 88),  # every card but the chien
    (Contract.GARDE_CONTRE, ATTACK, 0, 60, 76),
    (Contract.GARDE, DEFENCE, 0, 3, 19),  # the écart alone
    (Contract.GARDE, DEFENCE, 1, 7, 23),  # and the excuse, counted 4
    (Contract.GARDE_SANS, DEFENCE, 3, 15, 31),
    (Contract.GARDE_CONTRE, DEFENCE, 0, 0, 0),
    (Contract.GARDE_CONTRE, DEFENCE, 1, 4, 4),
]


@pytest.mark.parametrize(("contract", "chelem", "oudlers", "fewest", "most"), FOUR_PLAYER_RANGES)
def test_four_player_ranges(contract, chelem, oudlers, fewest, most):
    counts = possible_counts(FOUR, TALON[contract], TRICKS[chelem])
    assert points_range(counts, oudlers) == (fewest, most)
    # at 4 players every whole count in between is possible, and no half point
    assert {p for k, p in counts if k == oudlers} == set(range(fewest, most + 1))


@pytest.mark.parametrize(
    ("contract", "chelem", "oudlers"),
    [
        (Contract.GARDE, ATTACK, 1),
        (Contract.GARDE_SANS, ATTACK, 0),
        (Contract.PRISE, DEFENCE, 2),
        (Contract.GARDE_CONTRE, DEFENCE, 3),
    ],
)
def test_oudler_counts_a_chelem_rules_out(contract, chelem, oudlers):
    for size in TableSize:
        assert points_range(possible_counts(size, TALON[contract], TRICKS[chelem]), oudlers) is None


@pytest.mark.parametrize(
    ("size", "oudlers", "points", "possible"),
    [
        # 3 players, prise: 9 cards (a trick and the écart) end in a half point, 12 hold ≥ 6
        (THREE, 0, Fraction(9, 2), True),
        (THREE, 0, 5, False),
        (THREE, 0, Fraction(11, 2), True),
        (THREE, 0, 6, True),
        # 5 players: 8 cards (a trick and the écart) hold ≥ 4; 13 hold ≥ 6½
        (FIVE, 0, 4, True),
        (FIVE, 0, Fraction(9, 2), False),
        (FIVE, 0, Fraction(13, 2), True),
    ],
)
def test_half_points_at_the_edges_follow_the_number_of_cards(size, oudlers, points, possible):
    counts = possible_counts(size, Talon.ECART, Tricks.SHARED)
    assert ((oudlers, Fraction(points)) in counts) is possible
