"""Storage of each season's series policy as immutable versions.

Same pattern as ``rulebooks.py``: the first read of a season's policy creates
version 1 from ``SeriesPolicy.default()``; every edit by federation staff adds
a version, validated before it is stored; each ranking snapshot records the
version it was computed with.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from federation.access import scope_of
from federation.models import Season
from rankings.models import ManualPlacement, SeriesPolicyVersion
from rankings.ranking_state import inputs_changed, live_refresh_on_commit
from rankings.rules.series import SeriesPolicy


def series_policy_in_force(*, season: Season) -> tuple[SeriesPolicyVersion, SeriesPolicy]:
    """The latest version of the season's series policy, created from the default if none."""
    version = SeriesPolicyVersion.objects.filter(season=season).order_by("-version").first()
    if version is None:
        try:
            with transaction.atomic():
                version = SeriesPolicyVersion.objects.create(
                    season=season,
                    version=1,
                    data=SeriesPolicy.default().to_dict(),
                    note="Default policy (docs/rankings-series.md)",
                )
        except IntegrityError:  # created concurrently: read the winner
            version = SeriesPolicyVersion.objects.filter(season=season).order_by("-version").first()
    return version, SeriesPolicy.from_dict(version.data)


@transaction.atomic
def series_policy_update(*, season: Season, data, by, note: str = "") -> SeriesPolicyVersion:
    """Store a new version of the season's series policy (federation staff only).

    Raises RuleViolation with every problem of the policy, and with the
    season's manual placements whose step the new ladder no longer has.
    """
    if not scope_of(by).national:
        raise PermissionDenied("Only federation staff (CCN) may change a season's series policy.")
    policy = SeriesPolicy.from_dict(data)  # validates, locating every problem
    Season.objects.select_for_update().get(pk=season.pk)  # one writer at a time per season
    codes = {step.code for step in policy.ladder}
    orphans = [
        Problem(
            "ladder",
            "step_in_use",
            f"The manual placement of player {licence} uses step {step!r}, which this "
            "ladder no longer has: change or remove the placement first.",
        )
        for licence, step in ManualPlacement.objects.filter(season=season)
        .values_list("player__licence_number", "step")
        .order_by("player__licence_number")
        if step not in codes
    ]
    if orphans:
        raise RuleViolation(orphans)
    last = SeriesPolicyVersion.objects.filter(season=season).order_by("-version").first()
    version = SeriesPolicyVersion.objects.create(
        season=season,
        version=(last.version + 1) if last else 1,
        data=policy.to_dict(),
        note=note,
        created_by=by,
    )
    inputs_changed(season_id=season.pk)
    live_refresh_on_commit(season.pk)
    return version
