"""validate(): every check of a results document, each with where it points."""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import pytest

from competitions.rules.results import (
    LicenceStatus,
    ValidatedResults,
    parse_json,
    results_sha256,
    validate,
)
from core.problems import RuleViolation
from tests.competitions.rules.results.licences import licensed
from tests.competitions.rules.results.refusals import messages, refusal
from tests.competitions.rules.results.tournament_builder import play


def check(document: dict[str, Any], fmt: str = "individual", **options: Any) -> ValidatedResults:
    return validate(parse_json(document), format=fmt, licences=licensed(document), **options)


def codes(document: dict[str, Any], fmt: str = "individual", **options: Any):
    return refusal(lambda: check(document, fmt, **options))


def entry_at(document: dict[str, Any], place: int) -> tuple[int, dict[str, Any]]:
    """(index, entry) of the entry placed ``place``."""
    return next((i, e) for i, e in enumerate(document["entries"]) if e["place"] == place)


def ranking(*rows: tuple, deals: int = 24) -> dict[str, Any]:
    """An individual document of one session from (total, place[, abandoned[, tiebreak]]) rows.

    The totals must sum to 0; no position scores.
    """
    assert sum(row[0] for row in rows) == 0
    tables = math.ceil(len(rows) / 4)
    entries = []
    for k, row in enumerate(rows):
        total, place = row[0], row[1]
        abandoned = row[2] if len(row) > 2 else False
        tiebreak = row[3] if len(row) > 3 else None
        entries.append(
            {
                "number": k + 1,
                "place": place,
                "total": total,
                "abandoned": abandoned,
                "players": [{"licence_number": 500_001 + k, "name": f"P{k + 1}", "total": total}],
                "tiebreak": tiebreak,
            }
        )
    return {
        "format_version": 1,
        "sessions": [
            {
                "number": 1,
                "tables": tables,
                "tables_of_three": 4 * tables - len(rows),
                "deals": deals,
            }
        ],
        "entries": entries,
    }


def tiebreak(best: int | None, prise=0, garde=0, garde_sans=0, garde_contre=0) -> dict[str, Any]:
    return {
        "best_position_score": best,
        "contracts_made": {
            "prise": prise,
            "garde": garde,
            "garde_sans": garde_sans,
            "garde_contre": garde_contre,
        },
    }


# ---------------------------------------------------------------------------
# What a valid document gives the caller
# ---------------------------------------------------------------------------


def test_a_played_tournament_validates_with_what_allocation_needs(results):
    validated = check(results)
    assert validated.warnings == ()
    assert validated.first_session_players == 12
    assert validated.first_session_entries == 12
    assert validated.total_tables == 6  # chapter 5: the tables of every session, summed
    assert validated.places == {e["number"]: e["place"] for e in results["entries"]}
    assert validated.licensed == frozenset(range(100_001, 100_013))
    assert validated.format == "individual"
    assert validated.sha256 == results_sha256(validated.document)
    assert len(validated.sha256) == 64


def test_the_format_is_one_of_the_three():
    doc = parse_json(ranking((0, 1)))
    assert refusal(lambda: validate(doc, format="triplette", licences={})) == [
        ("format", "unknown_format")
    ]


# ---------------------------------------------------------------------------
# Licences: warnings, never errors
# ---------------------------------------------------------------------------


def test_unknown_licence_numbers_are_refused_and_unlicensed_players_warned(results):
    document = parse_json(results)
    licences = licensed(document)
    licences[100_003] = LicenceStatus.NOT_LICENSED_THIS_SEASON
    del licences[100_005]  # absent: unknown
    licences[100_006] = "unknown"  # the caller may pass the values as text
    assert refusal(lambda: validate(document, format="individual", licences=licences)) == [
        ("entries[4].players[0].licence_number", "unknown_licence_number"),
        ("entries[5].players[0].licence_number", "unknown_licence_number"),
    ]
    licences[100_005] = licences[100_006] = LicenceStatus.LICENSED
    validated = validate(document, format="individual", licences=licences)
    assert [(w.field, w.code) for w in validated.warnings] == [
        ("entries[2].players[0].licence_number", "not_licensed_this_season"),
    ]
    assert "no points" in validated.warnings[0].message
    assert 100_003 not in validated.licensed
    assert len(validated.licensed) == 11


def test_a_player_without_licence_number_is_ranked_without_points(results):
    player = results["entries"][3]["players"][0]
    player["licence_number"] = None
    player["name"] = "LEBLANC Hugo"
    validated = check(results)
    assert [(w.field, w.code) for w in validated.warnings] == [
        ("entries[3].players[0].licence_number", "no_licence_number")
    ]
    assert "LEBLANC Hugo" in validated.warnings[0].message


def test_a_licence_number_entered_twice_is_refused_wherever_it_is(results):
    results["entries"][7]["players"][0]["licence_number"] = 100_002
    problems = codes(results)
    assert ("entries[7].players[0].licence_number", "duplicate_licence_number") in problems
    assert "entries[1].players[0]" in messages(lambda: check(results))[0]


def test_entry_numbers_are_unique(results):
    results["entries"][4]["number"] = 1
    assert codes(results) == [("entries[4].number", "duplicate_entry_number")]


@pytest.mark.parametrize(("fmt", "size"), [("duo", 2), ("team4", 4)])
def test_each_entry_has_the_format_team_size(results, fmt, size):
    problems = codes(results, fmt)
    assert ("entries[0].players", "wrong_team_size") in problems
    assert len([p for p in problems if p[1] == "wrong_team_size"]) == 12
    message = messages(lambda: check(results, fmt))[0]
    assert f"has {size}" in message


# ---------------------------------------------------------------------------
# Totals
# ---------------------------------------------------------------------------


def test_entry_total_is_the_sum_of_its_players_totals(results):
    results["entries"][0]["total"] += 10
    problems = codes(results)
    assert ("entries[0].total", "entry_total_mismatch") in problems


def test_player_total_is_position_scores_less_penalties(results):
    penalised = results["penalties"][0]["licence_number"]
    index = next(
        i
        for i, e in enumerate(results["entries"])
        if e["players"][0]["licence_number"] == penalised
    )
    results["penalties"] = []  # the 100 points taken off the total are no longer explained
    problems = codes(results)
    assert (f"entries[{index}].players[0].total", "player_total_mismatch") in problems
    assert ("entries", "totals_do_not_sum_to_zero") in problems


def test_totals_and_penalties_sum_to_zero():
    document = ranking((300, 1), (100, 2), (-100, 3), (-300, 4))
    document["entries"][0]["total"] = document["entries"][0]["players"][0]["total"] = 310
    assert codes(document, minimum_entries=1) == [("entries", "totals_do_not_sum_to_zero")]


# ---------------------------------------------------------------------------
# Position scores
# ---------------------------------------------------------------------------


def test_scores_at_a_table_sum_to_zero(results):
    player = results["entries"][0]["players"][0]
    player["positions"][0]["score"] += 20  # session 1, position 1, table 2
    player["total"] += 20
    results["entries"][0]["total"] += 20
    problems = codes(results)
    assert ("entries[0].players[0].positions[0].score", "table_scores_do_not_sum_to_zero") in (
        problems
    )
    message = next(m for m in messages(lambda: check(results)) if "sum to +20" in m)
    assert message.startswith(
        "Session 1, position 1, table 2: the scores (100001 (PLAYER 100001) +262, "
    )


def test_a_player_sits_at_one_table_per_position(results):
    positions = results["entries"][0]["players"][0]["positions"]
    moved = dict(positions[0], table=positions[0]["table"] % 3 + 1)
    positions.append(moved)
    problems = codes(results)
    assert ("entries[0].players[0].positions[4].table", "player_at_two_tables") in problems


def test_a_position_score_given_twice_is_refused(results):
    positions = results["entries"][0]["players"][0]["positions"]
    positions.append(dict(positions[0]))
    assert ("entries[0].players[0].positions[4]", "duplicate_position_score") in codes(results)


def test_position_scores_name_declared_sessions_and_existing_tables(results):
    positions = results["entries"][2]["players"][0]["positions"]
    positions[0]["session"] = 3
    positions[1]["table"] = 4
    problems = codes(results)
    assert ("entries[2].players[0].positions[0].session", "position_session_not_declared") in (
        problems
    )
    assert ("entries[2].players[0].positions[1].table", "table_out_of_range") in problems


def test_a_table_of_five_is_not_homologable(results):
    # move a player of table 1 to table 2 at session 1, position 1: tables of 3 and 5
    for entry in results["entries"]:
        position = entry["players"][0]["positions"][0]
        if position["table"] == 1:
            position["table"] = 2
            break
    problems = codes(results)
    assert any(code == "table_of_five_not_homologable" for _, code in problems)
    assert ("sessions[0].tables_of_three", "tables_of_three_mismatch") in problems


def test_a_table_of_two_does_not_exist():
    document = ranking((300, 1), (100, 2), (-100, 3), (-300, 4))
    for entry, table in zip(document["entries"], (1, 1, 1, 2), strict=True):
        player = entry["players"][0]
        player["positions"] = [
            {"session": 1, "position": 1, "table": table, "score": player["total"]}
        ]
    document["sessions"][0]["tables"] = 2
    document["sessions"][0]["tables_of_three"] = 4
    problems = codes(document, minimum_entries=1)
    assert ("sessions[0].tables_of_three", "tables_of_three_exceed_tables") in problems
    assert ("entries[3].players[0].positions[0].table", "wrong_table_size") in problems


def test_position_scores_are_given_for_every_player_or_none(results):
    results["entries"][5]["players"][0]["positions"] = []
    assert ("entries[5].players[0].positions", "missing_position_scores") in codes(results)


def test_a_player_misses_no_position_unless_his_entry_abandoned(results):
    index, entry = entry_at(results, 12)
    player = entry["players"][0]
    del player["positions"][-1]
    player["total"] = sum(p["score"] for p in player["positions"]) - sum(
        p["points"] for p in results["penalties"] if p["licence_number"] == player["licence_number"]
    )
    entry["total"] = player["total"]
    problems = codes(results)
    assert (f"entries[{index}].players[0].positions", "missing_position_score") in problems
    assert "session 2 position 2" in " ".join(messages(lambda: check(results)))


def test_the_best_position_score_given_agrees_with_the_position_scores(results):
    results["entries"][0]["tiebreak"]["best_position_score"] += 1
    assert codes(results) == [
        ("entries[0].tiebreak.best_position_score", "best_position_score_mismatch")
    ]


def test_contracts_made_cannot_exceed_the_deals_played(results):
    results["entries"][0]["tiebreak"]["contracts_made"]["garde"] = 13  # 12 deals played
    assert codes(results) == [("entries[0].tiebreak.contracts_made", "too_many_contracts_made")]


# ---------------------------------------------------------------------------
# Sessions and table counts
# ---------------------------------------------------------------------------


def test_sessions_are_numbered_from_one_without_gaps(results):
    results["sessions"][1]["number"] = 3
    for entry in results["entries"]:
        for position in entry["players"][0]["positions"]:
            if position["session"] == 2:
                position["session"] = 3
    assert codes(results) == [("sessions[1].number", "session_numbers_not_consecutive")]


def test_a_session_is_declared_once(results):
    results["sessions"][1]["number"] = 1
    problems = codes(results)
    assert ("sessions[1].number", "duplicate_session_number") in problems


def test_a_document_declares_sessions():
    document = ranking((0, 1))
    document["sessions"] = []
    assert ("sessions", "no_sessions") in codes(document, minimum_entries=1)


def test_sessions_have_tables_and_deals():
    document = ranking((300, 1), (100, 2), (-100, 3), (-300, 4))
    document["sessions"][0].update(tables=0, deals=0)
    problems = codes(document, minimum_entries=1)
    assert ("sessions[0].tables", "no_tables") in problems
    assert ("sessions[0].deals", "no_deals") in problems


def test_first_session_tables_seat_exactly_the_players(results):
    results["sessions"][0]["tables"] = 4
    results["sessions"][0]["tables_of_three"] = 3  # 13 players
    problems = codes(results)
    assert ("sessions[0].tables", "first_session_players_mismatch") in problems
    message = next(m for m in messages(lambda: check(results)) if "Session 1 declares" in m)
    assert "seat 13 players, but the entries name 12" in message
    assert "12 players sit at 3 table(s), 0 of them of 3" in message


def test_thirteen_players_need_a_table_of_three_not_of_five():
    document = ranking(*[(0, 1)] * 13)
    document["sessions"][0].update(tables=3, tables_of_three=0)
    problems = messages(lambda: check(document))
    assert len(problems) == 1
    assert "13 players sit at 4 table(s), 3 of them of 3" in problems[0]
    assert "A table of 5 is declared in tables_of_five" in problems[0]
    assert "the 5-player game is not homologable" in problems[0]


def test_thirteen_players_at_a_table_of_five_with_a_mort():
    document = ranking(*[(0, 1)] * 13)
    document["sessions"][0].update(tables=3, tables_of_three=0, tables_of_five=1)
    assert check(document).total_tables == 3
    document["sessions"][0].update(tables=3, tables_of_three=3, tables_of_five=1)
    assert ("sessions[0].tables_of_five", "tables_of_five_exceed_tables") in codes(document)


def test_a_later_session_cannot_have_more_tables_than_the_first(results):
    results["sessions"][1]["tables"] = 4
    results["sessions"][1]["tables_of_three"] = 4
    problems = codes(results)
    assert ("sessions[1].tables", "more_tables_than_first_session") in problems


def test_later_session_tables_seat_the_players_who_have_scores_in_it(results):
    results["sessions"][1]["tables_of_three"] = 1
    problems = codes(results)
    assert ("sessions[1].tables", "session_players_mismatch") in problems
    assert ("sessions[1].tables_of_three", "tables_of_three_mismatch") in problems


def test_sessions_match_the_declaration_when_given(results):
    assert check(results, planned_sessions=2).total_tables == 6
    assert codes(results, planned_sessions=3) == [("sessions", "sessions_differ_from_declaration")]


# ---------------------------------------------------------------------------
# Places ("1224" convention, article 27, article 29)
# ---------------------------------------------------------------------------


def test_places_follow_totals():
    document = ranking((300, 2), (100, 1), (-100, 3), (-300, 4))
    assert codes(document, minimum_entries=1) == [  # both are misplaced: each said once
        ("entries[0].place", "wrong_place"),
        ("entries[1].place", "wrong_place"),
    ]
    moved = ranking((300, 1), (100, 3), (-100, 3), (-300, 4))
    assert codes(moved, minimum_entries=1) == [("entries[1].place", "wrong_place")]


def test_equal_totals_share_a_place_and_take_up_as_many_places():
    assert check(ranking((300, 1), (300, 1), (-200, 3), (-400, 4)), minimum_entries=1)
    document = ranking((300, 1), (300, 1), (-200, 2), (-400, 3))
    assert codes(document, minimum_entries=1) == [
        ("entries[2].place", "wrong_place"),
        ("entries[3].place", "wrong_place"),
    ]
    level = ranking((300, 1), (100, 2), (-200, 4), (-200, 4))  # level on 3rd: 3 and 3
    assert codes(level, minimum_entries=1) == [
        ("entries[2].place", "place_sequence_broken"),
        ("entries[3].place", "place_sequence_broken"),
    ]


def test_only_equal_totals_share_a_place():
    document = ranking((300, 1), (200, 1), (-100, 3), (-400, 4))
    assert codes(document, minimum_entries=1) == [("entries[1].place", "wrong_place")]


def test_places_run_from_one_to_the_number_of_entries():
    document = ranking((300, 1), (200, 2), (-100, 3), (-400, 5))
    assert codes(document, minimum_entries=1) == [("entries[3].place", "place_out_of_range")]


def test_an_abandoned_entry_is_ranked_after_everyone_whatever_its_total():
    assert check(ranking((300, 4, True), (200, 1), (-100, 2), (-400, 3)), minimum_entries=1)
    document = ranking((300, 1, True), (200, 2), (-100, 3), (-400, 4))
    assert codes(document, minimum_entries=1) == [
        ("entries[0].place", "wrong_place"),
        ("entries[1].place", "wrong_place"),
        ("entries[2].place", "wrong_place"),
        ("entries[3].place", "wrong_place"),
    ]
    shared = ranking((200, 1, True), (200, 1), (-100, 2), (-300, 3))
    assert codes(shared, minimum_entries=1) == [("entries[0].place", "wrong_place")]
    assert "abandoned" in messages(lambda: check(shared, minimum_entries=1))[0]


def test_level_entries_may_be_split_only_with_tie_break_data():
    document = ranking((200, 1), (200, 2), (-100, 3), (-300, 4))
    assert codes(document, minimum_entries=1) == [
        ("entries[0].tiebreak", "tie_split_without_tiebreak"),
        ("entries[1].tiebreak", "tie_split_without_tiebreak"),
    ]
    split = ranking(
        (200, 1, False, tiebreak(180, prise=2)),
        (200, 2, False, tiebreak(150, prise=5)),
        (-100, 3),
        (-300, 4),
    )
    assert check(split, minimum_entries=1).places == {1: 1, 2: 2, 3: 3, 4: 4}


def test_level_entries_with_tie_break_data_may_still_share_their_place():
    shared = ranking(
        (200, 1, False, tiebreak(180)), (200, 1, False, tiebreak(150)), (-100, 3), (-300, 4)
    )
    assert check(shared, minimum_entries=1).places[2] == 1


@pytest.mark.parametrize(
    ("upper", "lower", "code"),
    [
        (tiebreak(150), tiebreak(180), "tiebreak_contradicts_places"),
        (tiebreak(150, prise=3), tiebreak(150, prise=4), "tiebreak_contradicts_places"),
        (
            tiebreak(150, prise=3, garde_contre=0),
            tiebreak(150, prise=2, garde_contre=1),
            "tiebreak_contradicts_places",
        ),
        (
            tiebreak(150, prise=1, garde_sans=0),
            tiebreak(150, garde_sans=1),
            "tiebreak_contradicts_places",
        ),
        (tiebreak(150, garde=2), tiebreak(150, garde=2), "tie_split_on_equal_tiebreak"),
    ],
)
def test_article_29_orders_level_entries(upper, lower, code):
    document = ranking((200, 1, False, upper), (200, 2, False, lower), (-100, 3), (-300, 4))
    assert codes(document, minimum_entries=1) == [("entries[1].place", code)]
    message = messages(lambda: check(document, minimum_entries=1))[0]
    assert "level on 200" in message


def test_article_29_in_its_order_best_position_then_contracts_then_surcontracts():
    # best position decides before the number of contracts
    assert check(
        ranking(
            (200, 1, False, tiebreak(180)),
            (200, 2, False, tiebreak(150, prise=9)),
            (-100, 3),
            (-300, 4),
        ),
        minimum_entries=1,
    )
    # then garde contre before garde sans, with as many contracts
    assert check(
        ranking(
            (200, 1, False, tiebreak(150, prise=1, garde_contre=1)),
            (200, 2, False, tiebreak(150, prise=0, garde_sans=2)),
            (-100, 3),
            (-300, 4),
        ),
        minimum_entries=1,
    )


def test_the_best_position_score_may_come_from_the_position_scores():
    document = ranking(
        (200, 1, False, tiebreak(None)),
        (200, 2, False, tiebreak(None)),
        (-100, 3),
        (-300, 4),
    )
    scores = [(300, -100), (100, 100), (-100, 0), (-300, 0)]
    for entry, (first, second) in zip(document["entries"], scores, strict=True):
        entry["players"][0]["positions"] = [
            {"session": 1, "position": 1, "table": 1, "score": first},
            {"session": 1, "position": 2, "table": 1, "score": second},
        ]
    assert check(document, minimum_entries=1).places == {1: 1, 2: 2, 3: 3, 4: 4}
    document["entries"][0]["place"], document["entries"][1]["place"] = 2, 1
    assert codes(document, minimum_entries=1) == [
        ("entries[0].place", "tiebreak_contradicts_places")
    ]


def test_a_best_position_score_neither_given_nor_computable_cannot_split_a_tie():
    document = ranking(
        (200, 1, False, tiebreak(None, prise=3)),
        (200, 2, False, tiebreak(150)),
        (-100, 3),
        (-300, 4),
    )
    assert codes(document, minimum_entries=1) == [
        ("entries[0].tiebreak", "tie_split_without_tiebreak")
    ]


# ---------------------------------------------------------------------------
# Homologation conditions, penalties
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "minimum"), [("individual", 11), ("duo", 6), ("team4", 5)])
def test_minimum_participation_for_homologation(fmt, minimum):
    size = {"individual": 1, "duo": 2, "team4": 4}[fmt]
    tournament = play(random.Random(3), players=(minimum - 1) * size, team_size=size)
    document = tournament.results_document()
    assert codes(document, fmt) == [("entries", "below_minimum_participation")]
    assert check(document, fmt, minimum_entries=minimum - 1)
    tournament = play(random.Random(3), players=minimum * size, team_size=size)
    assert check(tournament.results_document(), fmt)


def test_a_penalty_hits_a_player_of_the_results(results):
    results["penalties"].append(
        {"licence_number": 999_999, "points": 100, "kind": "slowness", "reason": "Slow play."}
    )
    problems = codes(results)
    assert ("penalties[1].licence_number", "penalty_player_not_in_results") in problems


def test_a_penalty_amount_outside_the_schedule_is_warned_and_kept(results):
    penalty = results["penalties"][0]
    penalty["kind"] = "false_deal"  # 100 points: in the schedule
    assert check(results).warnings == ()
    penalty["kind"] = "score_sheet_lost"  # 400 points in the schedule, 100 recorded
    validated = check(results)
    assert [(w.field, w.code) for w in validated.warnings] == [
        ("penalties[0].points", "penalty_amount_not_in_schedule")
    ]


def test_teammates_at_the_same_table_are_warned():
    tournament = play(random.Random(11), players=12, team_size=2, positions=2)
    document = copy.deepcopy(tournament.results_document())
    # pair two players who met at session 1 position 1 into the same duo, by swapping
    # the second player of entry 1 with a table-mate of its first player
    first = document["entries"][0]["players"][0]
    table = first["positions"][0]["table"]
    k, mate_entry, mate = next(
        (k, e, p)
        for e in document["entries"][1:]
        for k, p in enumerate(e["players"])
        if p["positions"][0]["table"] == table
    )
    document["entries"][0]["players"][1], mate_entry["players"][k] = (
        mate,
        document["entries"][0]["players"][1],
    )
    for entry in document["entries"]:
        entry["total"] = sum(p["total"] for p in entry["players"])
        entry["tiebreak"] = None
    keys = sorted(-e["total"] for e in document["entries"])
    for entry in document["entries"]:
        entry["place"] = 1 + keys.index(-entry["total"])
    validated = check(document, "duo")
    assert "teammates_at_same_table" in {w.code for w in validated.warnings}


# ---------------------------------------------------------------------------
# Everything at once
# ---------------------------------------------------------------------------


def test_every_problem_is_reported_at_once(results):
    results["sessions"][0]["deals"] = 0
    results["entries"][1]["number"] = 1
    results["entries"][2]["players"][0]["licence_number"] = 100_004
    results["entries"][5]["total"] += 1
    results["penalties"][0]["licence_number"] = 1
    with pytest.raises(RuleViolation) as refused:
        check(results)
    found = {p.code for p in refused.value.problems}
    assert {
        "no_deals",
        "duplicate_entry_number",
        "duplicate_licence_number",
        "entry_total_mismatch",
        "penalty_player_not_in_results",
    } <= found
    assert all(p.message.endswith(".") for p in refused.value.problems)


def test_a_player_who_abandons_mid_session_leaves_a_table_of_three_behind(results):
    # the last-placed player leaves after session 1, position 1: his entry is ranked last
    _, entry = entry_at(results, 12)
    player = entry["players"][0]
    kept = player["positions"][:1]
    lost = sum(p["score"] for p in player["positions"][1:])
    player["positions"] = kept
    player["total"] -= lost
    entry["total"] -= lost
    entry["abandoned"] = True
    entry["tiebreak"] = None
    # the tables he left played on at 3: their scores are unchanged, the totals no longer sum
    # to zero, which the abandon does not excuse
    problems = codes(results)
    assert ("sessions[0].tables_of_three", "tables_of_three_mismatch") not in problems
    assert ("sessions[1].tables", "session_players_mismatch") in problems
    assert not any(code == "missing_position_score" for _, code in problems)
