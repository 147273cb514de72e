"""The season's writer lock is waited for at most ADVISORY_LOCK_TIMEOUT_MS (PostgreSQL).

One thread holds the lock on its own connection; the test's connection waits for it
and gives up after the (short) timeout with SeasonBusy: a 409 ``busy`` for a request,
a retry for a task. The timeout bounds that wait only.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.test import override_settings
from django.utils import translation

from core.errors import Conflict
from core.http.api_errors import exception_handler
from rankings import tasks
from rankings.models import RecomputeKind, RecomputeRun, RunStatus
from rankings.season.locks import SeasonBusy, season_writer_lock
from rankings.season.recompute import recompute_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.fail("This test needs PostgreSQL: run the suite with DATABASE_URL=postgres://…")


@pytest.fixture
def lock_held_elsewhere():
    """Hold a season's writer lock in another thread (its own connection) until the end."""
    holding: list[int] = []
    held, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def hold():
        try:
            with transaction.atomic():
                season_writer_lock(holding[0])
                held.set()
                release.wait(30)
        except BaseException as exc:  # reported to the test
            errors.append(exc)
            held.set()
        finally:
            connections.close_all()

    def start(season_id: int) -> None:
        holding.append(season_id)
        threading.Thread(target=hold, daemon=True).start()
        assert held.wait(30)
        assert not errors, errors

    yield start
    release.set()


def _lock_timeout() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('lock_timeout')")
        return cursor.fetchone()[0]


@override_settings(ADVISORY_LOCK_TIMEOUT_MS=200)
def test_a_second_writer_gives_up_after_the_timeout(postgresql, lock_held_elsewhere):
    lock_held_elsewhere(987_654)
    started = time.monotonic()
    with pytest.raises(SeasonBusy) as refused, transaction.atomic():
        season_writer_lock(987_654)
    waited = time.monotonic() - started
    assert 0.2 <= waited < 10
    assert isinstance(refused.value, Conflict)
    assert refused.value.code == "busy"
    # Another season's lock is free: taken at once, and the caller's own lock_timeout
    # is back to what it was for the rest of the transaction.
    before = _lock_timeout()
    with transaction.atomic():
        season_writer_lock(987_655)
        assert _lock_timeout() == before


def test_a_request_gets_409_busy():
    response = exception_handler(SeasonBusy("busy, retry later"), {})
    assert response.status_code == 409
    assert response.data == {
        "errors": [
            {
                "field": None,
                "code": "busy",
                "message": "Le classement de la saison est en cours de mise à jour par une autre "
                "opération\u00a0; réessayez dans un instant.",
            }
        ]
    }
    with translation.override("en"):
        english = exception_handler(SeasonBusy("busy, retry later"), {})
    assert english.data["errors"][0]["message"] == "busy, retry later"


def test_the_ranking_tasks_retry_when_busy():
    for task in (
        tasks.refresh_season_totals,
        tasks.refresh_live_ranking,
        tasks.run_recompute,
        tasks.recompute_season,
        tasks.nightly_ranking,
    ):
        assert SeasonBusy in task.autoretry_for


@override_settings(ADVISORY_LOCK_TIMEOUT_MS=200)
def test_a_busy_recompute_run_is_left_to_the_retry(postgresql, registry, lock_held_elsewhere):
    run = RecomputeRun.objects.create(season=registry.season, kind=RecomputeKind.FULL)
    lock_held_elsewhere(registry.season.pk)
    with pytest.raises(SeasonBusy):
        recompute_run(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert run.error.endswith("(retrying)")
