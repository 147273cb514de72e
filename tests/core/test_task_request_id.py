"""A task sent by a request logs that request's id in the real worker that runs it
(core/observability/task_signals.py): sent after the commit, or sent later by the
outbox's sweep when the broker was down during the request. The worker logs JSON lines
(``LOG_FORMAT=json``), read from its log file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from core.models import OutboxMessage
from rankings.models import RecomputeRun, RunStatus
from tests.core.test_outbox import _closed_port_url, broker


@pytest.fixture
def json_worker_logs(monkeypatch):
    """The worker started after this fixture logs JSON lines (it reads the environment)."""
    monkeypatch.setenv("LOG_FORMAT", "json")


def worker_lines(path: Path) -> list[dict]:
    lines = []
    for text in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if text.startswith("{"):
            lines.append(json.loads(text))
    return lines


def task_lines(path: Path, task_name: str) -> list[dict]:
    return [
        line for line in worker_lines(path)
        if line.get("logger") == "fft.task" and line.get("task_name") == task_name
    ]  # fmt: skip


def ask_for_a_recompute(api, registry, request_id: str) -> int:
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post(
        "/api/pcn/recomputes/",
        {"season": "2026-2027", "kind": "full"},
        HTTP_X_REQUEST_ID=request_id,
    )
    assert response.status_code == 202, response.content
    assert response["X-Request-ID"] == request_id
    return response.json()["id"]


@pytest.mark.django_db(transaction=True)
def test_a_task_sent_by_a_request_logs_its_request_id_in_the_worker(
    json_worker_logs, api, registry, celery_worker_process, celery_worker_log, wait_for
):
    run_id = ask_for_a_recompute(api, registry, "rid-recompute-now")
    assert wait_for(lambda: RecomputeRun.objects.get(pk=run_id).status == RunStatus.DONE)
    lines = wait_for(lambda: task_lines(celery_worker_log, "rankings.run_recompute"))
    assert lines, celery_worker_log.read_text()
    (line,) = lines
    assert line["request_id"] == "rid-recompute-now"
    assert line["state"] == "SUCCESS"
    assert line["task_id"]
    assert line["duration_ms"] >= 0
    # Celery's own line about the task, written while it runs, carries it too
    succeeded = [
        entry for entry in worker_lines(celery_worker_log)
        if entry.get("logger") == "celery.app.trace" and entry.get("task_id") == line["task_id"]
    ]  # fmt: skip
    assert succeeded
    assert all(e["request_id"] == "rid-recompute-now" for e in succeeded)


@pytest.mark.django_db(transaction=True)
def test_a_task_the_sweep_sends_later_still_carries_the_request_id(
    json_worker_logs, api, registry, celery_worker_process, celery_worker_log, wait_for
):
    with broker(_closed_port_url()):
        run_id = ask_for_a_recompute(api, registry, "rid-broker-was-down")
    row = OutboxMessage.objects.get()
    assert row.sent_at is None
    assert row.request_id == "rid-broker-was-down"
    call_command("send_outbox")  # outside any request: the row's own id is sent
    assert wait_for(lambda: RecomputeRun.objects.get(pk=run_id).status == RunStatus.DONE)
    lines = wait_for(lambda: task_lines(celery_worker_log, "rankings.run_recompute"))
    assert [line["request_id"] for line in lines] == ["rid-broker-was-down"]
