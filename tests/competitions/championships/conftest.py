"""Fixtures of the championship service tests: the championships of the season and
their regional finals through the API, players, the stages' points, and the API steps
of a stage (entries, results, homologation) as factories."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pytest

from competitions.championships import facts
from tests.competitions.championships.results_documents import results
from tests.competitions.championships.rules_documents import shifted, valid_rules

if TYPE_CHECKING:
    from federation.models import Player


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
    """Committee 1's regional final of each kind, its rules approved by the zone (without
    the approval a stage is void: docs/rulebook-settings.md): kind → stage id."""
    for regional in published.values():
        approved = as_user("zone_staff").post(
            f"/api/championships/regionals/{regional}/rules/1/approve/"
        )
        assert approved.status_code == 200, approved.json()
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


# ---------------------------------------------------------------------------------------------
# Players


# Licence numbers of the players made here, across the whole run.
_licence_numbers = itertools.count(700001)


@pytest.fixture
def new_player(registry) -> Callable[..., Player]:
    """``new_player(club, *, born, previous, licensed, issued_on, last_name, number)``: a
    player licensed this season in the registry's ``club`` (and the previous season by
    default)."""
    from federation.models import Licence, Player

    def make(
        club: int,
        *,
        born: dt.date = dt.date(1975, 6, 1),
        previous: bool = True,
        licensed: bool = True,
        issued_on: dt.date | None = None,
        last_name: str = "Joueur",
        number: int | None = None,
    ) -> Player:
        number = number or next(_licence_numbers)
        player = Player.objects.create(
            licence_number=number,
            last_name=f"{last_name}{number}",
            first_name="Test",
            birth_date=born,
        )
        if licensed:
            Licence.objects.create(
                player=player,
                season=registry.season,
                club=registry.clubs[club],
                issued_on=issued_on,
            )
        if previous:
            Licence.objects.create(
                player=player, season=registry.previous, club=registry.clubs[club]
            )
        return player

    return make


@pytest.fixture
def players(new_player) -> Callable[..., list[int]]:
    """``players(count, club, **new_player_options)``: the licence numbers of ``count``
    new players of ``club``."""

    def make(count: int, club: int, **kwargs) -> list[int]:
        return [new_player(club, **kwargs).licence_number for _ in range(count)]

    return make


@pytest.fixture
def points(db) -> Callable[[int], dict[int, tuple[int, int]]]:
    """``points(tournament_id)``: licence number → (PCN, PP) of the tournament's current
    allocations."""
    from competitions.models import Allocation

    def read(tournament_id: int) -> dict[int, tuple[int, int]]:
        return {
            number: (pcn, pp)
            for number, pcn, pp in Allocation.objects.filter(
                tournament_id=tournament_id, current=True
            ).values_list("player__licence_number", "pcn", "pp")
        }

    return read


# ---------------------------------------------------------------------------------------------
# API steps, through the client the test passes (authenticated as it needs)


@pytest.fixture
def enter_all(db) -> Callable[..., dict]:
    """``enter_all(api, stage, groups)``: every group of licence numbers entered in
    ``stage``; the response body."""

    def enter(api, stage: int, groups: Sequence[Sequence[int]]) -> dict:
        response = api.post(
            f"/api/championships/stages/{stage}/entries/",
            {"entries": [{"licence_numbers": list(g)} for g in groups]},
            format="json",
        )
        assert response.status_code == 201, response.json()
        return response.json()

    return enter


@pytest.fixture
def submit(db) -> Callable[..., Any]:
    """``submit(api, stage, document)``: the response to the stage's results."""

    def send(api, stage: int, document: dict):
        return api.post(f"/api/championships/stages/{stage}/results/", document, format="json")

    return send


@pytest.fixture
def homologate(db) -> Callable[..., Any]:
    """``homologate(api, stage)``: the response to the stage's homologation."""

    def send(api, stage: int):
        return api.post(f"/api/championships/stages/{stage}/homologate/")

    return send


@pytest.fixture
def play(submit, homologate) -> Callable[..., None]:
    """``play(api, stage, document)``: the stage's results submitted and homologated (the
    caller is staff above the organiser)."""

    def run(api, stage: int, document: dict) -> None:
        submitted = submit(api, stage, document)
        assert submitted.status_code == 201, submitted.json()
        done = homologate(api, stage)
        assert done.status_code == 200, done.json()
        assert done.json()["status"] == "homologated"

    return run


@pytest.fixture
def previous_regional_final(registry, enter_all, play) -> Callable[..., int]:
    """``previous_regional_final(api, kind, day, entries, committee=1)``: last season's
    (2025-2026) regional final of ``kind`` for ``committee``, played in the order of
    ``entries`` (the first is the regional champion); the championship's id. The caller
    is the CCN."""
    from federation.models import ArbiterAccreditation, ArbiterGrade

    def make(api, kind: str, day: str, entries, committee: int = 1) -> int:
        ArbiterAccreditation.objects.get_or_create(
            player=registry.players[1002],
            season=registry.previous,
            defaults={"grade": ArbiterGrade.REGIONAL},
        )
        made = api.post(
            "/api/championships/", {"season": "2025-2026", "kinds": [kind]}, format="json"
        ).json()
        championship = made[0]["id"]
        regional = api.post(
            f"/api/championships/{championship}/regionals/", {"committee": committee},
            format="json",
        ).json()["id"]  # fmt: skip
        published = api.post(
            f"/api/championships/regionals/{regional}/rules/",
            {"rules": shifted(valid_rules(kind, semi=False), -1)},
            format="json",
        )
        assert published.status_code == 201, published.json()
        version = published.json()["version"]
        approved = api.post(f"/api/championships/regionals/{regional}/rules/{version}/approve/")
        assert approved.status_code == 200, approved.json()
        final = api.post(
            f"/api/championships/{championship}/stages/",
            {"kind": "regional_final", "date": day, "venue": "Salle",
             "arbiter_licence_number": 1002, "committee": committee},
            format="json",
        )  # fmt: skip
        assert final.status_code == 201, final.json()
        enter_all(api, final.json()["id"], entries)
        play(api, final.json()["id"], results(entries))
        return championship

    return make
