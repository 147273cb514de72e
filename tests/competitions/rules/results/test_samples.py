"""The sample files of docs/samples validate, and the three forms of one tournament agree."""

from __future__ import annotations

import json
from pathlib import Path

from competitions.rules.results import parse_csv, parse_json, results_sha256, validate
from competitions.rules.results.score_sheets import parse_score_sheets
from tests.competitions.rules.results.licences import licensed

SAMPLES = Path(__file__).resolve().parents[4] / "docs" / "samples"


def read(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def test_the_individual_sample_validates_in_json_and_csv_with_the_same_hash():
    from_json = parse_json(read("results-individual.json"))
    from_csv = parse_csv(read("results-individual.csv"))
    assert from_csv == from_json
    for document in (from_json, from_csv):
        validated = validate(document, format="individual", licences=licensed(document))
        assert validated.warnings == ()  # every player licensed (the demo's: demo/samples.py)
        assert validated.first_session_players == 12
        assert validated.total_tables == 6
    assert results_sha256(from_csv) == results_sha256(from_json)


def test_the_sheets_sample_is_the_individual_tournament_deal_by_deal():
    from_sheets = parse_score_sheets(read("results-sheets.json"), format="individual")
    validate(from_sheets, format="individual", licences=licensed(from_sheets))
    assert results_sha256(from_sheets) == results_sha256(
        parse_json(read("results-individual.json"))
    )


def test_the_duo_sample_validates_with_its_tie_and_its_abandon():
    document = parse_json(read("results-duo.json"))
    validated = validate(document, format="duo", licences=licensed(document))
    assert validated.warnings == ()
    assert validated.places == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
    second, third = document.entries[1], document.entries[2]
    assert second.total == third.total  # split by article 29 (best position score)
    assert document.entries[5].abandoned
    assert document.entries[5].total > document.entries[4].total


def test_samples_are_formatted_json():
    for name in ("results-individual.json", "results-duo.json", "results-sheets.json"):
        assert isinstance(json.loads(read(name)), dict)
