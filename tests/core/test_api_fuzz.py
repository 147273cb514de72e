"""Schema-driven fuzzing of every API operation (schemathesis), on PostgreSQL.

Each operation of the OpenAPI schema gets a few requests generated from it, valid
and invalid, sent through the Django WSGI application as one of four callers
(anonymous, a club manager, committee staff, federation staff, with their API
tokens) against the suite's small federation. Every answer must be no 5xx and
must conform to the schema: a documented status, its content type, a body of the
documented shape (errors included: core/api_schema.py).

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
    phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
    suppress_health_check=list(hypothesis.HealthCheck),
)
def test_no_operation_answers_a_5xx_or_outside_its_schema(case, role, tokens):
    headers = {"Authorization": f"Token {tokens[role]}"} if role in tokens else {}
    case.call_and_validate(headers=headers, checks=CHECKS)
