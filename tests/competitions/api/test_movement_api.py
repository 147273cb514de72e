"""POST /api/engine/movements/plan/: the rule for tables of 3 (the season's, or the call's)
and the report of every repeat, for the field sizes clubs actually seat."""

from collections import defaultdict
from itertools import combinations

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db

PLAN = "/api/engine/movements/plan/"


def repeats_in(body: dict) -> list[dict]:
    """The repeats of a plan's body, found again from its positions (an independent count)."""
    short: dict[int, list[tuple[int, int]]] = defaultdict(list)
    meetings: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for position in body["positions"]:
        for table in position["tables"]:
            present = sorted(table[o] for o in "NSEW" if table[o] is not None)
            if len(present) == 3:
                for number in present:
                    short[number].append((position["position"], table["table"]))
            for pair in combinations(present, 2):
                meetings[pair].append((position["position"], table["table"]))
    found = [("short_table", [n], seen) for n, seen in sorted(short.items())]
    found += [("meeting", list(pair), seen) for pair, seen in sorted(meetings.items())]
    return [
        {
            "kind": kind,
            "players": players,
            "positions": [p for p, _ in seen],
            "tables": [t for _, t in seen],
        }
        for kind, players, seen in found
        if len(seen) > 1
    ]


# Club fields that cannot keep everyone off a second table of 3: the strict rule refuses
# them beyond 1 or 2 positions.
@pytest.mark.parametrize(
    ("players", "positions"),
    [(13, 4), (14, 4), (17, 5), (18, 5), (21, 5), (22, 5), (25, 7), (26, 7), (29, 6), (37, 6),
     (50, 7)],
)  # fmt: skip
def test_club_fields_play_every_position_with_every_repeat_reported(api, players, positions):
    response = api.post(PLAN, {"players": players, "positions": positions}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["short_table_rule"] == "best_effort"
    assert len(body["positions"]) == positions
    assert body["repeats"], "these fields cannot keep everyone off a second table of 3"
    assert body["repeats"] == repeats_in(body)
    assert {r["kind"] for r in body["repeats"]} == {"short_table"}


def test_the_call_may_ask_for_the_strict_rule(api):
    response = api.post(
        PLAN, {"players": 50, "positions": 7, "short_table_rule": "strict"}, format="json"
    )
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"]) == ("positions", "too_many_positions")
    strict = api.post(
        PLAN, {"players": 50, "positions": 4, "short_table_rule": "strict"}, format="json"
    ).json()
    assert strict["short_table_rule"] == "strict"
    assert strict["repeats"] == [] == repeats_in(strict)


def test_an_unknown_rule_is_a_precise_400(api):
    response = api.post(
        PLAN, {"players": 50, "positions": 4, "short_table_rule": "never"}, format="json"
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["short_table_rule"]


def test_the_season_rulebook_decides_unless_the_call_says(api, registry):
    data = api.get("/api/pcn/rulebooks/2026-2027/").json()["rulebook"]
    assert data["movements"]["short_table_rule"] == "best_effort"
    data["movements"]["short_table_rule"] = "strict"
    api.force_authenticate(registry.users["federation_staff"])
    assert (
        api.put("/api/pcn/rulebooks/2026-2027/", {"rulebook": data}, format="json").status_code
        == 200
    )
    api.force_authenticate(None)
    refused = api.post(PLAN, {"players": 50, "positions": 7}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "too_many_positions"
    allowed = api.post(
        PLAN, {"players": 50, "positions": 7, "short_table_rule": "best_effort"}, format="json"
    )
    assert allowed.status_code == 200
    assert allowed.json()["short_table_rule"] == "best_effort"


def test_six_duos_get_the_three_table_howell_and_its_repeated_meetings(api):
    response = api.post(
        PLAN, {"players": 12, "positions": 5, "format": "duo", "seed": 3}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["kind"] == "howell"
    assert body["teams"] == [[1, 4], [2, 3], [5, 8], [6, 7], [9, 11], [10, 12]]
    assert body["repeats"] == repeats_in(body)
    assert {r["kind"] for r in body["repeats"]} == {"meeting"}
    numbers: dict[str, list[int]] = defaultdict(list)
    for assignment in body["seating"]:
        numbers[assignment["entrant"]].append(assignment["number"])
    assert sorted(sorted(n) for n in numbers.values()) == body["teams"]


def test_seven_duos_play_with_the_last_duo_removed(api):
    response = api.post(
        PLAN, {"players": 14, "positions": 4, "format": "duo", "seed": 1}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["vacant_numbers"] == [15, 16]
    assert len(body["teams"]) == 7
    assert body["repeats"] == repeats_in(body)
    assert len(body["seating"]) == 14


def test_four_tables_with_two_tables_of_3_stop_before_a_table_of_2(api):
    response = api.post(PLAN, {"players": 14, "positions": 5}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"]) == ("positions", "too_many_positions")
    assert "4" in error["message"]


def test_the_schema_documents_the_rule_and_the_repeats():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    assert "short_table_rule" in components["MovementInRequest"]["properties"]
    plan = components["MovementPlanOut"]["properties"]
    assert {"short_table_rule", "repeats", "teams"} <= set(plan)
    operation = schema["paths"][PLAN]["post"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MovementPlanOut"
    }


def test_the_season_rulebook_decides_what_the_team_limit_counts(api, registry):
    duos = {"players": 64, "positions": 7, "format": "duo"}
    assert api.post(PLAN, duos, format="json").status_code == 400  # rows 2–8: beyond row 7
    data = api.get("/api/pcn/rulebooks/2026-2027/").json()["rulebook"]
    data["movements"]["team_position_limit"] = "played_positions"
    api.force_authenticate(registry.users["federation_staff"])
    assert (
        api.put("/api/pcn/rulebooks/2026-2027/", {"rulebook": data}, format="json").status_code
        == 200
    )
    api.force_authenticate(None)
    allowed = api.post(PLAN, duos, format="json")
    assert allowed.status_code == 200, allowed.json()
    assert len(allowed.json()["positions"]) == 7


def repeats_with_fives(body: dict) -> list[dict]:
    """Tables of 5: players at one more than once, then pairs meeting again (an
    independent count from the positions)."""
    five: dict[int, list[tuple[int, int]]] = defaultdict(list)
    meetings: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for position in body["positions"]:
        for table in position["tables"]:
            present = sorted(table[o] for o in ("N", "S", "E", "W", "fifth") if table[o])
            assert len(present) in (4, 5)
            if len(present) == 5:
                for number in present:
                    five[number].append((position["position"], table["table"]))
            for pair in combinations(present, 2):
                meetings[pair].append((position["position"], table["table"]))
    found = [("table_of_five", [n], seen) for n, seen in sorted(five.items())]
    found += [("meeting", list(pair), seen) for pair, seen in sorted(meetings.items())]
    return [
        {"kind": k, "players": p, "positions": [x for x, _ in s], "tables": [t for _, t in s]}
        for k, p, s in found
        if len(s) > 1
    ]


@pytest.mark.parametrize(("players", "positions"), [(13, 6), (22, 5), (50, 7), (93, 7)])
def test_tables_of_five_on_request(api, players, positions):
    response = api.post(
        PLAN,
        {"players": players, "positions": positions, "tables_of_five": True, "seed": 7},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["tables"] == players // 4
    assert body["vacant_numbers"] == []
    assert body["fifth_players"] == list(range(4 * (players // 4) + 1, players + 1))
    assert body["homologable"] is True
    assert body["repeats"] == repeats_with_fives(body)
    assert len(body["personal_sheets"]) == players
    assert sorted(s["number"] for s in body["seating"]) == list(range(1, players + 1))
    fifth_sheet = body["personal_sheets"][str(players)]
    assert {line["orientation"] for line in fifth_sheet} == {"5"}


def test_tables_of_five_refusals_are_precise_400s(api):
    duo = api.post(
        PLAN,
        {"players": 26, "positions": 3, "format": "duo", "tables_of_five": True},
        format="json",
    )
    assert duo.status_code == 400
    assert [(e["field"], e["code"]) for e in duo.json()["errors"]] == [
        ("tables_of_five", "movement_tables_of_five_individual_only")
    ]
    assert "tournoi duo ne peut pas avoir de tables de 5" in duo.json()["errors"][0]["message"]
    few = api.post(PLAN, {"players": 11, "positions": 3, "tables_of_five": True}, format="json")
    assert few.status_code == 400
    assert few.json()["errors"][0]["code"] == "too_few_players_for_tables_of_five"
