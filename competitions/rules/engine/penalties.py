"""Penalties in points (*pénalités*) and what they cost.

Sources: Fascicule 2, chapter 3, article 26 (*retards*) and chapter 4, the
*code d'arbitrage*. A penalty is recorded against one player with its reason
and comes off that player's total (see :mod:`competitions.rules.engine.standings`).

The catalogue (:data:`CATALOGUE`) lists every penalty kind the texts name,
with its French label, its source and how its amount is set. The amounts
themselves live in :class:`PenaltySchedule`, whose defaults are the current
regulation, so that a season can change them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import timedelta
from enum import StrEnum
from types import MappingProxyType

from core.problems import Problem, RuleViolation


class PenaltyKind(StrEnum):
    """The penalty kinds the regulations name."""

    LATE_ARRIVAL = "late_arrival"
    SCORE_SHEET_TOTAL_NOT_ZERO = "score_sheet_total_not_zero"
    SCORE_SHEET_MISSING_IDENTIFICATION = "score_sheet_missing_identification"
    SCORE_SHEET_LEFT_ON_TABLE = "score_sheet_left_on_table"
    SCORE_SHEET_LOST = "score_sheet_lost"
    SLOWNESS = "slowness"
    FALSE_DEAL = "false_deal"
    EXPOSED_CARD = "exposed_card"
    TOUCHING_CARDS_DURING_DEAL = "touching_cards_during_deal"
    HANDFUL_PRESENTATION = "handful_presentation"
    ETHICS = "ethics"
    SMOKING = "smoking"


class SheetFaultCharge(StrEnum):
    """Who pays a fault on the *feuille de marque* (« 4 joueurs responsables », chapter 4):
    a rulebook setting, ``arbitration.score_sheet_fault_charge`` (docs/rulebook-settings.md)."""

    PER_PLAYER = "per_player"
    """Every player of the table is penalised the whole amount (100 points each)."""
    PER_TABLE = "per_table"
    """The amount is charged once to the table, shared by its players, each share rounded
    up (100 points at a table of 4: 25 each; at a table of 3: 34 each)."""


class RepeatScope(StrEnum):
    """What counts as a repeat (*récidive*) of a fault in chapter 4: a rulebook setting,
    ``arbitration.repeat_scope`` (docs/rulebook-settings.md)."""

    SAME_FAULT_SAME_TOURNAMENT = "same_fault_same_tournament"
    """The same kind of fault by the same player earlier in the same tournament."""
    ANY_FAULT_SAME_TOURNAMENT = "any_fault_same_tournament"
    """Any penalised fault by the same player earlier in the same tournament."""
    SAME_FAULT_SAME_SEASON = "same_fault_same_season"
    """The same kind of fault by the same player earlier in the season (any tournament)."""


@dataclass(frozen=True, slots=True)
class EarlierOffence:
    """An offence recorded before the one being judged (warnings included)."""

    kind: PenaltyKind
    tournament: str
    """The tournament it was recorded in (any stable identifier)."""


def offence_number(
    kind: PenaltyKind,
    *,
    tournament: str,
    earlier: Sequence[EarlierOffence],
    scope: RepeatScope = RepeatScope.SAME_FAULT_SAME_TOURNAMENT,
) -> int:
    """The rank of this offence for :func:`points_for_offence` (1: first, 2+: a repeat),
    counting the player's ``earlier`` offences of the season as ``scope`` says."""
    counted = [
        e
        for e in earlier
        if (scope is RepeatScope.SAME_FAULT_SAME_SEASON or e.tournament == tournament)
        and (scope is RepeatScope.ANY_FAULT_SAME_TOURNAMENT or e.kind is kind)
    ]
    return len(counted) + 1


class AmountRule(StrEnum):
    """How the amount of a penalty kind is set."""

    PER_STARTED_PERIOD = "per_started_period"
    """So many points per started period of lateness (article 26)."""
    FIXED = "fixed"
    """One amount, every time."""
    FIRST_THEN_REPEAT = "first_then_repeat"
    """One amount the first time, a higher one on every repeat (*récidive*)."""
    WARNING_THEN_FIXED = "warning_then_fixed"
    """A warning (*avertissement*, 0 points) the first time, an amount on every repeat."""
    ARBITER_JUDGEMENT = "arbiter_judgement"
    """The texts give no amount: the arbiter decides."""


@dataclass(frozen=True, slots=True)
class PenaltyKindInfo:
    """One line of the catalogue."""

    kind: PenaltyKind
    label_fr: str
    source: str
    amount_rule: AmountRule


_CH4 = "Fascicule 2, ch. 4 (code d'arbitrage)"

CATALOGUE: Mapping[PenaltyKind, PenaltyKindInfo] = MappingProxyType(
    {
        info.kind: info
        for info in (
            PenaltyKindInfo(
                PenaltyKind.LATE_ARRIVAL,
                "Retard",
                "Fascicule 2, ch. 3, art. 26 (retards), p. 37",
                AmountRule.PER_STARTED_PERIOD,
            ),
            PenaltyKindInfo(
                PenaltyKind.SCORE_SHEET_TOTAL_NOT_ZERO,
                "Erreur sur la feuille de marque : total des scores non égal à zéro",
                f"{_CH4}, « Erreur sur la feuille de marque »",
                AmountRule.FIXED,
            ),
            PenaltyKindInfo(
                PenaltyKind.SCORE_SHEET_MISSING_IDENTIFICATION,
                "Erreur sur la feuille de marque : absence de n° de table, noms, et n° des joueurs",
                f"{_CH4}, « Erreur sur la feuille de marque »",
                AmountRule.FIXED,
            ),
            PenaltyKindInfo(
                PenaltyKind.SCORE_SHEET_LEFT_ON_TABLE,
                "Non retour de la feuille de marque (laissée sur la table de jeu)",
                f"{_CH4}, « Erreur sur la feuille de marque »",
                AmountRule.FIXED,
            ),
            PenaltyKindInfo(
                PenaltyKind.SCORE_SHEET_LOST,
                "Non retour de la feuille de marque (feuille « disparue »)",
                f"{_CH4}, « Erreur sur la feuille de marque »",
                AmountRule.FIXED,
            ),
            PenaltyKindInfo(
                PenaltyKind.SLOWNESS,
                "Lenteur de jeu",
                f"{_CH4}, « Lenteur de jeu »",
                AmountRule.FIRST_THEN_REPEAT,
            ),
            PenaltyKindInfo(
                PenaltyKind.FALSE_DEAL,
                "Fausse donne",
                f"{_CH4}, « Fausse donne », cas particuliers",
                AmountRule.FIXED,
            ),
            PenaltyKindInfo(
                PenaltyKind.EXPOSED_CARD,
                "Carte exposée par la défense (ou carte jouée hors tour)",
                f"{_CH4}, « Carte exposée » et « Carte jouée hors tour »",
                AmountRule.WARNING_THEN_FIXED,
            ),
            PenaltyKindInfo(
                PenaltyKind.TOUCHING_CARDS_DURING_DEAL,
                "Toucher les cartes ou relever son jeu durant la distribution",
                f"{_CH4}, « Autres cas prévus » ; ch. 1, la distribution",
                AmountRule.WARNING_THEN_FIXED,
            ),
            PenaltyKindInfo(
                PenaltyKind.HANDFUL_PRESENTATION,
                "Faute dans la présentation de la poignée",
                f"{_CH4}, « Faute dans la présentation de la poignée »",
                AmountRule.WARNING_THEN_FIXED,
            ),
            PenaltyKindInfo(
                PenaltyKind.ETHICS,
                "Faute contre l'éthique",
                f"{_CH4}, « Fautes contre l'éthique »",
                AmountRule.ARBITER_JUDGEMENT,
            ),
            PenaltyKindInfo(
                PenaltyKind.SMOKING,
                "Interdiction de fumer (y compris cigarette électronique)",
                f"{_CH4}, « Autres cas prévus »",
                AmountRule.ARBITER_JUDGEMENT,
            ),
        )
    }
)

SCORE_SHEET_KINDS: frozenset[PenaltyKind] = frozenset(
    {
        PenaltyKind.SCORE_SHEET_TOTAL_NOT_ZERO,
        PenaltyKind.SCORE_SHEET_MISSING_IDENTIFICATION,
        PenaltyKind.SCORE_SHEET_LEFT_ON_TABLE,
        PenaltyKind.SCORE_SHEET_LOST,
    }
)
"""Faults on the *feuille de marque*, for which every player of the table is responsible."""


@dataclass(frozen=True, slots=True)
class PenaltySchedule:
    """The amounts of the penalties, in points; defaults are the current regulation."""

    late_arrival_points_per_period: int = 100
    late_arrival_period: timedelta = timedelta(minutes=5)
    forfeit_after: timedelta = timedelta(minutes=15)
    score_sheet_total_not_zero: int = 100
    score_sheet_missing_identification: int = 100
    score_sheet_left_on_table: int = 100
    score_sheet_lost: int = 400
    slowness_first: int = 100
    slowness_repeat: int = 200
    false_deal: int = 100
    exposed_card_repeat: int = 100
    touching_cards_repeat: int = 100
    handful_presentation_repeat: int = 100
    score_sheet_fault_charge: SheetFaultCharge = SheetFaultCharge.PER_PLAYER
    """The season's choice (rulebook ``arbitration.score_sheet_fault_charge``)."""

    def __post_init__(self) -> None:
        problems = []
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, StrEnum):
                continue
            if isinstance(value, timedelta):
                if value <= timedelta(0):
                    problems.append(
                        Problem(
                            f"schedule.{f.name}",
                            "duration_not_positive",
                            f"{f.name} must be a positive duration, got {value}.",
                            {"name": f.name, "value": value},
                        )
                    )
            elif value < 0:
                problems.append(
                    Problem(
                        f"schedule.{f.name}",
                        "negative_amount",
                        f"{f.name} must be a number of points of at least 0, got {value}.",
                        {"name": f.name, "value": value},
                    )
                )
        if problems:
            raise RuleViolation(problems)


CURRENT_SCHEDULE = PenaltySchedule()
"""The amounts of Fascicule 2 (2016, rectified 2017)."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty (*pénalité*) recorded against a player, with its reason.

    ``points`` is the number of points taken off the player's total (0 records a
    warning, *avertissement*, which costs nothing but counts for a repeat).
    """

    player: str
    kind: PenaltyKind
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class LateArrival:
    """What a late arrival (*retard*, article 26) costs."""

    points: int
    started_periods: int
    forfeit_allowed: bool
    """The arbiter *may* declare the player forfeit (*forfait*) and seat a substitute."""


def late_arrival(lateness: timedelta, schedule: PenaltySchedule = CURRENT_SCHEDULE) -> LateArrival:
    """Article 26: 100 points per started 5 minutes late; forfeit possible past 15 minutes.

    Every started period counts in full ("par fraction de 5 minutes"): 1 second
    to 5 minutes late costs 100 points, 5 minutes and 1 second costs 200. The
    forfeit becomes possible once the lateness is strictly more than 15 minutes.
    """
    if lateness < timedelta(0):
        raise RuleViolation.single(
            "lateness",
            "negative_lateness",
            f"A lateness cannot be negative, got {lateness}.",
            {"lateness": lateness},
        )
    periods = math.ceil(lateness / schedule.late_arrival_period)
    return LateArrival(
        points=periods * schedule.late_arrival_points_per_period,
        started_periods=periods,
        forfeit_allowed=lateness > schedule.forfeit_after,
    )


def points_for_offence(
    kind: PenaltyKind,
    offence_number: int = 1,
    schedule: PenaltySchedule = CURRENT_SCHEDULE,
) -> int:
    """The points for the ``offence_number``-th offence of ``kind`` by the same player.

    Fixed kinds cost the same every time; slowness costs 100 then 200 on every
    repeat; the warned kinds cost 0 (the warning) then 100 on every repeat. Late
    arrival needs the lateness (:func:`late_arrival`); ethics and smoking have
    no amount in the texts and are refused here.
    """
    if offence_number < 1:
        raise RuleViolation.single(
            "offence_number",
            "offence_number_not_positive",
            f"The offence number counts from 1 (first offence), got {offence_number}.",
            {"offence_number": offence_number},
        )
    repeat = offence_number > 1
    match kind:
        case PenaltyKind.SCORE_SHEET_TOTAL_NOT_ZERO:
            return schedule.score_sheet_total_not_zero
        case PenaltyKind.SCORE_SHEET_MISSING_IDENTIFICATION:
            return schedule.score_sheet_missing_identification
        case PenaltyKind.SCORE_SHEET_LEFT_ON_TABLE:
            return schedule.score_sheet_left_on_table
        case PenaltyKind.SCORE_SHEET_LOST:
            return schedule.score_sheet_lost
        case PenaltyKind.FALSE_DEAL:
            return schedule.false_deal
        case PenaltyKind.SLOWNESS:
            return schedule.slowness_repeat if repeat else schedule.slowness_first
        case PenaltyKind.EXPOSED_CARD:
            return schedule.exposed_card_repeat if repeat else 0
        case PenaltyKind.TOUCHING_CARDS_DURING_DEAL:
            return schedule.touching_cards_repeat if repeat else 0
        case PenaltyKind.HANDFUL_PRESENTATION:
            return schedule.handful_presentation_repeat if repeat else 0
        case PenaltyKind.LATE_ARRIVAL:
            raise RuleViolation.single(
                "kind",
                "amount_depends_on_lateness",
                "The amount of a late-arrival penalty depends on the lateness; use late_arrival().",
                {},
            )
        case _:
            raise RuleViolation.single(
                "kind",
                "amount_left_to_arbiter",
                f"The regulations give no amount for '{kind}'; the arbiter sets it.",
                {"kind": kind},
            )


class FalseDealDiscovery(StrEnum):
    """When a false deal (*fausse donne*) is discovered."""

    BEFORE_BIDDING = "before_bidding"
    AFTER_CONTRACT_BEFORE_PLAY = "after_contract_before_play"
    DURING_PLAY = "during_play"


def false_deal_points(
    discovery: FalseDealDiscovery,
    *,
    dealing_for_disabled_player: bool = False,
    schedule: PenaltySchedule = CURRENT_SCHEDULE,
) -> int:
    """Points against the dealer for a false deal.

    Discovered before any contract: a new deal, the culprit sits out the
    bidding, no points. Discovered after the contract or during play: 100
    points. A player dealing on behalf of a disabled player is never penalised.
    """
    if dealing_for_disabled_player or discovery is FalseDealDiscovery.BEFORE_BIDDING:
        return 0
    return schedule.false_deal


def score_sheet_fault(
    kind: PenaltyKind,
    table_players: Sequence[str],
    reason: str,
    schedule: PenaltySchedule = CURRENT_SCHEDULE,
) -> tuple[Penalty, ...]:
    """One penalty per player of the table: all of them answer for the *feuille de marque*."""
    problems = []
    if kind not in SCORE_SHEET_KINDS:
        problems.append(
            Problem(
                "kind",
                "not_a_score_sheet_fault",
                f"'{kind}' is not a score-sheet fault.",
                {"kind": kind},
            )
        )
    if not table_players:
        problems.append(
            Problem(
                "table_players",
                "no_players",
                "A score-sheet fault needs the players of the table, got none.",
                {},
            )
        )
    seen: set[str] = set()
    for i, player in enumerate(table_players):
        if player in seen:
            problems.append(
                Problem(
                    f"table_players[{i}]",
                    "duplicate_player",
                    f"Player '{player}' is listed twice at the same table.",
                    {"player": player},
                )
            )
        seen.add(player)
    if problems:
        raise RuleViolation(problems)
    points = points_for_offence(kind, 1, schedule)
    if schedule.score_sheet_fault_charge is SheetFaultCharge.PER_TABLE:
        points = -(-points // len(table_players))
    return tuple(Penalty(player, kind, points, reason) for player in table_players)


def _allowed_points_text(kind: PenaltyKind, schedule: PenaltySchedule = CURRENT_SCHEDULE) -> str:
    """A short English description of the amounts ``kind`` may take, for messages."""
    info = CATALOGUE[kind]
    match info.amount_rule:
        case AmountRule.PER_STARTED_PERIOD:
            return f"a positive multiple of {schedule.late_arrival_points_per_period}"
        case AmountRule.FIXED:
            return str(points_for_offence(kind, 1, schedule))
        case AmountRule.FIRST_THEN_REPEAT | AmountRule.WARNING_THEN_FIXED:
            first = points_for_offence(kind, 1, schedule)
            again = points_for_offence(kind, 2, schedule)
            return f"{first} (first offence) or {again} (repeat)"
        case _:
            return "any number of points of at least 0"


def _points_allowed(penalty: Penalty, schedule: PenaltySchedule) -> bool:
    info = CATALOGUE[penalty.kind]
    match info.amount_rule:
        case AmountRule.PER_STARTED_PERIOD:
            step = schedule.late_arrival_points_per_period
            return penalty.points > 0 and step > 0 and penalty.points % step == 0
        case AmountRule.FIXED:
            amount = points_for_offence(penalty.kind, 1, schedule)
            if (
                penalty.kind in SCORE_SHEET_KINDS
                and schedule.score_sheet_fault_charge is SheetFaultCharge.PER_TABLE
            ):
                # A table's share: tables of 3, 4 or 5 players.
                return penalty.points in {-(-amount // n) for n in (3, 4, 5)}
            return penalty.points == amount
        case AmountRule.FIRST_THEN_REPEAT | AmountRule.WARNING_THEN_FIXED:
            return penalty.points in {
                points_for_offence(penalty.kind, 1, schedule),
                points_for_offence(penalty.kind, 2, schedule),
            }
        case _:
            return True


def penalty_problems(
    penalty: Penalty,
    schedule: PenaltySchedule = CURRENT_SCHEDULE,
    field: str = "penalty",
) -> tuple[Problem, ...]:
    """Everything wrong with a penalty record, located under ``field``."""
    problems = []
    if not penalty.player.strip():
        problems.append(
            Problem(
                f"{field}.player", "blank_player", "A penalty must name the player it hits.", {}
            )
        )
    if not penalty.reason.strip():
        problems.append(
            Problem(
                f"{field}.reason",
                "blank_reason",
                "A penalty must be recorded with its reason.",
                {},
            )
        )
    if penalty.points < 0:
        problems.append(
            Problem(
                f"{field}.points",
                "negative_penalty",
                f"A penalty takes points off a total, so it cannot be negative "
                f"(got {penalty.points}).",
                {"points": penalty.points},
            )
        )
    elif not _points_allowed(penalty, schedule):
        problems.append(
            Problem(
                f"{field}.points",
                "amount_not_in_schedule",
                f"A '{penalty.kind}' penalty costs {_allowed_points_text(penalty.kind, schedule)} "
                f"points under the schedule, got {penalty.points}.",
                {"kind": penalty.kind, "points": penalty.points},
            )
        )
    return tuple(problems)


def _repeat_sensitive(kind: PenaltyKind) -> bool:
    return CATALOGUE[kind].amount_rule in (
        AmountRule.FIRST_THEN_REPEAT,
        AmountRule.WARNING_THEN_FIXED,
    )


def repeat_problems(
    penalties: Sequence[Penalty],
    *,
    scope: RepeatScope = RepeatScope.SAME_FAULT_SAME_TOURNAMENT,
    earlier: Mapping[str, Sequence[EarlierOffence]] | None = None,
    schedule: PenaltySchedule = CURRENT_SCHEDULE,
    field: str = "penalties",
) -> tuple[Problem, ...]:
    """Amounts that contradict the offence numbers of one tournament's ``penalties``.

    The results of a tournament list its penalties without their order, so the check asks
    whether *some* order makes every amount right under ``scope`` (:func:`offence_number`):
    within a group (the player and the kind; the player alone under
    ``any_fault_same_tournament``) exactly one offence is the first, unless the player
    has ``earlier`` offences of the group (other tournaments of the season, under
    ``same_fault_same_season``): then every one is a repeat. Only the kinds whose amount
    changes on a repeat (slowness, the warned kinds) can be wrong; an amount outside the
    schedule is :func:`penalty_problems`' business and fits any rank here. Each problem
    is located at ``{field}[i].points``, ``i`` the penalty's index in ``penalties``.
    """
    earlier = earlier or {}
    groups: dict[tuple[str, PenaltyKind | None], list[int]] = {}
    for i, penalty in enumerate(penalties):
        key_kind = None if scope is RepeatScope.ANY_FAULT_SAME_TOURNAMENT else penalty.kind
        groups.setdefault((penalty.player, key_kind), []).append(i)
    problems: list[tuple[int, Problem]] = []
    for (player, kind), members in groups.items():
        before = 0
        if scope is RepeatScope.SAME_FAULT_SAME_SEASON:
            before = sum(1 for e in earlier.get(player, ()) if e.kind is kind)
        first_only: list[int] = []  # amounts that fit a first offence and not a repeat
        fits_first = False
        for i in members:
            p = penalties[i]
            if not _repeat_sensitive(p.kind):
                fits_first = True  # the same amount at any rank
                continue
            first = points_for_offence(p.kind, 1, schedule)
            again = points_for_offence(p.kind, 2, schedule)
            if p.points not in (first, again):
                fits_first = True  # out of the schedule: warned elsewhere, fits any rank
            elif p.points == first:
                fits_first = True
                if first != again:
                    first_only.append(i)
        wrong: list[tuple[int, bool, int]] = []  # (index, is a repeat, offence number)
        if before:
            wrong = [(i, True, before + 1) for i in first_only]
        elif len(first_only) > 1:
            wrong = [(i, True, 2) for i in first_only[1:]]
        elif not fits_first:
            wrong = [(members[0], False, 1)]
        for i, repeat, number in wrong:
            p = penalties[i]
            expected = points_for_offence(p.kind, number, schedule)
            params = {
                "player": player,
                "kind": p.kind.value,
                "points": p.points,
                "expected": expected,
                "scope": scope.value,
                "earlier": before,
            }
            at = f"{field}[{i}].points"
            if repeat:
                problem = Problem(
                    at,
                    "penalty_first_amount_on_repeat",
                    f"Player '{player}' has {len(members) + before - 1} other offence(s) that "
                    f"count for a repeat ({scope.value}): this '{p.kind}' penalty is a repeat "
                    f"and costs {expected} points, got {p.points}.",
                    params,
                )
            else:
                problem = Problem(
                    at,
                    "penalty_repeat_amount_on_first",
                    f"Player '{player}' has no earlier offence that counts for a repeat "
                    f"({scope.value}): one of the '{p.kind}' penalties is a first offence and "
                    f"costs {expected} points, got {p.points}.",
                    params,
                )
            problems.append((i, problem))
    problems.sort(key=lambda item: item[0])
    return tuple(problem for _, problem in problems)


def check_penalty(penalty: Penalty, schedule: PenaltySchedule = CURRENT_SCHEDULE) -> Penalty:
    """Return ``penalty`` unchanged if the schedule allows it; raise every problem otherwise."""
    problems = penalty_problems(penalty, schedule)
    if problems:
        raise RuleViolation(problems)
    return penalty
