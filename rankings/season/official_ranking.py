"""The official national ranking: computed at the end of a season (or on demand by
staff), frozen, and published atomically.

Publishing rebuilds the season's standings from the allocations (the full
recompute), reads them under the writer lock, computes the ranking with the
pure core, then in **one** transaction inserts the snapshot and every entry
and flips ``SeasonRanking.official`` to it: readers see the previous official
ranking or the new one, never part of one. Snapshots are never updated or
deleted afterwards; publishing again adds a new snapshot and moves the
pointer, the superseded one stays readable by id.

The published snapshot's ``step`` is each player's step for the next season,
and its totals and steps are the "previous" of the next seasons' standings,
which are therefore rebuilt after a publication.

Every path that publishes (the API's and the desk's runs, the nightly job, a direct call)
goes through :func:`official_ranking_publish`, which refuses:

- a season that has not ended yet, unless the publication carries the reason for
  publishing early (an explicit override): the reason is kept on the snapshot, beside who
  published it and when (:func:`publication_check`);
- a second publication of the season while one is under way (:func:`publication_lock`):
  one publication per season at a time.

A publication made by a recompute run ends that run (done, with its snapshot) in the
transaction that publishes, and only while its worker still holds the run's claim
(:class:`RunLost` rolls the publication back otherwise): a run whose worker is killed
after publishing is never published again by its redelivered task or by the sweep.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from core.errors import PermissionDenied
from core.problems import RuleViolation
from core.tasks import send_on_commit
from federation.access import Actor, scope_of
from federation.models import Season, User
from rankings.models import RankingKind, RankingSnapshot, RecomputeRun, RunStatus, SeasonRanking
from rankings.season.locks import publication_lock, season_writer_lock
from rankings.season.progress import Progress
from rankings.season.ranking_sql import official_ranking_by_sql
from rankings.season.ranking_state import season_ranking
from rankings.season.snapshots import compute, load_inputs, refresh_statistics, write_snapshot
from rankings.season.standings import standings_write

EARLY_REASON = "before_season_end_reason"
"""The field that carries the reason for publishing before the season's end."""


class RunLost(Exception):
    """The run's claim went to another worker (this one was thought lost): it publishes."""

    def __init__(self, run_id: int) -> None:
        super().__init__(f"recompute run {run_id} was reclaimed by another worker")


def may_publish(user: Actor | None) -> bool:
    return user is None or scope_of(user).national


def season_ended(season: Season, today: dt.date | None = None) -> bool:
    """Is the season's last day over (in the federation's time zone)?"""
    return season.end_date < (today or timezone.localdate())


def publication_check(*, season: Season, early_reason: str, today: dt.date | None = None) -> None:
    """Refuse to publish the official ranking of a season that has not ended unless
    ``early_reason`` says why it is published early."""
    if not season_ended(season, today) and not early_reason.strip():
        raise RuleViolation.single(
            EARLY_REASON,
            "season_not_ended",
            f"The season {season.name} ends on {season.end_date:%d/%m/%Y}: its official "
            "ranking is published once it has ended, or earlier with the reason for it.",
            {"season": season.name, "end_date": f"{season.end_date:%d/%m/%Y}"},
        )


def official_ranking_publish(
    *,
    season: Season,
    by: Actor | None = None,
    note: str = "",
    run: RecomputeRun | None = None,
    early_reason: str = "",
) -> RankingSnapshot:
    """Compute and publish the season's official ranking (federation staff, or the
    nightly job with ``by=None``); before the season's end only with ``early_reason``
    (kept on the snapshot with who and when), one publication of a season at a time."""
    if not may_publish(by):
        raise PermissionDenied("Only federation staff (CCN) may publish the official ranking.")
    publication_check(season=season, early_reason=early_reason)
    with publication_lock(season.pk):
        return _publish(season=season, by=by, note=note, run=run, early_reason=early_reason)


def _publish(
    *, season: Season, by: Actor | None, note: str, run: RecomputeRun | None, early_reason: str
) -> RankingSnapshot:
    progress = Progress(run, total=4)
    progress.phase("standings")
    standings_write(season=season, player_ids=None)
    progress.step("reading")
    # Past may_publish, ``by`` is a staff account or None, never anonymous.
    staff: User | None = by  # type: ignore[assignment]
    with transaction.atomic():
        # PostgreSQL: read, computed and written in the database, in one transaction
        computed = official_ranking_by_sql(season=season, by=staff, note=note)
        if computed is not None:
            snapshot, state = computed
            _flip(season, state, snapshot, early_reason, run)
    if computed is not None:
        progress.step("computing", players=snapshot.player_count)
        progress.step("publishing")
    else:  # the Python path: the pure core, outside the lock
        with transaction.atomic():
            season_writer_lock(season.pk)
            state = season_ranking(season.pk)
            inputs = load_inputs(season=season, inputs_version=state.inputs_version)
        progress.step("computing", players=len(inputs.standings))
        ranking = compute(inputs)
        progress.step("publishing")
        with transaction.atomic():
            state = SeasonRanking.objects.select_for_update(of=("self",)).get(season=season)
            snapshot = write_snapshot(
                inputs=inputs, ranking=ranking, kind=RankingKind.OFFICIAL, by=staff, note=note
            )
            _flip(season, state, snapshot, early_reason, run)
    refresh_statistics()
    progress.step("", snapshot=snapshot)
    return snapshot


def _flip(
    season: Season,
    state: SeasonRanking,
    snapshot: RankingSnapshot,
    early_reason: str,
    run: RecomputeRun | None,
) -> None:
    """Publish ``snapshot`` (in the transaction that wrote it), with the reason for
    publishing before the season's end if any, end ``run`` in the same transaction (or
    raise :class:`RunLost`), and send the rework of the following seasons on commit."""
    if run is not None:
        ended = RecomputeRun.objects.filter(
            pk=run.pk, claimed_by=run.claimed_by, status=RunStatus.RUNNING
        ).update(status=RunStatus.DONE, snapshot=snapshot, finished_at=timezone.now(), error="")
        if not ended:
            raise RunLost(run.pk)
    if early_reason.strip():
        snapshot.before_season_end_reason = early_reason.strip()
        snapshot.save(update_fields=["before_season_end_reason"])
    replaced = state.official_id
    state.official = snapshot
    state.save(update_fields=["official"])
    # the players who chose it: their step, if it changed (rankings/season/step_notices.py)
    send_on_commit("rankings.email_step_changes", snapshot.pk, replaced)
    later = list(
        Season.objects.filter(start_date__gt=season.start_date).values_list("pk", flat=True)
    )
    # later seasons take their carry-over and previous steps from this ranking
    for season_id in later:
        send_on_commit("rankings.recompute_season", season_id)
    # the next season takes its players' series from this ranking (series_for_players):
    # its interclubs teams are checked again against them
    following = (
        Season.objects.filter(start_date__gt=season.start_date).order_by("start_date").first()
    )
    if following is not None:
        send_on_commit("competitions.recheck_interclubs_teams", following.pk)
