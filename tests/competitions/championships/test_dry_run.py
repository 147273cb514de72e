"""Dry-run checks: each endpoint with a valid and an invalid case, a
precise 400 for bad input, the caller's scope, and the database unchanged."""

from __future__ import annotations

import datetime as dt

import pytest
from django.apps import apps

pytestmark = pytest.mark.django_db


def snapshot() -> dict[str, int]:
    """Rows of every table: a dry run must leave each count as it found it."""
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


@pytest.fixture
def unchanged(db):
    """Call ``unchanged()`` before the dry runs; it asserts the database is the same after."""
    state: dict[str, dict[str, int]] = {}

    def start() -> None:
        state["before"] = snapshot()

    yield start
    if "before" in state:
        assert snapshot() == state["before"]


def codes(body: dict) -> set[tuple[str | None, str]]:
    return {(p["field"], p["code"]) for p in body["problems"]}


def error_fields(response) -> set[tuple[str | None, str]]:
    assert response.status_code == 400, response.json()
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


# ---------------------------------------------------------------------------------------------
# Interclubs team composition


def check_team(api, championship, numbers):
    return api.post(
        f"/api/championships/{championship}/check-team/",
        {"licence_numbers": numbers},
        format="json",
    )


def test_an_allowed_team_shows_its_series_and_product(
    api, as_user, championships, players, series, unchanged
):
    team = players(4, 101)
    for n, s in zip(team, (2, 2, 3, 4), strict=True):
        series[n] = s
    unchanged()
    response = check_team(as_user("club_manager"), championships["interclubs"], team)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["valid"] is True
    assert body["product"] == 48
    assert body["exception"] is False
    assert [p["series"] for p in body["players"]] == [2, 2, 3, 4]
    assert {p["club"] for p in body["players"]} == {101}


def test_an_exception_is_named(api, as_user, championships, players, series):
    team = players(4, 101)
    for n, s in zip(team, (1, 1, 4, 4), strict=True):
        series[n] = s
    body = check_team(as_user("club_manager"), championships["interclubs"], team).json()
    assert (body["valid"], body["product"], body["exception"]) == (True, 16, True)


def test_a_refused_team_says_why_in_french(api, as_user, championships, players, series, unchanged):
    team = players(4, 101)
    for n, s in zip(team, (1, 2, 2, 4), strict=True):
        series[n] = s
    unchanged()
    response = check_team(as_user("committee_staff"), championships["interclubs"], team)
    body = response.json()
    assert response.status_code == 200
    assert body["valid"] is False
    assert body["product"] == 16
    (problem,) = body["problems"]
    assert (problem["field"], problem["code"]) == ("licence_numbers", "composition_not_allowed")
    assert "produit des quatre séries" in problem["message"]


def test_a_team_of_two_clubs_and_an_unknown_player(api, as_user, championships, players, series):
    team = players(3, 101) + players(1, 102)
    for n in team:
        series[n] = 4
    body = check_team(as_user("club_manager"), championships["interclubs"], team).json()
    assert body["valid"] is False
    assert "mixed_clubs" in {code for _f, code in codes(body)}
    body = check_team(
        as_user("club_manager"), championships["interclubs"], [*team[:3], 999999]
    ).json()
    assert codes(body) == {("licence_numbers[3]", "unknown_player")}


def test_bad_team_input_is_a_400_naming_the_field(api, as_user, championships, players):
    team = players(4, 101)
    club = as_user("club_manager")
    assert error_fields(check_team(club, championships["interclubs"], team[:3])) == {
        ("licence_numbers", "min_length")
    }
    assert error_fields(check_team(club, championships["interclubs"], [*team[:3], team[0]])) == {
        ("licence_numbers", "duplicate_player")
    }
    assert error_fields(check_team(club, championships["interclubs"], [*team[:3], "x"])) == {
        ("licence_numbers[3]", "invalid")
    }
    assert error_fields(check_team(club, championships["duo"], team)) == {
        ("championship", "not_interclubs")
    }


def test_checking_a_team_needs_a_signed_in_caller(api, championships, players):
    api.force_authenticate(None)
    response = check_team(api, championships["interclubs"], players(4, 101))
    assert response.status_code in (401, 403)


# ---------------------------------------------------------------------------------------------
# Eligibility for a stage


def check_entry(api, stage, numbers):
    return api.post(
        f"/api/championships/stages/{stage}/check-entry/",
        {"licence_numbers": numbers},
        format="json",
    )


def test_an_eligible_player(api, as_user, finals, new_player, unchanged):
    player = new_player(101, born=dt.date(1950, 1, 1))
    unchanged()
    response = check_entry(as_user("club_manager"), finals["seniors"], [player.licence_number])
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "eligible": True,
        "stage": finals["seniors"],
        "problems": [],
        "private_reasons_hidden": [],
    }


def test_in_scope_the_full_reason(api, as_user, finals, new_player, unchanged):
    player = new_player(101, born=dt.date(1990, 1, 1))
    unchanged()
    response = check_entry(as_user("committee_staff"), finals["seniors"], [player.licence_number])
    body = response.json()
    assert body["eligible"] is False
    assert codes(body) == {("licence_numbers[0].birth_date", "too_young")}
    assert body["private_reasons_hidden"] == []


def test_out_of_scope_the_kind_of_reason_only(api, registry, as_user, finals, unchanged):
    """Player 2002: committee 2, born 1999-08-30; the club manager is club 101's."""
    unchanged()
    response = check_entry(as_user("club_manager"), finals["seniors"], [2002])
    body = response.json()
    assert body["eligible"] is False
    assert ("licence_numbers[0]", "not_eligible_age") in codes(body)
    assert ("licence_numbers[0].licence", "wrong_committee") in codes(body)
    assert body["private_reasons_hidden"] == [2002]
    message = next(p["message"] for p in body["problems"] if p["code"] == "not_eligible_age")
    assert message == "Licence 2002\xa0: non admissible en raison de l’âge."
    text = response.content.decode()
    assert "1999" not in text
    assert "2002@example.org" not in text
    assert "birth_date" not in text
    # federation staff see the full reason
    for who in ("federation_staff",):
        body = check_entry(as_user(who), finals["seniors"], [2002]).json()
        assert ("licence_numbers[0].birth_date", "too_young") in codes(body), who
        assert body["private_reasons_hidden"] == []


def test_bad_entry_input_is_a_400_naming_the_field(api, as_user, finals):
    club = as_user("club_manager")
    assert error_fields(check_entry(club, finals["seniors"], [])) == {
        ("licence_numbers", "min_length")
    }
    assert error_fields(check_entry(club, finals["seniors"], [1001, 1001])) == {
        ("licence_numbers", "duplicate_player")
    }
    assert check_entry(club, 999999, [1001]).status_code == 404


def test_only_those_who_may_enter_players_check_an_entry(api, registry, as_user, finals):
    """Committee 1's regional final: its clubs' managers and its staff; not a player, nor
    anyone signed out, whatever they send."""
    for who in ("player", "arbiter"):
        assert check_entry(as_user(who), finals["seniors"], [1001]).status_code == 403, who
    api.force_authenticate(None)
    assert check_entry(api, finals["seniors"], [1001]).status_code in (401, 403)


def test_an_unknown_player_and_a_wrong_team_size(api, as_user, finals):
    club = as_user("club_manager")
    body = check_entry(club, finals["individual"], [999999]).json()
    assert codes(body) == {("licence_numbers[0]", "unknown_player")}
    body = check_entry(club, finals["individual"], [1001, 1002]).json()
    assert ("licence_numbers", "wrong_team_size") in codes(body)


# ---------------------------------------------------------------------------------------------
# Homologation of a declared tournament


def check_tournament(api, tournament, body=None):
    return api.post(
        f"/api/tournaments/{tournament.pk}/homologation-check/", body or {}, format="json"
    )


def test_a_declared_tournament_with_planned_figures(api, registry, declare_tournament, unchanged):
    tournament = declare_tournament()
    unchanged()
    response = check_tournament(api, tournament, {"entries": 16, "tables": 4})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["homologable"] is True
    assert body["based_on"] == "plan"
    assert body["facts"]["organizer"] == "affiliated_club"
    assert body["facts"]["table_sizes"] == [4, 4, 4, 4]
    body = check_tournament(api, tournament, {"entries": 8, "tables": 2}).json()
    assert body["homologable"] is False
    assert codes(body) == {("entries", "below_minimum_participation")}


def test_a_declared_tournament_without_results_or_figures(api, declare_tournament):
    tournament = declare_tournament()
    response = check_tournament(api, tournament)
    assert error_fields(response) == {("entries", "no_results_to_check")}
    assert "Aucun résultat" in response.json()["errors"][0]["message"]
    assert error_fields(check_tournament(api, tournament, {"entries": 12})) == {
        ("tables", "figures_incomplete")
    }
    assert error_fields(
        check_tournament(api, tournament, {"entries": 12, "tables": 3, "tables_of_three": 4})
    ) == {("tables_of_three", "more_tables_of_three_than_tables")}


def test_only_the_organisers_managers_and_staff_above_check_a_tournament(
    api, registry, as_user, declare_tournament
):
    tournament = declare_tournament()
    for who in ("committee_staff", "zone_staff", "federation_staff"):
        response = check_tournament(as_user(who), tournament, {"entries": 16, "tables": 4})
        assert response.status_code == 200, who
    for who in ("player", "arbiter"):
        response = check_tournament(as_user(who), tournament, {"entries": 16, "tables": 4})
        assert response.status_code == 403, who
        assert "entries" not in response.content.decode()


# ---------------------------------------------------------------------------------------------
# Homologation of a plan


PLAN = {
    "organizer": "affiliated_club",
    "format": "individual",
    "arbiter_is_official": True,
    "entries": 16,
    "table_sizes": [4, 4, 4, 4],
}


def test_a_plan_is_checked_by_any_signed_in_caller(api, registry, as_user, unchanged):
    api.force_authenticate(None)
    assert api.post("/api/tournaments/homologation-check/", PLAN, format="json").status_code == 401
    as_user("player")
    unchanged()
    response = api.post("/api/tournaments/homologation-check/", PLAN, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["homologable"] is True
    refused = api.post(
        "/api/tournaments/homologation-check/",
        {**PLAN, "organizer": "other", "arbiter_is_official": False, "table_sizes": [5, 4, 4]},
        format="json",
    ).json()
    assert refused["homologable"] is False
    assert codes(refused) == {
        ("organizer", "organizer_not_allowed"),
        ("arbiter_is_official", "arbiter_not_official"),
        ("table_sizes[0]", "table_size_not_homologable"),
    }


def test_a_bad_plan_is_a_400_naming_the_field(api, registry, as_user):
    post = as_user("club_manager").post
    assert error_fields(
        post("/api/tournaments/homologation-check/", {**PLAN, "organizer": "club"}, format="json")
    ) == {("organizer", "invalid_choice")}
    assert error_fields(
        post("/api/tournaments/homologation-check/", {**PLAN, "table_sizes": [4, 6]}, format="json")
    ) == {("table_sizes[1]", "max_value")}
    assert error_fields(
        post("/api/tournaments/homologation-check/", {**PLAN, "season": "1999"}, format="json")
    ) == {("season", "invalid")}


# ---------------------------------------------------------------------------------------------
# The schema


def test_each_dry_run_is_in_the_schema_with_examples(api, registry):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path in (
        "/api/championships/{id}/check-team/",
        "/api/championships/stages/{id}/check-entry/",
        "/api/tournaments/{id}/homologation-check/",
        "/api/tournaments/homologation-check/",
        "/api/tournaments/{id}/results/preview/",
    ):
        operation = schema["paths"][path]["post"]
        request_examples = operation["requestBody"]["content"]["application/json"]["examples"]
        response_examples = operation["responses"]["200"]["content"]["application/json"]["examples"]
        assert request_examples, path
        assert len(response_examples) >= 1, path
        assert operation["responses"]["400"]["content"]["application/json"]["examples"], path


# ---------------------------------------------------------------------------------------------
# The results preview's examples are true


def test_the_preview_examples_are_what_the_preview_answers(
    api, registry, declare_tournament, unchanged
):
    from competitions.api.preview_examples import DOCUMENT, EXAMPLES
    from federation.models import Licence, Player

    for entry in DOCUMENT["entries"]:
        (p,) = entry["players"]
        player = Player.objects.create(
            licence_number=p["licence_number"], last_name=p["name"], first_name=""
        )
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    tournament = declare_tournament()
    unchanged()
    url = f"/api/tournaments/{tournament.pk}/results/preview/"
    response = api.post(url, DOCUMENT, format="json")
    assert response.status_code == 200, response.json()
    shown = EXAMPLES[1].value
    assert response.json()["entries"][:2] == shown["entries"]
    assert response.json()["warnings"] == shown["warnings"]
    wrong = {**DOCUMENT, "entries": [dict(e) for e in DOCUMENT["entries"]]}
    wrong["entries"][3] = {
        **wrong["entries"][3],
        "players": [{**wrong["entries"][3]["players"][0], "licence_number": 7777777}],
    }
    refused = api.post(url, wrong, format="json")
    assert refused.json() == EXAMPLES[2].value
