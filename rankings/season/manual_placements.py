"""Manual placements by the CCN: a step given by hand to a player in a season's
ranking, with a reason (the cases fascicule 1 covers that we cannot see)."""

from __future__ import annotations

from django.db import transaction

from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from federation.access import Actor, scope_of
from federation.models import Licence, Player, Season
from rankings.models import ManualPlacement
from rankings.season.ranking_state import inputs_changed, live_refresh_on_commit
from rankings.season.series_policies import series_policy_in_force


def _require_ccn(by: Actor) -> None:
    if not scope_of(by).national:
        raise PermissionDenied("Only federation staff (CCN) may place a player by hand.")


@transaction.atomic
def manual_placement_set(
    *, season: Season, licence_number: int, step: str, reason: str, by: Actor
) -> ManualPlacement:
    """Create or replace the player's manual placement in the season's ranking."""
    _require_ccn(by)
    _version, policy = series_policy_in_force(season=season)
    problems = []
    player = Player.objects.filter(licence_number=licence_number).first()
    if player is None:
        problems.append(
            Problem(
                "licence_number",
                "unknown_player",
                f"No player has licence {licence_number}.",
                {"licence": licence_number},
            )
        )
    elif not Licence.objects.filter(player=player, season=season).exists():
        problems.append(
            Problem(
                "licence_number",
                "not_licensed",
                f"Player {licence_number} holds no licence in season {season}.",
                {"licence": licence_number, "season": season},
            )
        )
    if step not in {s.code for s in policy.ladder}:
        problems.append(
            Problem(
                "step",
                "unknown_step",
                f"Step {step!r} is not in the season's ladder.",
                {"step": step},
            )
        )
    reason = (reason or "").strip()
    if not reason:
        problems.append(
            Problem("reason", "missing_reason", "A manual placement needs a reason.", {})
        )
    if problems:
        raise RuleViolation(problems)
    placement = (
        ManualPlacement.objects.select_for_update(of=("self",))
        .filter(season=season, player=player)
        .first()
    )
    if placement is None:
        # Past _require_ccn, ``by`` is a staff account, never anonymous.
        placement = ManualPlacement(season=season, player=player, created_by=by)  # type: ignore[misc]
    placement.step = step
    placement.reason = reason
    placement._history_user = by  # type: ignore[assignment]  # a staff account, as above
    placement.save()
    inputs_changed(season_id=season.pk)
    live_refresh_on_commit(season.pk)
    return placement


@transaction.atomic
def manual_placement_remove(*, season: Season, licence_number: int, by: Actor) -> bool:
    """Remove the player's manual placement; returns whether there was one."""
    _require_ccn(by)
    placement = (
        ManualPlacement.objects.select_for_update(of=("self",))
        .filter(season=season, player__licence_number=licence_number)
        .first()
    )
    if placement is None:
        return False
    placement._history_user = by  # type: ignore[assignment]  # a staff account, past _require_ccn
    placement.delete()
    inputs_changed(season_id=season.pk)
    live_refresh_on_commit(season.pk)
    return True
