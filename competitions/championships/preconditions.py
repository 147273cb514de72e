"""What every championship write checks before it changes anything: the caller's right,
the rules' problems, the rows it locks, and that the stage is still open.

Shared by the services of this package so that each refuses the same way: a
``PermissionDenied`` (403) for the caller, a ``RuleViolation`` (400) listing every problem.
"""

from __future__ import annotations

from collections.abc import Sequence

from competitions.championships import selectors
from competitions.models import Championship, ChampionshipStage, TournamentStatus
from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation


def require(condition: bool, message: str) -> None:
    """Refuse the caller (403) unless ``condition`` holds."""
    if not condition:
        raise PermissionDenied(message)


def refuse(problems: Sequence[Problem]) -> None:
    """Refuse the request (400) with every problem found, if any."""
    if problems:
        raise RuleViolation(problems)


def locked_championship(championship: Championship) -> Championship:
    """The championship's row, locked until the transaction ends (writers meet here)."""
    return (
        Championship.objects.select_for_update(of=("self",))
        .select_related("season")
        .get(pk=championship.pk)
    )


def locked_stage(stage: ChampionshipStage) -> ChampionshipStage:
    """The stage's row, locked until the transaction ends, with what the services read."""
    return (
        ChampionshipStage.objects.select_for_update(of=("self",))
        .select_related(*selectors.STAGE_RELATED)
        .get(pk=stage.pk)
    )


def stage_not_played(stage: ChampionshipStage) -> list[Problem]:
    """A stage whose results are in is closed to entries, seating and penalties."""
    if stage.tournament.status != TournamentStatus.DECLARED:
        return [
            Problem(
                "stage",
                "stage_played",
                f"The stage's results are already {stage.tournament.get_status_display()}; its "
                "entries are closed.",
                {"status": stage.tournament.get_status_display()},
            )
        ]
    return []
