"""Ten clients declaring the same tournament with the same `reference` at once, on
PostgreSQL with real threads and their own connections: one tournament is created
and every client gets it (201 once, 200 for the others), never a 500."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from competitions.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

DECLARATION = {
    "name": "Tournoi de la Saint-Martin",
    "date": "2026-11-11",
    "venue": "Salle des fêtes, Lyon",
    "format": "individual",
    "organizer_kind": "club",
    "organizer_number": 101,
    "arbiter_licence_number": 1002,
    "planned_sessions": 2,
    "reference": "CLUB101-2026-11",
}


def test_parallel_declarations_with_one_reference_answer_the_one_tournament(registry):
    if connection.vendor != "postgresql":
        pytest.fail("This test needs PostgreSQL: run the suite with DATABASE_URL=postgres://…")
    manager = registry.users["club_manager"]
    clients = 10
    start = threading.Barrier(clients)
    answers: list[tuple[int, dict]] = []
    errors: list[BaseException] = []

    def declare():
        try:
            client = APIClient()
            client.force_authenticate(manager)
            start.wait(30)
            response = client.post("/api/tournaments/", DECLARATION, format="json")
            answers.append((response.status_code, response.json()))
        except BaseException as exc:  # reported to the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=declare) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] * (clients - 1) + [201], answers
    assert len({body["id"] for _, body in answers}) == 1
    assert Tournament.objects.filter(reference="CLUB101-2026-11").count() == 1
