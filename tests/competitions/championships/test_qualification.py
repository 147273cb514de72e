"""Who is qualified, by which right, what is still open — and what staff must settle."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.models import Qualification, Tournament
from competitions.tournaments.homologation import plain_tournament_homologate
from competitions.tournaments.submission import plain_results_submit
from federation.models import Licence
from tests.competitions.championships.results_documents import results, tiebreak

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(api):
    """These tests read the refusals' English developer text (French is the default)."""
    api.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def quota(api, championship, places, committee=1):
    response = api.put(
        f"/api/championships/{championship}/quotas/",
        {"quotas": [{"committee": committee, "places": places}]},
        format="json",
    )
    assert response.status_code == 200, response.json()


def status(api, championship):
    response = api.get(f"/api/championships/{championship}/qualification/")
    assert response.status_code == 200, response.json()
    return response.json()


@pytest.fixture
def field(api, registry, as_user, finals, enter_all, players):
    numbers = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in numbers])
    return numbers


def test_a_tie_that_survives_article_29_leaves_the_places_open(
    api, registry, as_user, finals, championships, field, play
):
    totals = [300, 200, 50, 50] + [10 - i for i in range(15)]
    totals.append(-sum(totals))
    same = tiebreak(120, prise=2)
    document = results([[n] for n in field], totals=totals, tiebreaks={2: same, 3: same})
    assert [e["place"] for e in document["entries"][:5]] == [1, 2, 3, 3, 5]
    play(api, finals["individual"], document)
    as_user("federation_staff")
    quota(api, championships["individual"], 3)
    found = status(api, championships["individual"])
    assert [r["key"] for r in found["national_final"]["qualified"]] == [str(n) for n in field[:2]]
    assert found["national_final"]["open"][0] == {
        "right": "committee_quota",
        "committee": 1,
        "count": 1,
        "reason": "tie_at_boundary",
        "tied": [str(field[2]), str(field[3])],
    }


def test_a_regional_final_breaking_a_rule_qualifies_nobody(
    api, registry, as_user, finals, championships, field
):
    """A final of 15 players in one session is refused by the stage's checks, also through
    the tournaments' endpoints; and were it homologated anyway (written straight through
    the tournament services, as before a rule change), it still cannot give its places:
    they stay open, and staff see why."""
    short = field[:15]
    document = results([[n] for n in short], sessions=1)
    tournament = api.get(f"/api/championships/stages/{finals['individual']}/").json()["tournament"]
    as_user("committee_staff")
    generic = api.post(f"/api/tournaments/{tournament['id']}/results/", document, format="json")
    assert generic.status_code == 400
    stored = Tournament.objects.get(pk=tournament["id"])
    plain_results_submit(
        tournament=stored, content=document, source="json", by=registry.users["committee_staff"]
    )
    check = api.get(f"/api/championships/stages/{finals['individual']}/check/").json()
    # 15 entries: no row of the published table either
    assert {p["code"] for p in check["problems"]} == {
        "field_below_minimum", "too_few_sessions", "no_plan_for_field"
    }  # fmt: skip
    refused = api.post(f"/api/championships/stages/{finals['individual']}/homologate/")
    assert refused.status_code == 400
    assert api.post(f"/api/tournaments/{tournament['id']}/homologate/").status_code == 400
    plain_tournament_homologate(tournament=stored, by=registry.users["committee_staff"])
    as_user("federation_staff")
    quota(api, championships["individual"], 4)
    found = status(api, championships["individual"])
    assert found["national_final"]["qualified"] == []
    assert found["national_final"]["open"][0]["reason"] == "regional_final_pending"
    assert {(p["field"], p["code"]) for p in found["problems"]} == {
        ("regional_finals.1.entries", "field_below_minimum"),
        ("regional_finals.1.sessions", "too_few_sessions"),
        ("regional_finals.1.entries", "no_plan_for_field"),
    }


def test_the_ccn_may_name_no_outgoing_champion_and_quotas_are_required(
    api, registry, as_user, finals, championships, field, play
):
    pk = championships["individual"]
    play(as_user("committee_staff"), finals["individual"], results([[n] for n in field]))
    as_user("federation_staff")
    wrong = api.put(
        f"/api/championships/{pk}/outgoing-champion/", {"licence_numbers": field[:2]}, format="json"
    )
    assert {e["code"] for e in wrong.json()["errors"]} == {"wrong_team_size"}
    api.put(
        f"/api/championships/{pk}/outgoing-champion/",
        {"licence_numbers": [field[0]]},
        format="json",
    )
    found = status(api, pk)
    assert found["problems"] == [
        {"field": "quotas.1", "code": "no_quota",
         "message": "committee 1 has played its regional final but the CCN has set no quota "
                    "for it."}
    ]  # fmt: skip
    assert [(r["key"], r["right"]) for r in found["national_final"]["qualified"]] == [
        (str(field[0]), "outgoing_national_champion")
    ]
    quota(api, pk, 2)
    assert [r["key"] for r in status(api, pk)["national_final"]["qualified"]] == [
        str(n) for n in field[:3]
    ]
    # article 30 of fascicule 1: the CCN states there is no outgoing champion
    api.put(f"/api/championships/{pk}/outgoing-champion/", {"licence_numbers": []}, format="json")
    assert [r["right"] for r in status(api, pk)["national_final"]["qualified"]] == [
        "committee_quota", "committee_quota"
    ]  # fmt: skip


def test_recorded_qualifications_keep_their_history(
    api, registry, as_user, finals, championships, field, play
):
    pk = championships["individual"]
    play(as_user("committee_staff"), finals["individual"], results([[n] for n in field]))
    as_user("federation_staff")
    quota(api, pk, 3)
    assert (
        as_user("committee_staff").post(f"/api/championships/{pk}/qualification/").status_code
        == 403
    )
    recorded = as_user("federation_staff").post(f"/api/championships/{pk}/qualification/").json()
    assert [(r["key"], r["status"], r["source_stage"]) for r in recorded] == [
        (str(n), "qualified", finals["individual"]) for n in field[:3]
    ]
    quota(api, pk, 2)
    api.post(f"/api/championships/{pk}/qualification/")
    third = Qualification.objects.get(key=str(field[2]))
    assert third.status == "withdrawn"
    assert [h.status for h in third.history.order_by("history_date")] == ["qualified", "withdrawn"]
    listed = api.get(f"/api/championships/{pk}/qualifications/").json()
    assert {r["status"] for r in listed} == {"qualified", "withdrawn"}


def test_staff_only_see_the_state_of_qualification(api, registry, as_user, championships):
    pk = championships["individual"]
    assert as_user("player").get(f"/api/championships/{pk}/qualification/").status_code == 403
    assert as_user("club_manager").get(f"/api/championships/{pk}/qualification/").status_code == 403
    assert (
        as_user("committee_staff").get(f"/api/championships/{pk}/qualification/").status_code == 200
    )
    assert as_user("anonymous").get("/api/championships/me/").status_code == 401
    assert as_user("club_manager").get("/api/championships/me/").status_code == 403


def test_regional_champions_carried_over_only_if_still_in_the_committee(
    api, registry, as_user, championships, published, players, previous_regional_final
):
    old = {"born": dt.date(1950, 1, 1)}
    stay, leave = players(1, 101, **old), players(1, 102, **old)
    rest = players(19, 101, **old)
    as_user("federation_staff")
    previous_regional_final(api, "individual", "2026-03-14", [[n] for n in stay + rest])
    previous_regional_final(api, "seniors", "2026-03-15", [[n] for n in leave + rest])
    # the seniors champion moved to committee 2 this season
    Licence.objects.filter(player__licence_number=leave[0], season=registry.season).update(
        club=registry.clubs[201]
    )
    individual = status(api, championships["individual"])
    assert [
        (r["key"], r["right"], r["committee"], r["place"])
        for r in individual["regional_final"]["qualified"]
    ] == [(str(stay[0]), "regional_champion", 1, 1)]
    seniors = status(api, championships["seniors"])
    assert seniors["regional_final"]["qualified"] == []
    assert [e["code"] for e in seniors["regional_final"]["refused"]] == ["left_committee"]
    assert "now in committee 2" in seniors["regional_final"]["refused"][0]["message"]


def test_the_outgoing_interclubs_champion_must_still_be_a_valid_team(
    api, registry, as_user, championships, series, players
):
    team = players(4, 101)
    for n, value in zip(team, (1, 1, 2, 2), strict=True):
        series[n] = value
    as_user("federation_staff")
    pk = championships["interclubs"]
    api.put(f"/api/championships/{pk}/outgoing-champion/", {"licence_numbers": team}, format="json")
    found = status(api, pk)
    assert found["national_final"]["qualified"] == []
    assert [p["code"] for p in found["problems"]] == ["composition_not_allowed"]
    series[team[3]] = 4  # 1 × 1 × 2 × 4 = 8, still not allowed; 1 × 1 × 3 × 4 is
    series[team[2]] = 3
    found = status(api, pk)
    assert [(r["right"], r["team"]["series"]) for r in found["national_final"]["qualified"]] == [
        ("outgoing_national_champion", [1, 1, 3, 4])
    ]
