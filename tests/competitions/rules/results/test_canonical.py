"""The canonical form and its hash: the same results hash the same, however submitted."""

from __future__ import annotations

import copy
import json
import random
import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.results import (
    EntryResult,
    PenaltyRecord,
    PlayerResult,
    PositionScore,
    ResultsDocument,
    SessionResult,
    TieBreakData,
    canonical_dict,
    canonical_json,
    parse_csv,
    parse_json,
    results_sha256,
    validate,
)
from competitions.rules.results.csv_writer import write_csv
from competitions.rules.results.score_sheets import parse_score_sheets
from tests.competitions.rules.results.licences import licensed
from tests.competitions.rules.results.tournament_builder import play


def test_order_and_omitted_defaults_do_not_change_the_hash(results):
    reference = results_sha256(parse_json(results))
    shuffled = copy.deepcopy(results)
    rng = random.Random(5)
    rng.shuffle(shuffled["entries"])
    rng.shuffle(shuffled["sessions"])
    for entry in shuffled["entries"]:
        for player in entry["players"]:
            rng.shuffle(player["positions"])
        entry["tiebreak"]["contracts_made"] = {
            k: v for k, v in entry["tiebreak"]["contracts_made"].items() if v
        }
        if not entry["abandoned"]:
            del entry["abandoned"]
    assert results_sha256(parse_json(json.dumps(shuffled, indent=4))) == reference


def test_a_different_result_hashes_differently(results):
    reference = results_sha256(parse_json(results))
    results["entries"][0]["players"][0]["name"] += "E"
    assert results_sha256(parse_json(results)) != reference


def test_the_canonical_form_is_compact_sorted_utf8_json(results):
    results["entries"][0]["players"][0]["name"] = "MULLER Léa"
    data = canonical_json(parse_json(results))
    assert data.startswith(b'{"entries":[{"abandoned":false,"number":1,"place":')
    assert "MULLER Léa".encode() in data
    assert b" " not in data.replace(b"MULLER L", b"").replace(b"minutes late", b"")[:200]
    assert json.loads(data) == canonical_dict(parse_json(results))
    assert parse_json(data) == parse_json(json.loads(data))


# ---------------------------------------------------------------------------
# Any document the parsers accept round-trips (valid or not: this is the format)
# ---------------------------------------------------------------------------

names = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=30,
).filter(lambda s: s == unicodedata.normalize("NFC", s.strip()) and s)
scores = st.integers(min_value=-100_000, max_value=100_000)


@st.composite
def documents(draw) -> ResultsDocument:
    session_count = draw(st.integers(1, 4))
    sessions = tuple(
        SessionResult(
            n, draw(st.integers(0, 80)), draw(st.integers(0, 3)), draw(st.integers(0, 40))
        )
        for n in range(1, session_count + 1)
    )
    entry_count = draw(st.integers(0, 12))
    numbers = draw(
        st.lists(st.integers(1, 10_000), min_size=entry_count, max_size=entry_count, unique=True)
    )
    licences = iter(
        draw(st.lists(st.integers(1, 9_999_999), min_size=60, max_size=60, unique=True))
    )
    entries = []
    for number in numbers:
        players = []
        taken: set[str] = set()
        for _ in range(draw(st.sampled_from((1, 2, 4)))):
            licence = None if draw(st.booleans()) and draw(st.booleans()) else next(licences)
            name = draw(names if licence is None else st.one_of(st.just(""), names))
            if licence is None and name.casefold() in taken:
                licence = next(licences)
            taken.add(name.casefold())
            positions = tuple(
                PositionScore(
                    draw(st.integers(1, 4)),
                    draw(st.integers(1, 8)),
                    draw(st.integers(1, 30)),
                    draw(scores),
                )
                for _ in range(draw(st.integers(0, 3)))
            )
            players.append(PlayerResult(licence, name, draw(st.none() | scores), positions))
        tiebreak = draw(
            st.none()
            | st.builds(
                TieBreakData,
                st.none() | scores,
                st.fixed_dictionaries(
                    {
                        c: st.integers(0, 30)
                        for c in ("prise", "garde", "garde_sans", "garde_contre")
                    }
                ),
            )
        )
        entries.append(
            EntryResult(
                number,
                draw(st.integers(1, 20)),
                draw(scores),
                tuple(players),
                draw(st.booleans()),
                tiebreak,
            )
        )
    penalties = tuple(
        PenaltyRecord(
            draw(st.integers(1, 9_999_999)),
            draw(st.integers(0, 500)),
            draw(st.sampled_from(list(PenaltyKind))),
            draw(names),
        )
        for _ in range(draw(st.integers(0, 3)))
    )
    return ResultsDocument(1, sessions, tuple(entries), penalties)


@settings(max_examples=150, deadline=None)
@given(documents())
def test_json_canonical_and_csv_forms_read_back_to_the_same_hash(document):
    reference = results_sha256(document)
    from_canonical = parse_json(canonical_json(document))
    assert results_sha256(from_canonical) == reference
    assert canonical_json(from_canonical) == canonical_json(document)
    for delimiter in (",", ";"):
        from_csv = parse_csv(write_csv(document, delimiter=delimiter).encode())
        assert from_csv == document
        assert results_sha256(from_csv) == reference


# ---------------------------------------------------------------------------
# Any tournament actually played validates, in every form
# ---------------------------------------------------------------------------


@st.composite
def played(draw):
    team_size = draw(st.sampled_from((1, 2, 4)))
    minimum = {1: 11, 2: 6, 4: 5}[team_size]
    entries = draw(st.integers(minimum, minimum + 10))
    tournament = play(
        draw(st.randoms(use_true_random=False)),
        players=entries * team_size,
        team_size=team_size,
        sessions=draw(st.integers(1, 3)),
        positions=draw(st.integers(1, 3)),
        deals=draw(st.integers(1, 4)),
        penalties=draw(st.integers(0, 3)),
        unlicensed=draw(st.integers(0, 2)),
    )
    return tournament, {1: "individual", 2: "duo", 4: "team4"}[team_size]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played())
def test_a_played_tournament_validates_and_hashes_the_same_in_every_form(game):
    tournament, fmt = game
    results = tournament.results_document()
    document = parse_json(json.dumps(results))
    validated = validate(document, format=fmt, licences=licensed(document))
    assert {w.code for w in validated.warnings} <= {"no_licence_number"}
    assert validated.first_session_players == len(tournament.players)
    reference = validated.sha256
    assert results_sha256(parse_csv(write_csv(document).encode())) == reference
    assert results_sha256(parse_json(canonical_json(document))) == reference
    from_sheets = parse_score_sheets(tournament.sheets_document(), format=fmt)
    assert results_sha256(from_sheets) == reference
