"""The day's entries as JSON for club software (/api/day/tournaments/<n>/entries/): those
who run the day list, enter and withdraw through the entries' services; anyone else gets
the same 404 whether the tournament exists or not, and changes nothing."""

from __future__ import annotations

import pytest

from competitions.models import EntryState, TournamentEntry
from federation.models import Role, RoleAssignment, User

pytestmark = pytest.mark.django_db


def url(tournament_id: int) -> str:
    return f"/api/day/tournaments/{tournament_id}/entries/"


@pytest.fixture
def open_de_lyon(day_tournament, enter_players):
    tournament = day_tournament(entry_cap=3)
    enter_players(tournament, 2)
    return tournament


@pytest.mark.parametrize("role", ["club_manager", "arbiter", "committee_staff"])
def test_those_who_run_the_day_list_its_entries(
    api, registry, open_de_lyon, role, django_assert_max_num_queries
):
    api.force_authenticate(registry.users[role])
    with django_assert_max_num_queries(12):
        response = api.get(url(open_de_lyon.pk))
    assert response.status_code == 200, response.json()
    rows = response.json()
    assert [(r["number"], r["state"]) for r in rows] == [(1, "entered"), (2, "entered")]
    (member,) = rows[0]["members"]
    first = TournamentEntry.objects.get(tournament=open_de_lyon, number=1).members.get().player
    assert member["licence_number"] == first.licence_number
    assert member["name"] == f"{first.last_name.upper()} {first.first_name}"


def test_entering_by_licence_by_name_then_the_waiting_list(api, registry, open_de_lyon, day_player):
    api.force_authenticate(registry.users["club_manager"])
    player = day_player()
    entered = api.post(url(open_de_lyon.pk), {"licence_numbers": [player.licence_number]})
    assert entered.status_code == 201, entered.json()
    assert (entered.json()["number"], entered.json()["state"]) == (3, "entered")
    full = api.post(url(open_de_lyon.pk), {"names": ["LEBLANC Hugo"]}, format="json")
    assert full.status_code == 400
    (error,) = full.json()["errors"]
    assert (error["field"], error["code"]) == ("waiting_list", "day_entry_full")
    assert error["message"].startswith("Le tournoi est complet (3 inscriptions)")
    waiting = api.post(
        url(open_de_lyon.pk), {"names": ["LEBLANC Hugo"], "waiting_list": True}, format="json"
    )
    assert waiting.status_code == 201, waiting.json()
    assert waiting.json()["state"] == "waiting"
    assert waiting.json()["members"][0] == {
        "order": 1, "licence_number": None, "name": "LEBLANC Hugo", "active": True,
    }  # fmt: skip
    again = api.post(url(open_de_lyon.pk), {"licence_numbers": [player.licence_number]})
    assert again.status_code == 400
    assert again.json()["errors"][0]["field"].startswith("licence_numbers")
    shape = api.post(url(open_de_lyon.pk), {"licence_numbers": ["x"]}, format="json")
    assert shape.status_code == 400
    assert shape.json()["errors"][0]["field"].startswith("licence_numbers")


def test_withdrawing_frees_the_place_for_the_first_waiting(api, registry, open_de_lyon):
    api.force_authenticate(registry.users["arbiter"])
    api.post(url(open_de_lyon.pk), {"names": ["A Un"]}, format="json")
    api.post(url(open_de_lyon.pk), {"names": ["B Deux"], "waiting_list": True}, format="json")
    done = api.post(f"{url(open_de_lyon.pk)}1/withdraw/")
    assert done.status_code == 200, done.json()
    assert done.json()["withdrawn"]["state"] == "withdrawn"
    assert (done.json()["promoted"]["number"], done.json()["promoted"]["state"]) == (4, "entered")
    twice = api.post(f"{url(open_de_lyon.pk)}1/withdraw/")
    assert twice.status_code == 409
    assert twice.json()["errors"][0]["code"] == "day_entry_withdrawn_already"
    assert api.post(f"{url(open_de_lyon.pk)}99/withdraw/").status_code == 404


@pytest.mark.parametrize("role", ["player", "club_manager_2", "committee_2_staff"])
def test_nobody_else_reads_or_writes_and_learns_nothing(api, registry, open_de_lyon, role):
    if role == "player":
        user = registry.users["player"]
    else:
        user = User.objects.create_user(username=role)
        where = (
            {"club": registry.clubs[201]}
            if role == "club_manager_2"
            else {"committee": registry.committees[2]}
        )
        kind = Role.CLUB_MANAGER if role == "club_manager_2" else Role.COMMITTEE_STAFF
        RoleAssignment.objects.create(user=user, role=kind, **where)
    api.force_authenticate(user)
    answers = []
    for pk in (open_de_lyon.pk, open_de_lyon.pk + 1000):  # existing, and not
        listed = api.get(url(pk))
        entered = api.post(url(pk), {"names": ["Intrus"]}, format="json")
        withdrawn = api.post(f"{url(pk)}1/withdraw/")
        assert (listed.status_code, entered.status_code, withdrawn.status_code) == (404, 404, 404)
        answers.append((listed.json(), entered.json(), withdrawn.json()))
    assert answers[0] == answers[1]
    assert answers[0][0]["errors"][0]["message"] == "Tournoi introuvable."
    assert list(
        TournamentEntry.objects.filter(tournament=open_de_lyon).values_list("state", flat=True)
    ) == [EntryState.ENTERED, EntryState.ENTERED]


def test_anonymous_is_asked_to_authenticate(api, open_de_lyon):
    api.force_authenticate(None)  # the declaration signed the client in
    assert api.get(url(open_de_lyon.pk)).status_code == 401
    assert api.post(url(open_de_lyon.pk), {"names": ["X"]}, format="json").status_code == 401
    assert TournamentEntry.objects.filter(tournament=open_de_lyon).count() == 2


def test_the_operations_are_documented():
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    listed = paths["/api/day/tournaments/{id}/entries/"]
    assert {"get", "post"} <= set(listed)
    assert "404" in listed["get"]["responses"]
    assert "post" in paths["/api/day/tournaments/{id}/entries/{number}/withdraw/"]
