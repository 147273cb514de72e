"""Article 29 on submitted results, and sessions with eliminations and divided scores:
pure tests of the rules, no database."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.eliminations import EliminatedOrder, HalvingRounding, divided
from competitions.rules.engine.standings import Contender, TieBreakFigures, article_29_places
from competitions.rules.results import canonical_dict, parse_json, results_sha256, validate
from competitions.rules.results.csv_format import parse_csv
from competitions.rules.results.csv_writer import write_csv
from competitions.rules.results.licences import LicenceStatus
from competitions.rules.results.validation import ties_survive
from competitions.rules.rulebook import Eliminations, Rulebook
from core.problems import RuleViolation

BASE = 7000


def _licences(n: int) -> dict[int, LicenceStatus]:
    return {BASE + i: LicenceStatus.LICENSED for i in range(n)}


def _tb(best: int, prise: int = 0, garde: int = 0, sans: int = 0, contre: int = 0) -> dict:
    return {
        "best_position_score": best,
        "contracts_made": {"prise": prise, "garde": garde, "garde_sans": sans,
                           "garde_contre": contre},
    }  # fmt: skip


def one_session(totals, places, tiebreaks=None, deals=20) -> dict[str, Any]:
    n = len(totals)
    tables = math.ceil(n / 4)
    tiebreaks = tiebreaks or {}
    return {
        "format_version": 1,
        "sessions": [
            {"number": 1, "tables": tables, "tables_of_three": 4 * tables - n, "deals": deals}
        ],
        "entries": [
            {
                "number": i + 1,
                "place": places[i],
                "total": totals[i],
                "players": [{"licence_number": BASE + i, "total": totals[i]}],
                **({"tiebreak": tiebreaks[i]} if i in tiebreaks else {}),
            }
            for i in range(n)
        ],
    }


def codes(document: dict, **kwargs) -> list[str]:
    n = len(document["entries"])
    try:
        validate(parse_json(document), format="individual", licences=_licences(n), **kwargs)
    except RuleViolation as refused:
        return [p.code for p in refused.problems]
    return []


# A regional final's example: 20 players, two on +300 with best positions 400 and 250.
TOTALS = [300, 300, 200, 100, 50, 40, 30, 20, 10, 0, 0, -10, -20, -30, -40, -50, -100,
          -200, -300, -300]  # fmt: skip
PLACES = [1, 1, 3, 4, 5, 6, 7, 8, 9, 10, 10, 12, 13, 14, 15, 16, 17, 18, 19, 19]


def test_the_tie_at_300_is_refused_where_article_29_decides_and_kept_where_it_does_not():
    tiebreaks = {0: _tb(400), 1: _tb(250)}
    shared = one_session(TOTALS, PLACES, tiebreaks)
    assert codes(shared) == []  # an ordinary tournament keeps ties on total
    assert sorted(codes(shared, tie_break_rules=True)) == [
        "place_contradicts_article_29",  # entry 2: article 29 places it 2nd
        *["tie_needs_tiebreak_data"] * 4,  # entries 10, 11 level on 0, 19, 20 on -300
    ]


def _tie_at_300_document(first: int = 1, second: int = 2) -> dict:
    tiebreaks = {0: _tb(400), 1: _tb(250), 9: _tb(120), 10: _tb(120), 18: _tb(90), 19: _tb(80)}
    places = list(PLACES)
    places[0], places[1] = first, second
    places[19] = 20
    return one_session(TOTALS, places, tiebreaks)


def test_article_29_places_the_level_entries_and_the_refusal_is_located():
    assert codes(_tie_at_300_document(), tie_break_rules=True) == []
    with pytest.raises(RuleViolation) as refused:
        validate(
            parse_json(_tie_at_300_document(1, 1)),
            format="individual",
            licences=_licences(20),
            tie_break_rules=True,
        )
    (problem,) = refused.value.problems
    assert (problem.field, problem.code) == ("entries[1].place", "place_contradicts_article_29")
    assert problem.params["expected"] == 2


def test_the_refusal_names_the_csv_line_and_column():
    document = parse_json(_tie_at_300_document(1, 1))
    from_csv = parse_csv(write_csv(document))
    with pytest.raises(RuleViolation) as refused:
        validate(from_csv, format="individual", licences=_licences(20), tie_break_rules=True)
    (problem,) = refused.value.problems
    assert problem.field == "lines[4].place"  # header, session, entry 1, then entry 2


def test_a_tie_that_survives_every_criterion_shares_and_is_known_to_survive():
    document = _tie_at_300_document()
    document["entries"][1]["tiebreak"] = _tb(400)
    document["entries"][1]["place"] = 1
    assert codes(document, tie_break_rules=True) == []
    parsed = parse_json(document)
    assert ties_survive(parsed, format="individual", tie_break_rules=True)
    # The same tie where article 29 separates them does not survive.
    document["entries"][1]["tiebreak"] = _tb(400, prise=1)
    assert not ties_survive(parse_json(document), format="individual", tie_break_rules=True)


def test_a_split_tie_in_the_wrong_article_29_order_is_still_refused():
    assert codes(_tie_at_300_document(2, 1), tie_break_rules=True) == [
        "tiebreak_contradicts_places"
    ]


# ---------------------------------------------------------------------------------------------
# article_29_places: a permutation consistent with totals and tie-breaks

figures = st.builds(
    TieBreakFigures,
    best_position_score=st.integers(-3, 3),
    contracts_made=st.integers(0, 2),
    garde_contre_made=st.integers(0, 1),
    garde_sans_made=st.integers(0, 1),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), figures), min_size=1, max_size=25))
def test_places_are_1224_consistent_with_totals_then_article_29(rows):
    contenders = [Contender((-total,), f) for total, f in rows]
    places = article_29_places(contenders)
    n = len(rows)
    for i in range(n):
        better = sum(
            1 for j in range(n) if (-rows[j][0], _key(rows[j][1])) < (-rows[i][0], _key(rows[i][1]))
        )
        assert places[i] == better + 1  # 1 + the entries strictly ahead
    # Sharing a place means level on the total and on every figure.
    for i in range(n):
        for j in range(n):
            if places[i] == places[j]:
                assert rows[i] == rows[j]
    assert sorted(places)[0] == 1
    assert len(set(places)) == len({tuple(r) for r in rows})  # one place per distinct row


def _key(f: TieBreakFigures) -> tuple[int, ...]:
    return (-f.best_position_score, -f.contracts_made, -f.garde_contre_made, -f.garde_sans_made)


def test_a_group_with_missing_figures_shares_its_best_place():
    places = article_29_places(
        [Contender((0,), None), Contender((0,), TieBreakFigures(5, 0, 0, 0)), Contender((1,), None)]
    )
    assert places == (1, 1, 3)


# ---------------------------------------------------------------------------------------------
# Halving


@pytest.mark.parametrize(
    ("rounding", "expected"),
    [
        (HalvingRounding.HALF_AWAY_FROM_ZERO, (38, -38, 0, 1, -1)),
        (HalvingRounding.TOWARD_ZERO, (37, -37, 0, 0, 0)),
        (HalvingRounding.DOWN, (37, -38, 0, 0, -1)),
        (HalvingRounding.UP, (38, -37, 0, 1, 0)),
    ],
)
def test_an_odd_score_halved_is_rounded_as_the_season_says(rounding, expected):
    assert tuple(divided(s, 2, rounding) for s in (75, -75, 0, 1, -1)) == expected


@given(st.integers(-10_000, 10_000), st.sampled_from(list(HalvingRounding)))
def test_halving_is_within_one_of_the_exact_half_and_exact_when_even(score, rounding):
    half = divided(score, 2, rounding)
    assert abs(2 * half - score) <= 1
    if score % 2 == 0:
        assert half == score // 2
    assert divided(score, 1, rounding) == score


def test_the_rulebook_defaults_and_reads_versions_stored_before_the_settings():
    rulebook = Rulebook.default()
    assert rulebook.eliminations == Eliminations(
        HalvingRounding.HALF_AWAY_FROM_ZERO, EliminatedOrder.SCORE_THEN_ARTICLE_29
    )
    stored = rulebook.to_dict()
    assert stored["eliminations"] == {
        "halving_rounding": "half_away_from_zero",
        "eliminated_order": "score_then_article_29",
    }
    del stored["eliminations"]
    assert Rulebook.from_dict(stored) == rulebook
    stored["eliminations"] = {"halving_rounding": "up", "eliminated_order": "shared"}
    assert Rulebook.from_dict(stored).eliminations.eliminated_order is EliminatedOrder.SHARED
    stored["eliminations"]["halving_rounding"] = "bankers"
    with pytest.raises(RuleViolation) as refused:
        Rulebook.from_dict(stored)
    assert refused.value.problems[0].field == "eliminations.halving_rounding"


# ---------------------------------------------------------------------------------------------
# Sessions with eliminations


def staged(
    first: list[int],
    kept: int,
    second: list[int],
    *,
    divisor: int = 2,
    rounding: HalvingRounding = HalvingRounding.HALF_AWAY_FROM_ZERO,
    order: EliminatedOrder = EliminatedOrder.SCORE_THEN_ARTICLE_29,
    tiebreaks: dict[int, dict] | None = None,
) -> dict[str, Any]:
    """Individual: session 1 scores ``first`` (entry i+1), the best ``kept`` play session 2
    and score ``second`` (in the order of session 1's ranking), scores carried divided by
    ``divisor``. Totals and places computed here, independently of the validation."""
    n = len(first)
    ranked = sorted(range(n), key=lambda i: -first[i])
    going_on = ranked[:kept]
    out = ranked[kept:]
    carried = {i: divided(first[i], divisor, rounding) for i in going_on}
    totals = {i: carried[i] + second[k] for k, i in enumerate(going_on)}
    totals.update({i: first[i] for i in out})
    places: dict[int, int] = {}
    for i in going_on:
        places[i] = 1 + sum(1 for j in going_on if totals[j] > totals[i])
    for i in out:
        if order is EliminatedOrder.SHARED:
            places[i] = kept + 1
        else:
            places[i] = kept + 1 + sum(1 for j in out if totals[j] > totals[i])
    tables1, tables2 = math.ceil(n / 4), math.ceil(kept / 4)
    return {
        "format_version": 1,
        "sessions": [
            {"number": 1, "tables": tables1, "tables_of_three": 4 * tables1 - n, "deals": 20,
             "entries": [{"number": i + 1, "score": first[i]} for i in range(n)]},
            {"number": 2, "tables": tables2, "tables_of_three": 4 * tables2 - kept, "deals": 20,
             "points_divisor": divisor,
             "entries": [{"number": i + 1, "score": second[k], "carried": carried[i]}
                         for k, i in enumerate(going_on)]},
        ],
        "entries": [
            {"number": i + 1, "place": places[i], "total": totals[i],
             "players": [{"licence_number": BASE + i}],
             **({"tiebreak": (tiebreaks or {})[i]} if i in (tiebreaks or {}) else {})}
            for i in range(n)
        ],
    }  # fmt: skip


# 12 players, 4 eliminated after session 1, scores halved.
FIRST = [301, 250, 175, 120, 75, 20, -10, -45, -150, -201, -230, -305]  # sums to 0
SECOND = [120, -80, 60, -40, 30, -50, 10, -50]  # the 8 kept, sums to 0


def test_eliminating_4_of_12_with_halving_is_valid_and_hashes_stably():
    document = staged(FIRST, 8, SECOND)
    # carried: 301 → 151 (half away from zero), -45 → -23
    carried = {e["number"]: e["carried"] for e in document["sessions"][1]["entries"]}
    assert carried == {1: 151, 2: 125, 3: 88, 4: 60, 5: 38, 6: 10, 7: -5, 8: -23}
    assert codes(document) == []
    assert codes(document, tie_break_rules=True) == []
    parsed = parse_json(document)
    assert parse_json(canonical_dict(parsed)) == parsed
    assert parse_csv(write_csv(parsed)) == parsed
    assert results_sha256(parse_csv(write_csv(parsed))) == results_sha256(parsed)
    # An eliminated entry with a better total than a qualified one still ranks after it.
    places = {e["number"]: (e["place"], e["total"]) for e in document["entries"]}
    assert places[8] == (8, -73)
    assert places[9] == (9, -150)
    assert places[1] == (1, 271)


def test_old_documents_without_session_entries_keep_their_hash():
    document = one_session([30, 10, -10, -30] * 3, [1, 4, 7, 10] * 3)
    canonical = canonical_dict(parse_json(document))
    assert set(canonical["sessions"][0]) == {"number", "tables", "tables_of_three", "deals"}


def _problems(document: dict, **kwargs) -> list[tuple[str, str]]:
    n = len(document["entries"])
    try:
        validate(parse_json(document), format="individual", licences=_licences(n), **kwargs)
    except RuleViolation as refused:
        return [(p.field, p.code) for p in refused.problems]
    return []


TRUNCATED = Eliminations(HalvingRounding.TOWARD_ZERO, EliminatedOrder.SCORE_THEN_ARTICLE_29)


def test_a_carried_score_not_halved_as_the_season_rounds_is_refused_located():
    document = staged(FIRST, 8, SECOND)
    assert _problems(
        document,
        eliminations=TRUNCATED,
    )[0] == ("sessions[1].entries[0].carried", "carried_score_mismatch")
    truncated = staged(FIRST, 8, SECOND, rounding=HalvingRounding.TOWARD_ZERO)
    assert (
        codes(
            truncated,
            eliminations=TRUNCATED,
        )
        == []
    )


def test_scores_of_a_session_must_sum_to_zero_among_those_who_play_it():
    document = staged(FIRST, 8, SECOND)
    document["sessions"][1]["entries"][0]["score"] += 10
    document["entries"][0]["total"] += 10
    assert _problems(document) == [("sessions[1].entries", "session_scores_do_not_sum_to_zero")]


def test_the_continuing_entries_are_the_best_of_the_session_before():
    document = staged(FIRST, 8, SECOND)
    # Swap entry 8 (kept, -45) and entry 9 (eliminated, -150) in session 2.
    document["sessions"][1]["entries"][7]["number"] = 9
    document["sessions"][1]["entries"][7]["carried"] = -75
    document["entries"][8]["total"] = -75 - 50
    document["entries"][7]["total"] = -45
    found = {code: field for field, code in _problems(document)}
    assert found["eliminated_ahead_of_continuing"] == "sessions[1].entries"


def test_eliminated_entries_rank_after_the_others_then_as_the_season_says():
    shared = staged(FIRST, 8, SECOND, order=EliminatedOrder.SHARED)
    assert {e["place"] for e in shared["entries"][8:]} == {9}
    assert _problems(shared)[0][1] == "place_contradicts_sessions"
    assert (
        codes(
            shared,
            eliminations=Eliminations(HalvingRounding.HALF_AWAY_FROM_ZERO, EliminatedOrder.SHARED),
        )
        == []
    )
    assert ties_survive(
        parse_json(shared),
        format="individual",
        tie_break_rules=True,
        eliminations=Eliminations(HalvingRounding.HALF_AWAY_FROM_ZERO, EliminatedOrder.SHARED),
    )


def test_an_eliminated_entry_placed_by_its_total_among_all_is_refused_located():
    document = staged(FIRST, 8, SECOND)
    # Entry 9 (eliminated on -150) placed above entry 8 (on -73 after session 2)? It is 9th.
    document["entries"][8]["place"] = 8
    document["entries"][7]["place"] = 9
    assert _problems(document) == [
        ("entries[7].place", "place_contradicts_sessions"),
        ("entries[8].place", "place_contradicts_sessions"),
    ]


def test_session_lists_must_be_coherent():
    document = staged(FIRST, 8, SECOND)
    document["sessions"][0]["entries"].pop()  # entry 12 not in session 1
    document["sessions"][0]["entries"][0]["carried"] = 5
    del document["sessions"][1]["points_divisor"]
    found = {code for _, code in _problems(document)}
    assert {
        "session_entry_missing",
        "carried_into_first_session",
        "carried_score_mismatch",
    } <= found


def test_a_total_that_is_not_the_end_of_the_last_session_played_is_refused():
    document = staged(FIRST, 8, SECOND)
    document["entries"][0]["total"] = FIRST[0] + SECOND[0]  # not halved
    assert ("entries[0].total", "staged_total_mismatch") in _problems(document)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(12, 24).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(-300, 300), min_size=n - 1, max_size=n - 1),
            st.integers(math.ceil(n * 0.5), n - 1),
            st.lists(st.integers(-200, 200), min_size=n, max_size=n),
            st.sampled_from(list(HalvingRounding)),
        )
    )
)
def test_any_consistent_staged_tournament_is_accepted(case):
    head, kept, tail, rounding = case
    first = [*head, -sum(head)]
    second = [*tail[: kept - 1], -sum(tail[: kept - 1])]
    document = staged(first, kept, second, rounding=rounding)
    scores = [e["score"] for s in document["sessions"] for e in s["entries"]]
    assert sum(scores) == 0  # each session sums to zero among those who play it
    ranked = sorted(range(len(first)), key=lambda i: -first[i])
    if first[ranked[kept - 1]] == first[ranked[kept]]:
        return  # a tie on the cut: who goes on is the arbiter's (article 29 at the cut)
    assert (
        codes(
            document,
            eliminations=Eliminations(rounding, EliminatedOrder.SCORE_THEN_ARTICLE_29),
        )
        == []
    )


# With every position score: 3 tables of 4 in session 1, the best 8 at 2 tables in session 2.
TABLED_FIRST = [300, -80, -100, -120, 150, 50, -90, -110, 90, -10, -30, -50]  # tables of 4
TABLED_SECOND = [60, -20, -20, -20, 45, -15, -15, -15]  # in session 1's order, tables of 4


def _with_positions() -> dict[str, Any]:
    document = staged(TABLED_FIRST, 8, TABLED_SECOND)
    kept = [e["number"] for e in document["sessions"][1]["entries"]]
    for i, entry in enumerate(document["entries"]):
        positions = [{"session": 1, "position": 1, "table": i // 4 + 1, "score": TABLED_FIRST[i]}]
        if entry["number"] in kept:
            k = kept.index(entry["number"])
            positions.append(
                {"session": 2, "position": 1, "table": k // 4 + 1, "score": TABLED_SECOND[k]}
            )
        entry["players"][0]["positions"] = positions
    return document


def test_position_scores_agree_with_the_session_lists():
    document = _with_positions()
    places = {e["number"]: (e["place"], e["total"]) for e in document["entries"]}
    assert places[1] == (1, 210)  # 300 / 2 + 60
    assert places[10] == (3, 40)  # -10 → -5, + 45
    assert places[7] == (9, -90)  # eliminated, first of the eliminated
    assert codes(document, tie_break_rules=True) == []


def test_a_session_score_that_is_not_its_positions_is_refused_located():
    document = _with_positions()
    document["sessions"][1]["entries"][0]["score"] = 70
    document["sessions"][1]["entries"][1]["score"] = -30
    assert ("sessions[1].entries[0].score", "session_score_mismatch") in _problems(document)


def test_an_eliminated_player_with_a_score_after_the_cut_is_refused():
    document = _with_positions()
    document["entries"][6]["players"][0]["positions"].append(
        {"session": 2, "position": 1, "table": 2, "score": 0}
    )
    assert (
        "entries[6].players[0].positions[1].session",
        "score_in_session_not_played",
    ) in _problems(document)
