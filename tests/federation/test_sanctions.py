"""Sanctions (chapter 4): recorded by federation staff only, every problem located and
nothing stored when refused; listed to staff within their scope, never to anyone else."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from core.errors import PermissionDenied
from core.messages import problem_message
from core.problems import RuleViolation
from federation.models import Sanction, SanctionKind
from federation.sanctions import sanction_record

pytestmark = pytest.mark.django_db

STARTS = dt.date(2026, 10, 3)
ENDS = dt.date(2027, 10, 2)
REASON = "A quitté le tournoi du 3 octobre sans l'accord de l'arbitre."


def record(registry, role="federation_staff", **changes):
    values = {
        "player": registry.players[1001],
        "kind": SanctionKind.SUSPENSION,
        "starts": STARTS,
        "ends": ENDS,
        "reason": REASON,
        **changes,
    }
    return sanction_record(**values, by=registry.users[role])


def test_federation_staff_record_a_suspension_with_its_history(registry):
    sanction = record(registry, reason=f"  {REASON}  ")
    stored = Sanction.objects.get()
    assert stored == sanction
    assert (stored.player, stored.kind, stored.starts, stored.ends) == (
        registry.players[1001],
        "suspension",
        STARTS,
        ENDS,
    )
    assert stored.reason == REASON
    assert stored.decided_by == registry.users["federation_staff"]
    (history,) = stored.history.all()
    assert history.history_user == registry.users["federation_staff"]


@pytest.mark.parametrize(
    "role", ["anonymous", "player", "club_manager", "committee_staff", "zone_staff"]
)
def test_nobody_else_records_a_sanction(registry, role):
    with pytest.raises(PermissionDenied):
        record(registry, role=role)
    assert not Sanction.objects.exists()


def test_a_warning_is_one_day_without_an_end(registry):
    sanction = record(registry, kind=SanctionKind.WARNING, ends=None)
    assert (sanction.kind, sanction.ends) == ("warning", None)


@pytest.mark.parametrize(
    ("changes", "located"),
    [
        ({"ends": None}, [("ends", "suspension_without_end")]),
        ({"ends": STARTS}, [("ends", "sanction_ends_not_after_start")]),
        ({"ends": STARTS - dt.timedelta(days=1)}, [("ends", "sanction_ends_not_after_start")]),
        ({"kind": SanctionKind.EXCLUSION}, [("ends", "sanction_without_duration")]),
        ({"reason": "   "}, [("reason", "required")]),
        ({"reason": "x" * 2001}, [("reason", "too_long")]),
        ({"kind": "banishment"}, [("kind", "unknown_sanction_kind")]),
        (
            {"kind": SanctionKind.WARNING, "reason": ""},
            [("ends", "sanction_without_duration"), ("reason", "required")],
        ),
    ],
)
def test_every_problem_is_located_and_nothing_is_stored(registry, changes, located):
    with pytest.raises(RuleViolation) as refused:
        record(registry, **changes)
    assert [(p.field, p.code) for p in refused.value.problems] == located
    for problem in refused.value.problems:
        assert problem_message(problem, language="fr")  # French text with every param
    assert not Sanction.objects.exists()


def test_the_french_text_names_the_dates(registry):
    with pytest.raises(RuleViolation) as refused:
        record(registry, ends=STARTS)
    (problem,) = refused.value.problems
    assert problem_message(problem, language="fr") == (
        "La sanction se termine le 2026-10-03, pas après son début le 2026-10-03."
    )


def test_the_database_refuses_a_suspension_without_end(registry):
    with pytest.raises(IntegrityError), transaction.atomic():
        Sanction.objects.create(
            player=registry.players[1001], kind="suspension", starts=STARTS, reason=REASON
        )


# --- the API ---------------------------------------------------------------------------------

URL = "/api/federation/sanctions/"
BODY = {
    "licence_number": 1001,
    "kind": "suspension",
    "starts": "2026-10-03",
    "ends": "2027-10-02",
    "reason": REASON,
}


def test_federation_staff_post_and_everyone_else_is_refused_before_the_body(api, registry):
    for role, expected in [
        ("player", 403),
        ("club_manager", 403),
        ("committee_staff", 403),
        ("zone_staff", 403),
    ]:
        api.force_authenticate(registry.users[role])
        assert api.post(URL, {}, format="json").status_code == expected, role
    api.force_authenticate(None)
    assert api.post(URL, BODY, format="json").status_code == 401
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post(URL, BODY, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert {k: body[k] for k in ("licence_number", "kind", "starts", "ends", "decided_by")} == {
        "licence_number": 1001,
        "kind": "suspension",
        "starts": "2026-10-03",
        "ends": "2027-10-02",
        "decided_by": "federation_staff",
    }
    assert Sanction.objects.get().pk == body["id"]


def test_a_refusal_is_located_in_french(api, registry):
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post(URL, {**BODY, "ends": None, "licence_number": 999999}, format="json")
    assert response.status_code == 400
    assert {(e["field"], e["code"]) for e in response.json()["errors"]} == {
        ("licence_number", "unknown_player")
    }
    response = api.post(URL, {**BODY, "ends": None}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "field": "ends",
            "code": "suspension_without_end",
            "message": "Une suspension a une fin\xa0: indiquez son dernier jour.",
        }
    ]
    assert not Sanction.objects.exists()


@pytest.fixture
def two_sanctions(registry):
    record(registry)  # 1001: club 101, committee 1, zone 1
    record(registry, player=registry.players[2001], kind=SanctionKind.WARNING, ends=None)


@pytest.mark.parametrize(
    ("role", "seen"),
    [
        ("federation_staff", [2001, 1001]),  # newest first: the same day, the latest recorded
        ("zone_staff", [1001]),
        ("committee_staff", [1001]),
    ],
)
def test_staff_list_the_sanctions_of_their_players(api, registry, two_sanctions, role, seen):
    api.force_authenticate(registry.users[role])
    response = api.get(URL)
    assert response.status_code == 200
    assert [s["licence_number"] for s in response.json()] == seen
    if seen == [1001]:
        assert response.json()[0]["reason"] == REASON


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 401), ("player", 403), ("club_manager", 403), ("arbiter", 403)],
)
def test_nobody_else_sees_a_sanction(api, registry, two_sanctions, role, status):
    api.force_authenticate(registry.users[role])
    response = api.get(URL)
    assert response.status_code == status
    assert REASON not in response.content.decode()


def test_a_player_who_moved_committee_leaves_the_old_committees_sight(api, registry, two_sanctions):
    from federation.models import Licence

    Licence.objects.filter(player=registry.players[1001], season=registry.season).update(
        club=registry.clubs[201]
    )
    api.force_authenticate(registry.users["committee_staff"])
    assert api.get(URL).json() == []


# --- the admin -------------------------------------------------------------------------------


def test_federation_staff_add_a_sanction_in_the_admin_through_the_service(client, registry):
    staff = registry.users["federation_staff"]
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    response = client.post(
        "/admin/federation/sanction/add/",
        {
            "player": registry.players[2001].pk,
            "kind": "suspension",
            "starts": "2026-10-03",
            "ends": "2027-10-02",
            "reason": REASON,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    sanction = Sanction.objects.get()
    assert (sanction.player, sanction.decided_by) == (registry.players[2001], staff)
    assert sanction.history.get().history_user == staff
    assert client.get(f"/admin/federation/sanction/{sanction.pk}/change/").status_code == 200
    assert client.get("/admin/federation/sanction/").status_code == 200


def test_committee_staff_with_the_admins_permissions_only_read(client, registry):
    from django.contrib.auth.models import Permission

    record(registry)
    staff = registry.users["committee_staff"]
    staff.is_staff = True
    staff.save()
    staff.user_permissions.set(
        Permission.objects.filter(codename__in=["view_sanction", "add_sanction"])
    )
    client.force_login(staff)
    assert client.get("/admin/federation/sanction/").status_code == 200
    assert client.get("/admin/federation/sanction/add/").status_code == 403
    response = client.post(
        "/admin/federation/sanction/add/",
        {"player": registry.players[1003].pk, "kind": "warning", "starts": "2026-10-03",
         "reason": REASON},
    )  # fmt: skip
    assert response.status_code == 403
    assert Sanction.objects.count() == 1
