"""A tournament with a table of 5 through the public API (fasc. 459, « le mort »): 13
players at two tables of 4 and one of 5, results sent as score sheets, homologated; the
5-player game (called king) refused; annulled deals not counted as played."""

from __future__ import annotations

import pytest

from competitions.models import ResultSession
from federation.models import Licence, Player

pytestmark = pytest.mark.django_db

TURN = ["N", "W", "S", "E", "5"]  # the direction of play, the fifth seat after East


def garde(taker):
    return {"contract": "garde", "taker": taker, "oudlers": 2, "attack_points": 51}  # x = 70


def sheet(table, players, deals, position=1):
    return {"session": 1, "position": position, "table": table, "players": players,
            "deals": deals}  # fmt: skip


def thirteen(positions=2):
    """Two positions: the same tables (a simple field), five deals each."""
    sheets = []
    for position in range(1, positions + 1):
        sheets += [
            sheet(1, {"N": 7001, "S": 7002, "E": 7003, "W": 7004}, [garde("N")] * 5, position),
            sheet(2, {"N": 7005, "S": 7006, "E": 7007, "W": 7008}, [garde("S")] * 5, position),
            sheet(
                3,
                {"N": 7009, "S": 7010, "E": 7011, "W": 7012, "5": 7013},
                [{**garde(TURN[(k + 1) % 5]), "sitting_out": TURN[k]} for k in range(5)],
                position,
            ),
        ]
    return {"format_version": 1, "score_sheets": sheets}


@pytest.fixture
def players(registry):
    for i in range(13):
        player = Player.objects.create(
            licence_number=7001 + i, last_name="Joueur", first_name=str(i + 1)
        )
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])


def submit(api, tournament, document):
    return api.post(
        f"/api/tournaments/{tournament.pk}/results/?source=sheets", document, format="json"
    )


def test_a_tournament_with_a_table_of_five_is_submitted_and_homologated(
    api, registry, players, declare_tournament
):
    tournament = declare_tournament()
    response = submit(api, tournament, thirteen())
    assert response.status_code == 201, response.json()
    session = ResultSession.objects.get(revision__tournament=tournament)
    assert (session.tables, session.tables_of_three, session.tables_of_five) == (3, 0, 1)
    assert session.deals == 10

    api.force_authenticate(registry.users["committee_staff"])
    response = api.post(f"/api/tournaments/{tournament.pk}/homologate/")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "homologated"
    api.force_authenticate(None)
    ranking = api.get(f"/api/tournaments/{tournament.pk}/results/").json()["entries"]
    totals = {e["players"][0]["licence_number"]: e["total"] for e in ranking}
    # Each player of the table of 5 took once (+210), sat out once (0), defended three
    # times (-70), in each of the two positions.
    assert [totals[7009 + i] for i in range(5)] == [0] * 5
    assert sum(totals.values()) == 0
    assert len(ranking) == 13


def test_the_mort_out_of_turn_and_the_five_player_game_are_located_400s(
    api, registry, players, declare_tournament
):
    tournament = declare_tournament()
    document = thirteen()
    document["score_sheets"][2]["deals"][2]["sitting_out"] = "N"  # S or 5 after N, W
    response = submit(api, tournament, document)
    assert response.status_code == 400
    assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [
        ("score_sheets[2].deals[2].sitting_out", "sitting_out_out_of_turn")
    ]
    document = thirteen()
    document["score_sheets"][5]["deals"] = [
        {"contract": "garde", "taker": "N", "called_partner": "S", "oudlers": 2,
         "attack_points": 51}
    ]  # fmt: skip
    response = submit(api, tournament, document)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [
        ("score_sheets[5].deals", "five_player_game_not_homologable")
    ]
    assert "ne sont pas homologables" in errors[0]["message"]
    assert not ResultSession.objects.filter(revision__tournament=tournament).exists()


def test_annulled_deals_are_not_counted_and_a_wrong_declared_count_is_located(
    api, registry, players, declare_tournament
):
    tournament = declare_tournament()
    document = thirteen()
    for item in document["score_sheets"][3:]:  # position 2: deal 1 annulled at every table
        item["deals"][0]["annulled"] = True
    document["sessions"] = [{"number": 1, "deals": 10}]
    response = submit(api, tournament, document)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [
        ("sessions[0].deals", "deals_contradict_score_sheets")
    ]
    assert "déclarée en 10 donnes" in errors[0]["message"]
    assert "en montrent 9 jouées" in errors[0]["message"]
    document["sessions"] = [{"number": 1, "deals": 9}]
    response = submit(api, tournament, document)
    assert response.status_code == 201, response.json()
    assert ResultSession.objects.get(revision__tournament=tournament).deals == 9


def test_the_planned_movement_with_a_table_of_five_is_played_and_homologated(
    api, registry, players, declare_tournament
):
    """From the planner to the PCN: 13 players, three positions of the plan with tables of
    5 (2 × 4 + 5), starting number n played by licence 7000 + n, every sheet sent."""
    plan = api.post(
        "/api/engine/movements/plan/",
        {"players": 13, "positions": 3, "tables_of_five": True},
        format="json",
    ).json()
    assert plan["homologable"] is True
    sheets = []
    for position in plan["positions"]:
        for table in position["tables"]:
            seats = {o: 7000 + table[o] for o in "NSEW"}
            if table["fifth"] is None:
                deals = [garde("N")] * 5
            else:
                seats["5"] = 7000 + table["fifth"]
                deals = [{**garde(TURN[(k + 1) % 5]), "sitting_out": TURN[k]} for k in range(5)]
            sheets.append(sheet(table["table"], seats, deals, position["position"]))
    tournament = declare_tournament()
    response = submit(api, tournament, {"format_version": 1, "score_sheets": sheets})
    assert response.status_code == 201, response.json()
    session = ResultSession.objects.get(revision__tournament=tournament)
    assert (session.tables, session.tables_of_three, session.tables_of_five) == (3, 0, 1)
    api.force_authenticate(registry.users["committee_staff"])
    response = api.post(f"/api/tournaments/{tournament.pk}/homologate/")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "homologated"
