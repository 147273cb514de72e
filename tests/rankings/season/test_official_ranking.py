"""The official ranking: computed from a full rebuild, frozen, published by flipping
one pointer, republished as a new snapshot; the next season's carry-over and
series come from it; the nightly job publishes a season that has ended."""

from __future__ import annotations

import datetime as dt

import pytest

from core.errors import PermissionDenied
from rankings.models import (
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    RecomputeKind,
    RecomputeRun,
    RunStatus,
    SeasonRanking,
    SeasonStanding,
)
from rankings.reads.selectors import series_for_players
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import nightly, recompute_request, recompute_run

pytestmark = pytest.mark.django_db


def test_publish_freezes_every_licensee_and_flips_the_pointer(
    federation, registry, add_tournament, django_capture_on_commit_callbacks
):
    p = federation.players
    add_tournament(registry.previous, {p[0]: (300, 2), p[1]: (200, 0), p[2]: (200, 0)},
                   club=registry.clubs[101], arbiter=p[3])  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        snapshot = official_ranking_publish(
            season=registry.previous, by=registry.users["federation_staff"], note="AG de juin"
        )
    state = SeasonRanking.objects.get(season=registry.previous)
    assert state.official_id == snapshot.pk
    assert snapshot.kind == RankingKind.OFFICIAL
    licensed = registry.previous.licences.count()
    assert (
        snapshot.player_count == licensed == RankingEntry.objects.filter(snapshot=snapshot).count()
    )
    places = dict(
        RankingEntry.objects.filter(snapshot=snapshot).values_list("licence_number", "place")
    )
    assert (places[1001], places[1002], places[1003]) == (1, 2, 2)  # ties share the place
    # The next season's standings were rebuilt from it (task sent on commit, eager here).
    standing = SeasonStanding.objects.get(season=registry.season, player=p[0])
    assert (standing.previous_pcn, standing.previous_pp) == (300, 2)
    assert standing.previous_step == RankingEntry.objects.get(snapshot=snapshot, player=p[0]).step


def test_republishing_adds_a_snapshot_and_keeps_the_old_one(federation, registry, add_tournament):
    p = federation.players
    add_tournament(registry.previous, {p[0]: (300, 0)}, club=registry.clubs[101], arbiter=p[3])
    first = official_ranking_publish(season=registry.previous)
    add_tournament(registry.previous, {p[1]: (900, 0)}, club=registry.clubs[101], arbiter=p[3])
    second = official_ranking_publish(season=registry.previous)
    assert SeasonRanking.objects.get(season=registry.previous).official_id == second.pk
    assert RankingSnapshot.objects.filter(pk=first.pk).exists()  # still readable by id
    assert RankingEntry.objects.get(snapshot=first, player=p[1]).total_pcn == 0
    assert RankingEntry.objects.get(snapshot=second, player=p[1]).total_pcn == 900


def test_only_federation_staff_publish(federation, registry):
    for role in ("committee_staff", "zone_staff", "club_manager", "player"):
        with pytest.raises(PermissionDenied):
            official_ranking_publish(season=registry.previous, by=registry.users[role])
        with pytest.raises(PermissionDenied):
            recompute_request(season=registry.previous, kind="official", by=registry.users[role])
    assert not RankingSnapshot.objects.exists()


def test_series_for_players_reads_the_previous_seasons_official_ranking(
    federation, registry, add_tournament
):
    p = federation.players
    add_tournament(
        registry.previous,
        {player: (1000 - 10 * i, 5) for i, player in enumerate(p[:20])},
        club=registry.clubs[101],
        arbiter=p[21],
    )
    assert series_for_players(registry.season, [1001, 9999]) == {1001: None, 9999: None}
    snapshot = official_ranking_publish(season=registry.previous)
    series = dict(
        RankingEntry.objects.filter(snapshot=snapshot).values_list("licence_number", "series")
    )
    new_player = p[5]  # licence 3001: new this season (not in the previous season)
    assert new_player.licence_number not in series
    found = series_for_players(registry.season, [1001, 2002, new_player.licence_number, 9999])
    assert found == {1001: series[1001], 2002: series[2002], new_player.licence_number: None,
                     9999: None}  # fmt: skip
    # 16 ranked players: ⌊5 % × 16⌋ = 0 place in 1st series, ⌊21 % × 16⌋ = 3 in 2nd.
    assert found[1001] == 2
    # The official ranking of a season applies to the next one, not to itself.
    assert series_for_players(registry.previous, [1001]) == {1001: None}


def test_nightly_publishes_ended_seasons_then_recomputes_the_current_one(
    federation, registry, add_tournament
):
    p = federation.players
    add_tournament(registry.previous, {p[0]: (300, 0)}, club=registry.clubs[101], arbiter=p[3])
    runs = nightly(today=dt.date(2026, 11, 22))
    assert [(r.season, r.kind, r.status) for r in runs] == [
        (registry.previous, RecomputeKind.OFFICIAL, RunStatus.DONE),
        (registry.season, RecomputeKind.FULL, RunStatus.DONE),
    ]
    assert SeasonRanking.objects.get(season=registry.previous).official_id is not None
    assert SeasonRanking.objects.get(season=registry.season).live_id is not None
    # The next night publishes nothing again.
    assert [r.kind for r in nightly(today=dt.date(2026, 11, 23))] == [RecomputeKind.FULL]


def test_a_run_reports_progress_and_is_idempotent(federation, registry):
    run = RecomputeRun.objects.create(season=registry.season, kind=RecomputeKind.FULL)
    done = recompute_run(run_id=run.pk)
    assert (done.status, done.done, done.total, done.error) == (RunStatus.DONE, 2, 2, "")
    assert done.started_at is not None
    assert done.finished_at is not None
    live = SeasonRanking.objects.get(season=registry.season).live_id
    assert recompute_run(run_id=run.pk).status == RunStatus.DONE  # a retry does nothing
    assert SeasonRanking.objects.get(season=registry.season).live_id == live


def test_a_failing_run_records_its_error(federation, registry, monkeypatch):
    from core.problems import RuleViolation
    from rankings.season import recompute

    def broken(**kwargs):
        raise RuleViolation.single("ladder", "broken", "Broken on purpose.")

    monkeypatch.setattr(recompute, "official_ranking_publish", broken)
    run = RecomputeRun.objects.create(season=registry.previous, kind=RecomputeKind.OFFICIAL)
    failed = recompute_run(run_id=run.pk)
    assert failed.status == RunStatus.FAILED
    assert "Broken on purpose" in failed.error


def test_the_nightly_job_is_scheduled():
    from django.conf import settings

    from rankings import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["rankings-nightly"]
    assert entry["task"] == tasks.nightly_ranking.name
    assert entry["schedule"].hour == {3}
