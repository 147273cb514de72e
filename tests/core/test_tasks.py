"""core.tasks.send_on_commit: a task named by its registered name, sent after the commit."""

from __future__ import annotations

import threading

import pytest
from celery import current_app, shared_task
from django.db import transaction

from config.celery import app
from core.tasks import send_now, send_on_commit, tasks_run_inline

RECEIVED: list[tuple[tuple, dict]] = []


@shared_task(name="tests.core.record")
def record(*args, **kwargs) -> int:
    RECEIVED.append((args, kwargs))
    return len(RECEIVED)


@pytest.fixture(autouse=True)
def _clear():
    RECEIVED.clear()
    yield
    RECEIVED.clear()


@pytest.mark.django_db
def test_sent_only_after_the_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        send_on_commit("tests.core.record", 7, [1, 2], note="x")
        assert RECEIVED == []
    assert len(callbacks) == 1
    assert RECEIVED == [((7, [1, 2]), {"note": "x"})]


class Refused(Exception):
    pass


def _send_then_fail() -> None:
    with transaction.atomic():
        send_on_commit("tests.core.record", 7)
        raise Refused


@pytest.mark.django_db
def test_never_sent_on_rollback(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(Refused):
        _send_then_fail()
    assert callbacks == []
    assert RECEIVED == []


@pytest.mark.django_db(transaction=True)
def test_runs_eagerly_in_eager_mode_after_a_real_commit():
    assert app.conf.task_always_eager  # the tests have no broker: the embedded default
    with transaction.atomic():
        send_on_commit("tests.core.record", 3, countdown=2)
        assert RECEIVED == []
    assert RECEIVED == [((3,), {})]


def test_sent_through_the_registered_task_with_its_countdown(monkeypatch):
    sent = []
    monkeypatch.setattr(
        record, "apply_async", lambda args, kwargs, **options: sent.append((args, kwargs, options))
    )
    send_now("tests.core.record", 5, countdown=2.5, flag=True)
    assert sent == [((5,), {"flag": True}, {"countdown": 2.5})]


def test_a_task_unknown_in_this_process_is_sent_by_name(monkeypatch):
    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, **options: sent.append((name, options)))
    send_now("elsewhere.only", 1, countdown=None)
    assert sent == [("elsewhere.only", {"args": (1,), "kwargs": {}, "countdown": None})]


def test_every_thread_sends_through_the_project_app():
    """core names no Celery app: it uses the current one, which config/celery.py makes the
    default of every thread (a threaded server's request, the browser tests' live server),
    not only of the thread that imported it."""
    seen = []

    def look() -> None:
        seen.append((current_app._get_current_object(), tasks_run_inline()))

    thread = threading.Thread(target=look)
    thread.start()
    thread.join()
    assert seen == [(app, True)]
