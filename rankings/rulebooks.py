"""Storage of each season's rulebook as immutable versions.

The first read of a season's rulebook creates version 1 from the current
regulations (``Rulebook.default()``); every edit by federation staff adds a
version, validated before it is stored. Allocations record the version used,
so a past season is always recomputed with its own rules.
"""

from __future__ import annotations

from functools import lru_cache

from django.db import IntegrityError, transaction

from federation.models import Season
from rankings.models import RulebookVersion
from rankings.rules.rulebook import Rulebook


def rulebook_in_force(*, season: Season) -> tuple[RulebookVersion, Rulebook]:
    """The latest version of the season's rulebook, created from the default if none."""
    version = RulebookVersion.objects.filter(season=season).order_by("-version").first()
    if version is None:
        try:
            with transaction.atomic():
                version = RulebookVersion.objects.create(
                    season=season,
                    version=1,
                    data=Rulebook.default().to_dict(),
                    note="Current regulations (default)",
                )
        except IntegrityError:  # created concurrently: read the winner
            version = RulebookVersion.objects.filter(season=season).order_by("-version").first()
    return version, _parsed(version.pk, version)


@lru_cache(maxsize=64)
def _parsed(version_pk: int, version: RulebookVersion) -> Rulebook:
    """Versions are immutable: parse and validate each one once per process."""
    return Rulebook.from_dict(version.data)


@transaction.atomic
def rulebook_update(*, season: Season, data: dict, by, note: str = "") -> RulebookVersion:
    """Store a new version of the season's rulebook; raises RuleViolation if invalid."""
    rulebook = Rulebook.from_dict(data)  # validates, locating every problem
    Season.objects.select_for_update().get(pk=season.pk)  # one writer at a time per season
    last = RulebookVersion.objects.filter(season=season).order_by("-version").first()
    return RulebookVersion.objects.create(
        season=season,
        version=(last.version + 1) if last else 1,
        data=rulebook.to_dict(),
        note=note,
        created_by=by,
    )
