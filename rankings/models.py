"""Per-season rulebooks, the PCN/PP allocations of homologated tournaments,
and each player's season totals."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.models import Player, Season


class RulebookVersion(models.Model):
    """One immutable version of a season's rulebook (rankings.rules.rulebook.Rulebook).

    Editing a season's rulebook adds a version; the latest is in force, and
    every allocation records the version it was computed with.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="rulebooks"
    )
    version = models.PositiveIntegerField(_("version"))
    data = models.JSONField(_("rulebook"))
    note = models.CharField(_("note"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["season", "-version"]
        verbose_name = _("rulebook version")
        verbose_name_plural = _("rulebook versions")
        constraints = [
            models.UniqueConstraint(fields=["season", "version"], name="unique_rulebook_version"),
            models.CheckConstraint(name="rulebook_version_positive", condition=Q(version__gte=1)),
        ]

    def __str__(self) -> str:
        return f"{self.season} v{self.version}"


class Allocation(models.Model):
    """PCN and PP a player received from a homologated tournament.

    A correction keeps the previous allocations (``current`` false) and adds
    the new ones; only current allocations count in the ranking.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+"
    )
    tournament = models.ForeignKey(
        "competitions.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.PROTECT,
        related_name="allocations",
    )
    revision = models.ForeignKey(
        "competitions.ResultRevision",
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


class PlayerSeasonTotal(models.Model):
    """A player's PCN and PP totals for one season, rebuilt from current allocations."""

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="season_totals"
    )
    pcn = models.PositiveIntegerField(_("PCN"), default=0)
    pp = models.PositiveIntegerField(_("PP"), default=0)
    tournaments = models.PositiveIntegerField(_("tournaments"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("season total")
        verbose_name_plural = _("season totals")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_total_per_season"),
        ]
        indexes = [models.Index(fields=["season", "-pcn"], name="season_total_pcn")]

    def __str__(self) -> str:
        return f"{self.player} – {self.season}: {self.pcn} PCN"
