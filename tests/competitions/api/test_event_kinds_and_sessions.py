"""Team matches and festivals (chapter 5, *Arbitrage*: the arbiter may play « sauf lors des
championnats officiels, des matches par équipes et des festivals de tarot »), and a
tournament's sessions with their own day and venue (*simultanément sur le même lieu*;
chapter 3 art. 19, a qualifier « sur 2 après-midi »): declared through the API, refused
with a located French 400, judged again at homologation under the season's rulebook."""

from __future__ import annotations

import pytest

from competitions.models import Allocation, DeclaredSession, Tournament
from tests.competitions.api.test_results_homologation import (  # noqa: F401 (fixture)
    TOTALS,
    individual,
    players,
    submit,
)
from tests.competitions.api.test_tournament_declaration import URL, as_role, declaration

pytestmark = pytest.mark.django_db

RULEBOOK_URL = "/api/pcn/rulebooks/2026-2027/"


def errors_of(response) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in response.json()["errors"]]


def message_of(response, field: str) -> str:
    return next(e["message"] for e in response.json()["errors"] if e["field"] == field)


def set_homologation(api, registry, **changes) -> None:
    """Federation staff publish a new version of the season's rulebook."""
    api.force_authenticate(registry.users["federation_staff"])
    data = api.get(RULEBOOK_URL).json()["rulebook"]
    data["homologation"].update(changes)
    response = api.put(RULEBOOK_URL, {"rulebook": data}, format="json")
    assert response.status_code == 200, response.json()


# Kinds of event


@pytest.mark.parametrize(
    ("kind", "format"),
    [("team_match", "duo"), ("team_match", "team4"), ("festival", "individual")],
)
def test_a_team_match_or_a_festival_is_declared_and_read_back(api, registry, kind, format):
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(event_kind=kind, format=format), format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["event_kind"] == kind
    assert Tournament.objects.get().event_kind == kind
    api.force_authenticate(None)
    listed = api.get(URL, {"event_kind": kind}).json()
    assert [t["id"] for t in listed["results"]] == [response.json()["id"]]
    assert api.get(URL, {"event_kind": "free_tournament"}).json()["count"] == 0


def test_a_declaration_without_a_kind_is_a_free_tournament(api, registry):
    response = as_role(api, registry, "club_manager").post(URL, declaration(), format="json")
    assert response.status_code == 201
    assert response.json()["event_kind"] == "free_tournament"
    assert response.json()["sessions"] == []


@pytest.mark.parametrize(
    ("kind", "code", "words"),
    [
        ("team_match", "arbiter_plays_in_team_match", "match par équipes"),
        ("festival", "arbiter_plays_in_festival", "tournoi de festival"),
    ],
)
def test_an_arbiter_announced_playing_a_team_match_or_festival_is_refused(
    api, registry, kind, code, words
):
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(event_kind=kind, format="duo", arbiter_plays=True), format="json"
    )
    assert response.status_code == 400
    assert errors_of(response) == [("arbiter_plays", code)]
    message = message_of(response, "arbiter_plays")
    assert message.startswith("L’arbitre ne peut pas jouer dans un " + words)
    assert "sauf lors des championnats officiels" in message
    assert not Tournament.objects.exists()


def test_the_arbiter_still_plays_a_free_tournament(api, registry):
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(arbiter_plays=True), format="json"
    )
    assert response.status_code == 201, response.json()


def test_a_team_match_is_played_by_teams(api, registry):
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(event_kind="team_match", format="individual"), format="json"
    )
    assert response.status_code == 400
    assert errors_of(response) == [("format", "team_match_format")]
    assert message_of(response, "format").startswith("Un match par équipes se joue par équipes")


def test_an_unknown_kind_is_a_400_on_its_field(api, registry):
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(event_kind="official_championship"), format="json"
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["event_kind"]


def test_the_season_decides_which_formats_a_team_match_is_played_in(api, registry):
    set_homologation(api, registry, team_match_formats=["individual", "duo", "team4"])
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(event_kind="team_match", format="individual"), format="json"
    )
    assert response.status_code == 201, response.json()


# Declared sessions


def two_sessions(second_date="2026-11-11", second_venue=""):
    return [
        {"date": "2026-11-11", "venue": "Salle des fêtes, Lyon"},
        {"date": second_date, "venue": second_venue},
    ]


def test_sessions_on_the_tournament_s_day_and_venue_are_stored_and_shown(api, registry):
    response = as_role(api, registry, "club_manager").post(
        URL,
        declaration(
            planned_sessions=None, sessions=two_sessions(second_venue="salle des  fêtes, LYON")
        ),
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["planned_sessions"] == 2  # as many as listed
    assert body["sessions"] == [
        {"number": 1, "date": "2026-11-11", "venue": "Salle des fêtes, Lyon"},
        {"number": 2, "date": "2026-11-11", "venue": "salle des  fêtes, LYON"},
    ]
    assert DeclaredSession.objects.count() == 2


def test_declaring_the_same_sessions_again_is_idempotent_and_other_sessions_conflict(api, registry):
    client = as_role(api, registry, "club_manager")
    body = declaration(reference="SM-1", sessions=two_sessions())
    assert client.post(URL, body, format="json").status_code == 201
    assert client.post(URL, body, format="json").status_code == 200
    blank = declaration(reference="SM-1", sessions=[{"date": "2026-11-11"}] * 2)
    assert client.post(URL, blank, format="json").status_code == 200  # blank: the same venue
    spelt = declaration(
        reference="SM-1", sessions=two_sessions(second_venue="salle des fêtes, lyon")
    )
    assert client.post(URL, spelt, format="json").status_code == 409  # written otherwise
    without = declaration(reference="SM-1")
    assert client.post(URL, without, format="json").status_code == 409
    assert DeclaredSession.objects.count() == 2


@pytest.mark.parametrize(
    ("sessions", "expected", "words"),
    [
        (
            two_sessions(second_date="2026-11-12"),
            [("sessions[1].date", "several_days_not_allowed")],
            "La séance 2 est déclarée le 12/11/2026, un autre jour que la première séance",
        ),
        (
            two_sessions(second_venue="Villeurbanne, salle Molière"),
            [("sessions[1].venue", "session_at_another_venue")],
            "La séance 2 est déclarée à «\u00a0Villeurbanne, salle Molière\u00a0»",
        ),
        (
            two_sessions(second_date="2026-11-10"),
            [("sessions[1].date", "session_before_previous")],
            "La séance 2 est déclarée le 10/11/2026, avant la séance 1",
        ),
        (
            [{"date": "2026-11-12", "venue": ""}, {"date": "2026-11-12"}],
            [("sessions[0].date", "first_session_not_on_date")],
            "La séance 1 est déclarée le 12/11/2026\u00a0: la date du tournoi (11/11/2026)",
        ),
        (
            [{"date": "2026-11-11", "venue": "Grenoble"}, {"date": "2026-11-11"}],
            [
                ("sessions[0].venue", "first_session_not_at_venue"),
                ("sessions[1].venue", "session_at_another_venue"),
            ],
            "La séance 1 est déclarée à «\u00a0Grenoble\u00a0»",
        ),
        (
            [*two_sessions(), {"date": "2026-11-11"}],
            [("sessions", "sessions_count_mismatch")],
            "3 séances sont déclarées, mais le tournoi en prévoit 2",
        ),
    ],
)
def test_sessions_that_break_a_condition_are_a_located_french_400(
    api, registry, sessions, expected, words
):
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(sessions=sessions), format="json"
    )
    assert response.status_code == 400, response.json()
    assert errors_of(response) == expected
    assert message_of(response, expected[0][0]).startswith(words)
    assert not Tournament.objects.exists()


def test_a_session_outside_the_season_is_refused(api, registry):
    response = as_role(api, registry, "club_manager").post(
        URL,
        declaration(date="2027-06-30", sessions=[{"date": "2027-06-30"}, {"date": "2027-07-01"}]),
        format="json",
    )
    assert response.status_code == 400
    assert ("sessions[1].date", "session_outside_season") in errors_of(response)


def test_the_season_lets_festivals_span_days_and_venues(api, registry):
    set_homologation(
        api, registry, several_days_in=["festival", "official_championship"],
        several_venues_in=["festival"],
    )  # fmt: skip
    client = as_role(api, registry, "club_manager")
    spread = declaration(
        event_kind="festival", sessions=two_sessions("2026-11-12", "Villeurbanne, salle Molière")
    )
    response = client.post(URL, spread, format="json")
    assert response.status_code == 201, response.json()
    assert [s["date"] for s in response.json()["sessions"]] == ["2026-11-11", "2026-11-12"]
    free = declaration(sessions=two_sessions("2026-11-12"))
    assert errors_of(client.post(URL, free, format="json")) == [
        ("sessions[1].date", "several_days_not_allowed")
    ]


# Permission: the new fields change nobody's scope


@pytest.mark.parametrize("role", ["club_manager", "committee_staff", "zone_staff"])
def test_a_festival_of_another_committee_s_club_is_refused(api, registry, role):
    response = as_role(api, registry, role).post(
        URL,
        declaration(organizer_number=201, event_kind="festival", sessions=two_sessions()),
        format="json",
    )
    assert response.status_code == 403
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("role", ["player", "arbiter"])
def test_a_person_without_an_organiser_declares_no_festival(api, registry, role):
    response = as_role(api, registry, role).post(
        URL, declaration(event_kind="festival"), format="json"
    )
    assert response.status_code == 403


# Homologation judges the declaration again, under the rulebook then in force


@pytest.fixture
def festival(request, api, registry):
    """A festival tournament whose results name its arbiter (1002) among the players,
    submitted while the season let arbiters play festivals."""
    request.getfixturevalue("players")  # twelve players licensed in club 101
    set_homologation(api, registry, arbiter_may_not_play_in=["official_championship", "team_match"])
    client = as_role(api, registry, "club_manager")
    response = client.post(
        URL, declaration(date="2026-12-05", event_kind="festival", planned_sessions=1),
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    tournament = Tournament.objects.get(pk=response.json()["id"])
    document = individual(TOTALS)
    document["entries"][0]["players"][0].update(licence_number=1002, name="Lefèvre Jérôme")
    assert submit(client, tournament, document).status_code == 201
    return tournament, document


def test_results_where_the_arbiter_plays_a_festival_are_refused(api, registry, festival):
    tournament, document = festival
    set_homologation(
        api, registry,
        arbiter_may_not_play_in=["official_championship", "team_match", "festival"],
    )  # fmt: skip
    api.force_authenticate(registry.users["committee_staff"])
    response = api.post(f"/api/tournaments/{tournament.pk}/homologate/")
    assert response.status_code == 400, response.json()
    assert ("arbiter_plays", "arbiter_plays_in_festival") in errors_of(response)
    assert Tournament.objects.get(pk=tournament.pk).status == "results_submitted"
    assert not Allocation.objects.filter(tournament=tournament).exists()
    document["entries"][0]["players"][0]["name"] = "Jérôme Lefèvre"  # a new revision
    as_role(api, registry, "club_manager")
    refused = submit(api, tournament, document)
    assert refused.status_code == 400
    assert ("arbiter_plays", "arbiter_plays_in_festival") in errors_of(refused)


@pytest.mark.usefixtures("players")
def test_a_tournament_over_two_days_is_homologated_only_while_the_season_allows_it(api, registry):
    set_homologation(api, registry, several_days_in=["official_championship", "festival"])
    client = as_role(api, registry, "club_manager")
    response = client.post(
        URL,
        declaration(
            date="2026-12-05", event_kind="festival",
            sessions=[{"date": "2026-12-05"}, {"date": "2026-12-06"}],
        ),
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    tournament = Tournament.objects.get(pk=response.json()["id"])
    document = individual(TOTALS)
    assert submit(client, tournament, document).status_code == 201
    set_homologation(api, registry, several_days_in=["official_championship"])
    api.force_authenticate(registry.users["committee_staff"])
    response = api.post(f"/api/tournaments/{tournament.pk}/homologate/")
    assert response.status_code == 400, response.json()
    assert ("days", "several_days_not_allowed_here") in errors_of(response)
    assert "Les séances sont déclarées sur 2 jours" in message_of(response, "days")
    set_homologation(api, registry, several_days_in=["official_championship", "festival"])
    api.force_authenticate(registry.users["committee_staff"])
    response = api.post(f"/api/tournaments/{tournament.pk}/homologate/")
    assert response.status_code == 200, response.json()
    assert Allocation.objects.filter(tournament=tournament).exists()


# The dry-run check of a plan (nothing stored)

PLAN = {
    "organizer": "affiliated_club",
    "format": "individual",
    "arbiter_is_official": True,
    "entries": 16,
    "table_sizes": [4, 4, 4, 4],
}


def test_a_plan_over_two_days_or_places_or_a_team_match_is_checked(api, registry):
    client = as_role(api, registry, "club_manager")
    check = "/api/tournaments/homologation-check/"

    def codes(**changes):
        response = client.post(check, {**PLAN, **changes}, format="json")
        assert response.status_code == 200, response.json()
        return {(p["field"], p["code"]) for p in response.json()["problems"]}

    assert codes() == set()
    assert codes(days=2) == {("days", "several_days_not_allowed_here")}
    assert codes(days=2, event_kind="official_championship") == set()
    assert codes(venues=2) == {("single_venue", "not_single_venue")}
    assert codes(event_kind="team_match") == {("format", "team_match_format")}
    assert codes(event_kind="festival", arbiter_plays=True) == {
        ("arbiter_plays", "arbiter_plays_in_festival")
    }
