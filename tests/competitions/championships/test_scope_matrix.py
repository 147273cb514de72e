"""The permission matrix over the whole API: every operation of the OpenAPI
schema, called by every role on objects inside and outside its scope (two committees, two
zones, two clubs, a player who moved between seasons), never answers a 5xx and never
shows a private value (birth date in any format, e-mail, phone) of a player the caller
may not see. Operations are enumerated from the schema: a new endpoint is called too, and
a path parameter this module cannot fill fails the test instead of being skipped."""

from __future__ import annotations

import itertools
import re

import pytest

from tests.competitions.championships.conftest import FINAL_DAY
from tests.competitions.championships.rules_documents import valid_rules

pytestmark = pytest.mark.django_db

# Whose private data each role may see (licence numbers). Player 2002 moved from club 101
# (committee 1) last season to club 201 (committee 2) this season: committee 1's roles
# no longer see it.
SEES = {
    "anonymous": set(),
    "player": {1001},  # themself
    "arbiter": {1002},  # themself
    "club_manager": {1001, 1002},  # club 101
    "committee_staff": {1001, 1002, 1003},  # committee 1
    "zone_staff": {1001, 1002, 1003},  # zone 1
    "federation_staff": {1001, 1002, 1003, 2001, 2002},
    "club_manager_2": {2001, 2002},  # club 201
    "committee_2_staff": {2001, 2002},  # committee 2
    "zone_2_staff": {2001, 2002},  # zone 2
}
WRITES = {"post", "put", "patch", "delete"}
PUBLIC_WRITES = {
    "/api/engine/",  # pure computations, open to anyone
    "/api/pcn/allocate/",
    "/api/federation/tokens/password/",  # signing in: a user name and password, no token
    "/api/day/tables/",  # a table at the tournament day: its QR code's token is its credential
}


def private_values(player) -> list[str]:
    born = player.birth_date
    return [
        born.isoformat(),
        born.strftime("%d/%m/%Y"),
        born.strftime("%d.%m.%Y"),
        born.strftime("%Y%m%d"),
        player.email,
        player.phone,
    ]


@pytest.fixture
def world(api, registry, as_user, championships, finals):
    """Committee 1's and committee 2's individual regional finals with entries, users of
    both committees, zones and clubs, phones on record, and a player who moved."""
    from competitions.models import ChampionshipStage
    from federation.models import (
        ArbiterAccreditation,
        ArbiterGrade,
        Licence,
        Player,
        Role,
        RoleAssignment,
        User,
    )

    for player in Player.objects.all():
        player.phone = (
            f"+33 6 55 {player.licence_number // 100:02d} {player.licence_number % 100:02d} 77"
        )
        player.save(update_fields=["phone"])
    Licence.objects.filter(player=registry.players[2002], season=registry.previous).update(
        club=registry.clubs[101]
    )
    users = dict(registry.users)
    for name, kwargs in {
        "club_manager_2": {"role": Role.CLUB_MANAGER, "club": registry.clubs[201]},
        "committee_2_staff": {"role": Role.COMMITTEE_STAFF, "committee": registry.committees[2]},
        "zone_2_staff": {"role": Role.ZONE_STAFF, "zone": registry.zones[2]},
    }.items():
        users[name] = User.objects.create_user(username=name)
        RoleAssignment.objects.create(user=users[name], **kwargs)

    # Committee 2's stage has its own arbiter (2001): player 1002 arbitrates committee 1's.
    ArbiterAccreditation.objects.create(
        player=registry.players[2001], season=registry.season, grade=ArbiterGrade.REGIONAL
    )
    staff = as_user("federation_staff")
    individual = championships["individual"]
    regional_2 = staff.post(
        f"/api/championships/{individual}/regionals/", {"committee": 2}, format="json"
    ).json()["id"]
    published = staff.post(
        f"/api/championships/regionals/{regional_2}/rules/",
        {"rules": valid_rules("individual")},
        format="json",
    )
    assert published.status_code == 201, published.json()
    stage_2 = staff.post(
        f"/api/championships/{individual}/stages/",
        {"kind": "regional_final", "date": FINAL_DAY["individual"], "venue": "Rennes",
         "arbiter_licence_number": 2001, "committee": 2},
        format="json",
    )  # fmt: skip
    assert stage_2.status_code == 201, stage_2.json()
    stage_1, stage_2 = finals["individual"], stage_2.json()["id"]
    for stage, numbers in ((stage_1, (1001, 1003)), (stage_2, (2001, 2002))):
        response = staff.post(
            f"/api/championships/stages/{stage}/entries/",
            {"entries": [{"licence_numbers": [n]} for n in numbers]},
            format="json",
        )
        assert response.status_code == 201, response.json()
    regional_1 = ChampionshipStage.objects.get(pk=stage_1).regional_id
    tournaments = [ChampionshipStage.objects.get(pk=s).tournament_id for s in (stage_1, stage_2)]
    return {
        "users": users,
        "championship": individual,
        "regionals": [regional_1, regional_2],
        "stages": [stage_1, stage_2],
        "tournaments": tournaments,
        "players": {p.licence_number: p for p in Player.objects.all()},
    }


def path_values(world, registry, path: str, name: str) -> list:
    """Values of a path parameter: an object inside committee 1's scope, then outside."""
    if name == "id":
        owner = path.split("{id}")[0]
        by_owner = {
            "/api/championships/": [world["championship"]],
            "/api/championships/regionals/": world["regionals"],
            "/api/championships/stages/": world["stages"],
            "/api/tournaments/": world["tournaments"],
            "/api/day/tournaments/": world["tournaments"],
            "/api/public/tournaments/": world["tournaments"],
            "/api/federation/committees/": [c.pk for c in registry.committees.values()],
            "/api/federation/zones/": [z.pk for z in registry.zones.values()],
            "/api/federation/seasons/": [registry.season.pk],
            "/api/pcn/recomputes/": [1],
            "/api/suspension-proposals/": [1],  # none exists: staff 404, anyone else 403
        }
        return by_owner[owner]
    return (
        {
            "number": [1],
            "token": ["x"],  # a table's token that does not verify (tests/competitions/day/)
            "version": [1],
            "licence_number": [1001, 1003, 2001, 2002],
            "season": [registry.season.name],
            "token_key": ["0123456789abcdef"],  # nobody's token
        }[name]
        if name != "number" or "/clubs/" not in path
        else [101, 201]
    )


def operations():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (path, method)
        for path, methods in schema["paths"].items()
        for method in methods
        if method in WRITES | {"get"}
    ]


def body_text(response) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")


def test_every_operation_by_every_role_inside_and_outside_its_scope(api, registry, world):
    ops = operations()
    assert len(ops) >= 70  # the whole API, not a part of it
    failures = []
    calls = 0
    for path, method in ops:
        names = re.findall(r"{(\w+)}", path)
        choices = [path_values(world, registry, path, name) for name in names]
        for values in itertools.product(*choices):
            url = path
            for name, value in zip(names, values, strict=True):
                url = url.replace(f"{{{name}}}", str(value), 1)
            for role, user in world["users"].items():
                api.force_authenticate(user)
                call = getattr(api, method)
                response = call(url, {}, format="json") if method in WRITES else call(url)
                calls += 1
                text = body_text(response)
                where = f"{method.upper()} {url} as {role}: {response.status_code}"
                if response.status_code >= 500:
                    failures.append(f"{where} (5xx)")
                if (
                    role == "anonymous"
                    and method in WRITES
                    and not path.startswith(tuple(PUBLIC_WRITES))
                    and response.status_code != 401
                ):
                    failures.append(f"{where} (anonymous write not 401)")
                for number, player in world["players"].items():
                    if number in SEES[role]:
                        continue
                    for value in private_values(player):
                        if value and value in text:
                            failures.append(f"{where} shows {value!r} of licence {number}")
    api.force_authenticate(None)
    assert calls > 1000
    assert not failures, "\n".join(failures)


# Who is outside each committee's objects (stage 1 is arbitrated by 1002, stage 2 by 2001).
OUTSIDE = {
    0: ["club_manager_2", "committee_2_staff", "zone_2_staff", "player"],
    1: ["player", "arbiter", "club_manager", "committee_staff", "zone_staff"],
}


@pytest.mark.parametrize(
    ("owner", "role"), [(owner, role) for owner, roles in OUTSIDE.items() for role in roles]
)
def test_a_committees_objects_are_not_written_from_outside(api, registry, world, owner, role):
    """Every write on a committee's regional, stage (entries, results, seating…) and its
    tournament by a role outside it is refused, never a 2xx, and who may act is checked
    before the body: a 403 whatever is sent."""
    owned = {
        "/api/championships/regionals/{id}": world["regionals"][owner],
        "/api/championships/stages/{id}": world["stages"][owner],
        "/api/tournaments/{id}": world["tournaments"][owner],
    }
    # An entry already withdrawn is no less the committee's: withdrawing it again is
    # refused to anyone outside the committee's scope.
    api.force_authenticate(world["users"]["federation_staff"])
    already = f"/api/championships/stages/{world['stages'][owner]}/entries/2/withdraw/"
    assert api.post(already).status_code == 200
    api.force_authenticate(world["users"][role])
    refused = []
    if (response := api.post(already)).status_code != 403:
        refused.append(f"POST {already} (already withdrawn): {response.status_code}")
    for path, method in operations():
        prefix = next((p for p in owned if path.startswith(p)), None)
        if prefix is None or method not in WRITES:
            continue
        url = path.replace("{id}", str(owned[prefix])).replace("{number}", "1")
        url = url.replace("{version}", "1")
        response = getattr(api, method)(url, {}, format="json")
        if response.status_code != 403:
            refused.append(f"{method.upper()} {url}: {response.status_code}")
    api.force_authenticate(None)
    assert not refused, "\n".join(refused)


def test_entering_anyone_anywhere_reveals_no_private_fact(api, registry, world, finals):
    """The probe: every role enters every licensee, one by one, in both
    committees' individual finals and committee 1's seniors final (where the too young are
    refused): whatever the answer, no private value of a player the caller may not see."""
    stages = [*world["stages"], finals["seniors"]]
    leaks = []
    for role, user in world["users"].items():
        api.force_authenticate(user)
        for stage, number in itertools.product(stages, world["players"]):
            response = api.post(
                f"/api/championships/stages/{stage}/entries/",
                {"licence_numbers": [number]},
                format="json",
            )
            assert response.status_code < 500
            text = body_text(response)
            for other, player in world["players"].items():
                if other in SEES[role]:
                    continue
                leaks += [
                    f"stage {stage} licence {number} as {role}: {value!r} of {other}"
                    for value in private_values(player)
                    if value and value in text
                ]
    api.force_authenticate(None)
    assert not leaks, "\n".join(leaks)
