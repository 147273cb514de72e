"""The outbox behind core.tasks.send_on_commit: with the broker unreachable, a committed
write still answers its 2xx and its task waits, unsent, until a sweep or a starting
worker sends it; a real worker then runs it. Real components: the broker is a closed
port (a real connection refusal), then the real Redis."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.management import call_command
from django.db import transaction

from competitions.models import Tournament
from config.celery import app
from core.models import OutboxMessage
from core.tasks import outbox_send, outbox_send_pending, send_on_commit
from federation.models import Licence, Player
from rankings.models import PlayerSeasonTotal, RecomputeRun, RunStatus


def _closed_port_url() -> str:
    """A Redis URL on a local port nobody listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def _reset_connections() -> None:
    from kombu import pools

    pools.reset()
    app._pool = None
    for cached in ("amqp", "control"):
        app.__dict__.pop(cached, None)


@contextmanager
def broker(url: str) -> Iterator[None]:
    """Send through the broker at ``url`` (not eagerly) within this block."""
    overrides = {"CELERY_BROKER_URL": url, "CELERY_TASK_ALWAYS_EAGER": False}
    saved = {key: app.conf.get(key) for key in overrides}
    app.conf.update(overrides)
    _reset_connections()
    try:
        yield
    finally:
        app.conf.update(saved)
        _reset_connections()


@pytest.mark.django_db(transaction=True)
def test_eager_mode_writes_no_outbox_row(registry):
    assert app.conf.task_always_eager
    with transaction.atomic():
        send_on_commit("rankings.refresh_live_ranking", registry.season.pk)
    assert not OutboxMessage.objects.exists()


class Refused(Exception):
    pass


def _send_then_fail(season_id: int) -> None:
    with transaction.atomic():
        send_on_commit("rankings.refresh_live_ranking", season_id)
        assert OutboxMessage.objects.exists()  # written in the caller's transaction
        raise Refused


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_leaves_no_row(registry):
    with broker(_closed_port_url()), pytest.raises(Refused):
        _send_then_fail(registry.season.pk)
    assert not OutboxMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_senders_never_send_one_row_twice(registry):
    with broker(_closed_port_url()):
        send_on_commit("rankings.refresh_live_ranking", registry.season.pk)
    message = OutboxMessage.objects.get()
    # A sender holds the claim: another one (or a sweep) finds nothing to send.
    OutboxMessage.objects.filter(pk=message.pk).update(claimed_until="2999-01-01T00:00Z")
    assert outbox_send(message.pk) == "taken"
    assert outbox_send_pending().sent == 0
    # Sent already: nothing to send either.
    OutboxMessage.objects.filter(pk=message.pk).update(
        claimed_until=None, sent_at="2026-01-01T00:00Z"
    )
    assert outbox_send(message.pk) == "taken"


def _tournament_with_results(api, registry, declare_tournament) -> Tournament:
    for i in range(12):
        player = Player.objects.create(licence_number=5001 + i, last_name=f"N{i}", first_name="P")
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    tournament = declare_tournament()
    totals = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]
    document = {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
        "entries": [
            {"number": i + 1, "place": i + 1, "total": total,
             "players": [{"licence_number": 5001 + i, "name": f"N{i} P", "total": total}]}
            for i, total in enumerate(totals)
        ],
    }  # fmt: skip
    response = api.post(f"/api/tournaments/{tournament.pk}/results/", document, format="json")
    assert response.status_code == 201, response.json()
    return tournament


@pytest.mark.django_db(transaction=True)
def test_homologation_with_the_broker_down_answers_200_then_the_sweep_sends_its_update(
    api, registry, declare_tournament, celery_worker_process, wait_for
):
    tournament = _tournament_with_results(api, registry, declare_tournament)
    api.force_authenticate(registry.users["zone_staff"])
    with broker(_closed_port_url()):
        response = api.post(f"/api/tournaments/{tournament.pk}/homologate/")
        assert response.status_code == 200, response.content
        assert outbox_send_pending().sent == 0  # still down: the sweep sends nothing
    assert Tournament.objects.get(pk=tournament.pk).status == "homologated"
    assert set(OutboxMessage.objects.values_list("task", flat=True)) == {
        "rankings.refresh_season_totals",
        "competitions.email_tournament_decision",  # the club is told, after the commit too
        "competitions.email_tournament_players",  # and the players who chose it
    }
    message = OutboxMessage.objects.get(task="rankings.refresh_season_totals")
    assert message.sent_at is None
    assert message.attempts == 2  # after the commit, then the sweep
    assert "Error" in message.last_error
    assert not PlayerSeasonTotal.objects.exists()
    # The broker is back (the real Redis): the command's sweep sends it, a worker runs it.
    call_command("send_outbox")
    message.refresh_from_db()
    assert message.sent_at is not None
    assert message.last_error == ""
    assert wait_for(lambda: PlayerSeasonTotal.objects.filter(season=registry.season).count() == 12)
    assert outbox_send_pending().sent == 0  # nothing sent twice


@pytest.fixture
def recompute_asked_while_the_broker_is_down(api, registry, transactional_db) -> int:
    api.force_authenticate(registry.users["federation_staff"])
    with broker(_closed_port_url()):
        response = api.post("/api/pcn/recomputes/", {"season": "2026-2027", "kind": "full"})
    assert response.status_code == 202, response.content
    assert OutboxMessage.objects.get().sent_at is None
    return response.json()["id"]


@pytest.mark.django_db(transaction=True)
def test_a_starting_worker_sends_what_the_broker_did_not_take(
    recompute_asked_while_the_broker_is_down, celery_worker_process, wait_for
):
    run_id = recompute_asked_while_the_broker_is_down
    assert wait_for(lambda: RecomputeRun.objects.get(pk=run_id).status == RunStatus.DONE)
    assert OutboxMessage.objects.get().sent_at is not None
    assert RecomputeRun.objects.count() == 1


@pytest.mark.django_db
def test_the_admin_lists_the_unsent_rows(client, registry):
    OutboxMessage.objects.create(task="rankings.refresh_live_ranking", args=[1], last_error="X")
    client.force_login(registry.users["federation_staff"])
    registry.users["federation_staff"].is_superuser = True
    registry.users["federation_staff"].save()
    response = client.get("/admin/core/outboxmessage/?sent_at__isempty=1")
    assert response.status_code == 200
    assert b"rankings.refresh_live_ranking" in response.content
