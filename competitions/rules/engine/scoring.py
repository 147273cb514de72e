"""Scoring one deal (donne) at a table of 3, 4 or 5 players.

Source: fascicule 2, chapter 1 ("Le calcul des scores", "La marque en donnes
libres", "Le chelem", "La poignée", "Le petit au bout", "Le jeu à 3 joueurs",
"Le jeu à 5 joueurs") and the official 5-player regulation.

The deal's value ``x`` is what each defender pays the attack (negative when
the attack pays)::

    x = ±(25 + points of gain or loss) × contract multiplier
        ± poignée bonuses (to the side that wins the deal)
        ± 10 × multiplier for the petit au bout (to the side that took it)
        + chelem bonus or penalty

Each defender marks ``-x``; the attack shares what the defenders pay: the
taker alone marks ``x`` times the number of defenders (3x at 4 players, 2x at
3, 4x alone at 5); at 5 players with a called partner the taker marks 2x (2/3)
and the partner x (1/3). Every deal sums to zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from competitions.rules.engine.card_counts import (
    CHIEN_CARDS,
    Talon,
    Tricks,
    points_range,
    possible_counts,
)
from competitions.rules.engine.chelem_trumps import chelem_allows_poignees
from competitions.rules.engine.tables import Orientation, TableSize, seats
from core.problems import Problem, RuleViolation

TOTAL_POINTS = 91  # points in the 78 cards
TOTAL_TRUMPS = 22  # the 21 trumps and the excuse, which may stand in for a trump in a poignée

EnumT = TypeVar("EnumT", bound=StrEnum)

Report = Callable[[str, str, str, Mapping[str, object]], None]
"""Records one problem of the deal being checked: field name, code, message, params."""


class Contract(StrEnum):
    """The contract the taker bid (chapter 1, "Les enchères")."""

    PRISE = "prise"  # prise (ou petite)
    GARDE = "garde"
    GARDE_SANS = "garde_sans"  # garde sans le chien
    GARDE_CONTRE = "garde_contre"  # garde contre le chien


class Side(StrEnum):
    """One side of a deal."""

    ATTACK = "attack"  # le camp preneur (déclarant), with the called partner at 5 players
    DEFENCE = "defence"  # la défense


class ChelemAfterAnnounced(StrEnum):
    """What the defence's chelem costs after the taker announced one (a rulebook setting,
    ``scoring.defence_chelem_after_announced_chelem``; ``docs/rulebook-settings.md``)."""

    ADD = "add"
    """The failed announcement (−200) and the defence's chelem (−200) both count: −400."""
    REPLACE = "replace"
    """The defence's chelem replaces the failed announcement: −200."""


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The figures of chapter 1 the federation could change; defaults are the 2017 text."""

    contract_value: int = 25  # "tout contrat valant arbitrairement 25 points"
    prise_multiplier: int = 1
    garde_multiplier: int = 2
    garde_sans_multiplier: int = 4
    garde_contre_multiplier: int = 6
    # points the attack needs with 0, 1, 2, 3 oudlers
    points_needed: tuple[int, int, int, int] = (56, 51, 41, 36)
    # trumps of a simple, double, triple poignée by table size
    poignee_trumps_three_players: tuple[int, int, int] = (13, 15, 18)
    poignee_trumps_four_players: tuple[int, int, int] = (10, 13, 15)
    poignee_trumps_five_players: tuple[int, int, int] = (8, 10, 13)
    # bonus of a simple, double, triple poignée, whatever the contract
    poignee_bonuses: tuple[int, int, int] = (20, 30, 40)
    petit_au_bout_bonus: int = 10  # multiplied by the contract multiplier
    chelem_announced_made_bonus: int = 400
    chelem_unannounced_made_bonus: int = 200
    chelem_announced_failed_penalty: int = 200
    chelem_by_defence_bonus: int = 200  # to each defender
    defence_chelem_after_announced_chelem: ChelemAfterAnnounced = ChelemAfterAnnounced.ADD

    def multiplier(self, contract: Contract) -> int:
        """The coefficient of ``contract`` (×1, ×2, ×4, ×6)."""
        return {
            Contract.PRISE: self.prise_multiplier,
            Contract.GARDE: self.garde_multiplier,
            Contract.GARDE_SANS: self.garde_sans_multiplier,
            Contract.GARDE_CONTRE: self.garde_contre_multiplier,
        }[contract]

    def poignee_trumps(self, size: TableSize) -> tuple[int, int, int]:
        """Trumps of a simple, double and triple poignée at a table of ``size`` players."""
        return {
            TableSize.THREE: self.poignee_trumps_three_players,
            TableSize.FOUR: self.poignee_trumps_four_players,
            TableSize.FIVE: self.poignee_trumps_five_players,
        }[size]


DEFAULT_SCORING_RULES = ScoringRules()


@dataclass(frozen=True, slots=True)
class Poignee:
    """A poignée (simple, double or triple) shown by the player at ``seat``."""

    seat: Orientation
    trumps: int  # trumps shown (the excuse may stand in for a missing one)


@dataclass(frozen=True, slots=True)
class Deal:
    """What happened at the table in one deal.

    ``contract`` is ``None`` when everyone passed: the deal is dealt again and
    scores nothing (chapter 1, "Les enchères"); no other fact may then be given.
    ``attack_points`` are the points in the attack's tricks (with the chien or
    écart as the contract says); at 3 and 5 players they may end in a half point.
    ``called_partner`` is only for 5 players, and empty when the taker plays
    alone against four (called card in the chien, or the taker called himself).
    """

    table_size: TableSize
    contract: Contract | None
    taker: Orientation | None = None
    called_partner: Orientation | None = None
    oudlers: int | None = None
    attack_points: int | Decimal | Fraction | float | None = None
    poignees: tuple[Poignee, ...] = ()
    petit_au_bout: Side | None = None  # the side that took the last trick holding the petit
    chelem_announced: bool = False  # chelem demandé by the taker
    chelem_made_by: Side | None = None  # the side that took every trick

    @classmethod
    def all_passed(cls, table_size: TableSize) -> Deal:
        """A deal where every player passed."""
        return cls(table_size=table_size, contract=None)


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """How ``x`` is made, every amount signed from the attack's side (per defender)."""

    points_needed: int  # 56, 51, 41 or 36 by oudlers
    counted_points: int  # the attack's points once the half point went to the winning side
    contract_won: bool  # "juste fait" (difference 0) is won
    difference: int  # points de gain or de perte, never negative
    contract_value: int  # 25
    multiplier: int
    contract_points: int  # ±(contract_value + difference) × multiplier
    petit_au_bout: int
    poignees: int
    chelem: int

    @property
    def total(self) -> int:
        """x: what each defender pays the attack (negative: what the attack pays each)."""
        return self.contract_points + self.petit_au_bout + self.poignees + self.chelem


@dataclass(frozen=True, slots=True)
class DealScore:
    """The result of a deal: ``base`` is x, ``marks`` each seat's mark, summing to zero."""

    base: int
    marks: Mapping[Orientation, int]
    breakdown: ScoreBreakdown | None  # None when everyone passed

    @property
    def all_passed(self) -> bool:
        return self.breakdown is None


def deal_problems(
    deal: Deal,
    rules: ScoringRules = DEFAULT_SCORING_RULES,
    prefix: str = "",
    *,
    in_play: tuple[Orientation, ...] | None = None,
) -> list[Problem]:
    """Every problem of ``deal``; field paths start with ``prefix`` (e.g. ``"deals[2]."``).

    ``in_play`` names the seats that play the deal when they are not the table size's own
    seats: at a table of 5 inside a tournament the four players other than the one sitting
    out (*le mort*) play the 4-player game (:mod:`competitions.rules.engine.sitting_out`).
    """
    problems: list[Problem] = []

    def report(name: str, code: str, message: str, params: Mapping[str, object]) -> None:
        problems.append(Problem(f"{prefix}{name}", code, message, params))

    try:
        size = TableSize(deal.table_size)
    except (ValueError, TypeError):
        report(
            "table_size",
            "unknown_table_size",
            f"A table seats 3, 4 or 5 players, not {deal.table_size!r}.",
            {"table_size": shown(deal.table_size)},
        )
        return problems
    table = _seats_in_play(size, in_play)

    if deal.contract is None:
        _check_passed_deal(deal, report)
        return problems
    contract = _member(Contract, deal.contract)
    if contract is None:
        report(
            "contract",
            "unknown_contract",
            f"{shown(deal.contract)} is not a contract; one of: {', '.join(Contract)}.",
            {"contract": shown(deal.contract), "contracts": ", ".join(Contract)},
        )

    taker = _check_seat(deal.taker, "taker", size, report, required=True, table=table)
    _check_partner(deal, size, taker, report, table)
    oudlers = _check_oudlers(deal.oudlers, report)
    points = _check_points(deal.attack_points, size, report)
    poignees_valid = _check_poignees(deal.poignees, size, rules, report, table)

    petit_au_bout = _check_side(deal.petit_au_bout, "petit_au_bout", report)
    chelem_by = _check_side(deal.chelem_made_by, "chelem_made_by", report)
    if not isinstance(deal.chelem_announced, bool):
        report(
            "chelem_announced",
            "not_a_boolean",
            f"chelem_announced must be true or false, not {deal.chelem_announced!r}.",
            {"value": repr(deal.chelem_announced)},
        )
    if chelem_by is not None and petit_au_bout is not None and chelem_by != petit_au_bout:
        report(
            "petit_au_bout",
            "petit_au_bout_against_chelem",
            f"The {chelem_by} took every trick (chelem), so the {petit_au_bout} cannot have "
            "taken the last trick with the petit.",
            {},
        )
    if oudlers is not None and petit_au_bout is not None:
        _check_petit_au_bout(petit_au_bout, oudlers, report)
    chelem_known = deal.chelem_made_by is None or chelem_by is not None
    if contract is not None and oudlers is not None and points is not None and chelem_known:
        _check_counts(size, contract, chelem_by, oudlers, points, report)
    if chelem_by is not None and taker is not None and poignees_valid and deal.poignees:
        attack = {taker, deal.called_partner}
        _check_chelem_against_poignees(deal.poignees, attack, chelem_by, contract, oudlers, report)
    return problems


def score_deal(
    deal: Deal,
    rules: ScoringRules = DEFAULT_SCORING_RULES,
    *,
    in_play: tuple[Orientation, ...] | None = None,
) -> DealScore:
    """Score ``deal``; raise :class:`RuleViolation` with every problem if it is impossible.

    ``in_play``: the seats playing the deal, as for :func:`deal_problems`; the marks are
    given for those seats only.
    """
    problems = deal_problems(deal, rules, in_play=in_play)
    if problems:
        raise RuleViolation(problems)
    size = TableSize(deal.table_size)
    table = _seats_in_play(size, in_play)
    if deal.contract is None:
        return DealScore(base=0, marks=MappingProxyType(dict.fromkeys(table, 0)), breakdown=None)
    breakdown = _breakdown(deal, rules)
    base = breakdown.total
    assert deal.taker is not None  # deal_problems refuses a bid deal without a taker
    taker = Orientation(deal.taker)
    partner = None if deal.called_partner is None else Orientation(deal.called_partner)
    return DealScore(
        base=base, marks=marks_for(size, taker, partner, base, in_play=in_play), breakdown=breakdown
    )


def _breakdown(deal: Deal, rules: ScoringRules) -> ScoreBreakdown:
    # deal_problems has refused a bid deal that lacks any of these facts.
    assert deal.contract is not None
    assert deal.oudlers is not None
    assert deal.attack_points is not None
    contract = Contract(deal.contract)
    multiplier = rules.multiplier(contract)
    needed = rules.points_needed[deal.oudlers]
    points = Fraction(deal.attack_points)
    won = points >= needed
    # At 3 and 5 players the half point goes to the side that wins the deal.
    counted = math.ceil(points) if won else math.floor(points)
    difference = abs(counted - needed)
    sign = 1 if won else -1

    petit = 0
    if deal.petit_au_bout is not None:
        petit_sign = 1 if deal.petit_au_bout == Side.ATTACK else -1
        petit = petit_sign * rules.petit_au_bout_bonus * multiplier

    size = TableSize(deal.table_size)
    sizes = rules.poignee_trumps(size)
    poignees = sign * sum(rules.poignee_bonuses[sizes.index(p.trumps)] for p in deal.poignees)

    chelem = 0
    if deal.chelem_made_by == Side.ATTACK:
        chelem = (
            rules.chelem_announced_made_bonus
            if deal.chelem_announced
            else rules.chelem_unannounced_made_bonus
        )
    else:
        defence_chelem = deal.chelem_made_by == Side.DEFENCE
        replaced = (
            defence_chelem
            and rules.defence_chelem_after_announced_chelem is ChelemAfterAnnounced.REPLACE
        )
        if deal.chelem_announced and not replaced:
            chelem -= rules.chelem_announced_failed_penalty
        if defence_chelem:
            chelem -= rules.chelem_by_defence_bonus

    return ScoreBreakdown(
        points_needed=needed,
        counted_points=counted,
        contract_won=won,
        difference=difference,
        contract_value=rules.contract_value,
        multiplier=multiplier,
        contract_points=sign * (rules.contract_value + difference) * multiplier,
        petit_au_bout=petit,
        poignees=poignees,
        chelem=chelem,
    )


def marks_for(
    size: TableSize,
    taker: Orientation,
    called_partner: Orientation | None,
    base: int,
    *,
    in_play: tuple[Orientation, ...] | None = None,
) -> Mapping[Orientation, int]:
    """Each seat's mark when each defender pays ``base`` to the attack ("la marque").

    ``in_play``: the seats playing the deal when they are not ``size``'s own seats.
    """
    table = _seats_in_play(size, in_play)
    defenders = [seat for seat in table if seat not in (taker, called_partner)]
    attack_share = base * len(defenders)
    marks = dict.fromkeys(defenders, -base)
    if called_partner is None:
        marks[taker] = attack_share
    else:  # 2/3 of the attack's share for the taker, 1/3 for the partner (exact: share = 3x)
        marks[taker] = attack_share * 2 // 3
        marks[called_partner] = attack_share // 3
    return MappingProxyType({seat: marks[seat] for seat in table})


def _seats_in_play(
    size: TableSize, in_play: tuple[Orientation, ...] | None
) -> tuple[Orientation, ...]:
    """The seats playing a deal: ``in_play`` if given (as many as ``size``), else the table's."""
    if in_play is None:
        return seats(size)
    if len(in_play) != int(size) or len(set(in_play)) != len(in_play):
        raise ValueError(f"{in_play!r} are not {int(size)} distinct seats")
    return in_play


def _member(enum: type[EnumT], value: object) -> EnumT | None:
    try:
        # Any value may be looked up (a ValueError if it names no member); the
        # stubs only accept a str for a StrEnum.
        return enum(value)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return None


def shown(value: object) -> str:
    """``value`` as a message shows it: enum members and strings bare, anything else repr'd."""
    return str(value) if isinstance(value, str) else repr(value)


def _check_passed_deal(deal: Deal, report: Report) -> None:
    given = {
        "taker": deal.taker is not None,
        "called_partner": deal.called_partner is not None,
        "oudlers": deal.oudlers is not None,
        "attack_points": deal.attack_points is not None,
        "poignees": bool(deal.poignees),
        "petit_au_bout": deal.petit_au_bout is not None,
        "chelem_announced": bool(deal.chelem_announced),
        "chelem_made_by": deal.chelem_made_by is not None,
    }
    for name, is_given in given.items():
        if is_given:
            report(
                name,
                "fact_on_passed_deal",
                f"Everyone passed (no contract): the deal is dealt again and scores nothing, "
                f"so it cannot have a {name}.",
                {"name": name},
            )


def _check_seat(
    value: object,
    name: str,
    size: TableSize,
    report: Report,
    *,
    required: bool,
    table: tuple[Orientation, ...] | None = None,
) -> Orientation | None:
    table = seats(size) if table is None else table
    if value is None:
        if required:
            report(
                name,
                "missing",
                f"The {name} seat is required when a contract was bid.",
                {"name": name},
            )
        return None
    seat = _member(Orientation, value)
    if seat is None or seat not in table:
        allowed = ", ".join(table)
        if len(table) == 4 and table != seats(TableSize.FOUR):
            sitting_out = next(s for s in seats(TableSize.FIVE) if s not in table)
            report(
                name,
                "seat_not_in_play",
                f"{shown(value)} is not a seat playing this deal: {sitting_out} sits it out "
                f"(le mort) and {allowed} play it.",
                {"seat": shown(value), "sitting_out": sitting_out, "seats": allowed},
            )
            return None
        report(
            name,
            "seat_not_at_table",
            f"{shown(value)} is not a seat of a {int(size)}-player table (seats: {allowed}).",
            {"seat": shown(value), "size": int(size), "seats": allowed},
        )
        return None
    return seat


def _check_partner(
    deal: Deal,
    size: TableSize,
    taker: Orientation | None,
    report: Report,
    table: tuple[Orientation, ...],
) -> None:
    if deal.called_partner is None:
        return
    if size != TableSize.FIVE:
        report(
            "called_partner",
            "partner_only_at_five_players",
            f"Only at 5 players does the taker call a partner; at {int(size)} players the "
            "taker plays alone.",
            {"size": int(size)},
        )
        return
    partner = _check_seat(
        deal.called_partner, "called_partner", size, report, required=False, table=table
    )
    if partner is not None and partner == taker:
        report(
            "called_partner",
            "partner_is_taker",
            "A taker who calls a card of his own hand plays alone against four: leave "
            "called_partner empty instead of naming the taker.",
            {},
        )


def _check_oudlers(value: object, report: Report) -> int | None:
    if value is None:
        report(
            "oudlers", "missing", "The number of oudlers in the attack's tricks is required.", {}
        )
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        report(
            "oudlers",
            "not_an_integer",
            f"oudlers must be a whole number, not {value!r}.",
            {"value": repr(value)},
        )
        return None
    if not 0 <= value <= 3:
        report(
            "oudlers",
            "oudlers_out_of_range",
            f"There are 3 oudlers (the 21, the petit and the excuse); the attack cannot hold "
            f"{value}.",
            {"value": value},
        )
        return None
    return value


def _check_points(value: object, size: TableSize, report: Report) -> Fraction | None:
    if value is None:
        report("attack_points", "missing", "The points made by the attack are required.", {})
        return None
    points = None
    if not isinstance(value, bool) and isinstance(value, int | Decimal | Fraction | float):
        try:
            points = Fraction(value)
        except (ValueError, OverflowError, ArithmeticError):
            points = None
    if points is None:
        report(
            "attack_points",
            "not_a_number",
            f"attack_points must be a number, not {value!r}.",
            {"value": repr(value)},
        )
        return None
    if not 0 <= points <= TOTAL_POINTS:
        report(
            "attack_points",
            "points_out_of_range",
            f"The 78 cards are worth {TOTAL_POINTS} points; the attack cannot make {value}.",
            {"value": float(points), "total": TOTAL_POINTS},
        )
        return None
    if (points * 2).denominator != 1:
        report(
            "attack_points",
            "not_a_half_point",
            f"Points are counted to the half point at most; {value} is not.",
            {"value": float(points)},
        )
        return None
    if points.denominator != 1 and size == TableSize.FOUR:
        report(
            "attack_points",
            "half_point_at_four_players",
            f"At 4 players the points are whole (the cards are counted two by two); only at "
            f"3 and 5 players is the count to the half point, so {value} is impossible.",
            {"value": float(points)},
        )
        return None
    return points


def _check_petit_au_bout(side: Side, oudlers: int, report: Report) -> None:
    """The side that took the last trick with the petit holds it among its oudlers."""
    if side == Side.ATTACK and oudlers == 0:
        report(
            "petit_au_bout",
            "petit_au_bout_without_oudler",
            "The attack took the last trick with the petit, so the petit is among its "
            "oudlers: 0 oudlers is impossible.",
            {},
        )
    if side == Side.DEFENCE and oudlers == 3:
        report(
            "petit_au_bout",
            "petit_au_bout_with_every_oudler",
            "The defence took the last trick with the petit, so the attack cannot hold all "
            "3 oudlers.",
            {},
        )


_TALON = {
    Contract.PRISE: Talon.ECART,
    Contract.GARDE: Talon.ECART,
    Contract.GARDE_SANS: Talon.CHIEN_FOR_ATTACK,
    Contract.GARDE_CONTRE: Talon.CHIEN_FOR_DEFENCE,
}
_TRICKS = {
    None: Tricks.SHARED,
    Side.ATTACK: Tricks.ALL_TO_ATTACK,
    Side.DEFENCE: Tricks.ALL_TO_DEFENCE,
}


def _check_counts(
    size: TableSize,
    contract: Contract,
    chelem_by: Side | None,
    oudlers: int,
    points: Fraction,
    report: Report,
) -> None:
    """Some split of the 78 cards gives the attack these oudlers and points (card_counts)."""
    talon, tricks = _TALON[contract], _TRICKS[chelem_by]
    counts = possible_counts(size, talon, tricks)
    if (oudlers, points) in counts:
        return
    shown_points = _points(points)
    bounds = points_range(counts, oudlers)
    if bounds is not None and bounds[0] <= points <= bounds[1]:
        report(
            "attack_points",
            "points_impossible_for_card_count",
            f"At {int(size)} players whether a count ends in a half point depends on how "
            f"many cards each side holds, and no split of the cards this deal allows gives "
            f"the attack {oudlers} oudlers and {shown_points} points (possible: "
            f"{_points(bounds[0])} to {_points(bounds[1])}, not every half point).",
            {
                "size": int(size),
                "oudlers": oudlers,
                "points": shown_points,
                "minimum": _points(bounds[0]),
                "maximum": _points(bounds[1]),
            },
        )
    elif tricks is Tricks.SHARED:
        assert bounds is not None  # every oudler count is possible without a chelem
        report(
            "attack_points",
            "points_impossible_without_chelem",
            f"Without a chelem each side takes at least one trick, so on this contract at "
            f"{int(size)} players an attack holding {oudlers} oudlers has {_points(bounds[0])} "
            f"to {_points(bounds[1])} points; {shown_points} is impossible.",
            {
                "size": int(size),
                "oudlers": oudlers,
                "points": shown_points,
                "minimum": _points(bounds[0]),
                "maximum": _points(bounds[1]),
            },
        )
    elif tricks is Tricks.ALL_TO_ATTACK and talon is not Talon.CHIEN_FOR_DEFENCE:
        report(
            "chelem_made_by",
            "chelem_needs_every_card",
            f"An attack that takes every trick (chelem) has every card: 3 oudlers and 91 "
            f"points, or 2 oudlers and 87 points when a defender kept the excuse (it then "
            f"counts 4 points); {oudlers} oudlers and {shown_points} points is impossible.",
            {"oudlers": oudlers, "points": shown_points},
        )
    elif tricks is Tricks.ALL_TO_ATTACK:
        assert bounds is not None  # the chien may hold from 0 to 3 oudlers
        report(
            "chelem_made_by",
            "chelem_leaves_the_chien_to_the_defence",
            f"On a garde contre the chien counts for the defence: an attack that takes every "
            f"trick holding {oudlers} oudlers has every card but the chien (and but the "
            f"excuse, counted 4 points, if a defender kept it), {_points(bounds[0])} to "
            f"{_points(bounds[1])} points; {shown_points} is impossible.",
            {
                "oudlers": oudlers,
                "points": shown_points,
                "minimum": _points(bounds[0]),
                "maximum": _points(bounds[1]),
            },
        )
    elif talon is Talon.ECART:
        low, high = points_range(counts, 0) or (Fraction(0), Fraction(0))
        report(
            "chelem_made_by",
            "defence_chelem_leaves_the_ecart",
            f"The defence took every trick: the attack has only its écart "
            f"({CHIEN_CARDS[size]} cards, no king and no oudler: {_points(low)} to "
            f"{_points(high)} points) and the excuse if it kept it (1 oudler, 4 points more); "
            f"{oudlers} oudlers and {shown_points} points is impossible.",
            {
                "cards": CHIEN_CARDS[size],
                "minimum": _points(low),
                "maximum": _points(high),
                "oudlers": oudlers,
                "points": shown_points,
            },
        )
    elif talon is Talon.CHIEN_FOR_ATTACK:
        assert bounds is not None  # the chien may hold from 0 to 3 oudlers
        report(
            "chelem_made_by",
            "defence_chelem_leaves_the_chien",
            f"The defence took every trick: on a garde sans the attack has only the chien "
            f"({CHIEN_CARDS[size]} cards) and the excuse (counted 4 points) if it kept it, "
            f"so with {oudlers} oudlers {_points(bounds[0])} to {_points(bounds[1])} points; "
            f"{shown_points} is impossible.",
            {
                "cards": CHIEN_CARDS[size],
                "oudlers": oudlers,
                "points": shown_points,
                "minimum": _points(bounds[0]),
                "maximum": _points(bounds[1]),
            },
        )
    else:
        report(
            "chelem_made_by",
            "defence_chelem_on_garde_contre",
            f"The defence took every trick on a garde contre: the attack has no card but the "
            f"excuse if it kept it, so 0 oudlers and 0 points, or 1 oudler and 4 points; "
            f"{oudlers} oudlers and {shown_points} points is impossible.",
            {"oudlers": oudlers, "points": shown_points},
        )


def _points(points: Fraction) -> int | float:
    """Points as a message shows them: 41, 40.5."""
    return int(points) if points.denominator == 1 else float(points)


def _check_poignees(
    poignees: tuple[Poignee, ...],
    size: TableSize,
    rules: ScoringRules,
    report: Report,
    table: tuple[Orientation, ...],
) -> bool:
    """Check the poignées; whether they are all valid (seats, sizes, 22 cards at most)."""
    allowed = rules.poignee_trumps(size)
    valid = True
    shown: set[Orientation] = set()
    total_trumps = 0
    for index, poignee in enumerate(poignees):
        where = f"poignees[{index}]"
        seat = _check_seat(poignee.seat, f"{where}.seat", size, report, required=True, table=table)
        valid = valid and seat is not None
        if seat is not None:
            if seat in shown:
                valid = False
                report(
                    f"{where}.seat",
                    "duplicate_poignee",
                    f"The player at {seat} already showed a poignée in this deal; a player "
                    "shows at most one.",
                    {"seat": seat},
                )
            shown.add(seat)
        trumps = poignee.trumps
        if isinstance(trumps, bool) or not isinstance(trumps, int) or trumps not in allowed:
            valid = False
            simple, double, triple = allowed
            report(
                f"{where}.trumps",
                "poignee_size_not_allowed",
                f"At {int(size)} players a poignée shows exactly {simple}, {double} or {triple} "
                f"trumps (simple, double, triple); {trumps!r} is not allowed.",
                {
                    "size": int(size),
                    "simple": simple,
                    "double": double,
                    "triple": triple,
                    "trumps": repr(trumps),
                },
            )
        else:
            total_trumps += trumps
    if total_trumps > TOTAL_TRUMPS:
        valid = False
        report(
            "poignees",
            "poignees_exceed_trumps",
            f"The poignées show {total_trumps} trumps in all, but there are only "
            f"{TOTAL_TRUMPS} (21 trumps and the excuse).",
            {"trumps": total_trumps, "total": TOTAL_TRUMPS},
        )
    return valid


def _check_chelem_against_poignees(
    poignees: tuple[Poignee, ...],
    attack: set[Orientation | None],
    chelem_by: Side,
    contract: Contract | None,
    oudlers: int | None,
    report: Report,
) -> None:
    """The side that took every trick beat every trump of the other side (chelem_trumps)."""
    attack_shown = [p.trumps for p in poignees if Orientation(p.seat) in attack]
    defence_shown = [p.trumps for p in poignees if Orientation(p.seat) not in attack]
    # Where the excuse was, from the attack's count (card_counts): on an attack's chelem
    # the 3 oudlers mean no defender held it, fewer (but on a garde contre, whose chien the
    # defence keeps) that a defender did; on a defence's chelem no oudler means the attack
    # never held it, one (but on a garde sans, whose chien may hold oudlers) that it did.
    if chelem_by is Side.ATTACK:
        losing, winning = defence_shown, attack_shown
        with_losers = oudlers != 3
        with_winners = oudlers == 3 or contract is Contract.GARDE_CONTRE
    else:
        losing, winning = attack_shown, defence_shown
        with_losers = oudlers != 0
        with_winners = oudlers == 0 or contract is Contract.GARDE_SANS
    if not losing or chelem_allows_poignees(
        losing,
        winning,
        excuse_may_be_with_losers=with_losers,
        excuse_may_be_with_winners=with_winners,
    ):
        return
    loser = "defence" if chelem_by is Side.ATTACK else "attack"
    report(
        "chelem_made_by",
        "chelem_against_a_poignee",
        f"The {chelem_by} took every trick (chelem), but the {loser} showed poignées of "
        f"{', '.join(map(str, losing))} cards: each of its trumps falls in a different trick "
        f"and needs a higher trump of the {chelem_by} in that trick, so the {chelem_by} "
        f"would need as many trumps as the longest poignée, and the 21 trumps are not "
        f"enough for both.",
        {
            "side": str(chelem_by),
            "other": loser,
            "shown": ", ".join(map(str, losing)),
            "trumps": TOTAL_TRUMPS - 1,
        },
    )


def _check_side(value: object, name: str, report: Report) -> Side | None:
    if value is None:
        return None
    side = _member(Side, value)
    if side is None:
        report(
            name,
            "unknown_side",
            f"{shown(value)} is not a side; one of: attack, defence.",
            {"value": shown(value)},
        )
    return side
