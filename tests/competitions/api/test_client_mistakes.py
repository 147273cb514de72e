"""A client's mistake is a 400 located on its field, never a 500."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

DECLARATION = {
    "name": "Tournoi de la Saint-Martin",
    "date": "2026-11-11",
    "venue": "Salle des fêtes, Lyon",
    "format": "individual",
    "organizer_kind": "club",
    "arbiter_licence_number": 1002,
}


def fields_of(response) -> set[str]:
    return {error["field"] for error in response.json()["errors"]}


def test_a_declaration_without_organizer_number_is_a_located_400(api, registry):
    api.force_authenticate(registry.users["club_manager"])
    response = api.post("/api/tournaments/", DECLARATION, format="json")
    assert response.status_code == 400, response.content
    assert fields_of(response) == {"organizer_number"}


def declared(api, registry) -> int:
    api.force_authenticate(registry.users["club_manager"])
    response = api.post(
        "/api/tournaments/", {**DECLARATION, "organizer_number": 101}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()["id"]


def document(name: str) -> dict:
    return {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": 1, "tables_of_three": 0, "deals": 20}],
        "entries": [
            {
                "number": 1,
                "place": 1,
                "total": 0,
                "players": [{"licence_number": None, "name": name, "total": 0}],
            }
        ],
    }


def test_a_nul_in_a_players_name_is_a_located_400_in_a_json_body(api, registry):
    pk = declared(api, registry)
    response = api.post(
        f"/api/tournaments/{pk}/results/",
        document("Jean\x00"),
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0] == {
        "field": "entries[0].players[0].name",
        "code": "null_character",
        "message": "This text holds a NUL character (\\u0000), which is not accepted.",
    }


def test_a_nul_in_a_players_name_is_a_located_400_in_a_csv_body(api, registry):
    pk = declared(api, registry)
    csv = (
        "record,session,tables,deals,entry,place,entry_total,name\n"
        "session,1,1,20,,,,\n"
        "player,,,,1,1,0,Jean\x00\n"
    )
    response = api.post(f"/api/tournaments/{pk}/results/", csv.encode(), content_type="text/csv")
    assert response.status_code == 400, response.content
    assert fields_of(response) == {"lines[3]"}


def test_a_nul_in_an_uploaded_file_is_a_400_page(client, api, registry):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    pk = declared(api, registry)
    client.force_login(registry.users["club_manager"])
    upload = SimpleUploadedFile("r.json", json.dumps(document("Jean\x00")).encode())
    response = client.post(f"/tournois/{pk}/resultats/", {"file": upload})
    assert response.status_code == 400
    assert [p.field for p in response.context["problems"]] == ["entries[0].players[0].name"]


DEEP = "[" * 1000 + "]" * 1000


@pytest.mark.parametrize("source", ["", "?source=sheets", "?source=json"])
def test_a_body_nested_1000_levels_deep_is_a_400(api, registry, source):
    pk = declared(api, registry)
    body = '{"format_version": 1, "sessions": ' + DEEP + "}"
    response = api.post(
        f"/api/tournaments/{pk}/results/{source}", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["code"] == "too_deep"


def test_a_deep_object_within_the_recursion_limit_is_refused_too(api, registry):
    body = '{"name": ' + '{"a": ' * 40 + "1" + "}" * 40 + "}"
    api.force_authenticate(registry.users["club_manager"])
    response = api.post("/api/tournaments/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["code"] == "too_deep"


def test_a_deep_uploaded_file_is_a_400_page(client, api, registry):
    from django.core.files.uploadedfile import SimpleUploadedFile

    pk = declared(api, registry)
    client.force_login(registry.users["club_manager"])
    upload = SimpleUploadedFile("r.json", DEEP.encode())
    response = client.post(f"/tournois/{pk}/resultats/", {"file": upload, "source": "sheets"})
    assert response.status_code == 400
    assert [p.code for p in response.context["problems"]] == ["too_deep"]


def test_a_json_body_with_a_duplicate_key_is_refused(api, registry):
    api.force_authenticate(registry.users["club_manager"])
    body = json_text({**DECLARATION, "organizer_number": 101})
    body = body[:-1] + ', "venue": "Ailleurs"}'
    response = api.post("/api/tournaments/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"] == [
        {
            "field": "document",
            "code": "duplicate_key",
            "message": "La clé «\u00a0venue\u00a0» apparaît deux fois dans le même objet "
            "JSON\u00a0; chaque champ n’est donné qu’une fois.",
        }
    ]


def test_a_results_body_with_a_duplicate_key_is_refused(api, registry):
    pk = declared(api, registry)
    body = json_text(document("Jean"))[:-1] + ', "format_version": 1}'
    response = api.post(f"/api/tournaments/{pk}/results/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert [e["code"] for e in response.json()["errors"]] == ["duplicate_key"]


@pytest.mark.parametrize("url", ["/api/tournaments/", "/api/tournaments/{pk}/results/"])
def test_a_json_array_body_is_told_to_be_an_object(api, registry, url):
    pk = declared(api, registry)
    response = api.post(
        url.format(pk=pk), "[]", content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"] == [
        {
            "field": "document",
            "code": "not_an_object",
            "message": "The body must be a JSON object ({…}), not an array.",
        }
    ]


def json_text(value) -> str:
    import json

    return json.dumps(value)
