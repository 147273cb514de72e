"""Repeats (*récidive*, chapter 4): a player's earlier offences, read from stored results.

The season's rulebook says what counts as a repeat (``arbitration.repeat_scope``,
docs/rulebook-settings.md); the pure :func:`~competitions.rules.engine.penalties.offence_number`
counts, :func:`~competitions.rules.engine.penalties.points_for_offence` prices. This module
reads what they need:

- :func:`earlier_offences`: a player's penalties in the season's tournaments held **before**
  this one's day (their current results: the homologated revision, else the latest one
  submitted; refused tournaments and this tournament left out), one query; read only under
  ``same_fault_same_season``, the one scope that looks beyond the tournament.
- :func:`offence_cost`: what the arbiter asks during a tournament: « what does this offence
  cost this player now? », given the kinds already recorded against the player in this
  tournament (the results are not stored yet while it is played).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.db.models import F, Max, OuterRef, Q, Subquery

from competitions.models import ResultPenalty, ResultRevision, Tournament, TournamentStatus
from competitions.rulebooks import rulebook_in_force
from competitions.rules.engine.penalties import (
    CATALOGUE,
    AmountRule,
    EarlierOffence,
    PenaltyKind,
    RepeatScope,
    offence_number,
    points_for_offence,
)
from competitions.tournaments import access
from core.errors import PermissionDenied
from federation.access import Actor, scope_of

THIS_TOURNAMENT = "this"
"""The identifier of the tournament being judged among :class:`EarlierOffence`'s."""


def earlier_offences(
    *, tournament: Tournament, licence_numbers: Collection[int], scope: RepeatScope
) -> dict[int, list[EarlierOffence]]:
    """Licence number → the player's offences in the season's tournaments held before
    ``tournament``'s day, when ``scope`` looks beyond the tournament (else empty, no
    query). A tournament held the same day is not counted: which came first is unknown."""
    if scope is not RepeatScope.SAME_FAULT_SAME_SEASON or not licence_numbers:
        return {}
    latest = (
        ResultRevision.objects.filter(tournament=OuterRef("revision__tournament"))
        .values("tournament")
        .annotate(last=Max("number"))
        .values("last")
    )
    rows = (
        ResultPenalty.objects.filter(
            licence_number__in=set(licence_numbers),
            revision__tournament__season_id=tournament.season_id,
            revision__tournament__date__lt=tournament.date,
        )
        .exclude(revision__tournament_id=tournament.pk)
        .filter(
            Q(
                revision__tournament__status=TournamentStatus.HOMOLOGATED,
                revision__tournament__homologated_revision=F("revision"),
            )
            | Q(
                revision__tournament__status=TournamentStatus.RESULTS_SUBMITTED,
                revision__number=Subquery(latest),
            )
        )
        .order_by("revision__tournament__date", "revision__tournament_id", "pk")
        .values_list("licence_number", "kind", "revision__tournament_id")
    )
    found: dict[int, list[EarlierOffence]] = defaultdict(list)
    for licence_number, kind, tournament_id in rows:
        try:
            known = PenaltyKind(kind)
        except ValueError:
            continue  # stored before a kind was renamed: it cannot be the same fault
        found[licence_number].append(EarlierOffence(known, str(tournament_id)))
    return dict(found)


@dataclass(frozen=True)
class OffenceCost:
    """What an offence costs a player now, and why."""

    kind: PenaltyKind
    licence_number: int
    scope: RepeatScope
    offence_number: int
    """1: a first offence; 2 and more: a repeat."""
    points: int | None
    """None when the texts set no fixed amount (late arrival: by the lateness; ethics and
    smoking: the arbiter's judgement)."""
    amount_rule: AmountRule
    counted_in_tournament: int
    """The player's earlier offences in this tournament that count for this one."""
    counted_before: int
    """The player's offences in the season's earlier tournaments that count (only under
    ``same_fault_same_season``)."""


def require_offence_reader(tournament: Tournament, by: Actor) -> None:
    """The tournament's arbiter and those who manage it, else a refusal that says nothing
    of the tournament (checked before anything is read or parsed)."""
    scope = scope_of(by)
    if not (
        access.may_manage(scope, tournament)
        or (scope.player_id is not None and scope.player_id == tournament.arbiter_id)
    ):
        raise PermissionDenied(
            "Only the tournament's arbiter, its organiser's managers and the staff above them "
            "may ask what an offence costs there."
        )


def offence_cost(
    *,
    tournament: Tournament,
    licence_number: int,
    kind: PenaltyKind,
    in_tournament: Sequence[PenaltyKind] = (),
    by: Actor,
) -> OffenceCost:
    """The rank and price of an offence of ``kind`` by ``licence_number`` in ``tournament``,
    the player having already ``in_tournament`` offences (their kinds, warnings included)
    there. For the tournament's arbiter and those who manage it (its organiser's managers
    and the staff above them): anyone else is refused without learning anything."""
    require_offence_reader(tournament, by)
    _, rulebook = rulebook_in_force(season=tournament.season)
    repeat_scope = rulebook.arbitration.repeat_scope
    before = earlier_offences(
        tournament=tournament, licence_numbers=[licence_number], scope=repeat_scope
    ).get(licence_number, [])
    here = [EarlierOffence(k, THIS_TOURNAMENT) for k in in_tournament]
    number = offence_number(
        kind, tournament=THIS_TOURNAMENT, earlier=[*before, *here], scope=repeat_scope
    )
    counted_here = (
        offence_number(kind, tournament=THIS_TOURNAMENT, earlier=here, scope=repeat_scope) - 1
    )
    rule = CATALOGUE[kind].amount_rule
    points = (
        None
        if rule in (AmountRule.PER_STARTED_PERIOD, AmountRule.ARBITER_JUDGEMENT)
        else points_for_offence(kind, number, rulebook.arbitration.schedule())
    )
    return OffenceCost(
        kind=kind,
        licence_number=licence_number,
        scope=repeat_scope,
        offence_number=number,
        points=points,
        amount_rule=rule,
        counted_in_tournament=counted_here,
        counted_before=number - 1 - counted_here,
    )
