"""Article 29 and sessions with eliminations, end to end through the public API: article
29 decides the places of level entries in a competition with tie-break rules, and a stage with
eliminations and halved scores goes from the committee's published rules to PCN.

Every PCN figure below is worked out by hand from chapter 5 (40 PCN a table for the
first place, each next place × the reduction coefficient, exact until the end, × the
stage's index, truncated, at least 50, half of the first session's players paid)."""

from __future__ import annotations

import math

import pytest

from competitions.models import ResultRevision
from tests.competitions.championships.results_documents import results, staged_results, tiebreak
from tests.competitions.championships.rules_documents import stage_of

pytestmark = pytest.mark.django_db


def _tb(best: int, prise: int = 0) -> dict:
    return {
        "best_position_score": best,
        "contracts_made": {"prise": prise, "garde": 0, "garde_sans": 0, "garde_contre": 0},
    }


# A regional final: 20 players at 5 tables in two sessions, two on +300.
TOTALS = [300, 300, 200, 100, 50, 40, 30, 20, 10, 0, 0, -10, -20, -30, -40, -50, -100,
          -200, -300, -300]  # fmt: skip


def _final_document(field: list[int], places: list[int], tiebreaks: dict) -> dict:
    n = len(field)
    return {
        "format_version": 1,
        "sessions": [
            {"number": k, "tables": math.ceil(n / 4), "tables_of_three": 0, "deals": 20}
            for k in (1, 2)
        ],
        "entries": [
            {"number": i + 1, "place": places[i], "total": TOTALS[i],
             "players": [{"licence_number": field[i]}],
             **({"tiebreak": tiebreaks[i]} if tiebreaks.get(i) else {})}
            for i in range(n)
        ],
    }  # fmt: skip


@pytest.fixture
def regional_final(api, as_user, championships, enter_all):
    """A regional final of committee 1's championship (two sessions of 20 deals for 20
    players and more, rules approved by the zone), the field entered: a stage's index only
    comes through a stage of a championship (fasc. 1040)."""

    def create(field: list[int]) -> int:
        two_sessions = [
            {"min_entries": 20, "max_entries": None, "sessions": [{"deals": 20}, {"deals": 20}]}
        ]
        _publish(api, as_user, championships, two_sessions)
        stage = _stage(api, championships, "regional_final", "2027-03-13")
        enter_all(api, stage["id"], [[n] for n in field])
        return stage["tournament"]["id"]

    return create


def test_article_29_decides_a_tie_at_300_and_homologation_gives_360_and_255(
    api, registry, as_user, players, points, regional_final
):
    field = players(20, 101)
    tournament = regional_final(field)
    tiebreaks = {0: _tb(400), 1: _tb(250), 9: _tb(120, 3), 10: _tb(120, 2), 18: _tb(90),
                 19: _tb(80)}  # fmt: skip
    places = [1, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
    url = f"/api/tournaments/{tournament}/results/"

    # Both placed 1st: article 29 (best position 400 against 250) places the second 2nd.
    refused = api.post(url, _final_document(field, places, tiebreaks), format="json")
    assert refused.status_code == 400
    assert [(e["field"], e["code"]) for e in refused.json()["errors"]] == [
        ("entries[1].place", "place_contradicts_article_29")
    ]
    assert "classent 2" in refused.json()["errors"][0]["message"]  # in French
    # Level on 0 without tie-break data: article 29 cannot decide, refused too.
    shared = [1, 2, *places[2:10], 10, *places[11:]]
    no_data = api.post(url, _final_document(field, shared, {**tiebreaks, 10: None}), format="json")
    assert [(e["field"], e["code"]) for e in no_data.json()["errors"]] == [
        ("entries[10].tiebreak", "tie_needs_tiebreak_data")
    ]
    assert ResultRevision.objects.count() == 0

    places[1] = 2
    accepted = api.post(url, _final_document(field, places, tiebreaks), format="json")
    assert accepted.status_code == 201, accepted.json()
    as_user("federation_staff")
    done = api.post(f"/api/tournaments/{tournament}/homologate/")
    assert done.status_code == 200, done.json()
    awarded = points(tournament)
    # Two sessions of 5 tables count 10 tables: first 400, coefficient 0.76, index 1.8:
    # 400 × 1.8 = 720; 304 × 1.8 = 547.2 → 547; 231.04 × 1.8 = 415.872 → 415; then 316,
    # 240, 182, 138, 105, 80, 60 (each × 0.76 exact, × 1.8, truncated, at least 50) up to
    # the 10th place (half of 20 players).
    assert [awarded[n][0] for n in field[:11]] == [
        720,
        547,
        415,
        316,
        240,
        182,
        138,
        105,
        80,
        60,
        0,
    ]


def test_a_tie_that_survives_article_29_shares_its_points(
    api, registry, as_user, players, points, regional_final
):
    field = players(20, 101)
    tournament = regional_final(field)
    tiebreaks = {0: _tb(400), 1: _tb(400), 9: _tb(120, 3), 10: _tb(120, 2), 18: _tb(90),
                 19: _tb(80)}  # fmt: skip
    places = [1, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
    response = api.post(
        f"/api/tournaments/{tournament}/results/",
        _final_document(field, places, tiebreaks),
        format="json",
    )
    assert response.status_code == 201, response.json()
    as_user("federation_staff")
    assert api.post(f"/api/tournaments/{tournament}/homologate/").status_code == 200
    awarded = points(tournament)
    assert awarded[field[0]][0] == awarded[field[1]][0] == 634  # ⌈(720 + 547) / 2⌉


# ---------------------------------------------------------------------------------------------
# A regional final with 16 players in its second session and halved scores


def _publish(api, as_user, championships, brackets_final, brackets_stage=()) -> None:
    as_user("committee_staff")
    pk = championships["individual"]
    regional = api.post(
        f"/api/championships/{pk}/regionals/", {"committee": 1}, format="json"
    ).json()["id"]
    rules = {
        "stages": [
            stage_of("regional_stage", "Qualificatif", "2027-01-05", "2027-01-31", brackets_stage),
            stage_of("regional_final", "Finale régionale", "2027-03-01", "2027-03-31",
                     brackets_final),
        ]
    }  # fmt: skip
    published = api.post(
        f"/api/championships/regionals/{regional}/rules/", {"rules": rules}, format="json"
    )
    assert published.status_code == 201, published.json()
    # the zone's approval, without which the stage would be void (preamble of chapter 3)
    approve = f"/api/championships/regionals/{regional}/rules/1/approve/"
    assert as_user("zone_staff").post(approve).status_code == 200
    as_user("committee_staff")


def _stage(api, championships, kind: str, day: str) -> dict:
    response = api.post(
        f"/api/championships/{championships['individual']}/stages/",
        {"kind": kind, "date": day, "venue": "Lyon", "arbiter_licence_number": 1002,
         "committee": 1},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    return response.json()


HALVED_FINAL = [
    {"min_entries": 20, "max_entries": 24,
     "sessions": [{"deals": 20}, {"deals": 20, "entries": 16, "points_divisor": 2}]},
    {"min_entries": 25, "max_entries": None, "sessions": [{"deals": 20}, {"deals": 20}]},
]  # fmt: skip

# Session 1 (20 players, sums to 0) and session 2 (the best 16, in session 1's order).
FIRST = [400, 300, 250, 200, 150, 120, 100, 80, 60, 40, 20, 0, -30, -60, -90, -121, -150, -300,
         -400, -569]  # fmt: skip
SECOND = [-200, 100, 0, 50, -50, 300, -100, 20, 35, -30, 10, -5, 0, 40, -60, -110]


def test_a_regional_final_with_eliminations_and_halving_goes_from_published_rules_to_pcn(
    api, registry, as_user, championships, enter_all, players, points
):
    _publish(api, as_user, championships, HALVED_FINAL)
    field = players(20, 101)
    stage = _stage(api, championships, "regional_final", "2027-03-13")
    enter_all(api, stage["id"], [[n] for n in field])
    tournament = stage["tournament"]["id"]
    url = f"/api/tournaments/{tournament}/results/"
    document = staged_results([[n] for n in field], FIRST, 16, SECOND)
    # Carried: half of each session 1 score, -121 → -60.5 → -61 (a half away from zero).
    assert [e["carried"] for e in document["sessions"][1]["entries"]] == [
        200, 150, 125, 100, 75, 60, 50, 40, 30, 20, 10, 0, -15, -30, -45, -61
    ]  # fmt: skip

    # Entry 17, eliminated on -150, may not pass entry 16, which played on and ended on -171.
    wrong = staged_results([[n] for n in field], FIRST, 16, SECOND)
    wrong["entries"][15]["place"], wrong["entries"][16]["place"] = 17, 16
    refused = api.post(url, wrong, format="json")
    assert refused.status_code == 400
    assert [(e["field"], e["code"]) for e in refused.json()["errors"]] == [
        ("entries[15].place", "place_contradicts_sessions"),
        ("entries[16].place", "place_contradicts_sessions"),
    ]
    # A score carried without halving, and 15 players kept where the table keeps 16.
    unhalved = staged_results([[n] for n in field], FIRST, 16, SECOND, divisor=1)
    refused = api.post(url, unhalved, format="json")
    assert ("sessions[1].points_divisor", "points_divisor_differs_from_plan") in {
        (e["field"], e["code"]) for e in refused.json()["errors"]
    }

    accepted = api.post(url, document, format="json")
    assert accepted.status_code == 201, accepted.json()
    homologated = api.post(f"/api/tournaments/{tournament}/homologate/")
    assert homologated.status_code == 200, homologated.json()
    awarded = points(tournament)
    # Final ranking (totals: carried + session 2): entry 6 on 360, 2 on 250, 4 on 150,
    # 3 on 125, 9 on 65, 8 on 60, 5 on 25, 11 on 20, 14 on 10, 1 on 0 (10th), then 12, 10,
    # 13, 7, 15, 16 (-171); the eliminated 17 (-150), 18, 19, 20 rank 17th to 20th.
    # Tables: 5 + 4 = 9 (every session's), coefficient 0.75, index 1.8; half of the 20
    # players of the first session paid: 648, 486, 364 (364.5), 273 (273.375),
    # 205 (205.03), 153 (153.77), 115 (115.33), 86 (86.49), 64 (64.87), 50 (48.65).
    order = [6, 2, 4, 3, 9, 8, 5, 11, 14, 1]
    assert [awarded[field[k - 1]][0] for k in order] == [
        648, 486, 364, 273, 205, 153, 115, 86, 64, 50
    ]  # fmt: skip
    assert all(awarded[field[k - 1]] == (0, 0) for k in range(1, 21) if k not in order)


def test_eliminating_4_of_12_players_with_halving_is_submittable_and_yields_pcn(
    api, registry, as_user, championships, enter_all, players, points
):
    twelve = [
        {"min_entries": 12, "max_entries": 15,
         "sessions": [{"deals": 20}, {"deals": 20, "entries": 8, "points_divisor": 2}]},
    ]  # fmt: skip
    _publish(api, as_user, championships, HALVED_FINAL, twelve)
    field = players(12, 101)
    stage = _stage(api, championships, "regional_stage", "2027-01-16")
    enter_all(api, stage["id"], [[n] for n in field])
    tournament = stage["tournament"]["id"]
    first = [250, 180, 120, 61, 40, 10, -20, -45, -60, -100, -180, -256]
    second = [-100, 50, 40, -30, 60, -10, 20, -30]
    document = staged_results([[n] for n in field], first, 8, second)
    # Carried: 125, 90, 60, 31 (30.5), 20, 5, -10, -23 (-22.5).
    assert [e["carried"] for e in document["sessions"][1]["entries"]] == [
        125, 90, 60, 31, 20, 5, -10, -23
    ]  # fmt: skip
    accepted = api.post(f"/api/tournaments/{tournament}/results/", document, format="json")
    assert accepted.status_code == 201, accepted.json()
    homologated = api.post(f"/api/tournaments/{tournament}/homologate/")
    assert homologated.status_code == 200, homologated.json()
    awarded = points(tournament)
    # Totals: entry 2 on 140, 3 on 100, 5 on 80, 1 on 25, 7 on 10, 4 on 1, 6 on -5, 8 on -53;
    # eliminated 9 to 12. Tables 3 + 2 = 5, coefficient 0.71, index 1: 200, 142,
    # 100 (100.82), 71 (71.58), 50 (50.82), 50 (36.08, the floor); 6 of the 12 paid.
    order = [2, 3, 5, 1, 7, 4]
    assert [awarded[field[k - 1]][0] for k in order] == [200, 142, 100, 71, 50, 50]
    assert all(awarded[field[k - 1]] == (0, 0) for k in (6, 8, 9, 10, 11, 12))


def test_article_29_closes_a_tie_on_the_quota_line(
    api, registry, as_user, finals, championships, enter_all, players, play
):
    field = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in field])
    totals = [300, 200, 50, 50] + [10 - i for i in range(15)]
    totals.append(-sum(totals))
    tiebreaks = {2: tiebreak(120, prise=2), 3: tiebreak(100, prise=5)}
    document = results([[n] for n in field], totals=totals, tiebreaks=tiebreaks)
    shared = {**document, "entries": [dict(e) for e in document["entries"]]}
    shared["entries"][3]["place"] = 3  # level on 50, but article 29 puts entry 3 ahead
    refused = api.post(f"/api/championships/stages/{finals['individual']}/results/", shared,
                       format="json")  # fmt: skip
    assert [(e["field"], e["code"]) for e in refused.json()["errors"]] == [
        ("entries[3].place", "place_contradicts_article_29")
    ]
    assert [e["place"] for e in document["entries"][:5]] == [1, 2, 3, 4, 5]
    play(api, finals["individual"], document)
    as_user("federation_staff")
    response = api.put(
        f"/api/championships/{championships['individual']}/quotas/",
        {"quotas": [{"committee": 1, "places": 3}]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    found = api.get(f"/api/championships/{championships['individual']}/qualification/").json()
    assert [r["key"] for r in found["national_final"]["qualified"]] == [str(n) for n in field[:3]]
    assert not [o for o in found["national_final"]["open"] if o["right"] == "committee_quota"]
