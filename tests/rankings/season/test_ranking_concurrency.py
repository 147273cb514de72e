"""Concurrency on PostgreSQL, with real threads and their own connections: two
recomputes never run over each other, an incremental update sent while a full
recompute runs is not lost, and readers see an official ranking whole or not at all.

These tests need PostgreSQL (advisory locks, concurrent transactions): CI runs the
suite on it; with another database they fail saying so.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction
from django.db.models import Subquery

from rankings import tasks
from rankings.models import RankingEntry, SeasonRanking
from rankings.season import standings as standings_module
from rankings.season.live_ranking import live_ranking_refresh
from rankings.season.locks import season_writer_lock
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import full_recompute
from rankings.season.standings import standings_write

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.fail("This test needs PostgreSQL: run the suite with DATABASE_URL=postgres://…")


def in_thread(target, errors: list, name: str | None = None):
    def run():
        try:
            target()
        except BaseException as exc:  # reported to the test
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread


def waiting_on_advisory_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
        return cursor.fetchone()[0]


def test_two_full_recomputes_never_overlap(postgresql, registry, federation, wait_for):
    season = registry.season
    release, held = threading.Event(), threading.Event()
    order: list[str] = []
    errors: list[BaseException] = []

    def holder():  # a first recompute, paused while it holds the season's writer lock
        with transaction.atomic():
            season_writer_lock(season.pk)
            held.set()
            release.wait(30)
            order.append("first done")

    def second():
        held.wait(30)
        standings_write(season=season, player_ids=None)
        order.append("second done")

    threads = [in_thread(holder, errors), in_thread(second, errors)]
    assert held.wait(30)
    assert wait_for(lambda: waiting_on_advisory_lock() == 1)  # the second one waits
    assert order == []
    release.set()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    assert order == ["first done", "second done"]


def test_homologation_during_a_full_recompute_is_not_lost(
    postgresql, registry, federation, add_tournament, wait_for, monkeypatch
):
    season, p = registry.season, federation.players
    full_recompute(season=season)
    add_tournament(season, {p[0]: (100, 0)}, club=registry.clubs[101], arbiter=p[1])
    standings_write(season=season, player_ids=[p[0].pk])

    # Pause the full recompute after it has read the allocations (its stage), holding
    # the writer lock, as if it were long.
    staged, release = threading.Event(), threading.Event()
    merge = standings_module._merge

    def paused_merge(*args, **kwargs):
        if threading.current_thread().name == "full" and not staged.is_set():
            staged.set()
            release.wait(30)
        return merge(*args, **kwargs)

    monkeypatch.setattr(standings_module, "_merge", paused_merge)
    errors: list[BaseException] = []
    full = in_thread(lambda: standings_write(season=season, player_ids=None), errors, "full")
    assert staged.wait(30)
    # A tournament is homologated meanwhile: committed, then its incremental task runs.
    add_tournament(season, {p[0]: (50, 0), p[2]: (70, 1)}, club=registry.clubs[101], arbiter=p[1])
    incremental = in_thread(
        lambda: tasks.refresh_season_totals(season.pk, [p[0].pk, p[2].pk]), errors
    )
    assert wait_for(lambda: waiting_on_advisory_lock() == 1)  # it waits for the recompute
    release.set()
    full.join(60)
    incremental.join(60)
    assert not errors, errors
    monkeypatch.setattr(standings_module, "_merge", merge)
    # Nothing is lost: a fresh full recompute finds nothing to change, and the live
    # ranking has both tournaments.
    assert not standings_write(season=season, player_ids=None).changed
    live_ranking_refresh(season=season)
    entry = RankingEntry.objects.get(snapshot=SeasonRanking.objects.get(season=season).live,
                                     player=p[0])  # fmt: skip
    assert entry.season_pcn == 150


def test_readers_see_an_official_ranking_whole_or_not_at_all(
    postgresql, registry, federation, add_tournament
):
    p = federation.players
    add_tournament(registry.previous, {x: (10 * i, 0) for i, x in enumerate(p)},
                   club=registry.clubs[101], arbiter=p[0])  # fmt: skip
    expected = registry.previous.licences.count()
    seen: set[int] = set()
    done = threading.Event()
    errors: list[BaseException] = []

    def reader():
        pointer = SeasonRanking.objects.filter(season=registry.previous).values("official_id")
        while not done.is_set():
            seen.add(RankingEntry.objects.filter(snapshot_id=Subquery(pointer)).count())

    thread = in_thread(reader, errors)
    for _ in range(3):
        official_ranking_publish(season=registry.previous)
    done.set()
    thread.join(30)
    assert not errors, errors
    assert seen <= {0, expected}


def test_concurrent_live_refreshes_coalesce(postgresql, registry, federation, add_tournament):
    season, p = registry.season, federation.players
    full_recompute(season=season)
    errors: list[BaseException] = []
    barrier = threading.Barrier(3)

    def homologate(i):
        def run():
            add_tournament(season, {p[i]: (100 + i, 0)}, club=registry.clubs[101], arbiter=p[20])
            standings_write(season=season, player_ids=[p[i].pk])
            barrier.wait(30)
            live_ranking_refresh(season=season)

        return run

    threads = [in_thread(homologate(i), errors) for i in range(3)]
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    state = SeasonRanking.objects.get(season=season)
    assert state.live_version == state.inputs_version  # up to date whatever the order
    live = dict(
        RankingEntry.objects.filter(snapshot=state.live).values_list("player", "season_pcn")
    )
    assert [live[p[i].pk] for i in range(3)] == [100, 101, 102]
