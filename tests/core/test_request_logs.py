"""The logs (core/observability): with the production configuration (``LOG_FORMAT=json``)
each request writes one JSON line carrying its request id, the id the response echoes;
no path, query string or name reaches it. The request id a client sends is kept when
plausible, replaced when not."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import re

import pytest
from django.conf import settings as django_settings

from core.observability.logs import logging_config


@pytest.fixture
def json_lines():
    """The production logging configuration for this test, its lines read back as JSON
    (its console handler writing to a buffer instead of the standard error)."""
    logging.config.dictConfig(logging_config(log_format="json", level="INFO"))
    (console,) = logging.getLogger().handlers
    buffer = io.StringIO()
    console.setStream(buffer)

    def read() -> list[dict]:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return [json.loads(line) for line in text.splitlines() if line]

    yield read
    logging.config.dictConfig(django_settings.LOGGING)


def request_lines(lines: list[dict]) -> list[dict]:
    return [line for line in lines if line["logger"] == "fft.request"]


@pytest.mark.django_db
def test_a_request_writes_one_json_line_with_its_request_id(client, registry, json_lines):
    client.force_login(registry.users["player"])
    json_lines()  # what the sign-in wrote
    response = client.get(
        "/api/public/tournaments/?search=Dupont", HTTP_X_REQUEST_ID="caller-id.42:a_b-c"
    )
    assert response.status_code == 200
    assert response["X-Request-ID"] == "caller-id.42:a_b-c"
    lines = json_lines()
    (line,) = request_lines(lines)
    assert line["request_id"] == "caller-id.42:a_b-c"
    assert line["method"] == "GET"
    assert line["route"] == "api/public/tournaments/"
    assert line["status"] == 200
    assert line["duration_ms"] >= 0
    assert line["db_queries"] >= 1
    assert line["user_id"] == registry.users["player"].pk
    assert line["level"] == "INFO"
    assert line["time"].endswith("+00:00")
    text = json.dumps(lines, ensure_ascii=False)
    assert "Dupont" not in text
    assert "Élise" not in text
    assert "1001@example.org" not in text


@pytest.mark.django_db
@pytest.mark.parametrize("sent", [None, "", "has space", "x" * 129, "é-accent", "line\nbreak"])
def test_an_implausible_request_id_is_replaced_by_a_new_one(client, json_lines, sent):
    headers = {} if sent is None else {"HTTP_X_REQUEST_ID": sent}
    response = client.get("/healthz", **headers)
    made = response["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    (line,) = request_lines(json_lines())
    assert line["request_id"] == made
    assert line["user_id"] is None  # anonymous


@pytest.mark.django_db
def test_every_line_of_a_request_carries_its_id(client, json_lines):
    response = client.get("/no-such-page/", HTTP_X_REQUEST_ID="rid-404")
    assert response.status_code == 404
    lines = json_lines()
    django_line = next(line for line in lines if line["logger"] == "django.request")
    assert django_line["request_id"] == "rid-404"  # Django's own "Not Found" line too
    assert "request" not in django_line  # the request's text (path, query string) left out
    assert request_lines(lines)[0]["route"] == "unmatched"
