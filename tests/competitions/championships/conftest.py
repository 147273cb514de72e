"""Fixtures of the championship service tests."""

from __future__ import annotations

import pytest

from competitions.championships import facts
from tests.competitions.championships.builders import valid_rules


@pytest.fixture
def series(monkeypatch):
    """The national ranking's series of players this season, as the ranking would give them:
    fill ``series[licence_number] = 1..4``; absent players are unranked.

    The lookup is the service's one call into the national ranking
    (``facts.series_for_players``), replaced here by this table.
    """
    table: dict[int, int] = {}
    monkeypatch.setattr(
        facts, "series_for_players", lambda season, numbers: {n: table.get(n) for n in numbers}
    )
    return table


@pytest.fixture
def as_user(api, registry):
    def authenticate(role_or_user):
        user = registry.users[role_or_user] if isinstance(role_or_user, str) else role_or_user
        api.force_authenticate(user)
        return api

    return authenticate


@pytest.fixture
def championships(api, registry):
    """The four championships of 2026-2027, created by the CCN: kind → id."""
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post("/api/championships/", {"season": "2026-2027"}, format="json")
    assert response.status_code == 201, response.json()
    api.force_authenticate(None)
    return {c["kind"]: c["id"] for c in response.json()}


@pytest.fixture
def published(api, registry, as_user, championships):
    """Committee 1's regional championships, rules published, for the four kinds."""
    regionals = {}
    for kind, pk in championships.items():
        regional = (
            as_user("committee_staff")
            .post(f"/api/championships/{pk}/regionals/", {"committee": 1}, format="json")
            .json()["id"]
        )
        response = api.post(
            f"/api/championships/regionals/{regional}/rules/",
            {"rules": valid_rules(kind)},
            format="json",
        )
        assert response.status_code == 201, response.json()
        regionals[kind] = regional
    return regionals


FINAL_DAY = {
    "individual": "2027-03-13",
    "seniors": "2027-03-14",
    "duo": "2026-12-05",
    "interclubs": "2027-05-15",
}


@pytest.fixture
def finals(api, registry, as_user, championships, published):
    """Committee 1's regional final of each kind: kind → stage id."""
    stages = {}
    for kind, pk in championships.items():
        response = as_user("committee_staff").post(
            f"/api/championships/{pk}/stages/",
            {
                "kind": "regional_final",
                "date": FINAL_DAY[kind],
                "venue": "Lyon",
                "arbiter_licence_number": 1002,
                "committee": 1,
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        stages[kind] = response.json()["id"]
    api.force_authenticate(None)
    return stages
