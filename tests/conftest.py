"""Suite-wide fixtures: a real Celery worker process, the API client, a small registry.

Imports of Django and DRF stay inside the fixtures so that the pure rules
tests also run with ``-p no:django``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


def _database_url() -> str:
    from django.conf import settings

    db = settings.DATABASES["default"]
    if "postgresql" not in db["ENGINE"]:
        pytest.fail("the Celery worker test needs PostgreSQL: run the suite with DATABASE_URL set")
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def _reset_connections(app) -> None:
    """Drop the app's broker connections and the objects that cache them (the
    pool, routing with its default queue, the control mailbox), so the next
    use connects to the broker now configured."""
    from kombu import pools

    pools.reset()  # kombu keeps its pools in a global registry, by URL
    app._pool = None
    for cached in ("amqp", "control"):
        app.__dict__.pop(cached, None)


@pytest.fixture
def celery_worker_process(transactional_db):
    """A real `celery worker` subprocess on the test database, fed through Redis.

    The queue name is unique to this run so that no other worker on the machine
    takes our tasks. Tasks sent by the test go through the broker (not eagerly).
    """
    from config.celery import app as celery_app

    broker = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
    queue = f"fft-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DATABASE_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
               "--loglevel=WARNING", "--without-gossip", "--without-mingle",
               "--without-heartbeat", "-Q", queue, "-n", f"{queue}@%h"]  # fmt: skip
    worker = subprocess.Popen(command, cwd=ROOT, env=env)
    # The app reads its settings under the CELERY_ namespace: those keys win.
    overrides = {
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": False,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
    }
    saved = {key: celery_app.conf.get(key) for key in overrides}
    celery_app.conf.update(overrides)
    _reset_connections(celery_app)
    try:
        deadline = time.monotonic() + 30
        while True:
            replies = celery_app.control.ping(destination=[f"{queue}@{os.uname().nodename}"],
                                              timeout=0.5)  # fmt: skip
            if replies:
                break
            if worker.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Celery worker did not start (exit code {worker.poll()})")
        yield queue
    finally:
        celery_app.conf.update(saved)
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
        _reset_connections(celery_app)


@pytest.fixture
def wait_for():
    """Poll a predicate until it returns a truthy value or the timeout passes."""

    def poll(predicate, timeout: float = 30.0, interval: float = 0.1):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(interval)
        return predicate()

    return poll


@pytest.fixture
def registry(db):
    """A small federation: two zones, two committees, three clubs, two seasons,
    players licensed in each club, and one user per role."""
    from tests.registry_fixture import build_registry

    return build_registry()
