"""Entries: checked for eligibility on the stage's day, refused with every reason (naming
the player), stored with the facts they were checked on."""

from __future__ import annotations

import datetime as dt
from itertools import combinations_with_replacement

import pytest

from competitions.models import ChampionshipEntry, EntryPlayer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(api):
    """These tests read the refusals' English developer text (French is the default)."""
    api.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def enter(api, stage, *numbers, team_name=""):
    return api.post(
        f"/api/championships/stages/{stage}/entries/",
        {"licence_numbers": list(numbers), "team_name": team_name},
        format="json",
    )


def errors(response):
    assert response.status_code == 400, response.json()
    return {(e["field"], e["code"]): e["message"] for e in response.json()["errors"]}


def test_a_licensed_player_enters_with_the_facts_checked(
    api, registry, as_user, finals, new_player
):
    player = new_player(102, born=dt.date(1970, 2, 3))
    response = enter(as_user("committee_staff"), finals["individual"], player.licence_number)
    assert response.status_code == 201, response.json()
    entry = response.json()["entries"][0]
    assert entry["number"] == 1
    assert entry["committee"] == 1
    assert entry["status"] == "eligible"
    assert entry["facts"] == [
        {
            "licence_number": player.licence_number,
            "birth_date": "1970-02-03",
            "club": 102,
            "committee": 1,
            "licence_since": "2026-07-01",
            "licensed_previous_season": True,
            "series": None,
        }
    ]
    again = enter(api, finals["individual"], player.licence_number)
    assert ("entries[0].licence_numbers[0]", "already_entered") in errors(again)


def test_refusals_name_the_player_and_the_reason(api, registry, as_user, finals, new_player):
    other_committee = registry.players[2001]
    unlicensed = new_player(101, licensed=False)
    late = new_player(101, issued_on=dt.date(2027, 4, 1))
    as_user("federation_staff")
    found = errors(
        api.post(
            f"/api/championships/stages/{finals['individual']}/entries/",
            {
                "entries": [
                    {"licence_numbers": [other_committee.licence_number]},
                    {"licence_numbers": [unlicensed.licence_number]},
                    {"licence_numbers": [late.licence_number]},
                    {"licence_numbers": [999999]},
                ]
            },
            format="json",
        )
    )
    assert set(found) == {
        ("entries[0].licence_numbers[0].licence", "wrong_committee"),
        ("entries[1].licence_numbers[0].licence", "not_licensed"),
        ("entries[2].licence_numbers[0].licence.since", "licence_not_yet_valid"),
        ("entries[3].licence_numbers[0]", "unknown_player"),
    }
    message = found[("entries[0].licence_numbers[0].licence", "wrong_committee")]
    assert message.startswith("licence 2001 (Yannick LE GALL): licensed in committee 2")
    assert (
        "not licensed for season 2026-2027"
        in found[("entries[1].licence_numbers[0].licence", "not_licensed")]
    )
    assert not ChampionshipEntry.objects.exists()  # all or nothing


@pytest.mark.parametrize(
    ("born", "admitted"),
    [
        (dt.date(1966, 12, 31), True),  # 60 on 31 December 2026
        (dt.date(1967, 1, 1), False),  # 59 on 31 December 2026, 60 only in 2027
        (dt.date(1950, 3, 2), True),
    ],
)
def test_seniors_are_60_on_31_december_of_the_season(
    api, registry, as_user, finals, born, admitted, new_player
):
    player = new_player(101, born=born)
    response = enter(as_user("committee_staff"), finals["seniors"], player.licence_number)
    if admitted:
        assert response.status_code == 201, response.json()
        return
    message = errors(response)[("entries[0].licence_numbers[0].birth_date", "too_young")]
    assert message == (
        f"licence {player.licence_number} (Test {player.last_name.upper()}): not 60 on "
        "31 December 2026, 60 required."
    )


def test_seniors_without_a_birth_date_are_refused(api, registry, as_user, finals, new_player):
    player = new_player(101)
    player.birth_date = None
    player.save()
    found = errors(enter(as_user("committee_staff"), finals["seniors"], player.licence_number))
    assert ("entries[0].licence_numbers[0].birth_date", "birth_date_unknown") in found


def test_duo_players_are_licensed_in_the_same_committee(api, registry, as_user, finals, new_player):
    a, b = new_player(101, previous=False), new_player(102)
    ok = enter(as_user("committee_staff"), finals["duo"], a.licence_number, b.licence_number)
    assert ok.status_code == 201, ok.json()
    assert ok.json()["entries"][0]["club"] is None
    c = new_player(101)
    mixed = errors(enter(api, finals["duo"], c.licence_number, 2001))
    assert ("entries[0].licence_numbers", "mixed_committees") in mixed
    assert "in committee 2" in mixed[("entries[0].licence_numbers", "mixed_committees")]
    single = errors(enter(api, finals["duo"], c.licence_number))
    assert ("entries[0].licence_numbers", "wrong_team_size") in single


ALL = list(combinations_with_replacement((1, 2, 3, 4), 4))
ALLOWED = [
    (1, 1, 3, 4), (1, 1, 4, 4), (1, 2, 3, 3), (1, 2, 3, 4), (1, 2, 4, 4), (1, 3, 3, 3),
    (1, 3, 3, 4), (1, 3, 4, 4), (1, 4, 4, 4), (2, 2, 2, 3), (2, 2, 2, 4), (2, 2, 3, 3),
    (2, 2, 3, 4), (2, 2, 4, 4), (2, 3, 3, 3), (2, 3, 3, 4), (2, 3, 4, 4), (2, 4, 4, 4),
    (3, 3, 3, 3), (3, 3, 3, 4), (3, 3, 4, 4), (3, 4, 4, 4), (4, 4, 4, 4),
]  # fmt: skip
"""The 23 columns printed in the interclubs preamble, in order."""


def team(new_player, series, values, club=101):
    players = [new_player(club) for _ in values]
    for player, value in zip(players, values, strict=True):
        series[player.licence_number] = value
    return [p.licence_number for p in players]


def test_the_23_printed_compositions_are_allowed(
    api, registry, as_user, finals, series, new_player
):
    assert len(ALLOWED) == 23
    teams = [team(new_player, series, values) for values in ALLOWED]
    response = as_user("club_manager").post(
        f"/api/championships/stages/{finals['interclubs']}/entries/",
        {"entries": [{"licence_numbers": t} for t in teams]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    stored = response.json()["entries"]
    assert [tuple(sorted(e["series"])) for e in stored] == ALLOWED
    assert {e["club"] for e in stored} == {101}
    assert stored[0]["team_name"] == "Tarot Club de Lyon 1"


@pytest.mark.parametrize("values", [c for c in ALL if c not in ALLOWED])
def test_every_other_composition_is_refused(
    api, registry, as_user, finals, series, values, new_player
):
    numbers = team(new_player, series, values)
    found = errors(enter(as_user("club_manager"), finals["interclubs"], *numbers))
    assert set(found) == {("entries[0].licence_numbers", "composition_not_allowed")}
    product = values[0] * values[1] * values[2] * values[3]
    assert (
        f"= {product}: the product of the four series must be strictly greater than 16"
        in (found[("entries[0].licence_numbers", "composition_not_allowed")])
    )


def test_interclubs_series_of_players_without_a_ranking(
    api, registry, as_user, finals, series, new_player
):
    # not licensed the previous season: 4th series; licensed but unranked: unknown
    newcomers = [new_player(101, previous=False) for _ in range(4)]
    ok = enter(
        as_user("committee_staff"), finals["interclubs"], *[p.licence_number for p in newcomers]
    )
    assert ok.status_code == 201, ok.json()
    assert ok.json()["entries"][0]["series"] == [4, 4, 4, 4]
    numbers = [*team(new_player, series, (2, 2, 3)), new_player(101).licence_number]
    found = errors(enter(api, finals["interclubs"], *numbers))
    assert ("entries[0].licence_numbers[3].series", "series_unknown") in found


def test_interclubs_players_are_licensed_in_the_same_club(
    api, registry, as_user, finals, series, new_player
):
    numbers = team(new_player, series, (2, 3, 3)) + team(new_player, series, (4,), club=102)
    found = errors(enter(as_user("committee_staff"), finals["interclubs"], *numbers))
    assert ("entries[0].licence_numbers", "mixed_clubs") in found


def test_who_may_enter(api, registry, as_user, finals, series, new_player):
    own = new_player(101)
    other_club = new_player(102)
    assert enter(as_user("player"), finals["individual"], own.licence_number).status_code == 403
    assert (
        enter(as_user("club_manager"), finals["individual"], other_club.licence_number).status_code
        == 403
    )
    assert (
        enter(as_user("club_manager"), finals["individual"], own.licence_number).status_code == 201
    )
    # a club manager enters a duo only if both players are of their club
    pair = [new_player(101).licence_number, other_club.licence_number]
    assert enter(as_user("club_manager"), finals["duo"], *pair).status_code == 403
    assert enter(as_user("zone_staff"), finals["duo"], *pair).status_code == 201
    anonymous = as_user("anonymous")
    assert enter(anonymous, finals["individual"], new_player(101).licence_number).status_code == 401


def test_withdrawal_frees_the_players(api, registry, as_user, finals, new_player):
    player = new_player(101)
    enter(as_user("club_manager"), finals["individual"], player.licence_number)
    url = f"/api/championships/stages/{finals['individual']}/entries/1/withdraw/"
    assert as_user("player").post(url).status_code == 403
    withdrawn = as_user("club_manager").post(url)
    assert withdrawn.json()["status"] == "withdrawn"
    assert not EntryPlayer.objects.filter(active=True).exists()
    again = enter(api, finals["individual"], player.licence_number)
    assert again.status_code == 201
    assert again.json()["entries"][0]["number"] == 2


def test_entries_are_public_without_private_facts_and_read_without_n_plus_1(
    api, registry, as_user, finals, series, django_assert_max_num_queries, new_player
):
    teams = [team(new_player, series, (3, 3, 4, 4)) for _ in range(6)]
    as_user("committee_staff").post(
        f"/api/championships/stages/{finals['interclubs']}/entries/",
        {"entries": [{"licence_numbers": t} for t in teams]},
        format="json",
    )
    as_user("anonymous")
    with django_assert_max_num_queries(5):
        response = api.get(f"/api/championships/stages/{finals['interclubs']}/entries/")
    rows = response.json()
    assert len(rows) == 6
    assert rows[0]["facts"] is None
    assert [p["licence_number"] for p in rows[0]["players"]] == teams[0]
    as_user("committee_staff")
    with django_assert_max_num_queries(7):
        staff = api.get(f"/api/championships/stages/{finals['interclubs']}/entries/").json()
    assert staff[0]["facts"][0]["birth_date"] == "1975-06-01"


# -- private data and scope ---------------------------------------------------------------------


@pytest.fixture
def other_staff(registry):
    """Committee 2's staff and zone 2's staff: outside committee 1's regional finals."""
    from federation.models import Role, RoleAssignment, User

    committee = User.objects.create_user(username="committee_2_staff")
    RoleAssignment.objects.create(
        user=committee, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
    )
    zone = User.objects.create_user(username="zone_2_staff")
    RoleAssignment.objects.create(user=zone, role=Role.ZONE_STAFF, zone=registry.zones[2])
    return {"committee_2_staff": committee, "zone_2_staff": zone}


def test_entry_facts_show_a_birth_date_only_to_those_who_may_see_it(
    api, registry, as_user, finals, new_player, other_staff
):
    player = new_player(102, born=dt.date(1970, 2, 3))
    enter(as_user("committee_staff"), finals["individual"], player.licence_number)
    url = f"/api/championships/stages/{finals['individual']}/entries/"
    sees = {"committee_staff": True, "zone_staff": True, "federation_staff": True}
    for who, expected in [*sees.items(), *dict.fromkeys(other_staff, False).items()]:
        user = other_staff.get(who) or registry.users[who]
        response = as_user(user).get(url)
        assert response.status_code == 200
        (fact,) = response.json()[0]["facts"]
        assert fact["licence_number"] == player.licence_number
        assert ("birth_date" in fact) is expected, who
        assert ("1970" in response.content.decode()) is expected, who
    for who in ("anonymous", "player", "club_manager"):  # not staff: no facts at all
        assert as_user(registry.users[who]).get(url).json()[0]["facts"] is None


def test_a_refusal_never_shows_the_birth_date_of_a_player_outside_the_scope(
    api, registry, as_user, finals
):
    """Player 2002 (committee 2, born 1999-08-30) entered by committee 1's staff."""
    response = enter(as_user("committee_staff"), finals["seniors"], 2002)
    found = errors(response)
    assert found[("entries[0].licence_numbers[0].birth_date", "too_young")] == (
        "licence 2002 (Maëlle QUÉRÉ): not 60 on 31 December 2026, 60 required."
    )
    assert "1999" not in response.content.decode()
    assert "27" not in found[("entries[0].licence_numbers[0].birth_date", "too_young")]


def test_a_withdrawn_entry_is_withdrawn_again_by_no_one(api, registry, as_user, finals, new_player):
    player = new_player(102)  # club 102: not the club manager's (club 101)
    enter(as_user("committee_staff"), finals["individual"], player.licence_number)
    url = f"/api/championships/stages/{finals['individual']}/entries/1/withdraw/"
    assert as_user("club_manager").post(url).status_code == 403
    assert as_user("committee_staff").post(url).status_code == 200
    entry = ChampionshipEntry.objects.get()
    rows = entry.history.count()
    refused = as_user("club_manager").post(url)
    assert refused.status_code == 403
    assert "1975" not in refused.content.decode()
    again = as_user("committee_staff").post(url)
    assert again.status_code == 409
    assert again.json()["errors"][0]["code"] == "entry_not_active"
    assert entry.history.count() == rows
