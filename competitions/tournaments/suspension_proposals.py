"""Suspensions proposed to federation staff when homologated results record an abandon
without the arbiter's accord (chapter 4, « Comportement » : « La personne qui quitte un
tournoi en cours sans accord de l'arbitre sera suspendue de jeu en donnes libres (tournois
et compétition) pour une durée de 12 mois »; docs/sanctions.md).

- :func:`suspension_proposals_sync`: called by the homologation door
  (:mod:`competitions.homologation`) after a homologation or a correction; one proposal per
  player of an entry recorded ``abandoned`` with ``arbiter_accord: false``, idempotent: a
  second homologation or a correction that records the same abandon changes nothing, one that
  no longer records it withdraws a proposal still to decide. Decided proposals are kept.
- :func:`suspension_proposal_confirm`: federation staff turn a proposal into the suspension,
  with the text's 12 months, through :func:`federation.sanctions.sanction_record`.
- :func:`suspension_proposal_dismiss`: federation staff dismiss it with a reason.
- :func:`suspension_proposals_pending`: what the staff desk lists;
  :func:`suspension_proposals_decided`: those decided (the API lists both).
"""

from __future__ import annotations

import calendar
import datetime as dt

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from competitions.models import (
    ProposalStatus,
    ResultPlayer,
    ResultRevision,
    SuspensionProposal,
    Tournament,
)
from core.errors import PermissionDenied
from core.problems import RuleViolation
from federation.access import Actor, scope_of
from federation.models import SanctionKind
from federation.sanctions import REASON_MAX_LENGTH, sanction_record

LEAVING_SUSPENSION_MONTHS = 12
"""« pour une durée de 12 mois » (chapter 4)."""


def suspension_last_day(starts: dt.date, months: int = LEAVING_SUSPENSION_MONTHS) -> dt.date:
    """The last day (included) of a suspension of ``months`` starting on ``starts``: 12 months
    from 14 March 2026 end on 13 March 2027 (docs/sanctions.md); from 29 February, on the last
    day of February."""
    index = starts.month - 1 + months
    year, month = starts.year + index // 12, index % 12 + 1
    last = calendar.monthrange(year, month)[1]
    if starts.day > last:  # from 29 February (or a 31st): the shorter month's last day
        return dt.date(year, month, last)
    return dt.date(year, month, starts.day) - dt.timedelta(days=1)


def suspension_proposals_sync(*, tournament: Tournament) -> list[SuspensionProposal]:
    """Bring the tournament's proposals in step with its latest revision (the caller's
    transaction: the homologation door's). Returns the proposals still to decide."""
    revision = ResultRevision.objects.filter(tournament=tournament).order_by("-number").first()
    if revision is None:
        return []
    leavers = dict(
        ResultPlayer.objects.filter(
            revision=revision,
            entry__abandoned=True,
            entry__arbiter_accord=False,
            player__isnull=False,
        ).values_list("player_id", "entry__number")
    )
    existing = {
        p.player_id: p
        for p in SuspensionProposal.objects.select_for_update().filter(tournament=tournament)
    }
    if not leavers and not existing:
        return []  # the usual case: three queries, nothing written
    for player_id, entry_number in leavers.items():
        proposal = existing.get(player_id)
        if proposal is None:
            SuspensionProposal.objects.create(
                tournament=tournament,
                player_id=player_id,
                revision=revision,
                entry_number=entry_number,
            )
        elif proposal.status in (ProposalStatus.PENDING, ProposalStatus.WITHDRAWN):
            proposal.status = ProposalStatus.PENDING
            proposal.revision = revision
            proposal.entry_number = entry_number
            proposal.save(update_fields=["status", "revision", "entry_number"])
    for player_id, proposal in existing.items():
        if player_id not in leavers and proposal.status == ProposalStatus.PENDING:
            proposal.status = ProposalStatus.WITHDRAWN
            proposal.revision = revision
            proposal.save(update_fields=["status", "revision"])
    return list(
        SuspensionProposal.objects.filter(tournament=tournament, status=ProposalStatus.PENDING)
    )


DECIDED = (ProposalStatus.CONFIRMED, ProposalStatus.DISMISSED)


def suspension_proposals_pending(*, by: Actor) -> QuerySet[SuspensionProposal]:
    """The proposals to decide, for federation staff (the CCN decides a suspension); none
    for anyone else."""
    return _visible(by).filter(status=ProposalStatus.PENDING)


def suspension_proposals_decided(*, by: Actor) -> QuerySet[SuspensionProposal]:
    """The proposals federation staff confirmed or dismissed, latest decision first; none
    for anyone else."""
    return _visible(by).filter(status__in=DECIDED).order_by("-decided_at", "-pk")


def _visible(by: Actor) -> QuerySet[SuspensionProposal]:
    proposals = SuspensionProposal.objects.select_related(
        "tournament", "player", "revision", "sanction", "decided_by"
    )
    return proposals if scope_of(by).national else proposals.none()


def _decidable(proposal_id: int, by: Actor) -> SuspensionProposal:
    if not scope_of(by).national:
        raise PermissionDenied(
            "Only federation staff decide a suspension.", code="proposal_not_federation_staff"
        )
    proposal = (
        SuspensionProposal.objects.select_for_update()
        .select_related("tournament", "player")
        .get(pk=proposal_id)
    )
    if proposal.status != ProposalStatus.PENDING:
        raise RuleViolation.single(
            "status",
            "proposal_already_decided",
            f"This proposal is no longer to decide ({proposal.status}).",
            {"status": ProposalStatus(proposal.status).label},
        )
    return proposal


@transaction.atomic
def suspension_proposal_confirm(
    *, proposal: SuspensionProposal, by: Actor, starts: dt.date | None = None
) -> SuspensionProposal:
    """Record the suspension the proposal names: from ``starts`` (the day of the decision by
    default) for the text's 12 months; the proposal is then confirmed."""
    proposal = _decidable(proposal.pk, by)
    first = timezone.localdate() if starts is None else starts
    tournament = proposal.tournament
    sanction = sanction_record(
        player=proposal.player,
        kind=SanctionKind.SUSPENSION,
        starts=first,
        ends=suspension_last_day(first),
        reason=(
            f"A quitté le tournoi « {tournament.name} » du {tournament.date:%d/%m/%Y} "
            f"(n° {tournament.pk}, inscrit {proposal.entry_number}) sans l’accord de "
            "l’arbitre : suspension de 12 mois (code d’arbitrage)."
        )[:REASON_MAX_LENGTH],
        by=by,
    )
    proposal.status = ProposalStatus.CONFIRMED
    proposal.sanction = sanction
    proposal.decided_by = by  # type: ignore[assignment]  # federation staff, never anonymous
    proposal.decided_at = timezone.now()
    proposal.save(update_fields=["status", "sanction", "decided_by", "decided_at"])
    return proposal


@transaction.atomic
def suspension_proposal_dismiss(
    *, proposal: SuspensionProposal, by: Actor, reason: str
) -> SuspensionProposal:
    """Dismiss the proposal (federation staff), with the reason (required)."""
    proposal = _decidable(proposal.pk, by)
    reason = reason.strip()
    if not reason:
        raise RuleViolation.single(
            "reason", "required", "Dismissing a proposal needs its reason.", {}
        )
    if len(reason) > REASON_MAX_LENGTH:
        raise RuleViolation.single(
            "reason",
            "too_long",
            f"The reason has {len(reason)} characters; {REASON_MAX_LENGTH} at most.",
            {"maximum": REASON_MAX_LENGTH},
        )
    proposal.status = ProposalStatus.DISMISSED
    proposal.reason = reason
    proposal.decided_by = by  # type: ignore[assignment]
    proposal.decided_at = timezone.now()
    proposal.save(update_fields=["status", "reason", "decided_by", "decided_at"])
    return proposal
