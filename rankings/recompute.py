"""Full recomputes and official rankings as runs: requested (by staff or the nightly
job), executed by a Celery task, their progress kept on a ``RecomputeRun`` row.

A full recompute rebuilds the season's totals and standings from the
allocations (``standings.standings_write`` without a player filter: the same
SQL as the incremental update) and then refreshes the live ranking. It is
idempotent: run twice, the second run writes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from core.errors import PermissionDenied
from core.problems import RuleViolation
from core.tasks import send_on_commit
from federation.access import Actor, scope_of
from federation.models import Licence, Season
from federation.selectors import current_season
from rankings.live_ranking import live_ranking_refresh
from rankings.locks import SeasonBusy
from rankings.models import RecomputeKind, RecomputeRun, RunStatus, SeasonRanking
from rankings.official_ranking import official_ranking_publish
from rankings.progress import Progress
from rankings.standings import StandingsWrite, standings_write

log = logging.getLogger(__name__)


def full_recompute(*, season: Season, run: RecomputeRun | None = None) -> StandingsWrite:
    """Rebuild every total and standing of the season from the allocations, then the
    live ranking."""
    progress = Progress(run, total=2)
    progress.phase("standings")
    written = standings_write(season=season, player_ids=None)
    progress.step("live ranking")
    snapshot = live_ranking_refresh(season=season)
    progress.step("", **({"snapshot": snapshot} if snapshot is not None else {}))
    return written


def recompute_request(*, season: Season, kind: str, by: Actor, note: str = "") -> RecomputeRun:
    """Queue a full recompute or an official ranking of a season (federation staff)."""
    if not scope_of(by).national:
        raise PermissionDenied("Only federation staff (CCN) may start a recompute.")
    if kind not in RecomputeKind.values:
        raise RuleViolation.single(
            "kind", "unknown_kind", f"kind must be one of {', '.join(RecomputeKind.values)}."
        )
    with transaction.atomic():
        # Past the scope check, ``by`` is a staff account, never anonymous.
        run = RecomputeRun.objects.create(  # type: ignore[misc]
            season=season, kind=kind, requested_by=by, note=note[:300]
        )
        send_on_commit("rankings.run_recompute", run.pk)
    return run


def recompute_run(*, run_id: int) -> RecomputeRun:
    """Execute a queued run (the task's body). Idempotent: a finished run is left alone;
    a run interrupted by a lost worker is executed again from the start."""
    run = RecomputeRun.objects.select_related("season", "requested_by").get(pk=run_id)
    if run.status == RunStatus.DONE:
        return run
    try:
        if run.kind == RecomputeKind.FULL:
            full_recompute(season=run.season, run=run)
        else:
            snapshot = official_ranking_publish(
                season=run.season, by=run.requested_by, note=run.note, run=run
            )
            run.snapshot = snapshot
    except (OperationalError, InterfaceError, SeasonBusy) as exc:  # transient: the task retries
        _finish(run, RunStatus.FAILED, f"{type(exc).__name__}: {exc} (retrying)")
        raise
    except Exception as exc:
        log.exception("recompute run %s failed", run_id)
        _finish(run, RunStatus.FAILED, f"{type(exc).__name__}: {exc}")
        return run
    _finish(run, RunStatus.DONE, "")
    return run


def _finish(run: RecomputeRun, status: str, error: str) -> None:
    fields = {"status": status, "error": error[:5000], "finished_at": timezone.now()}
    if status == RunStatus.DONE:
        fields["done"] = run.total
    RecomputeRun.objects.filter(pk=run.pk).update(**fields)
    for name, value in fields.items():
        setattr(run, name, value)


def seasons_to_publish(today: dt.date) -> list[Season]:
    """Ended seasons with licensees and no published official ranking, oldest first."""
    published = SeasonRanking.objects.filter(official__isnull=False).values("season_id")
    return list(
        Season.objects.filter(end_date__lt=today)
        .exclude(pk__in=published)
        .filter(pk__in=Licence.objects.values("season_id"))
        .order_by("start_date")
    )


def nightly(today: dt.date | None = None) -> list[RecomputeRun]:
    """The nightly job: publish the official ranking of every season that has ended
    without one, then fully recompute the current season."""
    today = today or timezone.localdate()
    runs = []
    for season in seasons_to_publish(today):
        runs.append(
            RecomputeRun.objects.create(
                season=season, kind=RecomputeKind.OFFICIAL, note="End of season (nightly job)"
            )
        )
    current = current_season(today)
    if current is not None:
        runs.append(
            RecomputeRun.objects.create(
                season=current, kind=RecomputeKind.FULL, note="Nightly full recompute"
            )
        )
    return [recompute_run(run_id=run.pk) for run in runs]
