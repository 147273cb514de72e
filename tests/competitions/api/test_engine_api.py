"""The engine over HTTP: the chapter 1 example sheet, precise 400s, never a 500."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

EXAMPLE_DEALS = [
    {"table_size": 4, "contract": "garde", "taker": "E", "oudlers": 2, "attack_points": 49,
     "poignees": [{"seat": "E", "trumps": 10}], "petit_au_bout": "attack"},
    {"table_size": 4, "contract": "garde_sans", "taker": "W", "oudlers": 1, "attack_points": 55,
     "petit_au_bout": "defence"},
    {"table_size": 4, "contract": "prise", "taker": "S", "oudlers": 2, "attack_points": 34,
     "poignees": [{"seat": "S", "trumps": 10}], "petit_au_bout": "attack"},
    {"table_size": 4, "contract": "garde", "taker": "N", "oudlers": 0, "attack_points": 67,
     "poignees": [{"seat": "E", "trumps": 10}]},
    {"table_size": 4, "contract": "garde", "taker": "S", "oudlers": 2, "attack_points": 87,
     "poignees": [{"seat": "S", "trumps": 10}], "petit_au_bout": "attack",
     "chelem_announced": True, "chelem_made_by": "attack"},
]  # fmt: skip
PLAYERS = {"N": "DURAND", "S": "DUPONT", "E": "DUBOIS", "W": "DESPRES"}


def test_score_first_example_deal(api):
    response = api.post("/api/engine/deals/score/", EXAMPLE_DEALS[0], format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["marks"] == {"N": -106, "S": -106, "E": 318, "W": -106}
    assert body["breakdown"]["contract_won"] is True
    assert body["breakdown"]["difference"] == 8  # 49 points, 41 needed with 2 oudlers
    assert sum(body["marks"].values()) == 0


def test_example_sheet_over_http(api):
    sheet = {"table": 3, "position": 1, "players": PLAYERS,
             "deals": [{"facts": deal} for deal in EXAMPLE_DEALS]}  # fmt: skip
    response = api.post("/api/engine/sheets/total/", sheet, format="json")
    assert response.status_code == 200, response.json()
    balances = {p["seat"]: p["balance"] for p in response.json()["players"]}
    assert balances == {"N": -446, "S": 1346, "E": -390, "W": -510}


def test_impossible_deal_on_a_sheet_names_the_deal(api):
    deals = [{"facts": deal} for deal in EXAMPLE_DEALS]
    deals[2] = {"facts": {**EXAMPLE_DEALS[2], "attack_points": 95}}
    response = api.post(
        "/api/engine/sheets/total/",
        {"table": 3, "position": 1, "players": PLAYERS, "deals": deals},
        format="json",
    )
    assert response.status_code == 400
    fields = [error["field"] for error in response.json()["errors"]]
    assert any(field.startswith("deals[2]") for field in fields), fields


def test_written_marks_that_do_not_sum_to_zero(api):
    marks = {"N": 10, "S": 10, "E": 10, "W": -20}
    bad = {"N": 10, "S": 10, "E": 10, "W": -10}
    response = api.post(
        "/api/engine/sheets/total/",
        {
            "table": 1,
            "position": 2,
            "players": PLAYERS,
            "deals": [{"marks": marks}, {"marks": bad}],
        },
        format="json",
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(e["field"].startswith("deals[1]") and e["code"] == "marks_do_not_sum_to_zero"
               for e in errors), errors  # fmt: skip


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"oudlers": 4}, "oudlers"),
        ({"contract": "grande"}, "contract"),
        ({"table_size": 6}, "table_size"),
        ({"poignees": [{"seat": "E", "trumps": 11}]}, "poignees"),
        ({"called_partner": "N"}, "called_partner"),
    ],
)
def test_bad_deal_is_a_located_400(api, change, field):
    response = api.post("/api/engine/deals/score/", {**EXAMPLE_DEALS[0], **change}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(field in (e["field"] or "") for e in errors), errors
    assert all(e["message"] for e in errors)


def test_penalty_catalogue(api):
    body = api.get("/api/engine/penalties/").json()
    kinds = {k["kind"] for k in body["kinds"]}
    assert {"late_arrival", "slowness", "score_sheet_lost"} <= kinds
    assert body["schedule"]["late_arrival_points_per_period"] == 100


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    payload=st.fixed_dictionaries(
        {
            "table_size": st.sampled_from([3, 4, 5, 6, "x", None]),
            "contract": st.sampled_from(["prise", "garde", "garde_sans", "garde_contre", None, 7]),
            "taker": st.sampled_from(["N", "S", "E", "W", "5", "Z", None]),
            "oudlers": st.one_of(st.integers(-2, 5), st.none(), st.text(max_size=2)),
            "attack_points": st.one_of(
                st.decimals(-5, 100, places=1), st.none(), st.text(max_size=2)
            ),
        }
    )
)
def test_arbitrary_deal_input_never_500(api, payload):
    response = api.post("/api/engine/deals/score/", payload, format="json")
    assert response.status_code in (200, 400)
    if response.status_code == 200:
        assert sum(response.json()["marks"].values()) == 0
    else:
        assert response.json()["errors"]
