"""Every API refusal speaks French by default and English on request (Accept-Language),
with the same ``field`` and ``code`` either way: a rule's problem (400), a service's
refusal (404, 409) and DRF's own messages."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

IMPOSSIBLE_DEAL = {
    "table_size": 4,
    "contract": "garde",
    "taker": "E",
    "oudlers": 2,
    "attack_points": 100,  # the 78 cards are worth 91 points
}


def test_a_rule_problem_is_french_by_default(api):
    response = api.post("/api/engine/deals/score/", IMPOSSIBLE_DEAL, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "field": "attack_points",
            "code": "points_out_of_range",
            "message": "Les 78 cartes valent 91 points\u00a0: l’attaque ne peut pas en faire 100.",
        }
    ]


def test_a_rule_problem_is_english_on_request(api):
    response = api.post(
        "/api/engine/deals/score/", IMPOSSIBLE_DEAL, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "field": "attack_points",
            "code": "points_out_of_range",
            "message": "The 78 cards are worth 91 points; the attack cannot make 100.0.",
        }
    ]


def test_a_french_message_writes_its_numbers_the_french_way(api):
    deal = {**IMPOSSIBLE_DEAL, "oudlers": 0, "attack_points": 90.5, "table_size": 3}
    response = api.post("/api/engine/deals/score/", deal, format="json")
    (error,) = response.json()["errors"]
    assert error["code"] == "points_too_high_for_oudlers"
    assert "90,5 est impossible" in error["message"]


def test_a_service_refusal_is_french_by_default_and_english_on_request(api, registry):
    api.force_authenticate(registry.users["club_manager"])
    french = api.delete("/api/federation/tokens/nosuchkey/")
    english = api.delete("/api/federation/tokens/nosuchkey/", HTTP_ACCEPT_LANGUAGE="en")
    assert french.status_code == english.status_code == 404
    assert french.json()["errors"] == [
        {
            "field": None,
            "code": "not_found",
            "message": "Cet objet n’existe pas, ou vous n’y avez pas accès.",
        }
    ]
    assert english.json()["errors"] == [
        {"field": None, "code": "not_found", "message": "You have no token 'nosuchkey'."}
    ]


def test_an_api_refusal_written_by_hand_is_translated_too(api, registry):
    api.force_authenticate(registry.users["club_manager"])
    french = api.get("/api/pcn/recomputes/")
    english = api.get("/api/pcn/recomputes/", HTTP_ACCEPT_LANGUAGE="en")
    assert french.status_code == english.status_code == 403
    assert french.json()["errors"][0]["message"] == "Seul le personnel peut suivre les recalculs."
    assert english.json()["errors"][0]["message"] == "Only staff may follow the recomputes."


def test_drf_own_messages_follow_the_language_too(api):
    french = api.get("/api/federation/tokens/")
    english = api.get("/api/federation/tokens/", HTTP_ACCEPT_LANGUAGE="en")
    assert french.status_code == english.status_code == 401
    assert french.json()["errors"][0]["code"] == english.json()["errors"][0]["code"]
    assert french.json()["errors"][0]["message"] != english.json()["errors"][0]["message"]
    assert "authentification" in french.json()["errors"][0]["message"].lower()
