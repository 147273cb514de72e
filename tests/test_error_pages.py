"""The 404, 403 and 500 pages: French, in the site's design; the API keeps its JSON 404;
the 500 page renders with no request at all."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.views.defaults import server_error

from federation.models import User

pytestmark = pytest.mark.django_db


def test_a_page_not_found_is_french_and_in_the_design(client):
    response = client.get("/pas-une-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Page introuvable" in html
    assert 'href="/static/core/site.css"' in html
    assert 'href="/compte/connexion/"' in html  # the header, as on every page


def test_a_page_not_found_in_english_on_request(client):
    response = client.get("/pas-une-page/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Page not found" in response.content.decode()


def test_the_api_keeps_its_json_not_found(client):
    response = client.get("/api/pas-une-operation/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["errors"][0]["code"] == "not_found"


def test_a_refusal_is_a_french_page_that_reveals_nothing(client, registry, declare_tournament):
    tournament = declare_tournament()  # club 101's
    User.objects.create_user(username="other", password="x")
    client.post("/compte/connexion/", {"username": "other", "password": "x"})
    response = client.get(f"/tournois/{tournament.pk}/resultats/")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Accès refusé" in html
    assert "Votre compte ne peut pas ouvrir cette page" in html
    assert tournament.name not in html


def test_the_server_error_page_needs_no_request():
    html = render_to_string("500.html")
    assert "Erreur du serveur" in html
    assert '<html lang="fr">' in html
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Erreur du serveur" in response.content.decode()
