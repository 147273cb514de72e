"""parse_json(): the JSON form, and every structural problem it refuses."""

from __future__ import annotations

import json

import pytest

from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.results import (
    EntryResult,
    PenaltyRecord,
    PlayerResult,
    PositionScore,
    SessionResult,
    TieBreakData,
    parse_json,
)
from competitions.rules.results.document import MAX_ENTRIES
from tests.competitions.rules.results.refusals import messages, refusal

MINIMAL = {
    "format_version": 1,
    "sessions": [{"number": 1, "tables": 3, "deals": 20}],
    "entries": [
        {"number": 7, "place": 1, "total": 120, "players": [{"licence_number": 123456}]},
    ],
}


def test_a_minimal_document_takes_the_defaults():
    document = parse_json(MINIMAL)
    assert document.sessions == (SessionResult(1, 3, 0, 20),)
    assert document.entries == (
        EntryResult(
            number=7,
            place=1,
            total=120,
            players=(PlayerResult(licence_number=123456, name="", total=None, positions=()),),
            abandoned=False,
            tiebreak=None,
        ),
    )
    assert document.penalties == ()
    assert document.source is None


def test_every_field_is_read(results):
    results["entries"][0]["abandoned"] = True
    results["entries"][0]["tiebreak"] = {"best_position_score": 5, "contracts_made": {"garde": 2}}
    document = parse_json(json.dumps(results))
    entry = document.entries[0]
    assert entry.abandoned is True
    assert entry.tiebreak == TieBreakData(
        5, {"prise": 0, "garde": 2, "garde_sans": 0, "garde_contre": 0}
    )
    assert entry.tiebreak.contracts_made["garde_contre"] == 0
    assert entry.players[0].positions[0] == PositionScore(
        **results["entries"][0]["players"][0]["positions"][0]
    )
    assert document.penalties == (
        PenaltyRecord(
            licence_number=results["penalties"][0]["licence_number"],
            points=100,
            kind=PenaltyKind.LATE_ARRIVAL,
            reason="Arrived 3 minutes late (article 26).",
        ),
    )


@pytest.mark.parametrize("form", ["bytes", "str", "bom"])
def test_bytes_text_or_a_byte_order_mark(form):
    text = json.dumps(MINIMAL)
    data = {"bytes": text.encode(), "str": text, "bom": b"\xef\xbb\xbf" + text.encode()}[form]
    assert parse_json(data) == parse_json(MINIMAL)


def test_names_are_trimmed_and_in_one_unicode_form():
    decomposed = json.loads(json.dumps(MINIMAL))
    decomposed["entries"][0]["players"][0]["name"] = "  MULLER Le\u0301a "
    assert parse_json(decomposed).entries[0].players[0].name == "MULLER Léa"


def test_malformed_json_says_where():
    assert refusal(lambda: parse_json(b'{"format_version": 1,')) == [("document", "invalid_json")]
    assert "line 1, column" in messages(lambda: parse_json('{"format_version": 1,'))[0]


def test_text_that_is_not_utf8_is_refused():
    data = json.dumps({**MINIMAL, "x": "é"}, ensure_ascii=False).encode("latin-1")
    assert refusal(lambda: parse_json(data)) == [("document", "not_utf8")]


@pytest.mark.parametrize("text", ["[]", "12", '"results"', "null"])
def test_the_document_is_an_object(text):
    assert refusal(lambda: parse_json(text)) == [("document", "wrong_type")]


def test_nan_and_duplicate_keys_are_not_json_we_accept():
    assert refusal(lambda: parse_json('{"format_version": NaN}')) == [("document", "invalid_json")]
    assert refusal(lambda: parse_json('{"format_version": 1, "format_version": 1}')) == [
        ("document", "duplicate_key")
    ]


def test_missing_and_unknown_fields():
    assert refusal(lambda: parse_json({"format_version": 1, "session": []})) == [
        ("sessions", "missing_field"),
        ("entries", "missing_field"),
        ("session", "unknown_field"),
    ]


def test_only_format_version_1():
    assert refusal(lambda: parse_json({**MINIMAL, "format_version": 2})) == [
        ("format_version", "unsupported_format_version")
    ]


def test_every_structural_problem_is_located():
    document = {
        "format_version": 1,
        "sessions": [
            {"number": 1, "tables": -3, "deals": 20},
            {"number": "2", "tables": 3, "deals": 2.5, "tables_of_3": 1},
        ],
        "entries": [
            {"number": 1, "place": 1, "total": 0.0, "players": [{"licence_number": None}]},
            {
                "number": 2,
                "place": 0,
                "total": 10,
                "abandoned": "no",
                "players": [
                    {
                        "licence_number": "123",
                        "total": True,
                        "positions": [{"session": 1, "position": 1, "table": 0}],
                    }
                ],
                "tiebreak": {
                    "best_position_score": 5,
                    "contracts_made": {"petite": 1, "garde": -1},
                },
            },
            "entry 3",
        ],
        "penalties": [
            {"licence_number": 5, "points": -100, "kind": "lateness", "reason": " "},
        ],
    }
    assert refusal(lambda: parse_json(document)) == [
        ("sessions[0].tables", "negative_number"),
        ("sessions[1].tables_of_3", "unknown_field"),
        ("sessions[1].number", "not_an_integer"),
        ("sessions[1].deals", "not_an_integer"),
        ("entries[0].total", "not_an_integer"),
        ("entries[0].players[0].name", "unidentified_player"),
        ("entries[1].place", "number_too_small"),
        ("entries[1].abandoned", "wrong_type"),
        ("entries[1].players[0].licence_number", "not_an_integer"),
        ("entries[1].players[0].total", "not_an_integer"),
        ("entries[1].players[0].positions[0].score", "missing_field"),
        ("entries[1].players[0].positions[0].table", "number_too_small"),
        ("entries[1].tiebreak.contracts_made.petite", "unknown_contract"),
        ("entries[1].tiebreak.contracts_made.garde", "negative_number"),
        ("entries[2]", "wrong_type"),
        ("penalties[0].points", "negative_number"),
        ("penalties[0].kind", "unknown_penalty_kind"),
        ("penalties[0].reason", "blank_text"),
    ]


def test_a_whole_number_written_with_a_decimal_point_is_explained():
    document = json.loads(json.dumps(MINIMAL))
    document["entries"][0]["total"] = 120.0
    assert "write it without a decimal point" in messages(lambda: parse_json(document))[0]


def test_sizes_are_limited():
    entry = MINIMAL["entries"][0]
    document = {**MINIMAL, "entries": [entry] * (MAX_ENTRIES + 1)}
    assert refusal(lambda: parse_json(document)) == [("entries", "too_many_items")]
    assert "At most 5000 entries" in messages(lambda: parse_json(document))[0]
    huge = b'{"format_version": 1, "x": "' + b"a" * (20 * 1024 * 1024) + b'"}'
    assert refusal(lambda: parse_json(huge)) == [("document", "document_too_large")]


def test_score_sheets_are_not_results():
    assert refusal(lambda: parse_json({"format_version": 1, "score_sheets": []})) == [
        ("score_sheets", "score_sheets_not_expected")
    ]
