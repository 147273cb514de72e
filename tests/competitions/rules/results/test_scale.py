"""A national-final-sized tournament: 300 players, 3 sessions, validated whole."""

from __future__ import annotations

import json
import random

import pytest

from competitions.rules.results import parse_csv, parse_json, results_sha256, validate
from competitions.rules.results.csv_writer import write_csv
from tests.competitions.rules.results.licences import licensed
from tests.competitions.rules.results.tournament_builder import play


@pytest.mark.parametrize(("team_size", "fmt"), [(1, "individual"), (2, "duo"), (4, "team4")])
def test_a_300_player_3_session_tournament_validates(team_size, fmt):
    tournament = play(
        random.Random(300),
        players=300,
        team_size=team_size,
        sessions=3,
        positions=6,
        deals=4,
        penalties=10,
        unlicensed=3,
    )
    data = json.dumps(tournament.results_document()).encode()
    document = parse_json(data)
    validated = validate(document, format=fmt, licences=licensed(document))
    assert validated.first_session_players == 300
    assert validated.first_session_entries == 300 // team_size
    assert validated.total_tables == 3 * 75
    assert [w.code for w in validated.warnings] == ["no_licence_number"] * 3
    from_csv = parse_csv(write_csv(document, delimiter=";").encode())
    assert results_sha256(from_csv) == validated.sha256
