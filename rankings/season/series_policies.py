"""Storage of each season's series policy as immutable versions.

Same pattern as ``rulebooks.py``: the first read of a season's policy creates
version 1 from ``SeriesPolicy.default()``; every edit by federation staff adds
a version, validated before it is stored; each ranking snapshot records the
version it was computed with.
"""

from __future__ import annotations

from django.db import transaction

from core.problems import Problem
from core.versioned_settings import SettingsKind, settings_in_force, settings_publish
from federation.access import Actor, scope_of
from federation.models import Season
from rankings.models import ManualPlacement, SeriesPolicyVersion
from rankings.rules.series import SeriesPolicy
from rankings.season.ranking_state import inputs_changed, live_refresh_on_commit

SERIES_POLICIES: SettingsKind[SeriesPolicyVersion, SeriesPolicy] = SettingsKind(
    model=SeriesPolicyVersion,
    read=SeriesPolicy.from_dict,
    write=SeriesPolicy.to_dict,
    default=lambda scope: SeriesPolicy.default(),
    default_note="Politique des séries par défaut",  # stored and shown to staff: French
    may_publish=lambda by, scope: scope_of(by).national,
    refusal="Only federation staff (CCN) may change a season's series policy.",
    lock="season",
)
"""A season's series policy: federation staff (CCN) publish it."""


def series_policy_in_force(*, season: Season) -> tuple[SeriesPolicyVersion, SeriesPolicy]:
    """The latest version of the season's series policy, created from the default if none."""
    return settings_in_force(SERIES_POLICIES, scope={"season": season})  # type: ignore[return-value]


@transaction.atomic
def series_policy_update(
    *, season: Season, data: object, by: Actor, note: str = ""
) -> SeriesPolicyVersion:
    """Store a new version of the season's series policy (federation staff only).

    Raises RuleViolation with every problem of the policy, and with the
    season's manual placements whose step the new ladder no longer has.
    """
    version = settings_publish(
        SERIES_POLICIES,
        scope={"season": season},
        data=data,
        by=by,
        note=note,
        checks=lambda policy: _placements_off_the_ladder(season, policy),
    )
    inputs_changed(season_id=season.pk)
    live_refresh_on_commit(season.pk)
    return version


def _placements_off_the_ladder(season: Season, policy: SeriesPolicy) -> list[Problem]:
    """The season's manual placements on a step the new ladder no longer has."""
    codes = {step.code for step in policy.ladder}
    return [
        Problem(
            "ladder",
            "step_in_use",
            f"The manual placement of player {licence} uses step {step!r}, which this "
            "ladder no longer has: change or remove the placement first.",
            {"licence": licence, "step": step},
        )
        for licence, step in ManualPlacement.objects.filter(season=season)
        .values_list("player__licence_number", "step")
        .order_by("player__licence_number")
        if step not in codes
    ]
