"""Eliminations between positions, end to end through the public API: a committee's table
eliminating at each position down to a last position of 4 players (chapter 3, art. 3: « Il
est souhaitable de tendre vers un système similaire au déroulement de la finale nationale,
avec élimination de joueurs à chaque position et dernière position jouée à 4 joueurs »),
declared as a regional final, its results submitted with their cuts and divisors (JSON,
CSV, score sheets), homologated, then its places and PCN read.

PCN worked out by hand from chapter 5: the scale counts every session's tables once (5 + 4
= 9: the tables after a cut within a session are not counted again), coefficient 0.75,
index 1.8 of a regional final, half of the 20 players of the first session paid."""

from __future__ import annotations

from typing import Any

import pytest

from competitions.models import ResultRevision
from competitions.rules.results.csv_writer import write_csv
from competitions.rules.results.json_format import parse_json
from tests.competitions.championships.test_results_sessions_and_article_29 import (
    _publish,
    _stage,
)
from tests.competitions.rules.results.position_cuts import Step, document

pytestmark = pytest.mark.django_db


def _table(a: int, b: int, c: int) -> tuple[int, ...]:
    """Four players' position scores (×4, so that score sheets can mark them)."""
    return (4 * a, 4 * b, 4 * c, -4 * (a + b + c))


def _position(*tables: tuple[int, int, int]) -> tuple[int, ...]:
    return tuple(score for table in tables for score in _table(*table))


# 20 players; session 1 at 5 tables, 5 positions; session 2 keeps 16 (scores halved), then
# cuts after each position: 12 after position 1 (halved), 8 after position 2, 4 after 3,
# who play the last position.
SESSION_1 = tuple(
    _position(
        (30 + k, -10, 5),
        (25, 8 - k, -13),
        (17, -3, 13 + k),
        (-21, 40 - k, 2),
        (9 + 2 * k, -6 - k, 14),
    )
    for k in range(5)
)
STEPS = [
    Step(1, 0, positions=SESSION_1),
    Step(2, 0, kept=16, divisor=2,
         positions=(_position((12, -7, 3), (-5, 16, 1), (8, 2, -11), (6, -9, 4)),)),
    Step(2, 1, kept=12, divisor=2, positions=(_position((10, -4, 7), (-8, 13, 2), (5, 4, -6)),)),
    Step(2, 2, kept=8, positions=(_position((9, -5, 1), (-3, 12, 1)),)),
    Step(2, 3, kept=4, positions=(_position((7, -2, 4)),)),
]  # fmt: skip
CUTS = [
    {"session": 2, "points_divisor": 2},
    {"session": 2, "after_position": 1, "points_divisor": 2},
    {"session": 2, "after_position": 2},
    {"session": 2, "after_position": 3},
]
DOWN_TO_FOUR = [
    {"min_entries": 20, "max_entries": 24, "sessions": [
        {"deals": 20},
        {"deals": 20, "entries": 16, "points_divisor": 2, "position_cuts": [
            {"after_position": 1, "entries": 12, "points_divisor": 2},
            {"after_position": 2, "entries": 8},
            {"after_position": 3, "entries": 4},
        ]},
    ]},
]  # fmt: skip
# Chapter 5 for 9 tables (coefficient 0.75) at index 1.8, places 1 to 10.
PCN = [648, 486, 364, 273, 205, 153, 115, 86, 64, 50]


def _results(field: list[int]) -> dict[str, Any]:
    doc = document(20, STEPS)
    for entry in doc["entries"]:
        entry["players"][0]["licence_number"] = field[entry["number"] - 1]
    return doc


@pytest.fixture
def final(api, as_user, championships, enter_all, players):
    """A regional final under a table eliminating at each position, its field entered."""
    _publish(api, as_user, championships, DOWN_TO_FOUR)
    field = players(20, 101)
    stage = _stage(api, championships, "regional_final", "2027-03-13")
    enter_all(api, stage["id"], [[n] for n in field])
    return stage["tournament"]["id"], field


def test_the_recommended_format_goes_from_the_committee_table_to_places_and_pcn(
    api, registry, as_user, final, points
):
    tournament, field = final
    url = f"/api/tournaments/{tournament}/results/"
    doc = _results(field)
    cuts = doc["sessions"][1]["cuts"]
    assert [len(c["entries"]) for c in cuts] == [12, 8, 4]

    # Without its cuts, the results contradict the published table: refused, located.
    flat = {**doc, "sessions": [dict(s) for s in doc["sessions"]]}
    del flat["sessions"][1]["cuts"]
    refused = api.post(url, flat, format="json")
    assert refused.status_code == 400
    assert ("sessions[1].cuts", "cuts_differ_from_plan") in {
        (e["field"], e["code"]) for e in refused.json()["errors"]
    }
    # A score carried past a cut without its division: refused where it is, in French.
    wrong = _results(field)
    wrong["sessions"][1]["cuts"][0]["points_divisor"] = 1
    refused = api.post(url, wrong, format="json")
    found = {(e["field"], e["code"]): e["message"] for e in refused.json()["errors"]}
    assert ("sessions[1].cuts[0].points_divisor", "cut_divisor_differs_from_plan") in found
    assert (
        "après la position 1 de la séance 2"
        in found[("sessions[1].cuts[0].points_divisor", "cut_divisor_differs_from_plan")]
    )
    # A score carried past a cut that is not the score at the cut divided: refused.
    wrong = _results(field)
    wrong["sessions"][1]["cuts"][1]["entries"][0]["carried"] += 1
    refused = api.post(url, wrong, format="json")
    assert ("sessions[1].cuts[1].entries[0].carried", "cut_carried_score_mismatch") in {
        (e["field"], e["code"]) for e in refused.json()["errors"]
    }
    assert ResultRevision.objects.count() == 0

    accepted = api.post(url, doc, format="json")
    assert accepted.status_code == 201, accepted.json()
    as_user("federation_staff")
    homologated = api.post(f"/api/tournaments/{tournament}/homologate/")
    assert homologated.status_code == 200, homologated.json()

    # Places: the 4 of the last position first, then those cut after position 3, 2, 1, then
    # the 4 eliminated before session 2, whatever their totals.
    places = {e["number"]: e["place"] for e in doc["entries"]}
    last_four = [e["number"] for e in cuts[2]["entries"]]
    assert sorted(places[n] for n in last_four) == [1, 2, 3, 4]
    public = api.get(f"/api/public/tournaments/{tournament}/").json()
    read = _public_places(public)
    assert read == {field[n - 1]: places[n] for n in places}
    awarded = points(tournament)
    by_place = sorted(places, key=lambda n: places[n])
    assert [awarded[field[n - 1]][0] for n in by_place[:10]] == PCN
    assert all(awarded[field[n - 1]][0] == 0 for n in by_place[10:])


def _public_places(public: dict[str, Any]) -> dict[int, int]:
    ranking = public["ranking"]
    return {player["licence_number"]: row["place"] for row in ranking for player in row["players"]}


def test_the_same_results_as_csv_or_score_sheets_hash_the_same_and_homologate(
    api, registry, as_user, final, points
):
    tournament, field = final
    doc = _results(field)
    as_csv = write_csv(parse_json(doc), delimiter=";")
    response = api.post(
        f"/api/tournaments/{tournament}/results/?source=csv", as_csv, content_type="text/csv"
    )
    assert response.status_code == 201, response.json()
    sheets = _sheets(doc)
    again = api.post(f"/api/tournaments/{tournament}/results/?source=sheets", sheets, format="json")
    assert again.status_code in (200, 201), again.json()
    assert ResultRevision.objects.filter(tournament_id=tournament).count() == 1  # the same
    as_user("federation_staff")
    assert api.post(f"/api/tournaments/{tournament}/homologate/").status_code == 200
    places = {field[e["number"] - 1]: e["place"] for e in doc["entries"]}
    awarded = points(tournament)
    assert sorted(awarded[n][0] for n in field if places[n] <= 10) == sorted(PCN)


DEALS_PER_POSITION = {1: 4, 2: 5}  # 20 deals in each session: 5 × 4, then 4 × 5


def _sheets(doc: dict[str, Any]) -> dict[str, Any]:
    """The score sheets of the same results: one sheet per table per position, seated as
    the phases list the entries, each seat taking once for a quarter of its score."""
    positions: dict[tuple[int, int, int], dict[str, int]] = {}
    for entry in doc["entries"]:
        for p in entry["players"][0]["positions"]:
            seats = positions.setdefault((p["session"], p["position"], p["table"]), {})
            seats[entry["players"][0]["licence_number"]] = p["score"]
    sheets = []
    for (session, position, table), seated in sorted(positions.items()):
        players = dict(zip("NSEW", seated, strict=True))
        deals = [
            {"marks": {s: 3 * (score // 4) if s == seat else -(score // 4) for s in "NSEW"}}
            for seat, score in zip("NSEW", seated.values(), strict=True)
            if score
        ]
        # Passed deals (worth 0, deals played) up to the session's deals per position.
        deals += [{"contract": None}] * (DEALS_PER_POSITION[session] - len(deals))
        sheets.append({"session": session, "position": position, "table": table,
                       "players": players, "deals": deals})  # fmt: skip
    return {
        "format_version": 1,
        "score_sheets": sheets,
        "cuts": CUTS,
        "sessions": [{"number": 1, "deals": 20}, {"number": 2, "deals": 20}],
    }
