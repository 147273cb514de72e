"""Everything the federation holds about a player (portal/personal_data.py): the player
and federation staff read it; anyone else gets the answer of an unknown licence number."""

from __future__ import annotations

import datetime as dt
import json

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def player_data(registry):
    from federation.api_tokens import api_token_issue
    from federation.sanctions import sanction_record

    staff = registry.users["federation_staff"]
    sanction_record(player=registry.players[1001], kind="warning", starts=dt.date(2026, 9, 1),
                    ends=None, reason="Retard répété", by=staff)  # fmt: skip
    _token, key = api_token_issue(user=registry.users["player"])
    return key


def test_the_player_reads_everything_about_themselves(api, registry, player_data):
    api.force_authenticate(registry.users["player"])
    response = api.get("/api/federation/me/data/")
    assert response.status_code == 200
    data = response.json()
    assert data["identity"] == {"licence_number": 1001, "last_name": "Martin",
                                "first_name": "Élise", "birth_date": "1950-03-02",
                                "email": "1001@example.org", "phone": ""}  # fmt: skip
    assert [lic["season"] for lic in data["licences"]] == ["2025-2026", "2026-2027"]
    assert data["licences"][1]["club"] == 101
    assert data["sanctions"][0]["reason"] == "Retard répété"
    assert data["accounts"][0]["username"] == "player"
    assert data["privacy"] == {"name_hidden": False, "recorded_at": None, "recorded_by": None}
    [token] = data["api_tokens"]
    assert player_data.startswith(token["token_key"])
    assert len(token["token_key"]) < len(player_data)
    assert player_data not in response.content.decode()  # never the secret
    for key in ("tournament_results", "allocations", "season_totals", "ranking_lines",
                "manual_placements", "championship_entries", "qualifications", "titles",
                "arbiter_accreditations"):  # fmt: skip
        assert data[key] == [], key
    # the same through the staff endpoint, for the player themselves
    assert api.get("/api/federation/players/1001/data/").json()["identity"] == data["identity"]


@pytest.mark.parametrize(
    ("role", "status"),
    [("player", 200), ("federation_staff", 200), ("arbiter", 404), ("club_manager", 404),
     ("committee_staff", 404), ("zone_staff", 404)],
)  # fmt: skip
def test_who_reads_a_players_data(api, registry, player_data, role, status):
    api.force_authenticate(registry.users[role])
    response = api.get("/api/federation/players/1001/data/")
    assert response.status_code == status
    if status == 404:  # the answer of an unknown licence number: nothing revealed
        unknown = api.get("/api/federation/players/999999/data/")
        assert (unknown.status_code, unknown.json()) == (404, response.json())
        assert "Martin" not in response.content.decode()


def test_anonymous_and_accounts_without_a_player(api, client, registry):
    assert api.get("/api/federation/me/data/").status_code in (401, 403)
    assert api.get("/api/federation/players/1001/data/").status_code in (401, 403)
    api.force_authenticate(registry.users["club_manager"])
    assert api.get("/api/federation/me/data/").status_code == 404
    assert client.get("/compte/mes-donnees/").status_code == 302  # to sign in
    client.force_login(registry.users["club_manager"])
    assert client.get("/compte/mes-donnees/").status_code == 404


def test_the_readable_page_and_the_download(client, registry, player_data,
                                            django_assert_max_num_queries):  # fmt: skip
    client.force_login(registry.users["player"])
    with django_assert_max_num_queries(25):
        page = client.get("/compte/mes-donnees/")
    html = page.content.decode()
    assert page.status_code == 200
    for text in ("Mes données", "Identité", "Licences", "Sanctions", "Retard répété",
                 "1001@example.org", "Tarot Club de Lyon", "Télécharger (JSON)",
                 "Numéro de licence", "Date de naissance"):  # fmt: skip
        assert text in html, text
    download = client.get("/compte/mes-donnees/", {"format": "json"})
    assert download["Content-Disposition"] == 'attachment; filename="mes-donnees-1001.json"'
    assert json.loads(download.content)["identity"]["licence_number"] == 1001
