"""Schema-driven fuzzing of every API operation (schemathesis), on PostgreSQL.

Each operation of the OpenAPI schema gets a few requests generated from it, valid
and invalid, sent through the Django WSGI application as one of four callers
(anonymous, a club manager, committee staff, federation staff, with their API
tokens) against the suite's small federation. Every answer must be no 5xx and
must conform to the schema: a documented status, its content type, a body of the
documented shape (errors included: core/http/api_schema.py).

Generated ids rarely name an existing object, so every read is also called on
seeded objects (a tournament, the season's ranking, the registry's own) and its
answer validated the same way; and generated bodies rarely pass every rule, so the
writes whose answers are bodies of their own (a championship created, or found again;
a regional final's rules, approval, entries and withdrawal; a ranking of entries; a
recompute queued) are sent once each with a valid body, in the order a season lives
them, and each answer validated too (2xx bodies and statuses included).

Bounded to stay around a minute: a fixed number of examples per operation, no
shrinking, derandomised so that a failure reproduces. `FUZZ_EXAMPLES=200` runs it
deeper by hand.
"""

from __future__ import annotations

import json
import os

import hypothesis
import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
ROLES = ("anonymous", "club_manager", "committee_staff", "federation_staff")
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def _schema() -> schemathesis.BaseSchema:
    raw = SchemaGenerator().get_schema(request=None, public=True)
    loaded = schemathesis.openapi.from_dict(json.loads(OpenApiJsonRenderer().render(raw)))
    loaded.app = application
    return loaded


schema = _schema()


@pytest.fixture
def in_test_transaction(db):
    """The WSGI application closes the database connection at the start and end of
    each request (Django's request signals): inside the test's transaction that would
    lose it, so those handlers are off while the fuzzer runs, as in Django's test client."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(registry, in_test_transaction) -> dict[str, str]:
    return {role: registry.token(role) for role in ROLES if role != "anonymous"}


@schema.parametrize()
@schema.given(role=st.sampled_from(ROLES))
@hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    # Generated cases only: the schema's request examples (docs/dry-run-checks.md) cannot be
    # combined with `given(role=…)`; each is sent and checked by its endpoint's own tests.
    phases=[hypothesis.Phase.generate],
    suppress_health_check=list(hypothesis.HealthCheck),
)
def test_no_operation_answers_a_5xx_or_outside_its_schema(case, role, tokens):
    headers = {"Authorization": f"Token {tokens[role]}"} if role in tokens else {}
    case.call_and_validate(headers=headers, checks=CHECKS)


@pytest.fixture
def seeded(registry, tokens) -> dict[str, object]:
    """Objects the reads can find: a declared tournament and the season's ranking."""
    from competitions.models import Tournament
    from rankings.season.recompute import full_recompute

    tournament = Tournament.objects.create(
        season=registry.season,
        name="Tournoi de la Saint-Martin",
        date="2026-11-11",
        venue="Lyon",
        format="individual",
        organizer_kind="club",
        organizer_club=registry.clubs[101],
        arbiter=registry.players[1002],
    )
    full_recompute(season=registry.season)
    return {
        "tournaments": tournament.pk,
        "seasons": registry.season.pk,
        "zones": registry.zones[1].pk,
        "committees": registry.committees[1].pk,
        "number": 101,
        "licence_number": 1001,
        "season": registry.season.name,
    }


def _path_parameters(path: str, names: list[str], seeded: dict) -> dict[str, object] | None:
    """Path parameters naming a seeded object, or None if the operation reads none."""
    values: dict[str, object] = {}
    for name in names:
        if name == "id":
            collection = path.split("/{id}")[0].rsplit("/", 1)[-1]
            if collection not in seeded:
                return None
            values[name] = seeded[collection]
        elif name in seeded:
            values[name] = seeded[name]
        else:
            return None
    return values


def test_every_read_of_a_seeded_object_conforms_to_the_schema(seeded, tokens):
    """Generated requests rarely name an existing object: every GET is also called on
    the seeded ones, as each role, and its answer (200 bodies included) validated."""
    called = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() != "GET":
            continue
        names = [p.name for p in operation.path_parameters]
        path_parameters = _path_parameters(operation.path, names, seeded)
        if path_parameters is None:
            continue
        query_names = {p.name for p in operation.query}
        query = {"season": seeded["season"]} if "season" in query_names else {}
        for role in ROLES:
            headers = {"Authorization": f"Token {tokens[role]}"} if role in tokens else {}
            case = operation.Case(path_parameters=path_parameters, query=query)
            response = case.call_and_validate(headers=headers, checks=CHECKS)
            called += response.status_code == 200
    assert called >= 60  # most reads answer a body, not only a refusal


def _call(role: str, tokens: dict, method: str, path: str, expected: int, **parts) -> dict:
    """One request through the schema's operation ``method path`` (its template), sent as
    ``role`` and validated like the generated ones; its JSON body."""
    operation = schema[path][method]
    case = operation.Case(media_type="application/json" if "body" in parts else None, **parts)
    headers = {"Authorization": f"Token {tokens[role]}"} if role in tokens else {}
    response = case.call_and_validate(headers=headers, checks=CHECKS)
    assert response.status_code == expected, (method, path, response.text[:500])
    return response.json()


def test_the_answers_of_writes_that_succeed_conform_to_the_schema(registry, tokens):
    from tests.competitions.championships.rules_documents import valid_rules

    tokens = {**tokens, "zone_staff": registry.token("zone_staff")}
    made = _call("federation_staff", tokens, "POST", "/api/championships/", 201,
                 body={"season": registry.season.name})  # fmt: skip
    again = _call("federation_staff", tokens, "POST", "/api/championships/", 200,
                  body={"season": registry.season.name})  # fmt: skip
    assert again == made  # the championships found again, not created twice
    championship = {c["kind"]: c["id"] for c in made}["individual"]
    regional = _call("committee_staff", tokens, "POST", "/api/championships/{id}/regionals/",
                     201, path_parameters={"id": championship},
                     body={"committee": 1})["id"]  # fmt: skip
    _call("committee_staff", tokens, "POST", "/api/championships/regionals/{id}/rules/", 201,
          path_parameters={"id": regional}, body={"rules": valid_rules("individual")})  # fmt: skip
    approve = "/api/championships/regionals/{id}/rules/{version}/approve/"
    _call("zone_staff", tokens, "POST", approve, 200,
          path_parameters={"id": regional, "version": 1})  # fmt: skip
    stage = _call("committee_staff", tokens, "POST", "/api/championships/{id}/stages/", 201,
                  path_parameters={"id": championship},
                  body={"kind": "regional_final", "date": "2027-03-13", "venue": "Lyon",
                        "arbiter_licence_number": 1002, "committee": 1})["id"]  # fmt: skip
    _call("club_manager", tokens, "POST", "/api/championships/stages/{id}/entries/", 201,
          path_parameters={"id": stage}, body={"licence_numbers": [1001]})  # fmt: skip
    for role in ROLES:  # the public's entries and staff's, with their facts
        _call(role, tokens, "GET", "/api/championships/stages/{id}/entries/", 200,
              path_parameters={"id": stage})  # fmt: skip
    withdrawn = _call("club_manager", tokens, "POST",
                      "/api/championships/stages/{id}/entries/{number}/withdraw/", 200,
                      path_parameters={"id": stage, "number": 1})  # fmt: skip
    assert withdrawn["status"] == "withdrawn"
    entries = [{"entry_id": "A", "members": [{"player": "a", "total": 40}]},
               {"entry_id": "B", "members": [{"player": "b", "total": -40}]}]  # fmt: skip
    _call("anonymous", tokens, "POST", "/api/engine/standings/rank/", 200,
          body={"entries": entries})  # fmt: skip
    run = _call("federation_staff", tokens, "POST", "/api/pcn/recomputes/", 202,
                body={"season": registry.season.name, "kind": "full"})  # fmt: skip
    _call("federation_staff", tokens, "GET", "/api/pcn/recomputes/{id}/", 200,
          path_parameters={"id": run["id"]})  # fmt: skip
    _call("federation_staff", tokens, "GET", "/api/pcn/recomputes/", 200)


def test_every_operation_refuses_thousands_of_fields_in_its_schema(tokens):
    """Over ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` query parameters (and form fields, for an
    operation that takes a body): Django refuses the request before any view, and the
    answer is still one the schema documents (the API's JSON 400, not Django's page).
    The form bodies are sent outside the schema (most operations read JSON only), so
    their answers are checked here: a JSON refusal, never Django's HTML page."""
    fields = {f"f{i}": "1" for i in range(1001)}
    form = "&".join(f"{key}={value}" for key, value in fields.items())
    headers = {"Authorization": f"Token {tokens['federation_staff']}"}
    for result in schema.get_all_operations():
        operation = result.ok()
        path_parameters = {p.name: 1 for p in operation.path_parameters}
        case = operation.Case(path_parameters=path_parameters, query=fields)
        assert case.call_and_validate(headers=headers, checks=CHECKS).status_code == 400
        if operation.method.upper() in {"POST", "PUT", "PATCH"}:
            case = operation.Case(path_parameters=path_parameters)
            response = case.call(
                headers={**headers, "Content-Type": "application/x-www-form-urlencoded"},
                data=form,
            )
            # refused as soon as the body is read: 400 (or before, 403, 404, 415), never a page
            assert 400 <= response.status_code < 500, (operation.label, response.text[:300])
            assert response.headers["content-type"] == ["application/json"], operation.label
            if response.status_code == 400:
                assert response.json()["errors"][0]["code"] == "too_many_fields", operation.label
