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


PLAN = "/api/engine/big-prize/plan/"


def test_the_engine_plans_the_final_positions_and_names_the_finalists(api):
    ranking = [{"entry": f"e{i}", "place": i} for i in range(1, 41)]
    response = api.post(PLAN, {"formula": "25_deals", "ranking": ranking}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["finalists"], body["final_positions"], body["final_deals_per_position"]) == (
        20,
        5,
        1,
    )
    assert body["positions"][0][0] == {"table": 1, "N": 1, "S": 6, "E": 11, "W": 16}
    assert body["positions"][1][0] == {"table": 1, "N": 1, "S": 10, "E": 14, "W": 18}
    assert body["finalist_entries"] == [f"e{i}" for i in range(1, 21)]
    sixteen = api.post(PLAN, {"formula": "24_deals", "finalists": 16}, format="json").json()
    assert [t["S"] for t in sixteen["positions"][0]] == [5, 6, 7, 8]
    assert sixteen["finalist_entries"] is None


def test_a_tie_across_the_cut_or_a_bad_row_is_a_precise_400(api):
    ranking = [{"entry": f"e{i}", "place": min(i, 20)} for i in range(1, 41)]
    tied = api.post(PLAN, {"formula": "25_deals", "ranking": ranking}, format="json")
    assert tied.status_code == 400
    assert tied.json()["errors"][0]["code"] == "big_prize_tie_at_cut"
    bad = api.post(
        PLAN, {"formula": "25_deals", "ranking": [{"entry": "x", "place": 0}]}, format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"].startswith("ranking")
