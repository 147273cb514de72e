"""A URL under /api/ that matches no route answers the API's error shape in JSON;
elsewhere Django's own page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_an_unrouted_api_url_is_a_json_404(client):
    response = client.get("/api/championships/not-a-number/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "errors": [
            {
                "field": None,
                "code": "not_found",
                "message": "Cette opération de l’API ou cet objet n’existe pas.",
            }
        ]
    }
    english = client.get("/api/championships/not-a-number/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["errors"][0]["message"] == "No such API operation or object."


def test_an_unrouted_page_is_djangos_404(client):
    response = client.get("/nulle-part/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
