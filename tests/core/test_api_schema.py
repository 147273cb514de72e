"""The OpenAPI schema says what the API answers: every operation documents its
refusals with the one error shape, and the responses it declares are the ones sent."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

ERROR_REF = {"$ref": "#/components/schemas/Error"}


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema: dict):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_every_operation_documents_its_refusals_with_the_error_shape(schema):
    assert schema["components"]["schemas"]["Error"]["required"] == ["errors"]
    for path, method, operation in operations(schema):
        expected = {"400", "401", "403", "404", "429"}
        if method in {"post", "put", "patch", "delete"}:
            expected.add("409")
        if method in {"post", "put", "patch"}:
            expected |= {"413", "415"}
        for code in expected:
            response = operation["responses"].get(code)
            assert response is not None, (method, path, code)
            assert response["description"], (method, path, code)
            schemas = {media: body["schema"] for media, body in response["content"].items()}
            assert "application/json" in schemas, (method, path, code)


def test_a_response_documented_by_its_view_keeps_its_own_description(schema):
    conflict = schema["paths"]["/api/tournaments/"]["post"]["responses"]["409"]
    assert conflict["description"] == "Reference used by a different declaration."
    assert conflict["content"]["application/json"]["schema"] == ERROR_REF


def test_a_regional_rules_version_may_be_unapproved(schema):
    approved_by = schema["components"]["schemas"]["RegionalRulesVersionOut"]["properties"][
        "approved_by"
    ]
    assert approved_by["nullable"] is True


@pytest.mark.parametrize(
    "path", ["/api/pcn/ranking/snapshots/", "/api/pcn/manual-placements/{season}/"]
)
def test_list_answers_are_declared_as_lists(schema, path):
    body = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    assert body["schema"]["type"] == "array"


def test_the_statuses_an_operation_answers_on_success_are_documented(schema):
    """A championship creation answers 201 when it made one, 200 when all existed; a
    recompute is queued (202): each with its body, never paginated."""
    created = schema["paths"]["/api/championships/"]["post"]["responses"]
    for code in ("200", "201"):
        body = created[code]["content"]["application/json"]["schema"]
        assert body == {"type": "array", "items": {"$ref": "#/components/schemas/ChampionshipOut"}}
    queued = schema["paths"]["/api/pcn/recomputes/"]["post"]["responses"]
    assert "200" not in queued
    assert queued["202"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RecomputeRunOut"
    }
    ranked = schema["paths"]["/api/engine/standings/rank/"]["post"]["responses"]["200"]
    assert ranked["content"]["application/json"]["schema"]["type"] == "array"


@pytest.mark.django_db
def test_the_schema_is_the_same_document_in_every_language(client):
    """A client generated in French gets the same class and enum names as one generated in
    English: the served schema does not depend on the reader's language."""
    french = client.get("/api/schema/", HTTP_ACCEPT_LANGUAGE="fr")
    english = client.get("/api/schema/", HTTP_ACCEPT_LANGUAGE="en")
    asked = client.get("/api/schema/?lang=fr", HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == english.status_code == asked.status_code == 200
    assert french.content == english.content == asked.content
    assert french["Content-Language"] == "en"


def untyped_nullables(node, path=""):
    """Every schema object that is nullable but says nothing of what it holds otherwise."""
    if isinstance(node, dict):
        typed = any(key in node for key in ("type", "$ref", "allOf", "oneOf", "anyOf"))
        if node.get("nullable") and not typed:
            yield path
        for key, value in node.items():
            yield from untyped_nullables(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from untyped_nullables(value, f"{path}[{index}]")


def test_every_nullable_value_has_a_type(schema):
    """A nullable without a type becomes ``Any`` in a generated client."""
    assert list(untyped_nullables(schema)) == []
    properties = schema["components"]["schemas"]["TournamentOut"]["properties"]
    assert properties["big_prize"]["allOf"] == [{"$ref": "#/components/schemas/BigPrizeOut"}]
    champion = schema["components"]["schemas"]["ChampionshipOut"]["properties"]
    assert champion["outgoing_champion"]["items"]["type"] == "integer"


RESULTS_UPLOADS = {
    "/api/tournaments/{id}/results/",
    "/api/tournaments/{id}/corrections/",
    "/api/championships/stages/{id}/results/",
}


def test_every_request_body_has_one_media_type(schema):
    """A generated client takes one schema per media type: JSON, but for the uploads of a
    file (the licence file; results, with their `file` property), and the results, which
    are also read as their typed JSON document (competitions/rules/results/schema.py)."""
    bodies = {
        (path, method): list(operation["requestBody"]["content"])
        for path, method, operation in operations(schema)
        if "requestBody" in operation
    }
    assert bodies
    results = RESULTS_UPLOADS | {"/api/tournaments/{id}/results/preview/"}
    two = {path for (path, _), media in bodies.items() if len(media) != 1}
    assert two == results
    multipart = {path for (path, _), media in bodies.items() if media != ["application/json"]}
    assert multipart == results | {"/api/federation/licence-imports/"}
    for path in results:
        content = schema["paths"][path]["post"]["requestBody"]["content"]
        assert sorted(content) == ["application/json", "multipart/form-data"]
        assert content["application/json"]["schema"] != content["multipart/form-data"]["schema"]
        name = content["multipart/form-data"]["schema"]["$ref"].rsplit("/", 1)[1]
        upload = schema["components"]["schemas"][name]
        assert upload["properties"]["file"] == {
            "type": "string",
            "format": "binary",
            "description": upload["properties"]["file"]["description"],
        }
        assert "file" in upload["required"]
