"""The season's rulebook, as immutable versions (``competitions.rules.rulebook.Rulebook``;
the store is ``competitions/rulebooks.py``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.versioned_settings import SettingsVersion
from federation.models import Season


class RulebookVersion(SettingsVersion):
    """One immutable version of a season's rulebook (competitions.rules.rulebook.Rulebook).

    Editing a season's rulebook adds a version; the latest is in force, and
    every allocation records the version it was computed with
    (:mod:`core.versioned_settings`).
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="rulebooks"
    )
    data = models.JSONField(_("rulebook"))

    class Meta:
        db_table = "rankings_rulebookversion"
        ordering = ["season", "-version"]
        verbose_name = _("rulebook version")
        verbose_name_plural = _("rulebook versions")
        constraints = [
            models.UniqueConstraint(fields=["season", "version"], name="unique_rulebook_version"),
            models.CheckConstraint(name="rulebook_version_positive", condition=Q(version__gte=1)),
        ]

    def __str__(self) -> str:
        return f"{self.season} v{self.version}"
