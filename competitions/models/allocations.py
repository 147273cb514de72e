"""The PCN and PP each player received from a homologated tournament (chapter 5),
computed by ``competitions.rules.pcn`` under the season's rulebook in force."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from competitions.models.rulebooks import RulebookVersion
from competitions.models.tournaments import ResultRevision, Tournament
from federation.models import Player, Season


class Allocation(models.Model):
    """PCN and PP a player received from a homologated tournament.

    A correction keeps the previous allocations (``current`` false) and adds
    the new ones; only current allocations count in the ranking.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+"
    )
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.PROTECT,
        related_name="allocations",
    )
    revision = models.ForeignKey(
        ResultRevision,
        verbose_name=_("revision"),
        on_delete=models.PROTECT,
        related_name="allocations",
    )
    rulebook = models.ForeignKey(
        RulebookVersion, verbose_name=_("rulebook"), on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="allocations"
    )
    place = models.PositiveIntegerField(_("place"))
    pcn = models.PositiveIntegerField(_("PCN"))
    pp = models.PositiveIntegerField(_("PP"))
    current = models.BooleanField(_("current"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        db_table = "rankings_allocation"
        verbose_name = _("allocation")
        verbose_name_plural = _("allocations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(current=True),
                name="one_current_allocation_per_player",
            ),
            models.UniqueConstraint(
                fields=["revision", "player"], name="one_allocation_per_revision"
            ),
        ]
        indexes = [
            models.Index(
                fields=["season", "player"], condition=Q(current=True), name="current_by_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.tournament}: {self.pcn} PCN, {self.pp} PP"
