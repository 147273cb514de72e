"""Eliminations between the positions of a session (chapter 3, art. 3, 9, 15: « la division
ou non des points entre chaque séance ou position »; chapter 2: « abattre les scores entre 2
positions ou 2 séances successives »), in JSON, CSV and score sheets: pure tests, no
database. The recommended format, « élimination de joueurs à chaque position et dernière
position jouée à 4 joueurs », is submittable and checked exactly like a cut between
sessions."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.eliminations import EliminatedOrder, HalvingRounding
from competitions.rules.engine.standings import RankingMode
from competitions.rules.results import (
    canonical_dict,
    parse_json,
    results_sha256,
    schema,
    validate,
)
from competitions.rules.results.csv_format import parse_csv
from competitions.rules.results.csv_writer import write_csv
from competitions.rules.results.licences import LicenceStatus
from competitions.rules.results.score_sheets import parse_score_sheets
from competitions.rules.results.validation import expected_places, ties_survive
from competitions.rules.rulebook import Eliminations
from core.problems import RuleViolation
from tests.competitions.rules.results.position_cuts import BASE, Step, document, zero_sum


def _licences(n: int) -> dict[int, LicenceStatus]:
    return {BASE + i: LicenceStatus.LICENSED for i in range(n)}


def _problems(doc: dict[str, Any], **kwargs: Any) -> list[tuple[str, str]]:
    n = len(doc["entries"])
    try:
        validate(parse_json(doc), format="individual", licences=_licences(n), **kwargs)
    except RuleViolation as refused:
        return [(p.field, p.code) for p in refused.problems]
    return []


def _table(*scores: int) -> tuple[int, ...]:
    """Four players' scores at one table, four times those given (so that the score sheets
    can mark them: taker 3x, each defender −x), the fourth balancing the three others."""
    return zero_sum([4 * score for score in scores])


# The recommended format for 16 players: session 1 of 4 positions for everyone, then session
# 2 eliminating at each position: 12 after the start (scores halved), 8 after position 1
# (halved), 4 after position 2 (not divided), who play position 3 and the last.
SESSION_1 = tuple(
    (*_table(60, -20, 10, 0), *_table(30, -30, 15, 0), *_table(25, 5, -40, 0),
     *_table(-10, 20, 35, 0))
    for _ in range(4)
)  # fmt: skip
RECOMMENDED = [
    Step(1, 0, positions=SESSION_1),
    Step(2, 0, kept=12, divisor=2,
         positions=((*_table(40, -10, 5, 0), *_table(-25, 15, 20, 0), *_table(30, -5, -15, 0)),)),
    Step(2, 1, kept=8, divisor=2,
         positions=((*_table(30, -10, 25, 0), *_table(-20, 40, -5, 0)),)),
    Step(2, 2, kept=4, divisor=1, positions=(_table(35, -15, 5, 0), _table(-10, 20, 15, 0))),
]  # fmt: skip


def recommended(**kwargs: Any) -> dict[str, Any]:
    return document(16, RECOMMENDED, **kwargs)


def test_the_recommended_format_down_to_a_last_position_of_4_is_accepted_and_round_trips():
    doc = recommended()
    assert [len(c["entries"]) for c in doc["sessions"][1]["cuts"]] == [8, 4]
    assert _problems(doc) == []
    assert _problems(doc, tie_break_rules=True) == []
    parsed = parse_json(doc)
    again = parse_json(canonical_dict(parsed))
    assert canonical_dict(again) == canonical_dict(parsed)
    from_csv = parse_csv(write_csv(parsed))
    assert from_csv == parsed
    assert results_sha256(from_csv) == results_sha256(parsed)
    places = sorted(doc["entries"], key=lambda e: e["place"])
    # The 4 of the last position rank 1st to 4th, then the 4 cut after position 2, ...
    last_four = {e["number"] for e in doc["sessions"][1]["cuts"][1]["entries"]}
    assert {e["number"] for e in places[:4]} == last_four


def test_old_documents_keep_their_form_a_cut_is_written_only_where_there_is_one():
    doc = recommended()
    canonical = canonical_dict(parse_json(doc))
    assert "cuts" not in canonical["sessions"][0]
    assert set(canonical["sessions"][1]["cuts"][0]) == {
        "after_position", "tables", "tables_of_three", "points_divisor", "entries"
    }  # fmt: skip
    plain = {**doc, "sessions": [dict(s) for s in doc["sessions"]]}
    del plain["sessions"][1]["cuts"]
    header = write_csv(parse_json(plain)).splitlines()[0]
    assert not header.endswith("after_position")  # a file without cuts keeps its header


def test_a_carried_score_at_a_cut_not_divided_as_the_season_rounds_is_refused_located():
    doc = recommended()
    doc["sessions"][1]["cuts"][0]["entries"][0]["carried"] += 1
    found = _problems(doc)
    assert ("sessions[1].cuts[0].entries[0].carried", "cut_carried_score_mismatch") in found
    csv_found = []
    try:
        validate(parse_csv(write_csv(parse_json(doc))), format="individual", licences=_licences(16))
    except RuleViolation as refused:
        csv_found = [(p.field, p.code) for p in refused.problems]
    assert any(
        field.startswith("lines[")
        and field.endswith(".carried")
        and code == "cut_carried_score_mismatch"
        for field, code in csv_found
    )


def test_a_better_score_eliminated_at_a_cut_is_refused():
    doc = recommended()
    cut = doc["sessions"][1]["cuts"][1]
    kept = {e["number"] for e in cut["entries"]}
    before = {e["number"]: e for e in doc["sessions"][1]["cuts"][0]["entries"]}
    out = max((n for n in before if n not in kept), key=lambda n: 0)
    cut["entries"][-1]["number"] = out  # an eliminated entry plays on in place of another
    found = {code for _, code in _problems(doc)}
    assert found & {"eliminated_at_cut_ahead_of_continuing", "cut_entry_not_in_previous",
                    "cut_score_mismatch", "score_after_cut_not_played"}  # fmt: skip


def test_an_eliminated_player_with_a_score_after_the_cut_is_refused_located():
    doc = recommended()
    kept = {e["number"] for e in doc["sessions"][1]["cuts"][1]["entries"]}
    out = next(
        e for e in doc["entries"]
        if e["number"] in {x["number"] for x in doc["sessions"][1]["cuts"][0]["entries"]}
        and e["number"] not in kept
    )  # fmt: skip
    i = doc["entries"].index(out)
    out["players"][0]["positions"].append({"session": 2, "position": 4, "table": 1, "score": 0})
    k = len(out["players"][0]["positions"]) - 1
    assert (
        f"entries[{i}].players[0].positions[{k}].position",
        "score_after_cut_not_played",
    ) in _problems(doc)


def test_cuts_out_of_order_without_entries_or_with_wrong_tables_are_refused():
    doc = recommended()
    cuts = doc["sessions"][1]["cuts"]
    cuts[1]["after_position"] = 1
    cuts[0]["tables"] = 3
    found = _problems(doc)
    assert ("sessions[1].cuts[1].after_position", "cut_positions_not_increasing") in found
    assert ("sessions[1].cuts[0].tables", "cut_entries_seats_mismatch") in found
    doc = recommended()
    doc["sessions"][1]["cuts"][1]["entries"] = []
    assert ("sessions[1].cuts[1].entries", "cut_without_entries") in _problems(doc)
    doc = recommended()
    doc["sessions"][1]["cuts"][1]["after_position"] = 4  # no position is played after it
    assert ("sessions[1].cuts[1].after_position", "cut_after_last_position") in _problems(doc)


def test_places_rank_the_entries_that_played_further_first_even_on_a_lower_total():
    doc = recommended()
    doc["entries"] = [dict(e) for e in doc["entries"]]
    by_number = {e["number"]: e for e in doc["entries"]}
    last = [e["number"] for e in doc["sessions"][1]["cuts"][1]["entries"]]
    cut_at_2 = [
        e["number"] for e in doc["sessions"][1]["cuts"][0]["entries"] if e["number"] not in last
    ]
    assert min(by_number[n]["place"] for n in cut_at_2) == 5
    # Placed by total among all, one of them would pass a finalist: refused.
    worst_finalist = max(last, key=lambda n: by_number[n]["place"])
    best_cut = min(cut_at_2, key=lambda n: by_number[n]["place"])
    by_number[worst_finalist]["place"], by_number[best_cut]["place"] = 5, 4
    assert {code for _, code in _problems(doc)} == {"place_contradicts_sessions"}


def test_a_stored_cut_with_its_divisor_is_read_back_from_the_canonical_form():
    doc = recommended()
    stored = canonical_dict(parse_json(doc))
    session = parse_json(stored).sessions[1]
    assert [(c.after_position, c.points_divisor, len(c.entries)) for c in session.cuts] == [
        (1, 2, 8), (2, 1, 4)
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Invariants, for any plan of cuts


@st.composite
def plans(draw: st.DrawFn) -> tuple[int, list[Step], HalvingRounding, EliminatedOrder]:
    """A tournament of 8 to 24 players at tables of 4, one or two sessions, cuts between
    sessions and between positions down to at least 4 players, any scores."""
    n = 4 * draw(st.integers(3, 6))
    sessions = draw(st.integers(1, 2))
    playing = n
    steps: list[Step] = []
    for session in range(1, sessions + 1):
        positions = draw(st.integers(1, 4))
        starts = [0]
        if positions > 1:
            starts += sorted(draw(st.sets(st.integers(1, positions - 1), max_size=positions - 1)))
        for s_index, start in enumerate(starts):
            end = starts[s_index + 1] if s_index + 1 < len(starts) else positions
            first = session == 1 and start == 0
            kept = playing if first else 4 * draw(st.integers(1, playing // 4))
            divisor = 1 if first else draw(st.sampled_from([1, 2]))
            rows = tuple(
                tuple(
                    score
                    for _ in range(kept // 4)
                    for score in _table(
                        *draw(st.lists(st.integers(-300, 300), min_size=3, max_size=3)), 0
                    )
                )
                for _ in range(end - start)
            )
            steps.append(
                Step(session, start, kept=None if first else kept, divisor=divisor, positions=rows)
            )
            playing = kept
    return (
        n,
        steps,
        draw(st.sampled_from(list(HalvingRounding))),
        draw(st.sampled_from(list(EliminatedOrder))),
    )


def _tie_at_a_cut(doc: dict[str, Any]) -> bool:
    """Whether an eliminated entry ended a phase level with one that played on (who goes on
    is then article 29's at the cut, which the document does not carry)."""
    phases = []
    for session in doc["sessions"]:
        phases.append(session["entries"])
        phases += [cut["entries"] for cut in session.get("cuts", ())]
    for before, after in pairwise(phases):
        kept = {e["number"] for e in after}
        ends = {e["number"]: e["score"] + e["carried"] for e in before}
        out = [v for k, v in ends.items() if k not in kept]
        inn = [v for k, v in ends.items() if k in kept]
        if out and inn and max(out) >= min(inn):
            return True
    return False


@settings(max_examples=80, deadline=None)
@given(plans())
def test_any_consistent_plan_of_cuts_is_accepted_and_round_trips(plan):
    n, steps, rounding, order = plan
    doc = document(n, steps, rounding=rounding, order=order)
    if _tie_at_a_cut(doc):
        return
    season = Eliminations(rounding, order)
    assert _problems(doc, eliminations=season) == []
    parsed = parse_json(doc)
    from_csv = parse_csv(write_csv(parsed))
    assert from_csv == parsed
    assert results_sha256(from_csv) == results_sha256(parsed)
    assert ties_survive(parsed, format="individual", tie_break_rules=False, eliminations=season)
    # Whoever played a later phase ranks ahead of whoever was eliminated before it.
    places = expected_places(
        parsed, format="individual", tie_break_rules=False, eliminations=season
    )
    last_phase = {}
    k = 0
    for session in doc["sessions"]:
        for listed in [session["entries"], *(c["entries"] for c in session.get("cuts", ()))]:
            for e in listed:
                last_phase[e["number"]] = k
            k += 1
    for i, a in enumerate(parsed.entries):
        for j, b in enumerate(parsed.entries):
            if last_phase[a.number] > last_phase[b.number]:
                assert places[i] < places[j]


@settings(max_examples=60, deadline=None)
@given(plans(), st.data())
def test_any_carried_score_changed_is_refused_at_its_place(plan, data):
    n, steps, rounding, order = plan
    doc = document(n, steps, rounding=rounding, order=order)
    cut_entries = [
        (i, c, j)
        for i, session in enumerate(doc["sessions"])
        for c, cut in enumerate(session.get("cuts", ()))
        for j in range(len(cut["entries"]))
    ]
    if not cut_entries:
        return
    i, c, j = data.draw(st.sampled_from(cut_entries))
    doc["sessions"][i]["cuts"][c]["entries"][j]["carried"] += data.draw(st.sampled_from([-1, 1, 7]))
    assert (
        f"sessions[{i}].cuts[{c}].entries[{j}].carried",
        "cut_carried_score_mismatch",
    ) in _problems(doc, eliminations=Eliminations(rounding, order))


# ---------------------------------------------------------------------------------------------
# Score sheets


def sheets_of(n: int, steps: list[Step], cuts: list[dict[str, int]]) -> dict[str, Any]:
    """The score sheets of the same tournament: one marked deal per table per position,
    seated as :func:`document` seats them (the order of the ranking at each phase's start)."""
    doc = document(n, steps)
    order_at = []  # each phase's entry numbers in seating order
    for session in doc["sessions"]:
        order_at.append([e["number"] for e in session["entries"]])
        order_at += [[e["number"] for e in cut["entries"]] for cut in session.get("cuts", ())]
    sheets = []
    for step, seated in zip(steps, order_at, strict=True):
        for p, row in enumerate(step.positions):
            for t in range(len(seated) // 4):
                players = {seat: BASE + seated[4 * t + k] - 1 for k, seat in enumerate("NSEW")}
                scores = row[4 * t : 4 * t + 4]
                sheets.append({
                    "session": step.session, "position": step.after_position + p + 1,
                    "table": t + 1, "players": players, "deals": _deals(scores),
                })  # fmt: skip
    return {"format_version": 1, "score_sheets": sheets, "cuts": cuts}


def _deals(scores: tuple[int, ...]) -> list[dict[str, Any]]:
    """Deals marking ``scores`` (multiples of 4, summing to 0) at a table of 4: each seat
    takes once for a quarter of its score (3x to the taker, −x to each defender)."""
    deals: list[dict[str, Any]] = []
    for k, taker in enumerate("NSEW"):
        x = scores[k] // 4
        if x:
            deals.append({"marks": {seat: 3 * x if seat == taker else -x for seat in "NSEW"}})
    return deals or [{"contract": None}]


RECOMMENDED_CUTS = [
    {"session": 2, "points_divisor": 2},
    {"session": 2, "after_position": 1, "points_divisor": 2},
    {"session": 2, "after_position": 2},
]


def test_score_sheets_with_cuts_give_the_same_results_as_the_document():
    from_sheets = parse_score_sheets(
        sheets_of(16, RECOMMENDED, RECOMMENDED_CUTS), format="individual"
    )
    doc = parse_json(recommended())
    number_of = {BASE + i: i + 1 for i in range(16)}
    got = {number_of[e.players[0].licence_number]: (e.place, e.total) for e in from_sheets.entries}
    assert got == {e.number: (e.place, e.total) for e in doc.entries}
    for sheet_session, session in zip(from_sheets.sessions, doc.sessions, strict=True):
        assert sheet_session.points_divisor == session.points_divisor
        assert sorted((number_of[BASE + e.number - 1], e.score, e.carried)
                      for e in sheet_session.entries) == sorted(
            (e.number, e.score, e.carried) for e in session.entries)  # fmt: skip
        assert [(c.after_position, c.tables, c.points_divisor, len(c.entries))
                for c in sheet_session.cuts] == [
            (c.after_position, c.tables, c.points_divisor, len(c.entries)) for c in session.cuts
        ]  # fmt: skip
    validate(from_sheets, format="individual", licences=_licences(16), tie_break_rules=False)


def test_score_sheets_without_cuts_are_read_as_before():
    sheets = sheets_of(16, RECOMMENDED, [])
    del sheets["cuts"]
    plain = parse_score_sheets(sheets, format="individual")
    assert not plain.with_eliminations


def test_score_sheets_cuts_are_checked_like_the_document_and_located_on_the_cut():
    cuts = [*RECOMMENDED_CUTS[:2], {"session": 2, "after_position": 2, "points_divisor": 2}]
    refused_doc = parse_score_sheets(sheets_of(16, RECOMMENDED, cuts), format="individual")
    # The sheets decide who plays on and the carried scores; the divisor is the cut's.
    last = refused_doc.sessions[1].cuts[1]
    assert last.points_divisor == 2
    with pytest.raises(RuleViolation) as refused:
        parse_score_sheets(
            {**sheets_of(16, RECOMMENDED, RECOMMENDED_CUTS), "cuts": [{"session": 1}]},
            format="individual",
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("cuts[0].session", "cut_before_first_session")
    ]
    with pytest.raises(RuleViolation) as refused:
        parse_score_sheets(
            sheets_of(16, RECOMMENDED, [*RECOMMENDED_CUTS, {"session": 3}]), format="individual"
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("cuts[3].session", "session_without_score_sheets")
    ]


def test_score_sheets_with_cuts_in_championship_mode_rank_by_the_phases():
    from_sheets = parse_score_sheets(
        sheets_of(16, RECOMMENDED, RECOMMENDED_CUTS),
        format="individual",
        ranking=RankingMode.CHAMPIONSHIP,
    )
    assert sorted(e.place for e in from_sheets.entries)[:4] == [1, 2, 3, 4]


def test_score_sheets_seating_a_worse_player_after_a_cut_are_refused_on_the_cut():
    doc = recommended()
    cut = doc["sessions"][1]["cuts"][1]
    before = {
        e["number"]: e["score"] + e["carried"] for e in doc["sessions"][1]["cuts"][0]["entries"]
    }
    kept = {e["number"] for e in cut["entries"]}
    worst_kept = min(kept, key=lambda n: before[n])
    best_out = max((n for n in before if n not in kept), key=lambda n: before[n])
    assert before[worst_kept] > before[best_out]
    sheets = sheets_of(16, RECOMMENDED, RECOMMENDED_CUTS)
    swap = {BASE + worst_kept - 1: BASE + best_out - 1}
    for sheet in sheets["score_sheets"]:
        if sheet["session"] == 2 and sheet["position"] > 2:
            sheet["players"] = {seat: swap.get(key, key) for seat, key in sheet["players"].items()}
    document_read = parse_score_sheets(sheets, format="individual")
    with pytest.raises(RuleViolation) as refused:
        validate(document_read, format="individual", licences=_licences(16))
    assert ("cuts[2]", "eliminated_at_cut_ahead_of_continuing") in [
        (p.field, p.code) for p in refused.value.problems
    ]


def test_documents_with_cuts_follow_the_published_schemas():
    results = jsonschema.Draft202012Validator(schema.json_schema(schema.RESULTS_DOCUMENT))
    sheets = jsonschema.Draft202012Validator(schema.json_schema(schema.SCORE_SHEETS_DOCUMENT))
    assert not list(results.iter_errors(recommended()))
    assert not list(sheets.iter_errors(sheets_of(16, RECOMMENDED, RECOMMENDED_CUTS)))
    wrong = recommended()
    wrong["sessions"][1]["cuts"][0]["after_position"] = 0
    assert list(results.iter_errors(wrong))
    with pytest.raises(RuleViolation):
        parse_json(wrong)
