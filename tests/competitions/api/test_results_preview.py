"""The results API: the preview (places, PCN and PP, nothing stored), names
checked against the registry and confirmed on purpose, unknown licence numbers refused."""

from __future__ import annotations

import copy
import random

import pytest

from competitions.models import Allocation, LicenceNameConfirmation, ResultRevision
from federation.models import Licence, Player
from tests.competitions.rules.results.mistakes import excel_csv
from tests.competitions.rules.results.tournament_builder import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def results():
    return copy.deepcopy(
        play(random.Random(11), players=12, sessions=1, positions=3, deals=2).results_document()
    )


@pytest.fixture
def tournament(registry, results, declare_tournament):
    for entry in results["entries"]:
        for p in entry["players"]:
            if p["licence_number"]:
                player = Player.objects.create(
                    licence_number=p["licence_number"], last_name=p["name"], first_name=""
                )
                Licence.objects.create(
                    player=player, season=registry.season, club=registry.clubs[101]
                )
    return declare_tournament()


def preview(api, tournament, body, **query):
    suffix = "&".join(f"{k}={v}" for k, v in query.items())
    return api.post(
        f"/api/tournaments/{tournament.pk}/results/preview/?{suffix}", body, format="json"
    )


def stored() -> tuple[int, int, int]:
    return (
        ResultRevision.objects.count(),
        Allocation.objects.count(),
        LicenceNameConfirmation.objects.count(),
    )


def test_the_preview_gives_places_and_points_and_stores_nothing(api, tournament, results):
    response = preview(api, tournament, results)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert [e["place"] for e in body["entries"]] == sorted(e["place"] for e in results["entries"])
    winner = body["entries"][0]
    assert winner["place"] == 1
    licensed = [p for e in body["entries"] for p in e["players"] if p["licensed"]]
    assert licensed
    assert winner["players"][0]["pcn"] > 0
    assert max(p["pcn"] for p in licensed) == winner["players"][0]["pcn"]
    assert body["rulebook_version"] >= 1
    assert stored() == (0, 0, 0)


def test_the_preview_reads_a_csv_body_saved_by_french_excel(api, tournament, results):
    response = api.post(
        f"/api/tournaments/{tournament.pk}/results/preview/",
        excel_csv(results).encode("cp1252"),
        content_type="text/csv",
    )
    assert response.status_code == 200, response.json()
    assert len(response.json()["entries"]) == len(results["entries"])
    assert stored() == (0, 0, 0)


def test_an_unknown_licence_number_is_refused_and_an_empty_one_is_not(api, tournament, results):
    player = results["entries"][3]["players"][0]
    player["licence_number"] = 7_777_777
    response = api.post(f"/api/tournaments/{tournament.pk}/results/", results, format="json")
    assert response.status_code == 400
    [problem] = response.json()["errors"]
    assert problem["code"] == "unknown_licence_number"
    assert problem["field"] == "entries[3].players[0].licence_number"
    assert stored() == (0, 0, 0)

    player["licence_number"] = None  # marked as a player without licence: ranked, no points
    response = api.post(f"/api/tournaments/{tournament.pk}/results/", results, format="json")
    assert response.status_code == 201, response.json()
    assert [w["code"] for w in response.json()["warnings"]] == ["no_licence_number"]


def test_a_name_that_is_not_the_registrys_is_refused_until_confirmed_and_recorded(
    api, registry, tournament, results
):
    player = results["entries"][5]["players"][0]
    registry_name = player["name"]
    player["name"] = "MARTIN Luc-Henri"
    response = api.post(f"/api/tournaments/{tournament.pk}/results/", results, format="json")
    assert response.status_code == 400
    [problem] = response.json()["errors"]
    assert problem["code"] == "licence_name_mismatch"
    assert stored() == (0, 0, 0)

    looked = preview(api, tournament, results, confirmed_licences=player["licence_number"])
    assert looked.status_code == 200, looked.json()
    assert looked.json()["confirmations"] == [
        {
            "licence_number": player["licence_number"],
            "name_in_file": "MARTIN Luc-Henri",
            "registry_name": registry_name,
        }
    ]
    assert stored() == (0, 0, 0)

    body = {**results, "confirmed_licences": [player["licence_number"]]}
    response = api.post(f"/api/tournaments/{tournament.pk}/results/", body, format="json")
    assert response.status_code == 201, response.json()
    confirmation = LicenceNameConfirmation.objects.get()
    assert confirmation.revision.number == 1
    assert confirmation.licence_number == player["licence_number"]
    assert (confirmation.name_in_file, confirmation.registry_name) == (
        "MARTIN Luc-Henri",
        registry_name,
    )
    assert confirmation.confirmed_by == registry.users["club_manager"]
    assert confirmation.confirmed_at is not None


def test_a_confirmed_licence_must_be_a_licence_number(api, tournament, results):
    response = preview(api, tournament, {**results, "confirmed_licences": ["abc"]})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "invalid_confirmed_licence"


def test_only_the_organisers_managers_may_preview(api, registry, tournament, results):
    api.force_authenticate(registry.users["player"])
    assert preview(api, tournament, results).status_code == 403


@pytest.mark.parametrize(
    ("hidden", "club", "name_shown"),
    [
        (True, 201, False),  # a player who objected, of a club outside the manager's scope
        (True, 101, True),  # who objected, of the manager's own club: they read the record
        (False, 201, True),  # who did not object: the registry's name is public
        (False, 101, True),
    ],
)
def test_a_name_refusal_never_reveals_a_hidden_players_name(
    api, registry, tournament, results, hidden, club, name_shown
):
    """Club 101's manager sends a wrong name next to the licence number of a player who
    objected to being named: neither the refusal nor the preview names them unless the
    manager may read their record (federation/privacy.py::sees_hidden_record); then, as
    for everyone else, the registry's name. The confirmation stored keeps it (staff)."""
    entry = results["entries"][5]["players"][0]
    number = entry["licence_number"]
    Player.objects.filter(licence_number=number).update(
        last_name="Vérane-Cachée", first_name="Odile", name_hidden=hidden
    )
    Licence.objects.filter(player__licence_number=number).update(club=registry.clubs[club])
    entry["name"] = "MARTIN Luc-Henri"
    response = api.post(f"/api/tournaments/{tournament.pk}/results/", results, format="json")
    assert response.status_code == 400
    [problem] = response.json()["errors"]
    assert problem["code"] == "licence_name_mismatch"
    assert problem["field"] == "entries[5].players[0].licence_number"
    assert ("Vérane" in problem["message"]) is name_shown
    assert ("Odile" in response.content.decode()) is name_shown
    if not name_shown:
        assert "joueur ayant demandé l'anonymat" in problem["message"], problem["message"]
        assert "MARTIN Luc-Henri" in problem["message"]

    looked = preview(api, tournament, results, confirmed_licences=number)
    assert looked.status_code == 200, looked.json()
    assert ("Vérane" in looked.content.decode()) is name_shown
    body = {**results, "confirmed_licences": [number]}
    response = api.post(f"/api/tournaments/{tournament.pk}/results/", body, format="json")
    assert response.status_code == 201, response.json()
    assert ("Odile" in response.content.decode()) is False  # warnings name nobody's record
    assert LicenceNameConfirmation.objects.get().registry_name == "Vérane-Cachée Odile"
