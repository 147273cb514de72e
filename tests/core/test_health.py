"""/healthz says which of the database, the broker, the cache and the store is down, never
where they are nor why (host, port and error text stay in the log): 503 only when the
database is down, 200 "degraded" when a Redis role is (the web still serves). Real
failures: a closed port (tests/rankings/reads/test_redis_outage.py stops real Redis
servers)."""

from __future__ import annotations

import socket

import pytest
from django.db import connection

from config.celery import app


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def broker_at(settings):
    """``broker_at(url)``: the app sends through the broker at ``url`` (not eagerly)."""
    saved = {key: app.conf.get(key) for key in ("CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER")}

    def point(url: str) -> None:
        app.conf.update({"CELERY_BROKER_URL": url, "CELERY_TASK_ALWAYS_EAGER": False})

    yield point
    app.conf.update(saved)


def _assert_nothing_private(body: str, port: int | None = None) -> None:
    for secret in ("127.0.0.1", "localhost", "redis", "postgres", "Error", "refused"):
        assert secret not in body
    if port is not None:
        assert str(port) not in body


@pytest.mark.django_db
def test_all_up_without_a_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "not configured",
                               "cache": "not configured", "store": "not configured"}  # fmt: skip


@pytest.mark.django_db
def test_all_up_with_the_real_broker(client, broker_at):
    import os

    broker_at(os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/14"))
    response = client.get("/healthz")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "ok"
    assert response.json()["broker"] == "ok"


@pytest.mark.django_db
def test_broker_down_is_degraded_200_and_says_only_which(client, broker_at, caplog):
    port = _closed_port()
    broker_at(f"redis://127.0.0.1:{port}/0")
    response = client.get("/healthz")
    assert response.status_code == 200  # the web still serves: keep it in rotation
    assert response.json() == {"status": "degraded", "database": "ok", "broker": "unavailable",
                               "cache": "not configured", "store": "not configured"}  # fmt: skip
    _assert_nothing_private(response.content.decode(), port)
    assert str(port) in caplog.text  # the details are in the log


@pytest.mark.django_db(transaction=True)
def test_database_down_is_503_and_says_only_which(client, caplog):
    port = _closed_port()
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=port)
    try:
        response = client.get("/healthz")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "database": "unavailable",
        "broker": "not configured",
        "cache": "not configured",
        "store": "not configured",
    }
    _assert_nothing_private(response.content.decode(), port)
    assert str(port) in caplog.text
