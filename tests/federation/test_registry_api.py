"""Public reads expose only what the federation publishes; the permission matrix of the
registry. The matrix over the whole API (every operation of the schema, every role, objects
inside and outside its scope) is tests/competitions/championships/test_scope_matrix.py."""

import pytest

pytestmark = pytest.mark.django_db

PRIVATE = {"birth_date", "email", "phone"}
ROLES = ["anonymous", "player", "arbiter", "club_manager", "committee_staff", "zone_staff",
         "federation_staff"]  # fmt: skip


def client_for(api, registry, role):
    user = registry.users[role]
    if user is not None:
        api.force_authenticate(user)
    return api


@pytest.mark.parametrize("role", ROLES)
def test_licensee_list_never_carries_private_fields(api, registry, role):
    response = client_for(api, registry, role).get("/api/federation/licensees/")
    assert response.status_code == 200
    rows = response.json()["results"]
    assert {row["licence_number"] for row in rows} == {1001, 1002, 1003, 2001, 2002}
    for row in rows:
        assert not PRIVATE & row.keys()
        assert row["season"] == "2026-2027"


def test_licensee_search_and_filters(api, registry):
    def numbers(query):
        return {
            r["licence_number"]
            for r in api.get(f"/api/federation/licensees/?{query}").json()["results"]
        }

    assert numbers("search=2002") == {2002}
    assert numbers("search=maëlle") == {2002}
    assert numbers("search=le gall") == {2001}
    assert numbers("club=101") == {1001, 1002}
    assert numbers("committee=2") == {2001, 2002}
    assert api.get("/api/federation/licensees/?season=1999-2000").status_code == 404


# Who sees the private fields of player 1001 (club 101, committee 1, zone 1)?
SEES_1001 = {
    "anonymous": False,
    "player": True,  # it is themselves
    "arbiter": False,
    "club_manager": True,
    "committee_staff": True,
    "zone_staff": True,
    "federation_staff": True,
}
# ... and of player 2001 (club 201, committee 2, zone 2)?
SEES_2001 = {**dict.fromkeys(ROLES, False), "federation_staff": True}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("licence", "matrix"), [(1001, SEES_1001), (2001, SEES_2001)])
def test_private_fields_matrix(api, registry, role, licence, matrix):
    response = client_for(api, registry, role).get(f"/api/federation/players/{licence}/")
    assert response.status_code == 200
    body = response.json()
    assert body["licence_number"] == licence
    assert (body.keys() >= PRIVATE) is matrix[role]
    if not matrix[role]:
        assert not PRIVATE & body.keys()


def test_unknown_player_is_404_in_standard_shape(api, registry):
    response = api.get("/api/federation/players/999999/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["field"] is None


@pytest.mark.parametrize("role", ROLES)
def test_registry_is_read_only_through_the_api(api, registry, role):
    response = client_for(api, registry, role).post(
        "/api/federation/clubs/", {"number": 999, "name": "Pirate"}, format="json"
    )
    assert response.status_code == (401 if role == "anonymous" else 405)


def test_me_requires_authentication_and_lists_roles(api, registry):
    assert api.get("/api/federation/me/").status_code == 401
    api.force_authenticate(registry.users["committee_staff"])
    body = api.get("/api/federation/me/").json()
    assert body["roles"] == [
        {"role": "committee_staff", "zone": None, "committee": 1, "club": None}
    ]


def test_token_authentication(api, registry):
    api.credentials(HTTP_AUTHORIZATION=f"Token {registry.token('player')}")
    assert api.get("/api/federation/me/").json()["licence_number"] == 1001
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert api.get("/api/federation/me/").status_code == 401


def test_openapi_schema_generates_without_error_and_validates():
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from openapi_spec_validator import validate

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS._error_cache, list(GENERATOR_STATS._error_cache)
    assert not GENERATOR_STATS._warn_cache, list(GENERATOR_STATS._warn_cache)
    validate(schema)  # raises on an invalid OpenAPI document


def test_openapi_schema_and_docs(api, registry):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/federation/licensees/" in paths
    for path, operations in paths.items():
        for method, operation in operations.items():
            assert operation.get("description"), f"{method.upper()} {path} has no description"
    assert api.get("/api/docs/").status_code == 200


def test_list_endpoints_do_not_grow_queries(api, registry, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        api.get("/api/federation/licensees/")
    with django_assert_max_num_queries(3):
        api.get("/api/federation/clubs/")


def test_licence_import_through_its_url(api, registry):
    from django.core.files.uploadedfile import SimpleUploadedFile

    content = (
        "licence_number;last_name;first_name;birth_date;club_number\n"
        "3001;Hervé;Noëlle;12/05/1958;201\n"
    ).encode()
    api.force_authenticate(registry.users["committee_staff"])  # committee 1: club 201 is outside
    upload = {"season": "2026-2027", "file": SimpleUploadedFile("licences.csv", content)}
    assert (
        api.post("/api/federation/licence-imports/", upload, format="multipart").status_code == 403
    )
    api.force_authenticate(registry.users["federation_staff"])
    upload = {"season": "2026-2027", "file": SimpleUploadedFile("licences.csv", content)}
    response = api.post("/api/federation/licence-imports/", upload, format="multipart")
    assert response.status_code == 201, response.json()
    player = api.get("/api/federation/players/3001/").json()
    assert (player["last_name"], player["first_name"]) == ("Hervé", "Noëlle")


def test_a_former_club_loses_sight_of_a_player_who_left(api, registry):
    """Player 2001 was in club 101 (committee 1) last season and is in club 201 now."""
    from federation.models import Licence

    Licence.objects.filter(player=registry.players[2001], season=registry.previous).update(
        club=registry.clubs[101]
    )
    for role, sees in [("club_manager", False), ("committee_staff", False),
                       ("zone_staff", False), ("federation_staff", True)]:  # fmt: skip
        response = client_for(api, registry, role).get("/api/federation/players/2001/")
        assert response.status_code == 200
        assert (response.json().keys() >= PRIVATE) is sees, role
        assert ("1961" in response.content.decode()) is sees, role
    # A player without a current licence is seen by themself and federation staff only.
    Licence.objects.filter(player=registry.players[1001], season=registry.season).delete()
    for role, sees in [("player", True), ("club_manager", False), ("federation_staff", True)]:
        body = client_for(api, registry, role).get("/api/federation/players/1001/").json()
        assert (body.keys() >= PRIVATE) is sees, role
