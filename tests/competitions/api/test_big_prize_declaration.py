"""A « tournoi à grosse dotation » declared with its formula (chapter 2)."""

import pytest

from tests.competitions.api.test_tournament_declaration import URL, as_role, declaration

pytestmark = pytest.mark.django_db


def test_a_big_prize_tournament_is_declared_with_its_formula(api, registry):
    client = as_role(api, registry, "club_manager")
    made = client.post(
        URL, declaration(big_prize="24_deals", big_prize_finalists=16), format="json"
    )
    assert made.status_code == 201, made.json()
    assert made.json()["big_prize"] == {"formula": "24_deals", "finalists": 16}
    # 25 deals: the text names 20 finalists, the default
    made = client.post(URL, declaration(big_prize="25_deals", name="Grand prix"), format="json")
    assert made.json()["big_prize"] == {"formula": "25_deals", "finalists": 20}
    ordinary = client.post(URL, declaration(name="Ordinaire"), format="json")
    assert ordinary.json()["big_prize"] is None


def test_a_plan_the_text_does_not_give_is_refused_located_in_french(api, registry):
    client = as_role(api, registry, "club_manager")
    refused = client.post(
        URL,
        declaration(big_prize="25_deals", big_prize_finalists=16, format="duo"),
        format="json",
    )
    assert refused.status_code == 400
    errors = {(e["field"], e["code"]): e["message"] for e in refused.json()["errors"]}
    assert set(errors) == {
        ("big_prize.finalists", "big_prize_finalists_not_allowed"),
        ("big_prize.formula", "big_prize_individual_only"),
    }
    assert errors[("big_prize.finalists", "big_prize_finalists_not_allowed")] == (
        "La formule 25_deals fait jouer les 20 meilleurs scores, pas 16."
    )
    unknown = client.post(URL, declaration(big_prize="30_deals"), format="json")
    assert unknown.status_code == 400
    assert unknown.json()["errors"][0]["field"] == "big_prize"
