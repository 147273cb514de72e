"""The limits every decoded JSON body meets (core/json_body.py), without Django."""

from __future__ import annotations

import pytest

from core import json_body
from core.problems import RuleViolation


def refusal(text: str) -> list[tuple[str, str]]:
    with pytest.raises(RuleViolation) as caught:
        json_body.loads(text)
    return [(p.field, p.code) for p in caught.value.problems]


def nested(depth: int) -> str:
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


def test_the_depth_limit_is_exact():
    assert json_body.loads(nested(json_body.MAX_DEPTH)) is not None
    ((field, code),) = refusal(nested(json_body.MAX_DEPTH + 1))
    assert code == "too_deep"
    assert field == ".".join(["a"] * json_body.MAX_DEPTH)


def test_deeper_than_the_decoder_can_go_is_refused_the_same_way():
    assert refusal("[" * 100_000 + "]" * 100_000) == [("document", "too_deep")]


def test_a_nul_is_located_in_a_key_a_value_and_the_whole_body():
    assert refusal('{"a": [1, {"k\\u0000": "v\\u0000"}]}') == [
        ("a[1].k\\u0000", "null_character"),
        ("a[1].k\\u0000", "null_character"),
    ]
    assert refusal('"\\u0000"') == [("document", "null_character")]


def test_an_escaped_backslash_before_u0000_is_no_nul():
    assert json_body.loads('{"path": "C:\\\\u0000"}') == {"path": "C:\\u0000"}


def test_a_key_given_twice_is_refused():
    assert refusal('{"a": 1, "b": {"c": 1, "c": 2}}') == [("document", "duplicate_key")]


def test_a_decoded_value_is_checked_at_its_place():
    with pytest.raises(RuleViolation) as caught:
        json_body.check({"entries": [{"name": "x\x00"}]}, "document")
    assert [p.field for p in caught.value.problems] == ["document.entries[0].name"]
    json_body.check({"name": "x\x00"}, nul=False)  # the caller knows better: depth only
