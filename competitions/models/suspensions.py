"""Suspensions proposed to federation staff when homologated results record an abandon
without the arbiter's accord (chapter 4: « La personne qui quitte un tournoi en cours sans
accord de l'arbitre sera suspendue de jeu en donnes libres (tournois et compétition) pour une
durée de 12 mois »); docs/sanctions.md."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from competitions.models.tournaments import ResultRevision, Tournament
from federation.models import Player, Sanction, User


class ProposalStatus(models.TextChoices):
    PENDING = "pending", _("to decide")
    CONFIRMED = "confirmed", _("confirmed: suspension recorded")
    DISMISSED = "dismissed", _("dismissed")
    WITHDRAWN = "withdrawn", _("withdrawn: the corrected results no longer record it")


class SuspensionProposal(models.Model):
    """A suspension proposed for one player of a tournament; one per player and tournament.

    Made by the homologation (and kept in step by a correction), decided by federation
    staff: confirmed (the sanction recorded, ``sanction``) or dismissed (``reason``)."""

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="suspension_proposals",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="+"
    )
    revision = models.ForeignKey(
        ResultRevision,
        verbose_name=_("revision recording the abandon"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    entry_number = models.PositiveIntegerField(_("entry number"))
    status = models.CharField(
        _("status"), max_length=10, choices=ProposalStatus.choices, default=ProposalStatus.PENDING
    )
    sanction = models.OneToOneField(
        Sanction,
        verbose_name=_("sanction"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="proposal",
    )
    reason = models.TextField(_("reason for dismissing"), blank=True)
    decided_by = models.ForeignKey(
        User,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("suspension proposal")
        verbose_name_plural = _("suspension proposals")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="one_suspension_proposal_per_player"
            ),
            models.CheckConstraint(
                condition=Q(status__in=ProposalStatus.values), name="suspension_proposal_status"
            ),
            models.CheckConstraint(
                condition=Q(status=ProposalStatus.CONFIRMED, sanction__isnull=False)
                | (~Q(status=ProposalStatus.CONFIRMED) & Q(sanction__isnull=True)),
                name="confirmed_proposal_has_its_sanction",
            ),
            models.CheckConstraint(
                condition=~Q(status=ProposalStatus.DISMISSED) | ~Q(reason=""),
                name="dismissed_proposal_has_a_reason",
            ),
        ]
        indexes = [
            # the staff desk's list of proposals to decide
            models.Index(
                fields=["-created_at"],
                name="pending_suspension_proposals",
                condition=Q(status=ProposalStatus.PENDING),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.tournament} ({self.status})"
