"""One Redis role down does not take the site down. Each test starts its own
``redis-server`` (the ``own_redis`` fixture: never the shared one), points one role at it
— the cache (``CACHE_URL``), the live ranking's store (``RANKING_STORE_URL``), the broker
(``CELERY_BROKER_URL``) — and stops it (SIGTERM): real requests through the Django test
client then keep being answered from the database, rate limits count per process, writes
are accepted, sessions keep working, and ``/healthz`` names what is down."""

from __future__ import annotations

import pytest
from django.urls import reverse

from config.settings import redis_cache
from core.models import OutboxMessage
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import full_recompute
from tests.core.test_outbox import broker

RANKING_API = "/api/pcn/ranking/"


@pytest.fixture
def ranked(registry, federation, add_tournament):
    p = federation.players
    add_tournament(registry.previous, {p[i]: (400 - 20 * i, 0) for i in range(10)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    official_ranking_publish(season=registry.previous)
    add_tournament(registry.season, {p[i]: (300 - 10 * i, 0) for i in range(0, 20, 2)},
                   club=registry.clubs[102], arbiter=p[21])  # fmt: skip
    full_recompute(season=registry.season)
    return federation


def _rates(settings, **rates) -> None:
    current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**current, **rates}}  # fmt: skip


@pytest.mark.django_db
def test_the_cache_down_reads_tokens_sessions_and_limits_keep_working(
    api, client, registry, ranked, settings, own_redis
):
    settings.CACHES = {"default": redis_cache(own_redis.url())}
    token = registry.token("federation_staff")
    number = ranked.players[0].licence_number
    assert client.get("/classement/").status_code == 200  # stored in the cache's Redis
    own_redis.stop()

    # a token-authenticated request: its failures throttle reads the cache first
    with_token = api.get(RANKING_API, HTTP_AUTHORIZATION=f"Token {token}")
    assert with_token.status_code == 200, with_token.content
    wrong = api.get(RANKING_API, HTTP_AUTHORIZATION="Token " + "0" * 64)
    assert wrong.status_code == 401  # refused as ever, not a 500
    # public reads: misses fall through to the view
    for path in ("/classement/", "/classement/?page=1", f"/classement/joueur/{number}/",
                 "/classement/comite/1/", f"/api/pcn/ranking/players/{number}/"):  # fmt: skip
        assert client.get(path).status_code == 200, path
    assert api.get(RANKING_API, {"page_size": 3}).json()["results"]
    # sessions: a password login, then a signed-in page
    login = client.post(reverse("login"), {"username": "federation_staff", "password": "x"})
    assert login.status_code == 302, login.content
    assert "/api/pcn/ranking/export/" in client.get("/classement/").content.decode()
    client.logout()
    # rate limits fall back to this process's count
    _rates(settings, anon="2/minute")
    answers = [api.get(RANKING_API, {"q": f"n{i}"}, REMOTE_ADDR="10.9.9.9").status_code
               for i in range(3)]  # fmt: skip
    assert answers == [200, 200, 429]


@pytest.mark.django_db
def test_the_store_down_live_reads_come_from_the_database(api, client, registry, ranked,
                                                          settings, own_redis):  # fmt: skip
    settings.RANKING_STORE_URL = own_redis.url()
    full_recompute(season=registry.season)  # the store holds the live ranking
    live = api.get(RANKING_API, {"kind": "live"})
    assert live.status_code == 200
    assert live.json()["snapshot"]["kind"] == "live"
    official_ranking_publish(season=registry.season, early_reason="Test de panne.")
    number = ranked.players[0].licence_number
    own_redis.stop()

    for path in ("/classement/", "/classement/?classement=provisoire", "/classement/comite/1/",
                 f"/classement/joueur/{number}/", "/classement/?saison=2025-2026"):  # fmt: skip
        assert client.get(path).status_code == 200, path
    default = api.get(RANKING_API)
    assert default.status_code == 200
    assert default.json()["snapshot"]["kind"] == "official"
    asked_live = api.get(RANKING_API, {"kind": "live"})
    assert asked_live.status_code == 200  # computed by the database meanwhile
    assert asked_live.json()["snapshot"]["kind"] == "live"
    assert asked_live.json()["results"][0]["licence_number"] == number
    assert api.get(f"/api/pcn/ranking/players/{number}/").status_code == 200
    health = client.get("/healthz")
    assert (health.status_code, health.json()["store"]) == (200, "unavailable")


@pytest.mark.django_db(transaction=True)
def test_the_broker_down_writes_are_accepted(api, registry, own_redis):
    api.force_authenticate(registry.users["federation_staff"])
    with broker(own_redis.url()):
        own_redis.stop()
        response = api.post(RANKING_API.replace("ranking/", "recomputes/"),
                            {"season": "2026-2027", "kind": "full"})  # fmt: skip
        assert response.status_code == 202, response.content
        message = OutboxMessage.objects.get()
        assert message.sent_at is None  # the relay sends it later
        assert message.last_error


@pytest.mark.django_db
def test_healthz_names_each_redis_role_down_and_stays_200(client, settings, tmp_path, own_redis):
    from config.celery import app
    from tests.conftest import OwnRedis

    store, queue = OwnRedis(tmp_path / "store"), OwnRedis(tmp_path / "broker")
    settings.CACHES = {"default": redis_cache(own_redis.url())}
    settings.RANKING_STORE_URL = store.url()
    try:
        with broker(queue.url()):
            assert not app.conf.task_always_eager
            up = client.get("/healthz")
            assert (up.status_code, up.json()) == (200, {
                "status": "ok", "database": "ok", "broker": "ok", "cache": "ok", "store": "ok",
            })  # fmt: skip
            for server, role in ((own_redis, "cache"), (store, "store"), (queue, "broker")):
                server.stop()
                down = client.get("/healthz")
                assert down.status_code == 200
                assert down.json()["status"] == "degraded"
                assert down.json()[role] == "unavailable"
    finally:
        store.stop()
        queue.stop()
