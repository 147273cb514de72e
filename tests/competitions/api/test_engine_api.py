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


def test_movement_plan_with_personal_sheets(api):
    response = api.post(
        "/api/engine/movements/plan/", {"players": 32, "positions": 5}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["tables"] == 8
    assert len(body["positions"]) == 5
    sheets = body["personal_sheets"]
    assert len(sheets) == 32
    for position in body["positions"]:  # each seat filled once
        seated = [t[o] for t in position["tables"] for o in "NSEW"]
        assert sorted(seated) == list(range(1, 33))
    first = sheets["1"][0]
    assert first == {"position": 1, "table": 1, "orientation": "N"}


def test_movement_with_tables_of_three_and_a_seeded_draw(api):
    body = api.post(
        "/api/engine/movements/plan/", {"players": 23, "positions": 1, "seed": 7}, format="json"
    ).json()
    assert body["vacant_numbers"]
    assert sorted(a["player"] for a in body["seating"]) == sorted(str(k) for k in range(1, 24))


def test_too_many_positions_is_refused_with_the_reason(api):
    response = api.post(
        "/api/engine/movements/plan/", {"players": 32, "positions": 7}, format="json"
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "positions"
    assert "au plus 6" in error["message"]


def test_rank_with_penalty_abandon_and_article_29(api):
    def member(player, total, best, contracts):
        return {"player": player, "total": total, "position_scores": [best, total - best],
                "contracts_made": contracts}  # fmt: skip

    entries = [
        {"entry_id": "A", "members": [member("1", 300, 250, {"garde": 2})]},
        {"entry_id": "B", "members": [member("2", 300, 280, {"garde": 1})]},
        {"entry_id": "C", "members": [member("3", 500, 300, {})],
         "penalties": [{"player": "3", "kind": "slowness", "points": 100, "reason": "lenteur"}]},
        {"entry_id": "D", "members": [member("4", 900, 500, {})], "abandoned": True},
    ]  # fmt: skip
    response = api.post("/api/engine/standings/rank/", {"mode": "championship", "entries": entries},
                        format="json")  # fmt: skip
    assert response.status_code == 200, response.json()
    placings = [(p["entry_id"], p["place"], p["total"]) for p in response.json()]
    assert placings == [("C", 1, 400), ("B", 2, 300), ("A", 3, 300), ("D", 4, 900)]
    assert response.json()[2]["separated_by"] == "best_position_score"


def test_an_impossible_chelem_is_refused_with_its_reason_in_french(api):
    # a prise chelem with 56 points and no oudler cannot have been made: refused, not scored
    deal = {"table_size": 4, "contract": "prise", "taker": "E", "oudlers": 0,
            "attack_points": 56, "chelem_made_by": "attack"}  # fmt: skip
    response = api.post("/api/engine/deals/score/", deal, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("chelem_made_by", "chelem_needs_every_card")
    assert "3 bouts et 91 points, ou 2 bouts et 87 points" in error["message"]
    assert "0 bouts et 56 points est impossible" in error["message"]


def test_a_chelem_against_a_defenders_double_poignee_is_refused_in_french(api):
    # the taker alone cannot beat 12 trumps or more of one defender: 12 + 12 > 21
    deal = {"table_size": 4, "contract": "garde", "taker": "E", "oudlers": 3,
            "attack_points": 91, "poignees": [{"seat": "N", "trumps": 13}],
            "chelem_made_by": "attack"}  # fmt: skip
    response = api.post("/api/engine/deals/score/", deal, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("chelem_made_by", "chelem_against_a_poignee")
    assert "poignées de 13 cartes" in error["message"]
    deal["poignees"] = [{"seat": "N", "trumps": 10}]  # 10 trumps: the taker's 11 beat them
    assert api.post("/api/engine/deals/score/", deal, format="json").status_code == 200


# A table of 5 inside a tournament (fasc. 459): le mort deals and sits out, in turn.
PLAYERS5 = {"N": "1", "S": "2", "E": "3", "W": "4", "5": "5"}
TURN = ["N", "W", "S", "E", "5"]


def test_a_deal_sat_out_by_the_mort(api):
    deal = {"table_size": 4, "contract": "garde", "taker": "5", "oudlers": 2,
            "attack_points": 51, "sitting_out": "N"}  # fmt: skip
    response = api.post("/api/engine/deals/score/", deal, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["marks"] == {"N": 0, "S": -70, "E": -70, "W": -70, "5": 210}
    response = api.post(
        "/api/engine/deals/score/", {**deal, "table_size": 5, "taker": "S"}, format="json"
    )
    assert response.status_code == 400
    assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [
        ("table_size", "sitting_out_deal_not_at_four")
    ]


def test_a_sheet_of_a_table_of_5_with_the_mort_in_turn(api):
    deals = [
        {"sitting_out": TURN[k], "facts": {"table_size": 4, "contract": "garde",
         "taker": TURN[(k + 1) % 5], "oudlers": 2, "attack_points": 51}}
        for k in range(5)
    ]  # fmt: skip
    deals.insert(2, {"sitting_out": "S", "facts": {"table_size": 4, "contract": None}})
    deals.append({"sitting_out": "N", "annulled": True, "marks": dict.fromkeys(TURN, 0)})
    sheet = {"table": 2, "position": 1, "players": PLAYERS5, "deals": deals}
    response = api.post("/api/engine/sheets/total/", sheet, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["table_size"] == 5
    assert body["five_player_game"] is False
    assert body["deals_played"] == 6  # the annulled deal is not played (the passed one is)
    assert body["sitting_out"] == ["N", "W", "S", "S", "E", "5", "N"]
    marks_and_morts = zip(body["deal_marks"], body["sitting_out"], strict=True)
    assert all(marks[mort] == 0 for marks, mort in marks_and_morts)
    # Each player took once (+210) and defended three times (-70): 0 each.
    assert {p["seat"]: p["balance"] for p in body["players"]} == dict.fromkeys(TURN, 0)

    deals[1]["sitting_out"] = "E"
    response = api.post("/api/engine/sheets/total/", sheet, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [
        ("deals[1].sitting_out", "sitting_out_out_of_turn")
    ]
    assert "à tour de rôle" in errors[0]["message"]


FAILED_GARDE_E = {"table_size": 4, "contract": "garde", "taker": "E", "oudlers": 2,
                  "attack_points": 35}  # fmt: skip  # x = -62


@pytest.mark.parametrize(
    ("choice", "marks", "played"),
    [("not_scored", {"N": 0, "S": 0, "E": 0, "W": 0}, 1),
     ("scored", {"N": 62, "S": 62, "E": -186, "W": 62}, 2)],
)  # fmt: skip
def test_a_revoke_in_defence_is_scored_as_the_taker_chose(api, choice, marks, played):
    deals = [
        {"facts": FAILED_GARDE_E, "defence_revoke": {"taker_choice": choice, "by": "N"}},
        {"facts": EXAMPLE_DEALS[0]},
    ]
    response = api.post(
        "/api/engine/sheets/total/",
        {"table": 1, "position": 1, "players": PLAYERS, "deals": deals},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["deal_marks"][0] == marks
    assert body["deals_played"] == played


@pytest.mark.parametrize(
    ("revoke", "field", "code"),
    [({"taker_choice": "scored", "by": "E"}, "deals[0].defence_revoke.by",
      "revoke_not_by_defender"),
     ({"taker_choice": "maybe"}, "deals[0].defence_revoke.taker_choice", "invalid_choice"),
     ({"by": "N"}, "deals[0].defence_revoke.taker_choice", "required")],
)  # fmt: skip
def test_a_bad_revoke_is_a_located_400_in_french(api, revoke, field, code):
    deals = [{"facts": FAILED_GARDE_E, "defence_revoke": revoke}]
    response = api.post(
        "/api/engine/sheets/total/",
        {"table": 1, "position": 1, "players": PLAYERS, "deals": deals},
        format="json",
    )
    assert response.status_code == 400
    errors = {(e["field"], e["code"]): e["message"] for e in response.json()["errors"]}
    assert (field, code) in errors, errors
    if code == "revoke_not_by_defender":
        assert "seule une renonce consommée en défense" in errors[(field, code)]
