"""The published schemas of the results documents (competitions/rules/results/schema.py)
against the samples and against the readers: what one refuses, the other refuses."""

from __future__ import annotations

import copy
import json
import string
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_schema_validator import OAS30Validator

from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.results import schema
from competitions.rules.results.document import (
    MAX_COUNT,
    MAX_ENTRIES,
    MAX_LICENCE_NUMBER,
    MAX_NAME_LENGTH,
    MAX_REASON_LENGTH,
    MAX_SCORE,
)
from competitions.rules.results.json_format import read_json
from competitions.rules.results.score_sheets import parse_score_sheets
from core.problems import RuleViolation

SAMPLES = Path(__file__).resolve().parents[4] / "docs" / "samples"
JSON_SAMPLES = sorted(SAMPLES.glob("*.json"))

RESULTS = jsonschema.Draft202012Validator(schema.json_schema(schema.RESULTS_DOCUMENT))
SHEETS = jsonschema.Draft202012Validator(schema.json_schema(schema.SCORE_SHEETS_DOCUMENT))


def openapi_validator(root: schema.Shape) -> OAS30Validator:
    """The OpenAPI 3.0 components, as the API's schema serves them, validating ``root``."""
    components = schema.openapi_components()
    document = {
        **components[root.name],
        "components": {"schemas": components},
    }
    return OAS30Validator(document)


def sample(name: str) -> dict[str, Any]:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def test_the_schemas_are_valid_json_schemas():
    for root in schema.DOCUMENTS:
        jsonschema.Draft202012Validator.check_schema(schema.json_schema(root))


def test_there_are_json_samples():
    assert {path.name for path in JSON_SAMPLES} >= {
        "results-individual.json",
        "results-duo.json",
        "results-sheets.json",
    }


@pytest.mark.parametrize("path", JSON_SAMPLES, ids=lambda path: path.name)
def test_every_sample_validates_against_its_published_schema(path: Path):
    document = json.loads(path.read_text(encoding="utf-8"))
    root = schema.SCORE_SHEETS_DOCUMENT if "score_sheets" in document else schema.RESULTS_DOCUMENT
    standalone = SHEETS if root is schema.SCORE_SHEETS_DOCUMENT else RESULTS
    assert list(standalone.iter_errors(document)) == []
    assert list(openapi_validator(root).iter_errors(document)) == []
    other = RESULTS if root is schema.SCORE_SHEETS_DOCUMENT else SHEETS
    assert not other.is_valid(document)  # each form is its own document


def test_the_readers_take_their_keys_from_the_shapes():
    """The reader names the shape's fields when it refuses an unknown one."""
    document = sample("results-individual.json")
    document["entries"][0]["players"][0]["nickname"] = "Pierrot"
    (problem,) = read_json(document).problems
    assert problem.code == "unknown_field"
    assert problem.params["fields"] == ", ".join(
        sorted(schema.PLAYER.required + schema.PLAYER.optional)
    )


# Hypothesis: a sample changed in one to three places, then judged by both.

_BOUNDS = sorted(
    {
        bound + step
        for bound in (0, 1, 99, MAX_COUNT, MAX_ENTRIES, MAX_LICENCE_NUMBER, MAX_SCORE, -MAX_SCORE)
        for step in (-1, 0, 1)
    }
)
_TEXTS = st.one_of(
    # Texts as a reader keeps them (no surrounding space, NFC): the reader trims and
    # normalises before measuring, the schema measures what is sent.
    st.text(alphabet=string.ascii_letters + "éÇ -'", max_size=MAX_REASON_LENGTH + 2).map(str.strip),
    st.just("x" * (MAX_NAME_LENGTH + 1)),
    st.sampled_from(["", " ", "\t ", "late_arrival", "prise"]),
    st.sampled_from([kind.value for kind in PenaltyKind]),
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(_BOUNDS),
    st.integers(),
    st.sampled_from([0.5, -2.25, 1e300]),  # never a whole number written 12.0: see schema.py
    _TEXTS,
)
_VALUES = st.one_of(
    _SCALARS,
    st.lists(_SCALARS, max_size=2),
    st.dictionaries(st.sampled_from(["number", "x", "prise", "name"]), _SCALARS, max_size=2),
)
_KEYS = st.sampled_from(
    [
        "number", "place", "total", "players", "abandoned", "tiebreak", "licence_number",
        "name", "positions", "session", "position", "table", "score", "tables", "deals",
        "tables_of_three", "tables_of_five", "points_divisor", "entries", "carried",
        "best_position_score", "contracts_made", "prise", "garde", "garde_sans",
        "garde_contre", "points", "kind", "reason", "penalties", "sessions",
        "format_version", "score_sheets", "tables_of_3", "cuts", "after_position",
    ]
)  # fmt: skip


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place of a document: each value's path (the root is ``()``)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _places(item, (*path, i))
    return found


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


@st.composite
def changed_documents(draw: st.DrawFn) -> dict[str, Any]:
    name = draw(st.sampled_from(["results-individual.json", "results-duo.json"]))
    document = copy.deepcopy(_SAMPLES[name])
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_places(document)))
        if not path:
            continue
        parent, last = _at(document, path[:-1]), path[-1]
        how = draw(st.sampled_from(["replace", "remove", "add", "add"]))
        if how == "replace":
            parent[last] = draw(_VALUES)
        elif how == "remove":
            del parent[last]
        else:
            target = _at(document, path)
            if isinstance(target, dict):
                target[draw(_KEYS)] = draw(_VALUES)
            elif isinstance(target, list):
                target.append(draw(_VALUES))
            else:
                parent[last] = draw(_VALUES)
    return document


_SAMPLES = {name: sample(name) for name in ("results-individual.json", "results-duo.json")}


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changed_documents())
def test_the_schema_and_the_reader_accept_and_refuse_the_same_documents(document):
    reading = read_json(copy.deepcopy(document))
    schema_errors = list(RESULTS.iter_errors(document))
    assert (not schema_errors) == (not reading.problems), (schema_errors[:2], reading.problems[:2])


def _reads_sheets(document: dict[str, Any]) -> bool:
    try:
        parse_score_sheets(copy.deepcopy(document), format="individual")
    except RuleViolation:
        return False
    return True


def _sheet_change(change: str) -> dict[str, Any]:
    document = sample("results-sheets.json")
    sheet = document["score_sheets"][0]
    deal = sheet["deals"][1]
    match change:
        case "no format_version":
            del document["format_version"]
        case "format_version true":
            document["format_version"] = True
        case "format_version 2":
            document["format_version"] = 2
        case "no score sheets":
            del document["score_sheets"]
        case "an unknown field":
            document["tables"] = 3
        case "sessions not a list":
            document["sessions"] = {"number": 1}
        case "a declared session without deals":
            document["sessions"] = [{"number": 1}]
        case "an entry without players":
            del document["entries"][0]["players"]
        case "an unnamed player without licence":
            document["entries"][0]["players"][0] = {"licence_number": None, "name": " "}
        case "a licence number of 0":
            document["entries"][0]["players"][0]["licence_number"] = 0
        case "abandoned as text":
            document["entries"][0]["abandoned"] = "oui"
        case "a sheet without table":
            del sheet["table"]
        case "a sheet with an unknown field":
            sheet["arbiter"] = "X"
        case "table 0":
            sheet["table"] = 0
        case "session 100":
            sheet["session"] = 100
        case "an unknown seat":
            sheet["players"]["O"] = sheet["players"].pop("W")
        case "a blank seat":
            sheet["players"]["W"] = " "
        case "a seat holding true":
            sheet["players"]["W"] = True
        case "deals not a list":
            sheet["deals"] = {}
        case "a deal with an unknown field":
            deal["donneur"] = "N"
        case "a fact without contract":
            del deal["contract"]
        case "an unknown contract":
            deal["contract"] = "petite"
        case "an unknown taker":
            deal["taker"] = "X"
        case "4 oudlers":
            deal["oudlers"] = 4
        case "92 points":
            deal["attack_points"] = 92
        case "a quarter point":
            deal["attack_points"] = 50.25
        case "points as text":
            deal["attack_points"] = "50"
        case "petit au bout by nobody":
            deal["petit_au_bout"] = "nobody"
        case "marks not an object":
            deal["marks"] = [1, 2]
        case "poignees false":
            deal["poignees"] = False
        case "a poignee without trumps":
            deal["poignees"] = [{"seat": "N"}]
        case "chelem announced as text":
            deal["chelem_announced"] = "yes"
        case "annulled as a number":
            deal["annulled"] = 1
        case "a mark of true":
            sheet["deals"][0]["marks"]["N"] = True
        case "a mark for an unknown seat":
            sheet["deals"][0]["marks"]["X"] = 0
        case "an unknown mort":
            deal["sitting_out"] = "X"
        case "23 trumps shown":
            deal["poignees"] = [{"seat": "W", "trumps": 23}]
        case "a poignee at an unknown seat":
            deal["poignees"] = [{"seat": "X", "trumps": 10}]
        case "a chelem by nobody":
            deal["chelem_made_by"] = "x"
        case "oudlers true":
            deal["oudlers"] = True
        case "a penalty of an unknown kind":
            document["penalties"] = [
                {"licence_number": 10434, "points": 10, "kind": "x", "reason": "r"}
            ]
        case "a penalty without reason":
            document["penalties"] = [
                {"licence_number": 10434, "points": 10, "kind": "slowness", "reason": " "}
            ]
    return document


SHEET_REFUSALS = [
    "no format_version", "format_version true", "format_version 2", "no score sheets",
    "an unknown field", "sessions not a list", "a declared session without deals",
    "an entry without players", "an unnamed player without licence", "a licence number of 0",
    "abandoned as text", "a sheet without table", "a sheet with an unknown field", "table 0",
    "session 100", "an unknown seat", "a blank seat", "a seat holding true", "deals not a list",
    "a deal with an unknown field", "a fact without contract", "an unknown contract",
    "an unknown taker", "4 oudlers", "92 points", "a quarter point", "points as text",
    "petit au bout by nobody", "marks not an object", "poignees false",
    "a poignee without trumps", "chelem announced as text", "annulled as a number",
    "a penalty of an unknown kind", "a penalty without reason", "a mark of true",
    "a mark for an unknown seat", "an unknown mort", "23 trumps shown",
    "a poignee at an unknown seat", "a chelem by nobody", "oudlers true",
]  # fmt: skip


def test_the_sheets_sample_is_read_and_valid():
    document = sample("results-sheets.json")
    assert SHEETS.is_valid(document)
    assert _reads_sheets(document)


@pytest.mark.parametrize("change", SHEET_REFUSALS)
def test_the_sheets_schema_and_reader_both_refuse(change: str):
    document = _sheet_change(change)
    assert not SHEETS.is_valid(document)
    assert not openapi_validator(schema.SCORE_SHEETS_DOCUMENT).is_valid(document)
    assert not _reads_sheets(document)


def test_the_openapi_components_name_every_shape_of_both_documents():
    components = schema.openapi_components()
    for root in schema.DOCUMENTS:
        assert set(schema.shapes_of(root)) <= set(components)
    text = json.dumps(components)
    assert "$defs" not in text
    assert '"null"' not in text  # OpenAPI 3.0 says nullable
