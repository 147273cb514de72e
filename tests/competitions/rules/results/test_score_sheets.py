"""parse_score_sheets(): deal-by-deal sheets turned into a results document by the engine."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from competitions.rules.engine.standings import RankingMode
from competitions.rules.results import parse_json, results_sha256, validate
from competitions.rules.results.score_sheets import parse_score_sheets
from tests.competitions.rules.results.licences import licensed
from tests.competitions.rules.results.refusals import messages, refusal
from tests.competitions.rules.results.tournament_builder import play


def sheet(table: int, players: dict[str, Any], *deals: dict[str, Any], **where: int):
    return {
        "session": where.get("session", 1),
        "position": where.get("position", 1),
        "table": table,
        "players": players,
        "deals": [dict(deal) for deal in deals],
    }


GARDE_N = {"contract": "garde", "taker": "N", "oudlers": 2, "attack_points": 51}  # x = 70
PRISE_N = {"contract": "prise", "taker": "N", "oudlers": 2, "attack_points": 51}  # x = 35


def level_leaders() -> dict[str, Any]:
    """Players 1 and 5 end level on 210: one garde made against two prises made."""
    return {
        "format_version": 1,
        "score_sheets": [
            sheet(1, {"N": 1, "S": 2, "E": 3, "W": 4}, GARDE_N),
            sheet(2, {"N": 5, "S": 6, "E": 7, "W": 8}, PRISE_N, PRISE_N),
        ],
    }


@pytest.mark.parametrize(
    ("team_size", "fmt", "sessions"), [(1, "individual", 2), (2, "duo", 1), (4, "team4", 2)]
)
def test_the_engine_totals_match_an_independent_count(team_size, fmt, sessions):
    tournament = play(
        random.Random(team_size),
        players=24,
        team_size=team_size,
        sessions=sessions,
        positions=3,
        deals=3,
        penalties=2,
        unlicensed=1,
    )
    document = parse_score_sheets(json.dumps(tournament.sheets_document()), format=fmt)
    expected = parse_json(tournament.results_document())
    assert results_sha256(document) == results_sha256(expected)
    assert validate(document, format=fmt, licences=licensed(document))


def test_individual_entries_may_be_left_to_the_sheets():
    document = parse_score_sheets(level_leaders(), format="individual")
    assert [e.players[0].licence_number for e in document.entries] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [e.number for e in document.entries] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [e.total for e in document.entries] == [210, -70, -70, -70, 210, -70, -70, -70]
    assert [e.place for e in document.entries] == [1, 3, 3, 3, 1, 3, 3, 3]
    assert document.sessions[0].tables == 2
    assert document.sessions[0].deals == 2  # the longest sheet of the position
    leader = document.entries[4]
    assert leader.tiebreak.best_position_score == 210
    assert leader.tiebreak.contracts_made["prise"] == 2


def test_article_29_separates_level_entries_in_championship_mode():
    document = parse_score_sheets(
        level_leaders(), format="individual", ranking=RankingMode.CHAMPIONSHIP
    )
    assert [e.place for e in document.entries] == [2, 3, 3, 3, 1, 3, 3, 3]
    validate(document, format="individual", licences=licensed(document), minimum_entries=1)


def test_a_player_without_licence_number_is_seated_by_name():
    sheets = level_leaders()
    sheets["score_sheets"][0]["players"]["W"] = "LEBLANC Hugo"
    document = parse_score_sheets(sheets, format="individual")
    guest = document.entries[3].players[0]
    assert (guest.licence_number, guest.name, guest.total) == (None, "LEBLANC Hugo", -70)


def test_marks_alone_give_totals_but_no_contracts():
    sheets = level_leaders()
    sheets["score_sheets"][0]["deals"] = [{"marks": {"N": 210, "S": -70, "E": -70, "W": -70}}]
    document = parse_score_sheets(sheets, format="individual")
    assert document.entries[0].total == 210
    assert all(e.tiebreak is None for e in document.entries)
    assert refusal(
        lambda: parse_score_sheets(sheets, format="individual", ranking=RankingMode.CHAMPIONSHIP)
    )[0] == ("entries[0].players[0].tie_break", "missing_tie_break_data")


def test_facts_and_marks_together_must_agree():
    sheets = level_leaders()
    sheets["score_sheets"][0]["deals"][0] = {
        **GARDE_N,
        "marks": {"N": 213, "S": -71, "E": -71, "W": -71},
    }
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("score_sheets[0].deals[0].marks.N", "mark_disagrees_with_facts"),
        ("score_sheets[0].deals[0].marks.S", "mark_disagrees_with_facts"),
        ("score_sheets[0].deals[0].marks.E", "mark_disagrees_with_facts"),
        ("score_sheets[0].deals[0].marks.W", "mark_disagrees_with_facts"),
    ]


def test_the_engine_problems_of_every_sheet_are_located_on_the_sheet():
    sheets = level_leaders()
    sheets["score_sheets"][0]["deals"][0]["oudlers"] = 4
    sheets["score_sheets"][1]["deals"].append({"marks": {"N": 30, "S": -10, "E": -10, "W": -9}})
    sheets["score_sheets"][1]["players"]["X"] = 9
    problems = refusal(lambda: parse_score_sheets(sheets, format="individual"))
    assert problems == [
        ("score_sheets[0].deals[0].oudlers", "oudlers_out_of_range"),
        ("score_sheets[1].players.X", "unknown_seat"),
    ]
    del sheets["score_sheets"][1]["players"]["X"]
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("score_sheets[0].deals[0].oudlers", "oudlers_out_of_range"),
        ("score_sheets[1].deals[2].marks", "marks_do_not_sum_to_zero"),
    ]


def test_a_sheet_twice_and_a_player_at_two_tables():
    sheets = level_leaders()
    sheets["score_sheets"].append(sheet(1, {"N": 11, "S": 12, "E": 13, "W": 14}, GARDE_N))
    sheets["score_sheets"].append(sheet(3, {"N": 1, "S": 22, "E": 23, "W": 24}, GARDE_N))
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("score_sheets[2].table", "duplicate_score_sheet"),
        ("score_sheets[3].players.N", "player_at_two_tables"),
    ]


def test_malformed_sheets_are_refused_with_every_problem():
    sheets = level_leaders()
    sheets["score_sheets"].append(sheet(4, {"N": 31, "S": 32, "E": 33, "W": 34}, {"taker": "N"}))
    sheets["score_sheets"].append({"session": 1, "position": 1, "table": 5, "players": [1]})
    sheets["score_sheets"].append(sheet(6, {"N": True, "S": 0, "E": " ", "W": 4.0}))
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("score_sheets[2].deals[0].contract", "missing_field"),
        ("score_sheets[3].deals", "missing_field"),
        ("score_sheets[3].players", "wrong_type"),
        ("score_sheets[4].players.N", "wrong_type"),
        ("score_sheets[4].players.S", "number_out_of_range"),
        ("score_sheets[4].players.E", "blank_text"),
        ("score_sheets[4].players.W", "wrong_type"),
    ]


def test_team_formats_need_their_entries_and_every_player_in_one():
    tournament = play(random.Random(1), players=12, team_size=2)
    sheets = tournament.sheets_document()
    without = {k: v for k, v in sheets.items() if k != "entries"}
    assert refusal(lambda: parse_score_sheets(without, format="duo")) == [
        ("entries", "missing_field")
    ]
    changed = copy.deepcopy(sheets)
    removed = changed["entries"][0]["players"].pop()  # seated but in no entry
    changed["entries"][2]["players"].append(changed["entries"][3]["players"][0])  # in two entries
    problems = refusal(lambda: parse_score_sheets(changed, format="duo"))
    assert problems[0] == ("entries[3].players[0]", "duplicate_player")
    assert {code for _, code in problems[1:]} == {"player_not_in_entries"}
    assert all(
        f"Player {removed['licence_number']} is seated here" in message
        for message in messages(lambda: parse_score_sheets(changed, format="duo"))[1:]
    )


def test_a_player_of_an_entry_seated_nowhere():
    tournament = play(random.Random(1), players=12, team_size=2)
    sheets = tournament.sheets_document()
    sheets["entries"][1]["players"].append({"licence_number": 999, "name": "Z"})
    assert refusal(lambda: parse_score_sheets(sheets, format="duo")) == [
        ("entries[1].players[2]", "player_without_score_sheet")
    ]


def test_an_abandoned_team_is_ranked_last():
    tournament = play(random.Random(4), players=12, team_size=2)
    tournament.abandoned = {1}
    document = parse_score_sheets(tournament.sheets_document(), format="duo")
    assert document.entries[0].abandoned
    assert document.entries[0].place == 6
    assert results_sha256(document) == results_sha256(parse_json(tournament.results_document()))


def test_validation_problems_of_sheets_point_at_the_sheets():
    tournament = play(random.Random(9), players=12, sessions=2, positions=1, deals=2)
    sheets = tournament.sheets_document()
    for item in sheets["score_sheets"]:
        if item["session"] == 2:
            item["session"] = 3
    document = parse_score_sheets(sheets, format="individual")
    problems = refusal(lambda: validate(document, format="individual", licences=licensed(document)))
    assert problems == [("score_sheets[3]", "session_numbers_not_consecutive")]


def test_unknown_format_and_malformed_json():
    assert refusal(lambda: parse_score_sheets(level_leaders(), format="solo")) == [
        ("format", "unknown_format")
    ]
    assert refusal(lambda: parse_score_sheets(b"{", format="individual")) == [
        ("document", "invalid_json")
    ]
    assert refusal(lambda: parse_score_sheets({"format_version": 1}, format="individual")) == [
        ("score_sheets", "missing_field")
    ]


def test_a_sheet_without_table_or_position_is_reported_once():
    sheets = level_leaders()
    del sheets["score_sheets"][0]["table"]
    sheets["score_sheets"][1]["position"] = 0
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("score_sheets[0].table", "missing_field"),
        ("score_sheets[1].position", "not_a_positive_integer"),
    ]


# A table of 5 inside a tournament (fasc. 459): each deal one player (le mort) sits out,
# in turn in the direction of play (N, W, S, E, then the fifth seat here).
TURN = ["N", "W", "S", "E", "5"]


def garde(taker: str) -> dict[str, Any]:
    return {"contract": "garde", "taker": taker, "oudlers": 2, "attack_points": 51}  # x = 70


def thirteen_players() -> dict[str, Any]:
    """Two tables of 4 and a table of 5 (players 9 to 13), five deals each."""
    five = {"N": 9, "S": 10, "E": 11, "W": 12, "5": 13}
    return {
        "format_version": 1,
        "score_sheets": [
            sheet(1, {"N": 1, "S": 2, "E": 3, "W": 4}, *[GARDE_N] * 5),
            sheet(2, {"N": 5, "S": 6, "E": 7, "W": 8}, *[PRISE_N] * 5),
            sheet(
                3,
                five,
                *[{**garde(TURN[(k + 1) % 5]), "sitting_out": TURN[k]} for k in range(4)],
                {**garde("W"), "sitting_out": "5"},
            ),
        ],
    }


def test_a_tournament_with_a_table_of_five():
    document = parse_score_sheets(thirteen_players(), format="individual")
    session = document.sessions[0]
    assert (session.tables, session.tables_of_three, session.tables_of_five) == (3, 0, 1)
    assert session.players == 13
    assert session.deals == 5
    totals = {e.players[0].licence_number: e.total for e in document.entries}
    # Table of 5: each player sits out one deal (0) and defends (-70) or takes (+210) the
    # others; W (12) takes deals 1 and 5, N (9) takes none, S, E and 5 take one each.
    assert [totals[p] for p in (9, 10, 11, 12, 13)] == [-280, 0, 0, 280, 0]
    validated = validate(document, format="individual", licences=licensed(document))
    assert validated.total_tables == 3


def test_the_mort_out_of_turn_is_located_on_its_sheet():
    sheets = thirteen_players()
    sheets["score_sheets"][2]["deals"][1]["sitting_out"] = "E"  # W or 5 after N
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("score_sheets[2].deals[1].sitting_out", "sitting_out_out_of_turn")
    ]


def test_the_five_player_game_is_not_homologable():
    sheets = thirteen_players()
    called_king = {"contract": "garde", "taker": "N", "called_partner": "S", "oudlers": 2,
                   "attack_points": 51}  # fmt: skip
    sheets["score_sheets"][2]["deals"] = [called_king]
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("score_sheets[2].deals", "five_player_game_not_homologable")
    ]


def test_annulled_deals_are_not_played():
    sheets = thirteen_players()
    for item in sheets["score_sheets"][:2]:
        item["deals"][0] = {**item["deals"][0], "annulled": True}
        item["deals"].append({"contract": None})
    five = sheets["score_sheets"][2]["deals"]
    five.insert(1, {"contract": None, "sitting_out": "W"})  # all passed: W deals again
    document = parse_score_sheets(sheets, format="individual")
    # Tables 1 and 2 played 5 deals (one annulled, one passed), the table of 5 played 6
    # (one passed, worth 0): the position's deals are its most complete table's.
    assert document.sessions[0].deals == 6
    five[0]["annulled"] = True  # N's deal annulled: W still sits out the next one
    document = parse_score_sheets(sheets, format="individual")
    assert document.sessions[0].deals == 5
    assert {e.players[0].licence_number: e.total for e in document.entries}[12] == 70


def test_a_declared_deal_count_that_contradicts_the_sheets_is_located():
    sheets = thirteen_players()
    sheets["score_sheets"][2]["deals"][0]["annulled"] = True
    for item in sheets["score_sheets"][:2]:
        item["deals"][0]["annulled"] = True
    sheets["sessions"] = [{"number": 1, "deals": 4}]
    assert parse_score_sheets(sheets, format="individual").sessions[0].deals == 4
    sheets["sessions"] = [{"number": 1, "deals": 5}, {"number": 2, "deals": 5}]
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("sessions[0].deals", "deals_contradict_score_sheets"),
        ("sessions[1].number", "session_without_score_sheets"),
    ]


GARDE_N_FAILED = {"contract": "garde", "taker": "N", "oudlers": 2, "attack_points": 35}  # x = -62


def test_a_revoke_in_defence_is_scored_as_the_taker_chose():
    """Chapter 4, « Renonce »: the taker chooses whether the deal is scored."""
    sheets = level_leaders()
    revoke = {"defence_revoke": {"taker_choice": "not_scored", "by": "E"}}
    sheets["score_sheets"][0]["deals"] = [{**GARDE_N_FAILED, **revoke}, GARDE_N]
    document = parse_score_sheets(sheets, format="individual")
    assert [e.total for e in document.entries[:4]] == [210, -70, -70, -70]  # the fall not marked
    assert document.entries[0].tiebreak.contracts_made["garde"] == 1  # the declined one not made
    scored = {"defence_revoke": {"taker_choice": "scored"}}
    sheets["score_sheets"][0]["deals"] = [{**GARDE_N_FAILED, **scored}, GARDE_N]
    document = parse_score_sheets(sheets, format="individual")
    assert [e.total for e in document.entries[:4]] == [210 - 186, -8, -8, -8]


def test_a_deal_not_scored_is_not_a_deal_played():
    sheets = level_leaders()
    revoke = {"defence_revoke": {"taker_choice": "not_scored"}}
    sheets["score_sheets"][1]["deals"][0] = {**PRISE_N, **revoke}
    document = parse_score_sheets(sheets, format="individual")
    assert document.sessions[0].deals == 1


@pytest.mark.parametrize(
    ("revoke", "expected"),
    [
        ({"taker_choice": "perhaps"}, ("taker_choice", "unknown_revoke_choice")),
        ({"taker_choice": "scored", "by": "N"}, ("by", "revoke_not_by_defender")),
        ({"by": "E"}, ("taker_choice", "missing_field")),
        ("scored", ("", "wrong_type")),
    ],
)  # fmt: skip
def test_a_revoke_the_engine_refuses_is_located_on_its_sheet(revoke, expected):
    sheets = level_leaders()
    sheets["score_sheets"][0]["deals"][0] = {**GARDE_N, "defence_revoke": revoke}
    where = "score_sheets[0].deals[0].defence_revoke"
    field = f"{where}.{expected[0]}" if expected[0] else where
    assert (field, expected[1]) in refusal(lambda: parse_score_sheets(sheets, format="individual"))


def test_the_revoker_may_not_take_the_next_deal_on_the_sheet():
    sheets = level_leaders()
    revoke = {"defence_revoke": {"taker_choice": "scored", "by": "S"}}
    take = {**GARDE_N, "taker": "S"}
    sheets["score_sheets"][0]["deals"] = [{**GARDE_N, **revoke}, take]
    assert refusal(lambda: parse_score_sheets(sheets, format="individual")) == [
        ("score_sheets[0].deals[1].taker", "revoker_took_next_deal")
    ]
