"""Stages: a committee creates its regional stages from its published rules, the CCN the
national qualifier and final; each stage is a tournament declared at its stage kind."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.models import ChampionshipStage, Tournament
from federation.models import ArbiterAccreditation, ArbiterGrade, Season

pytestmark = pytest.mark.django_db


def stage(**overrides):
    return {
        "kind": "regional_final",
        "date": "2027-03-13",
        "venue": "Lyon",
        "arbiter_licence_number": 1002,
        "committee": 1,
        **overrides,
    }


def create(api, championship_id, body):
    return api.post(f"/api/championships/{championship_id}/stages/", body, format="json")


def codes(response):
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


def test_a_regional_final_is_a_committee_tournament_at_its_stage(
    api, registry, as_user, championships, published
):
    response = create(as_user("committee_staff"), championships["individual"], stage())
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["kind"] == "regional_final"
    assert body["committee"] == 1
    assert body["rules_version"] == 1
    assert body["rules_stage"] == "Finale régionale"
    tournament = Tournament.objects.get(pk=body["tournament"]["id"])
    assert (tournament.stage, tournament.format, tournament.organizer_kind) == (
        "regional_final", "individual", "committee"
    )  # fmt: skip
    assert tournament.planned_sessions == 2
    assert tournament.organizer_committee == registry.committees[1]
    # the interclubs stage is a teams-of-4 tournament
    inter = create(api, championships["interclubs"], stage(date="2027-05-15"))
    assert inter.json()["tournament"]["format"] == "team4"


def test_a_stage_needs_the_committees_published_rules(api, registry, as_user, championships):
    as_user("committee_staff").post(
        f"/api/championships/{championships['duo']}/regionals/", {"committee": 1}, format="json"
    )
    response = create(api, championships["duo"], stage(date="2026-12-05"))
    assert codes(response) == {("committee", "no_regional_rules")}
    response = create(api, championships["duo"], stage(date="2026-12-05", committee=2))
    assert response.status_code == 403  # committee 2 is not theirs
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("kind", "body", "expected"),
    [
        # outside the published final's dates (and so outside the DUO window)
        ("duo", stage(date="2026-12-22"), ("date", "outside_published_stage")),
        # the interclubs regional championship is over by 30 June
        ("interclubs", stage(date="2027-07-03"), ("date", "outside_published_stage")),
        # a regional final is played in two sessions at least
        ("individual", stage(planned_sessions=1), ("planned_sessions", "too_few_sessions")),
        # seniors: every stage meets the minima (article 19)
        (
            "seniors",
            stage(kind="regional_semi_final", date="2027-02-10", planned_sessions=1),
            ("planned_sessions", "too_few_sessions"),
        ),
        # a kind the committee did not publish
        ("individual", stage(kind="regional_stage"), ("kind", "not_in_published_rules")),
        ("individual", stage(rules_stage="Finale"), ("rules_stage", "unknown_stage")),
    ],
)
def test_stages_that_break_the_rules_are_refused(
    api, registry, as_user, championships, published, kind, body, expected
):
    response = create(as_user("committee_staff"), championships[kind], body)
    assert response.status_code == 400
    assert expected in codes(response), response.json()
    assert not ChampionshipStage.objects.exists()
    assert not Tournament.objects.exists()


def test_a_final_is_directed_by_a_regional_arbiter(
    api, registry, as_user, championships, published, new_player
):
    club_arbiter = new_player(101)
    ArbiterAccreditation.objects.create(
        player=club_arbiter, season=registry.season, grade=ArbiterGrade.CLUB
    )
    body = stage(arbiter_licence_number=club_arbiter.licence_number)
    response = create(as_user("committee_staff"), championships["individual"], body)
    assert codes(response) == {("arbiter_licence_number", "arbiter_grade_too_low")}
    # a semi-final may be directed by a club arbiter
    semi = stage(
        kind="regional_semi_final",
        date="2027-02-10",
        arbiter_licence_number=club_arbiter.licence_number,
    )
    assert create(api, championships["individual"], semi).status_code == 201
    # only the CCN grants a derogation
    derogation = {**body, "arbiter_derogation": True}
    assert ("arbiter_derogation", "derogation_reserved") in codes(
        create(api, championships["individual"], derogation)
    )
    granted = create(as_user("federation_staff"), championships["individual"], derogation)
    assert granted.status_code == 201, granted.json()


def test_one_regional_final_per_committee(api, registry, as_user, championships, published):
    assert (
        create(as_user("committee_staff"), championships["individual"], stage()).status_code == 201
    )
    again = create(api, championships["individual"], stage(date="2027-03-20"))
    assert codes(again) == {("kind", "stage_exists")}


def test_the_same_reference_returns_the_same_stage(
    api, registry, as_user, championships, published
):
    body = stage(reference="CR1-FINALE")
    first = create(as_user("committee_staff"), championships["individual"], body)
    again = create(api, championships["individual"], body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]


def national(**overrides):
    return {
        "kind": "national_final",
        "date": "2027-05-16",
        "venue": "Paris",
        "arbiter_licence_number": 1002,
        **overrides,
    }


def test_national_stages_are_the_ccns_and_the_qualifier_is_the_day_before(
    api, registry, as_user, championships, published
):
    pk = championships["individual"]
    assert create(as_user("committee_staff"), pk, national()).status_code == 403
    assert create(as_user("federation_staff"), pk, national()).status_code == 201
    wrong = create(api, pk, national(kind="national_qualifier", date="2027-05-14"))
    assert ("date", "qualifier_not_day_before_final") in codes(wrong)
    two = create(
        api, pk, national(kind="national_qualifier", date="2027-05-15", planned_sessions=2)
    )
    assert ("planned_sessions", "qualifier_one_session") in codes(two)
    ok = create(api, pk, national(kind="national_qualifier", date="2027-05-15"))
    assert ok.status_code == 201, ok.json()
    assert ok.json()["tournament"]["planned_sessions"] == 1


def test_the_interclubs_have_no_qualifier_and_their_final_is_next_season(
    api, registry, as_user, championships, published
):
    pk = championships["interclubs"]
    qualifier = create(as_user("federation_staff"), pk, national(kind="national_qualifier"))
    assert codes(qualifier) == {("kind", "no_national_qualifier")}
    same_season = create(api, pk, national(date="2027-06-05"))
    assert ("date", "national_final_outside_season") in codes(same_season)
    following = Season.objects.create(
        name="2027-2028", start_date=dt.date(2027, 7, 1), end_date=dt.date(2028, 6, 30)
    )
    ArbiterAccreditation.objects.create(
        player=registry.players[1002], season=following, grade=ArbiterGrade.NATIONAL
    )
    response = create(api, pk, national(date="2027-10-10"))
    assert response.status_code == 201, response.json()
    assert response.json()["tournament"]["season"] == "2027-2028"


def test_a_national_final_before_a_regional_final_is_refused(
    api, registry, as_user, championships, published
):
    response = create(
        as_user("federation_staff"), championships["individual"], national(date="2027-03-20")
    )
    assert ("stages[1].end", "regional_final_too_late") in {
        (e["field"].split(".", 1)[1], e["code"]) for e in response.json()["errors"]
    }, response.json()


def test_stage_list_reads_in_a_fixed_number_of_queries(
    api, registry, as_user, championships, published, django_assert_max_num_queries
):
    pk = championships["individual"]
    create(as_user("committee_staff"), pk, stage())
    create(api, pk, stage(kind="regional_semi_final", date="2027-02-10"))
    create(as_user("federation_staff"), pk, national())
    create(api, pk, national(kind="national_qualifier", date="2027-05-15"))
    api.force_authenticate(None)
    with django_assert_max_num_queries(4):  # the stages, their tournaments' sessions
        response = api.get(f"/api/championships/{pk}/stages/")
    assert [s["kind"] for s in response.json()] == [
        "regional_semi_final", "regional_final", "national_qualifier", "national_final"
    ]  # fmt: skip
    with django_assert_max_num_queries(6):
        detail = api.get(f"/api/championships/{pk}/")
    assert len(detail.json()["stages"]) == 4
