"""A client's mistake is a 400 located on its field, never a 500 (issue 11)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

DECLARATION = {
    "name": "Tournoi de la Saint-Martin",
    "date": "2026-11-11",
    "venue": "Salle des fêtes, Lyon",
    "format": "individual",
    "organizer_kind": "club",
    "arbiter_licence_number": 1002,
}


def fields_of(response) -> set[str]:
    return {error["field"] for error in response.json()["errors"]}


def test_a_declaration_without_organizer_number_is_a_located_400(api, registry):
    api.force_authenticate(registry.users["club_manager"])
    response = api.post("/api/tournaments/", DECLARATION, format="json")
    assert response.status_code == 400, response.content
    assert fields_of(response) == {"organizer_number"}
