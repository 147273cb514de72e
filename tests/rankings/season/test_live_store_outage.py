"""The live store lost or unreachable, for real (a ``redis-server`` of the test's own,
flushed or stopped): readers get the ranking computed in place by the database
(``rankings/season/statement_ranking.py``), correct, never a 500; one rebuild is queued
however many readers come, a real worker rebuilds the store, and later reads come
from the store again."""

from __future__ import annotations

import threading

import pytest
import redis
from django.db import connection

from core.models import OutboxMessage
from rankings import tasks
from rankings.models import SeasonStanding
from rankings.reads import selectors
from rankings.season import live_reads, live_store
from rankings.season.live_ranking import live_totals_update
from rankings.season.recompute import full_recompute
from rankings.season.statement_ranking import StatementRanking
from tests.rankings.season.test_live_store import full

REBUILD = "rankings.rebuild_live_store"


@pytest.fixture
def store_server(own_redis, monkeypatch, settings):
    """A ``redis-server`` of this test's own (``own_redis``) as the live store, for this
    process and for a worker started after it; stopped at the end."""
    url = own_redis.url()
    monkeypatch.setenv("RANKING_STORE_URL", url)
    settings.RANKING_STORE_URL = url
    return own_redis


def api_ranking(api, season, **query) -> dict:
    response = api.get("/api/pcn/ranking/", {"season": season.name, "kind": "live",
                                             "page_size": 200, **query})  # fmt: skip
    assert response.status_code == 200, response.content
    return response.json()


def expected_rows(season) -> list[tuple]:
    return sorted((row[9], row[0], row[7], row[14]) for row in full(season).values())


def shown(body: dict) -> list[tuple]:
    return [(r["place"], r["licence_number"], r["total_pcn"], r["step"]) for r in body["results"]]


@pytest.mark.django_db(transaction=True)
def test_a_flushed_store_is_read_from_the_database_and_rebuilt_by_a_worker(
    store_server, celery_worker_process, federation, add_tournament, api, wait_for
):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    add_tournament(season, {p[i]: (30 * i, i % 2) for i in range(1, 24, 2)},
                   club=registry.clubs[101], arbiter=p[2])  # fmt: skip
    tasks.refresh_season_totals.apply(
        (season.pk, [p[i].pk for i in range(1, 24, 2)])
    )  # in this process: the worker is for the rebuild
    expected = expected_rows(season)
    assert isinstance(selectors.ranking_for_season(season, selectors.LIVE), live_reads.LiveRanking)
    url = store_server.url()
    redis.Redis.from_url(url).flushdb()  # the store lost

    # readers, many at once and one after the other: the database answers
    answers, errors = [], []

    def read():
        try:
            answers.append(shown(api_ranking(api, season)))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    readers = [threading.Thread(target=read) for _ in range(8)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    assert not errors
    ranking = selectors.ranking_for_season(season, selectors.LIVE)
    if isinstance(ranking, StatementRanking):  # not rebuilt yet: more readers
        for _ in range(20):
            answers.append(shown(api_ranking(api, season, page=1)))
    assert answers
    assert all(answer == expected for answer in answers)
    assert api_ranking(api, season, series=4)["count"] == sum(
        1 for row in full(season).values() if row[15] == 4
    )
    # one rebuild queued, however many readers asked
    assert OutboxMessage.objects.filter(task=REBUILD).count() == 1
    # the worker rebuilds the store; readers are back on it
    assert wait_for(lambda: live_store.read_meta(season.pk), timeout=60)
    assert isinstance(selectors.ranking_for_season(season, selectors.LIVE), live_reads.LiveRanking)
    assert shown(api_ranking(api, season)) == expected
    assert OutboxMessage.objects.filter(task=REBUILD).count() == 1


@pytest.mark.django_db
def test_an_unreachable_store_is_read_from_the_database_and_writes_go_on(
    store_server, federation, add_tournament, api, client
):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    add_tournament(season, {p[3]: (120, 1)}, club=registry.clubs[101], arbiter=p[2])
    tasks.refresh_season_totals(season.pk, [p[3].pk])
    assert live_store.read_meta(season.pk) is not None
    store_server.stop()  # the store's process stopped: its port closed

    assert isinstance(selectors.ranking_for_season(season, selectors.LIVE), StatementRanking)
    assert shown(api_ranking(api, season)) == expected_rows(season)
    licence = p[3].licence_number
    response = api.get(f"/api/pcn/ranking/players/{licence}/",
                       {"season": season.name, "kind": "live"})  # fmt: skip
    assert response.status_code == 200
    for url, query in [
        ("/classement/", {"saison": season.name, "classement": "provisoire"}),
        ("/classement/", {"saison": season.name, "classement": "provisoire", "serie": 4}),
        (f"/classement/joueur/{licence}/", {"saison": season.name, "classement": "provisoire"}),
        ("/", {}),
    ]:
        assert client.get(url, query).status_code == 200, url
    # a homologation while the store is down: the standings are written all the same (the
    # refresh the task sends after it is retried until the store is back)
    add_tournament(season, {p[5]: (500, 0)}, club=registry.clubs[101], arbiter=p[2])
    live_totals_update(season=season, player_ids=[p[5].pk])
    assert SeasonStanding.objects.get(season=season, player=p[5]).season_pcn == 500
    first = api_ranking(api, season)["results"][0]
    assert (first["licence_number"], first["place"]) == (p[5].licence_number, 1)
    assert shown(api_ranking(api, season)) == expected_rows(season)
