"""What the staff desk reads of the national ranking: the recompute runs with their
duration, the manual placements in the caller's scope, and "what changes if I
publish": the live ranking's steps against the last official ranking's, counted by
the database (one aggregate over the two snapshots, never 150,000 rows in Python)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import DurationField, ExpressionWrapper, F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy

from federation.access import Scope
from federation.models import Season
from rankings.models import ManualPlacement, RankingSnapshot, RecomputeRun, RunStatus, SeasonRanking
from rankings.season.ranking import Ranking


def runs(season: Season, limit: int = 20) -> QuerySet[RecomputeRun]:
    """The season's latest runs, newest first, each with who asked and ``duration``."""
    return (
        RecomputeRun.objects.filter(season=season)
        .select_related("requested_by", "snapshot")
        .annotate(
            duration=ExpressionWrapper(
                F("finished_at") - F("started_at"), output_field=DurationField()
            )
        )
        .order_by("-requested_at", "-pk")[:limit]
    )


PHASES = {
    "standings": gettext_lazy("season totals and standings"),
    "live ranking": gettext_lazy("live ranking"),
    "reading": gettext_lazy("reading the standings"),
    "computing": gettext_lazy("computing the places and steps"),
    "publishing": gettext_lazy("publishing"),
}


def run_progress_data(run: RecomputeRun) -> dict:
    """A run's progress as the desk shows it: the phase in words, the steps done of
    total, the players ranked (once known), the time elapsed."""
    if run.status == RunStatus.RUNNING:
        phase = str(PHASES.get(run.phase, run.phase))
    else:
        phase = run.get_status_display()
    players = run.players or (run.snapshot.player_count if run.snapshot else 0)
    end = run.finished_at or timezone.now()
    return {
        "id": run.pk,
        "kind": run.get_kind_display(),
        "status": run.status,
        "phase": phase,
        "done": run.done,
        "total": run.total,
        "percent": 100 * run.done // run.total if run.total else 0,
        "players": players,
        "elapsed_s": round((end - run.started_at).total_seconds()) if run.started_at else 0,
        "finished": run.status in (RunStatus.DONE, RunStatus.FAILED),
    }


def placements(season: Season, scope: Scope) -> QuerySet[ManualPlacement]:
    """The season's manual placements of the players licensed in the scope's clubs."""
    found = ManualPlacement.objects.filter(season=season).select_related("player", "created_by")
    if not scope.national:
        found = found.filter(
            Q(player__licences__season=season)
            & (
                Q(player__licences__club__committee_id__in=scope.committee_ids)
                | Q(player__licences__club__committee__zone_id__in=scope.zone_ids)
            )
        ).distinct()
    return found.order_by("player__last_name", "player__first_name")


def last_official(season: Season) -> RankingSnapshot | None:
    """The published official ranking of the season, else of the latest season before
    it that has one: what publishing now would supersede for the players."""
    state = (
        SeasonRanking.objects.filter(
            season__start_date__lte=season.start_date, official__isnull=False
        )
        .select_related("official__season", "official__policy")
        .order_by("-season__start_date")
        .first()
    )
    return state.official if state is not None else None


@dataclass(frozen=True)
class PublishComparison:
    live: Ranking
    official: RankingSnapshot | None
    players: int
    up: int
    down: int
    same: int
    new: int  # in the live ranking, not in the official one


def publish_comparison(live: Ranking, scope: Scope) -> PublishComparison:
    """How many players of the scope would move up or down a step (the ladder of the
    live ranking's policy, lowest first) if the live ranking were published now: counted
    by the database for a stored live ranking, by the core over the live store's
    standings otherwise (``Ranking.step_moves``)."""
    official = last_official(live.season)
    moves = live.step_moves(official, scope)
    return PublishComparison(
        live, official, moves.players, moves.up, moves.down, moves.same, moves.new
    )
