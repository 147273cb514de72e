"""A committee publishes its regional rules; the service checks them against chapter 3."""

from __future__ import annotations

import copy

import pytest

from competitions.models import ChampionshipRulesVersion, RegionalRulesVersion
from tests.competitions.championships.rules_documents import valid_rules

pytestmark = pytest.mark.django_db


def open_regional(as_user, championship_id, committee=1, role="committee_staff"):
    response = as_user(role).post(
        f"/api/championships/{championship_id}/regionals/", {"committee": committee}, format="json"
    )
    assert response.status_code in (200, 201), response.json()
    return response.json()["id"]


def publish(api, regional_id, rules):
    return api.post(
        f"/api/championships/regionals/{regional_id}/rules/", {"rules": rules}, format="json"
    )


def test_the_ccn_creates_the_four_championships_once(api, registry, as_user):
    assert (
        as_user("committee_staff")
        .post("/api/championships/", {"season": "2026-2027"}, format="json")
        .status_code
        == 403
    )
    first = as_user("federation_staff").post(
        "/api/championships/", {"season": "2026-2027"}, format="json"
    )
    assert first.status_code == 201
    assert sorted(c["kind"] for c in first.json()) == ["duo", "individual", "interclubs", "seniors"]
    again = as_user("federation_staff").post(
        "/api/championships/", {"season": "2026-2027"}, format="json"
    )
    assert again.status_code == 200
    assert [c["id"] for c in again.json()] == [c["id"] for c in first.json()]
    # each kind's settings for the season, version 1 from the regulation
    assert ChampionshipRulesVersion.objects.filter(season=registry.season).count() == 4


def test_championship_rules_are_versioned_and_validated(api, registry, as_user, championships):
    url = f"/api/championships/{championships['seniors']}/rules/"
    assert api.get(url).json()["data"]["minimum_age"] == 60
    assert as_user("committee_staff").post(url, {"data": {}}, format="json").status_code == 403
    bad = as_user("federation_staff").post(url, {"data": {"minimum_age": 0}}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "minimum_age"
    good = api.post(url, {"data": {"minimum_age": 65}, "note": "AG 2026"}, format="json")
    assert good.status_code == 201
    assert good.json()["version"] == 2
    assert api.get(url).json()["data"]["minimum_age"] == 65


@pytest.mark.parametrize("kind", ["individual", "duo", "interclubs", "seniors"])
def test_valid_rules_are_published_as_versions(api, registry, as_user, championships, kind):
    regional = open_regional(as_user, championships[kind])
    response = publish(api, regional, valid_rules(kind))
    assert response.status_code == 201, response.json()
    assert response.json()["version"] == 1
    assert publish(api, regional, valid_rules(kind)).json()["version"] == 2
    detail = api.get(f"/api/championships/regionals/{regional}/").json()
    assert [v["version"] for v in detail["rules_versions"]] == [2, 1]
    assert detail["rules_versions"][0]["data"]["committee"] == "1"


def broken(kind: str, change) -> dict:
    rules = copy.deepcopy(valid_rules(kind))
    change(rules["stages"][-1])
    return rules


BREAKS = {
    # article 2: 20 players minimum at the regional final
    "field": (
        "individual",
        lambda s: s["brackets"][0].update(min_entries=15),
        "stages[1].brackets[0].min_entries",
        "field_below_minimum",
    ),
    # articles 2, 8, 14: at least two sessions
    "sessions": (
        "duo",
        lambda s: s["brackets"][0].update(sessions=[{"deals": 20}]),
        "stages[1].brackets[0].sessions",
        "too_few_sessions",
    ),
    # ... of 20 deals at least
    "deals": (
        "interclubs",
        lambda s: s["brackets"][0]["sessions"][1].update(deals=18),
        "stages[1].brackets[0].sessions[1].deals",
        "too_few_deals",
    ),
    # article 8: DUO between 1 October and 20 December
    "duo_window": ("duo", lambda s: s.update(end="2026-12-22"), "stages[1].end", "after_window"),
    # article 14: the interclubs finished by 30 June
    "interclubs_window": (
        "interclubs",
        lambda s: s.update(end="2027-07-02"),
        "stages[1].end",
        "outside_season",
    ),
    # articles 3, 9, 15: points divided by at most 2 ...
    "divisor": (
        "individual",
        lambda s: s["brackets"][0]["sessions"][1].update(entries=10, points_divisor=3),
        "stages[1].brackets[0].sessions[1].points_divisor",
        "division_too_large",
    ),
    # ... and only if 20 % of the field is eliminated there
    "eliminated": (
        "seniors",
        lambda s: s["brackets"][0]["sessions"][1].update(entries=17, points_divisor=2),
        "stages[1].brackets[0].sessions[1].points_divisor",
        "too_few_eliminated",
    ),
}


@pytest.mark.parametrize("name", BREAKS)
def test_rules_that_break_chapter_3_are_refused_and_not_stored(
    api, registry, as_user, championships, name
):
    kind, change, field, code = BREAKS[name]
    regional = open_regional(as_user, championships[kind])
    response = publish(api, regional, broken(kind, change))
    assert response.status_code == 400
    assert (field, code) in {(e["field"], e["code"]) for e in response.json()["errors"]}, (
        response.json()
    )
    assert not RegionalRulesVersion.objects.exists()
    # the dry run says the same without storing anything
    check = api.post(
        f"/api/championships/regionals/{regional}/rules/check/",
        {"rules": broken(kind, change)},
        format="json",
    )
    assert check.status_code == 200
    assert (field, code) in {(e["field"], e["code"]) for e in check.json()["problems"]}


def test_a_regional_final_is_required_and_is_the_last_stage(api, registry, as_user, championships):
    regional = open_regional(as_user, championships["individual"])
    rules = valid_rules("individual")
    rules["stages"] = rules["stages"][:1]
    response = publish(api, regional, rules)
    assert {e["code"] for e in response.json()["errors"]} == {"no_regional_final"}


def test_only_the_committees_staff_publish_and_the_zone_approves(
    api, registry, as_user, championships
):
    regional = open_regional(as_user, championships["individual"])
    for role in ("club_manager", "player"):
        assert publish(as_user(role), regional, valid_rules("individual")).status_code == 403
    other = open_regional(
        as_user, championships["individual"], committee=2, role="federation_staff"
    )
    assert publish(as_user("committee_staff"), other, valid_rules("individual")).status_code == 403
    assert (
        publish(as_user("committee_staff"), regional, valid_rules("individual")).status_code == 201
    )
    url = f"/api/championships/regionals/{regional}/rules/1/approve/"
    assert as_user("committee_staff").post(url).status_code == 403
    approved = as_user("zone_staff").post(url)
    assert approved.status_code == 200
    assert approved.json()["approved_by"] == "zone_staff"
    # committee 2 is in zone 2: zone 1's staff cannot approve it
    publish(as_user("federation_staff"), other, valid_rules("individual"))
    assert (
        as_user("zone_staff")
        .post(f"/api/championships/regionals/{other}/rules/1/approve/")
        .status_code
        == 403
    )


def test_rules_naming_another_committee_or_kind_are_refused(api, registry, as_user, championships):
    regional = open_regional(as_user, championships["duo"])
    response = publish(
        api, regional, {**valid_rules("duo"), "committee": "2", "kind": "individual"}
    )
    assert {e["code"] for e in response.json()["errors"]} == {"committee_mismatch", "kind_mismatch"}
    malformed = publish(api, regional, {"stages": [{"name": "x"}]})
    assert malformed.status_code == 400
    assert malformed.json()["errors"][0]["code"] == "malformed"


def test_only_those_who_may_publish_check_a_committees_rules(api, registry, as_user, championships):
    """Committee 2's and zone 2's staff may not run committee 1's dry run."""
    from federation.models import Role, RoleAssignment, User

    regional = open_regional(as_user, championships["individual"])
    committee_2 = User.objects.create_user(username="committee_2_staff")
    RoleAssignment.objects.create(
        user=committee_2, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
    )
    zone_2 = User.objects.create_user(username="zone_2_staff")
    RoleAssignment.objects.create(user=zone_2, role=Role.ZONE_STAFF, zone=registry.zones[2])
    url = f"/api/championships/regionals/{regional}/rules/check/"
    body = {"rules": valid_rules("individual")}
    for user, expected in [
        (committee_2, 403),
        (zone_2, 403),
        (registry.users["club_manager"], 403),
        (registry.users["committee_staff"], 200),
        (registry.users["zone_staff"], 200),
        (registry.users["federation_staff"], 200),
    ]:
        assert as_user(user).post(url, body, format="json").status_code == expected, user
    api.force_authenticate(None)
    assert api.post(url, body, format="json").status_code == 401
