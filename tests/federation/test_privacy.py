"""A player's objection to appearing by name in public (federation/privacy.py): who may
record it (inside and outside scope), what is recorded (who, when, history), the API,
the player's own page, the admin actions."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

# committee_staff covers committee 1 (clubs 101, 102), zone_staff zone 1 (the same);
# player 1001 is licensed at club 101 this season, 2001 at club 201 (committee 2, zone 2).
ANONYMOUS = "joueur ayant demandé l'anonymat"
ALLOWED_FOR_1001 = ("player", "committee_staff", "zone_staff", "federation_staff")
REFUSED_FOR_1001 = ("arbiter", "club_manager")


@pytest.mark.parametrize("role", ALLOWED_FOR_1001)
def test_the_player_and_staff_in_scope_record_the_choice(registry, role):
    from federation.privacy import player_privacy_set

    by = registry.users[role]
    player = player_privacy_set(player=registry.players[1001], hidden=True, by=by)
    player.refresh_from_db()
    assert player.name_hidden is True
    assert player.name_hidden_changed_by == by
    assert player.name_hidden_changed_at is not None
    latest = player.history.order_by("-history_date").first()
    assert (latest.name_hidden, latest.history_user) == (True, by)
    shown = player_privacy_set(player=player, hidden=False, by=by)
    assert shown.name_hidden is False
    assert player.history.count() == 3  # created, hidden, shown


@pytest.mark.parametrize("role", REFUSED_FOR_1001)
def test_others_may_not_record_it(registry, role):
    from core.errors import PermissionDenied
    from federation.privacy import player_privacy_set

    with pytest.raises(PermissionDenied) as refused:
        player_privacy_set(player=registry.players[1001], hidden=True, by=registry.users[role])
    assert refused.value.code == "privacy_not_allowed"
    registry.players[1001].refresh_from_db()
    assert registry.players[1001].name_hidden is False


def test_staff_out_of_scope_may_not_record_it(registry):
    from django.contrib.auth.models import AnonymousUser

    from core.errors import PermissionDenied
    from federation.privacy import player_privacy_set

    for by in (registry.users["committee_staff"], registry.users["zone_staff"], AnonymousUser()):
        with pytest.raises(PermissionDenied):  # 2001 is in committee 2, zone 2
            player_privacy_set(player=registry.players[2001], hidden=True, by=by)


def test_the_same_choice_again_records_nothing(registry):
    from federation.privacy import player_privacy_set

    player = registry.players[1001]
    player_privacy_set(player=player, hidden=False, by=registry.users["player"])
    player.refresh_from_db()
    assert player.name_hidden_changed_at is None
    assert player.history.count() == 1  # its creation only


def test_public_names(registry):
    from django.utils import translation

    from federation.public_names import public_identity, public_row

    player = registry.players[1001]
    assert public_identity(player).name == "MARTIN Élise"
    player.name_hidden = True
    with translation.override("fr"):
        assert public_identity(player).name == "joueur ayant demandé l'anonymat"
        assert public_identity(player).licence_number is None
        row = public_row({"licence_number": 1001, "player__last_name": "Martin",
                          "player__first_name": "Élise", "player__name_hidden": True})  # fmt: skip
        assert row == {"licence_number": None, "player__last_name": ANONYMOUS,
                       "player__first_name": "", "player__name_hidden": True}  # fmt: skip
    with translation.override("en"):
        assert public_identity(player).name == "player who asked for anonymity"


# --- API ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    [("player", 200), ("committee_staff", 200), ("zone_staff", 200), ("federation_staff", 200),
     ("arbiter", 404), ("club_manager", 404)],
)  # fmt: skip
def test_the_privacy_api_inside_and_outside_scope(api, registry, role, status):
    api.force_authenticate(registry.users[role])
    url = "/api/federation/players/1001/privacy/"
    assert api.get(url).status_code == status
    response = api.put(url, {"name_hidden": True}, format="json")
    assert response.status_code == status
    registry.players[1001].refresh_from_db()
    assert registry.players[1001].name_hidden is (status == 200)
    if status == 200:
        assert response.json()["name_hidden"] is True
    else:  # says nothing of the player: the same answer as an unknown licence number
        unknown = api.put("/api/federation/players/999999/privacy/", {"name_hidden": True},
                          format="json")  # fmt: skip
        assert unknown.status_code == 404
        assert unknown.json() == response.json()


def test_the_privacy_api_refuses_anonymous_and_bad_input(api, registry):
    url = "/api/federation/players/1001/privacy/"
    assert api.put(url, {"name_hidden": True}, format="json").status_code in (401, 403)
    api.force_authenticate(registry.users["player"])
    response = api.put(url, {"name_hidden": "peut-être"}, format="json")
    assert response.status_code == 400
    assert "name_hidden" in str(response.json())
    assert api.put(url, {}, format="json").status_code == 400
    api.force_authenticate(registry.users["committee_staff"])  # 2001: committee 2
    assert api.put("/api/federation/players/2001/privacy/", {"name_hidden": True},
                   format="json").status_code == 404  # fmt: skip


def test_the_registry_api_hides_a_hidden_player_from_the_public(api, registry):
    from federation.privacy import player_privacy_set

    player_privacy_set(player=registry.players[1001], hidden=True, by=registry.users["player"])
    assert api.get("/api/federation/players/1001/").status_code == 404
    listed = api.get("/api/federation/licensees/", {"club": 101}).content.decode()
    assert "1001" not in listed
    assert "Martin" not in listed
    assert "Lefèvre" in listed
    for role in ("player", "club_manager", "federation_staff"):
        api.force_authenticate(registry.users[role])
        assert api.get("/api/federation/players/1001/").status_code == 200
    api.force_authenticate(registry.users["club_manager"])  # records results by licence
    assert "Martin" in api.get("/api/federation/licensees/", {"club": 101}).content.decode()
    api.force_authenticate(registry.users["arbiter"])
    assert api.get("/api/federation/players/1001/").status_code == 404


# Hidden: 1003 (club 102, committee 1, zone 1) and 2001 (club 201, committee 2, zone 2). A
# role reads a hidden player's record by name only inside the player's scope: their own
# club's manager (club_manager manages 101: neither), the staff of their committee or zone.
HIDDEN_RECORD_READERS = [
    ("anonymous", {1003: False, 2001: False}),
    ("player", {1003: False, 2001: False}),
    ("arbiter", {1003: False, 2001: False}),
    ("club_manager", {1003: False, 2001: False}),
    ("club_manager_102", {1003: True, 2001: False}),
    ("club_manager_201", {1003: False, 2001: True}),
    ("committee_staff", {1003: True, 2001: False}),
    ("committee_staff_2", {1003: False, 2001: True}),
    ("zone_staff", {1003: True, 2001: False}),
    ("federation_staff", {1003: True, 2001: True}),
]


@pytest.mark.parametrize(("role", "sees"), HIDDEN_RECORD_READERS)
def test_a_hidden_player_s_record_is_named_only_inside_their_scope(api, registry, role, sees):
    from federation.models import Role, RoleAssignment, User
    from federation.privacy import player_privacy_set

    staff = registry.users["federation_staff"]
    for number in (1003, 2001):
        player_privacy_set(player=registry.players[number], hidden=True, by=staff)
    extra = {
        "club_manager_102": {"role": Role.CLUB_MANAGER, "club": registry.clubs[102]},
        "club_manager_201": {"role": Role.CLUB_MANAGER, "club": registry.clubs[201]},
        "committee_staff_2": {"role": Role.COMMITTEE_STAFF, "committee": registry.committees[2]},
    }
    if role in extra:
        user = User.objects.create_user(username=role, password="x")
        RoleAssignment.objects.create(user=user, **extra[role])
    else:
        user = registry.users[role]
    if user is not None:
        api.force_authenticate(user)
    names = {1003: "Dubois", 2001: "Le Gall"}
    for number, inside in sees.items():
        record = api.get(f"/api/federation/players/{number}/")
        assert record.status_code == (200 if inside else 404), (number, record.content)
        assert (names[number] in record.content.decode()) is inside
        if not inside:  # the same answer as for an unknown licence number
            assert record.json() == api.get("/api/federation/players/999999/").json()
        club = {1003: 102, 2001: 201}[number]
        listed = api.get("/api/federation/licensees/", {"club": club}).content.decode()
        assert (names[number] in listed) is inside
        assert (str(number) in listed) is inside
        found = api.get("/api/federation/licensees/", {"search": str(number)}).json()
        assert found["count"] == (1 if inside else 0)
    # the players who did not object stay listed for everyone
    assert "Le Gall" not in api.get("/api/federation/licensees/", {"club": 101}).content.decode()
    assert "Martin" in api.get("/api/federation/licensees/", {"club": 101}).content.decode()


# --- the player's page and the admin -------------------------------------------------------


def test_the_player_hides_and_shows_their_name_on_their_page(client, registry):
    client.force_login(registry.users["player"])
    page = client.get("/compte/confidentialite/")
    assert page.status_code == 200
    assert "Masquer mon nom" in page.content.decode()
    response = client.post("/compte/confidentialite/", {"name_hidden": "1"})
    assert response.status_code == 302
    registry.players[1001].refresh_from_db()
    assert registry.players[1001].name_hidden is True
    assert "Votre nom est masqué" in client.get("/compte/confidentialite/").content.decode()
    client.post("/compte/confidentialite/", {"name_hidden": "0"})
    registry.players[1001].refresh_from_db()
    assert registry.players[1001].name_hidden is False


def test_the_privacy_page_needs_a_player(client, registry):
    assert client.get("/compte/confidentialite/").status_code == 302  # to sign in
    client.force_login(registry.users["club_manager"])  # no player linked
    assert client.get("/compte/confidentialite/").status_code == 404


def test_the_admin_actions_go_through_the_service(client, registry):
    from federation.models import Player

    staff = registry.users["federation_staff"]
    staff.is_superuser = True  # the admin's own permissions (as tests/federation/test_admin.py)
    staff.save()
    client.force_login(staff)
    ids = [registry.players[1001].pk, registry.players[2001].pk]
    response = client.post(
        "/admin/federation/player/",
        {"action": "hide_name", "_selected_action": ids},
    )
    assert response.status_code == 302
    hidden = Player.objects.filter(pk__in=ids, name_hidden=True)
    assert hidden.count() == 2
    assert {p.name_hidden_changed_by_id for p in hidden} == {registry.users["federation_staff"].pk}
    client.post("/admin/federation/player/", {"action": "show_name", "_selected_action": ids})
    assert not Player.objects.filter(pk__in=ids, name_hidden=True).exists()
