"""The results documents' published schemas, as the API serves them: the OpenAPI schema's
components and typed bodies with the samples as examples, and the standalone JSON Schemas."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from openapi_schema_validator import OAS30Validator

from competitions.rules.results import schema as shapes

SAMPLES = Path(__file__).resolve().parents[3] / "docs" / "samples"
JSON_SAMPLES = sorted(SAMPLES.glob("*.json"))
RESULTS_BODIES = {
    "/api/tournaments/{id}/results/": "Individual results",
    "/api/tournaments/{id}/results/preview/": "Individual results",
    "/api/championships/stages/{id}/results/": "Individual results",
}


def sample(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def root_of(document: dict) -> shapes.Shape:
    return shapes.SCORE_SHEETS_DOCUMENT if "score_sheets" in document else shapes.RESULTS_DOCUMENT


@pytest.fixture(scope="module")
def served(django_db_blocker) -> dict:
    from django.test import Client

    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_served_schema_holds_every_shape_of_both_documents(served):
    components = served["components"]["schemas"]
    for name, component in shapes.openapi_components().items():
        assert components[name] == component
    assert components["ResultsDocument"]["required"] == ["format_version", "sessions", "entries"]


@pytest.mark.parametrize("path", JSON_SAMPLES, ids=lambda path: path.name)
def test_every_sample_validates_against_the_served_components(served, path):
    document = sample(path)
    root = root_of(document)
    validator = OAS30Validator(
        {**served["components"]["schemas"][root.name], "components": served["components"]}
    )
    assert list(validator.iter_errors(document)) == []


@pytest.mark.parametrize("path", sorted(RESULTS_BODIES))
def test_the_results_operations_take_the_typed_document_with_the_samples(served, path):
    body = served["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"]["oneOf"] == [
        {"$ref": "#/components/schemas/ResultsDocument"},
        {"$ref": "#/components/schemas/ScoreSheetsDocument"},
    ]
    examples = {example["summary"]: example["value"] for example in body["examples"].values()}
    by_file = {
        name: value
        for summary, value in examples.items()
        for name in ("results-individual.json", "results-duo.json", "results-sheets.json")
        if name in summary
    }
    for name, value in by_file.items():
        assert value == sample(SAMPLES / name)
    assert set(by_file) == {"results-individual.json", "results-duo.json", "results-sheets.json"}


def test_a_correction_takes_its_reason_and_the_typed_document(served):
    body = served["paths"]["/api/tournaments/{id}/corrections/"]["post"]["requestBody"]["content"]
    json_body = body["application/json"]
    assert json_body["schema"]["required"] == ["reason", "document"]
    assert json_body["schema"]["properties"]["document"]["oneOf"][0] == {
        "$ref": "#/components/schemas/ResultsDocument"
    }
    (example,) = json_body["examples"].values()
    assert example["value"]["document"] == sample(SAMPLES / "results-individual.json")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "root"),
    [
        ("/api/tournaments/results-schema/", shapes.RESULTS_DOCUMENT),
        ("/api/tournaments/results-schema/sheets/", shapes.SCORE_SHEETS_DOCUMENT),
    ],
)
def test_the_standalone_json_schemas_are_served_and_the_samples_validate(client, url, root):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/schema+json"
    served = json.loads(response.content)
    assert served == shapes.json_schema(root)
    jsonschema.Draft202012Validator.check_schema(served)
    validator = jsonschema.Draft202012Validator(served)
    checked = [path for path in JSON_SAMPLES if root_of(sample(path)) is root]
    assert checked
    for path in checked:
        assert list(validator.iter_errors(sample(path))) == [], path.name
    assert client.head(url).status_code == 200
    for accept in ("application/schema+json", "application/json"):
        assert client.get(url, HTTP_ACCEPT=accept).status_code == 200
