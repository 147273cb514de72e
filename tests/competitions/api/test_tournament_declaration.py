"""Declaring a tournament: who may, what is checked, idempotency by reference."""

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/tournaments/"


def declaration(**overrides):
    return {
        "name": "Tournoi de la Saint-Martin",
        "date": "2026-11-11",
        "venue": "Salle des fêtes, Lyon",
        "format": "individual",
        "organizer_kind": "club",
        "organizer_number": 101,
        "arbiter_licence_number": 1002,
        "planned_sessions": 2,
        **overrides,
    }


def as_role(api, registry, role):
    if registry.users[role] is not None:
        api.force_authenticate(registry.users[role])
    return api


# May each role declare an ordinary tournament of club 101 (committee 1, zone 1)?
DECLARE_101 = {
    "anonymous": 401,
    "player": 403,
    "arbiter": 403,
    "club_manager": 201,
    "committee_staff": 201,
    "zone_staff": 201,
    "federation_staff": 201,
}


@pytest.mark.parametrize(("role", "expected"), DECLARE_101.items())
def test_declare_matrix_for_own_club(api, registry, role, expected):
    response = as_role(api, registry, role).post(URL, declaration(), format="json")
    assert response.status_code == expected, response.json()


@pytest.mark.parametrize("role", ["club_manager", "committee_staff", "zone_staff"])
def test_cannot_declare_for_another_committees_club(api, registry, role):
    response = as_role(api, registry, role).post(
        URL, declaration(organizer_number=201), format="json"
    )
    assert response.status_code == 403


def test_nobody_declares_a_championship_stage_by_itself(api, registry):
    """A stage comes from its championship (test_stage_outside_championship.py)."""
    for role, organiser in (
        ("club_manager", {}),
        ("committee_staff", {"organizer_kind": "committee", "organizer_number": 1}),
    ):
        response = as_role(api, registry, role).post(
            URL, declaration(stage="regional_final", **organiser), format="json"
        )
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == "stage"


def test_declared_tournament_is_public(api, registry):
    as_role(api, registry, "club_manager").post(URL, declaration(), format="json")
    api.force_authenticate(None)
    body = api.get(URL).json()
    assert body["count"] == 1
    tournament = body["results"][0]
    assert tournament["status"] == "declared"
    assert tournament["season"] == "2026-2027"
    assert tournament["organizer"] == {"kind": "club", "number": 101, "name": "Tarot Club de Lyon"}


def test_declaration_problems_are_all_listed(api, registry):
    response = as_role(api, registry, "club_manager").post(
        URL,
        declaration(date="2031-01-01", arbiter_licence_number=1001, organizer_number=999),
        format="json",
    )
    assert response.status_code == 400
    fields = {(e["field"], e["code"]) for e in response.json()["errors"]}
    assert ("date", "no_season") in fields
    assert ("organizer_number", "unknown") in fields
    assert ("arbiter_licence_number", "unknown") not in fields  # 1001 exists...


def test_arbiter_must_be_accredited(api, registry):
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(arbiter_licence_number=1001), format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "not_an_arbiter"


def test_bad_fields_are_a_400_with_the_field(api, registry):
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(format="pairs", date="11/11/2026", planned_sessions=0), format="json"
    )
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert fields == {"format", "date", "planned_sessions"}


def test_declaring_twice_with_a_reference_is_idempotent(api, registry):
    client = as_role(api, registry, "club_manager")
    first = client.post(URL, declaration(reference="CLUB101-2026-11"), format="json")
    second = client.post(URL, declaration(reference="CLUB101-2026-11"), format="json")
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["id"] == second.json()["id"]
    conflict = client.post(
        URL, declaration(reference="CLUB101-2026-11", venue="Ailleurs"), format="json"
    )
    assert conflict.status_code == 409
    assert api.get(URL).json()["count"] == 1


def test_tournament_list_query_count(api, registry, django_assert_max_num_queries):
    client = as_role(api, registry, "federation_staff")
    for number in (101, 102, 201):
        client.post(URL, declaration(organizer_number=number), format="json")
    api.force_authenticate(None)
    with django_assert_max_num_queries(3):
        assert api.get(URL).json()["count"] == 3


def test_the_placements_announced_are_declared(api, registry):
    placements = ["fft_movement", "random", "best_against_best", "random"]
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(placements=placements), format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["placements"] == placements


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        ({"placements": ["best_against_best"]}, [("placements[0]", "no_ranking_yet")]),
        # A random first seating then the FFT movement is allowed; not back to it after.
        ({"placements": ["random", "fft_movement", "random", "fft_movement"]},
         [("placements[3]", "fft_movement_not_resumable")]),
        ({"placements": ["fft_movement", "mitchell"]}, [("placements[1]", "unknown_placement")]),
        ({"format": "duo", "placements": ["fft_movement", "random"]},
         [("placements[1]", "placement_not_allowed")]),
        ({"format": "team4", "placements": ["random", "fft_movement", "best_against_best"]},
         [("placements[2]", "placement_not_allowed")]),
    ],
)  # fmt: skip
def test_a_forbidden_sequence_of_placements_is_a_located_400(api, registry, changes, errors):
    from competitions.models import Tournament

    response = as_role(api, registry, "club_manager").post(
        URL, declaration(**changes), format="json"
    )
    assert response.status_code == 400
    assert [(e["field"], e["code"]) for e in response.json()["errors"]] == errors
    assert not Tournament.objects.exists()


def test_a_placement_is_checked_whoever_declares(api, registry):
    # The check is the service's: outside the caller's scope the refusal is the scope's.
    response = as_role(api, registry, "club_manager").post(
        URL, declaration(organizer_number=201, placements=["fft_movement"]), format="json"
    )
    assert response.status_code == 403
