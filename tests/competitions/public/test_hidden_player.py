"""A player who objected to appearing by name (docs/privacy.md) is named on no public page,
API or public export — neither their name nor their licence number — while their place
stays, they and staff still see them, and no page cached before the choice is served
after it."""

from __future__ import annotations

import html
import io
import re

import pytest
from openpyxl import load_workbook

pytestmark = pytest.mark.django_db

ANONYMOUS = "joueur ayant demandé l'anonymat"
NUMBER = re.compile(r"(?<![0-9])5001(?![0-9])")


def _leaks(text: str) -> list[str]:
    found = [w for w in ("Zarathoustra", "ZARATHOUSTRA", "Ottilie") if w in text]
    return found + NUMBER.findall(text)


@pytest.fixture
def hidden(public_season):
    """Player 5001 (first of the homologated Open de Lyon) renamed to a name found nowhere
    else, the ranking computed."""
    from federation.models import Player
    from rankings.season.recompute import full_recompute

    Player.objects.filter(licence_number=5001).update(
        last_name="Zarathoustra", first_name="Ottilie"
    )
    full_recompute(season=public_season.registry.season)
    return Player.objects.get(licence_number=5001)


def _hide(player, registry):
    from federation.privacy import player_privacy_set

    staff = registry.users["federation_staff"]
    return player_privacy_set(player=player, hidden=True, by=staff)


def _public_urls(public_season) -> list[str]:
    t = public_season.homologated.pk
    return [
        "/",
        "/classement/",
        "/classement/?classement=provisoire",
        "/classement/?q=zarathoustra",
        "/classement/?q=ottilie",  # lower case: the search box shows what was typed
        "/classement/?serie=4",
        "/classement/club/101/",
        "/classement/comite/1/",
        "/calendrier/",
        f"/calendrier/tournoi/{t}/",
        "/calendrier/club/101.ics",
        "/calendrier/comite/1.ics",
        "/clubs/101/",
        "/comites/1/",
        "/api/public/tournaments/",
        f"/api/public/tournaments/{t}/",
        "/api/public/clubs/101/",
        "/api/public/committees/1/",
        "/api/pcn/ranking/",
        "/api/pcn/ranking/?q=zarathoustra",
        "/api/pcn/ranking/?club=101",
        "/api/pcn/ranking/?kind=live&page_size=200",
        "/api/pcn/players/5001/tournaments/",
        "/api/federation/licensees/",
        "/api/federation/licensees/?club=101",
        "/api/federation/licensees/?search=zarathoustra",
        "/api/championships/titles/",
    ]


def test_every_public_page_api_and_feed_names_them_not(client, public_season, hidden):
    before = client.get("/classement/").content.decode()  # cached before the choice
    assert "ZARATHOUSTRA Ottilie" in before
    assert "Zarathoustra" in client.get("/api/pcn/ranking/").content.decode()
    assert client.get("/classement/joueur/5001/").status_code == 200
    place = client.get("/api/pcn/ranking/players/5001/").json()["ranking"]["place"]

    _hide(hidden, public_season.registry)

    for url in _public_urls(public_season):
        response = client.get(url)
        assert response.status_code == 200, url
        assert _leaks(response.content.decode()) == [], url
    # their page and record are unknown to the public, as an unknown licence number is
    for url in ("/classement/joueur/5001/", "/api/pcn/ranking/players/5001/",
                "/api/federation/players/5001/"):  # fmt: skip
        assert client.get(url).status_code == 404, url
    # a search by licence number does not lead to them (the box shows what was typed)
    assert client.get("/classement/?q=5001").status_code == 200  # no redirection to them
    assert client.get("/classement/?q=5001&page=1").context["rows"] == []
    assert client.get("/api/pcn/ranking/?q=5001").json()["count"] == 0
    assert client.get("/api/pcn/players/5001/tournaments/").json() == []
    query = {"event": "regional_final", "tables": 20, "place": 2, "licence_number": 5001}
    simulated = client.get("/api/pcn/simulation/", query)
    assert simulated.status_code == 400
    assert "no_player_with_licence" in simulated.content.decode()
    # the place stays, anonymous, without a link
    ranking = html.unescape(client.get("/classement/").content.decode())
    assert ANONYMOUS in ranking
    rows = client.get("/api/pcn/ranking/").json()["results"]
    mine = [r for r in rows if r["name_hidden"]]
    assert [(r["place"], r["licence_number"], r["last_name"], r["first_name"]) for r in mine] == [
        (place, None, ANONYMOUS, "")
    ]
    tournament = client.get(f"/calendrier/tournoi/{public_season.homologated.pk}/")
    first = tournament.context["page"].ranking[0].players[0]
    assert (first.identity.name, first.identity.licence_number) == (ANONYMOUS, None)
    assert ANONYMOUS in html.unescape(tournament.content.decode())
    body = client.get(f"/api/public/tournaments/{public_season.homologated.pk}/").json()
    assert ANONYMOUS in str(body)


def test_the_player_and_staff_still_see_them(client, public_season, hidden):
    registry = public_season.registry
    _hide(hidden, registry)
    from federation.models import User

    me = User.objects.create_user(username="ottilie", password="x", player=hidden)
    for user in (me, registry.users["federation_staff"], registry.users["committee_staff"]):
        client.force_login(user)
        page = client.get("/classement/joueur/5001/")
        assert page.status_code == 200
        assert "Zarathoustra" in page.content.decode() or "ZARATHOUSTRA" in page.content.decode()
        assert client.get("/api/pcn/ranking/players/5001/").status_code == 200
    client.force_login(registry.users["club_manager"])  # not staff: the public pages' rule
    assert client.get("/classement/joueur/5001/").status_code == 404
    from federation.models import Role, RoleAssignment

    other = User.objects.create_user(username="ccr-bretagne", password="x")
    RoleAssignment.objects.create(user=other, role=Role.COMMITTEE_STAFF,
                                  committee=registry.committees[2])  # fmt: skip
    client.force_login(other)  # staff of another committee: out of scope
    assert client.get("/classement/joueur/5001/").status_code == 404
    assert client.get("/api/pcn/ranking/players/5001/").status_code == 404
    client.logout()
    # what a signed-in reader saw was never stored for the public
    assert client.get("/classement/joueur/5001/").status_code == 404
    assert client.get("/api/pcn/ranking/players/5001/").status_code == 404


def test_showing_them_again_is_a_new_version_too(client, public_season, hidden):
    from federation.privacy import player_privacy_set

    _hide(hidden, public_season.registry)
    assert _leaks(client.get("/classement/").content.decode()) == []
    assert _leaks(client.get("/api/pcn/ranking/").content.decode()) == []
    staff = public_season.registry.users["federation_staff"]
    player_privacy_set(player=hidden, hidden=False, by=staff)
    assert "ZARATHOUSTRA Ottilie" in client.get("/classement/").content.decode()
    assert "Zarathoustra" in client.get("/api/pcn/ranking/").content.decode()
    assert client.get("/classement/joueur/5001/").status_code == 200


def test_the_ranking_computation_is_unaffected(public_season, hidden):
    from rankings.models import RankingEntry
    from rankings.season.recompute import full_recompute

    def lines():
        return list(
            RankingEntry.objects.filter(snapshot__season=public_season.registry.season)
            .order_by("rank_order")
            .values_list("player__licence_number", "place", "total_pcn", "step")
        )

    before = lines()
    _hide(hidden, public_season.registry)
    full_recompute(season=public_season.registry.season)
    assert lines() == before
    assert any(number == 5001 for number, *_ in before)


@pytest.mark.parametrize(("role", "named"), [("club_manager", False), ("committee_staff", True),
                                         ("federation_staff", True)])  # fmt: skip
def test_exports_follow_the_rule_for_clubs_not_for_staff(api, public_season, hidden, role, named):
    _hide(hidden, public_season.registry)
    api.force_authenticate(public_season.registry.users[role])
    response = api.get("/api/pcn/ranking/export/", {"club": 101, "format": "csv"})
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert ("Zarathoustra" in text) is named
    assert bool(NUMBER.search(text)) is named
    assert (ANONYMOUS in text) is not named


def test_their_data_holds_their_results_points_and_ranking(api, public_season, hidden):
    from federation.models import User

    _hide(hidden, public_season.registry)
    me = User.objects.create_user(username="ottilie", password="x", player=hidden)
    api.force_authenticate(me)
    data = api.get("/api/federation/me/data/").json()
    t = public_season.homologated
    assert [(r["tournament"], r["place"]) for r in data["tournament_results"]] == [(t.pk, 1)]
    assert [(a["tournament"], a["place"], a["current"]) for a in data["allocations"]] == [
        (t.pk, 1, True)
    ]
    assert data["ranking_lines"]
    assert data["ranking_lines"][0]["place"] == 1
    assert data["season_totals"][0]["tournaments"] == 1
    assert data["privacy"]["name_hidden"] is True
    assert data["privacy"]["recorded_by"] == "staff"


def test_a_club_export_in_english_names_them_in_english(api, public_season, hidden):
    _hide(hidden, public_season.registry)
    api.force_authenticate(public_season.registry.users["club_manager"])
    response = api.get("/api/pcn/ranking/export/", {"club": 101, "format": "csv", "lang": "en"})
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert "player who asked for anonymity" in text
    assert ANONYMOUS not in text
    xlsx = api.get("/api/pcn/ranking/export/", {"club": 101, "format": "xlsx"})
    cells = [
        str(cell)
        for row in load_workbook(io.BytesIO(xlsx.content)).active.iter_rows(values_only=True)
        for cell in row
    ]
    assert ANONYMOUS in cells
    assert not [c for c in cells if _leaks(c)]
