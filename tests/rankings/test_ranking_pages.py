"""The players' pages, in French (English on request): search, the ranking with filters,
a player's page with the PCN plot, a committee's and a club's ranking; a fixed number of queries."""

from __future__ import annotations

import pytest

from rankings.reads.pcn_plot import SeasonPoint, pcn_plot_svg
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def ranked(registry, federation, add_tournament):
    p = federation.players
    add_tournament(registry.previous, {p[i]: (400 - 20 * i, 0) for i in range(10)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    official_ranking_publish(season=registry.previous)
    add_tournament(registry.season, {p[i]: (300 - 10 * i, 0) for i in range(0, 20, 2)},
                   club=registry.clubs[102], arbiter=p[21])  # fmt: skip
    full_recompute(season=registry.season)
    return federation


def test_ranking_page(client, ranked, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        response = client.get("/classement/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Classement national" in html
    assert "provisoire" in html
    assert 'name="viewport"' in html
    assert "MARTIN Élise" in html
    assert "série" in html
    assert "/api/pcn/ranking/export/" not in html  # not for the public
    assert response.context["count"] == 25


def test_search_by_name_and_by_licence(client, ranked):
    response = client.get("/classement/", {"q": "quere"})
    assert [r["entry"].licence_number for r in response.context["rows"]] == [2002]
    redirect = client.get("/classement/", {"q": "2002"})
    assert redirect.status_code == 302
    assert redirect["Location"] == "/classement/joueur/2002/"
    nothing = client.get("/classement/", {"q": "zzzz"})
    assert "Aucun joueur ne correspond" in nothing.content.decode()


def test_filters_and_pages(client, ranked):
    series = client.get("/classement/", {"serie": 4})
    assert {r["entry"].series for r in series.context["rows"]} == {4}
    committee = client.get("/classement/", {"comite": 2})
    assert {r["entry"].committee.number for r in committee.context["rows"]} == {2}
    official = client.get("/classement/", {"saison": "2025-2026"})
    assert official.context["kind"] == "officiel"


def test_committee_and_club_pages(client, ranked, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        committee = client.get("/classement/comite/1/")
    assert committee.status_code == 200
    assert "Classement du comité 01" in committee.content.decode()
    assert {r["entry"].committee.number for r in committee.context["rows"]} == {1}
    with django_assert_max_num_queries(8):
        club = client.get("/classement/club/201/")
    assert "Petit au Bout Rennes" in club.content.decode()
    places = [r["entry"].place_in_club for r in club.context["rows"]]
    assert places == sorted(places)
    assert places[0] == 1
    assert client.get("/classement/comite/77/").status_code == 404
    assert client.get("/classement/club/77/").status_code == 404


def test_player_page(client, ranked, django_assert_max_num_queries):
    # 17: the ranking, the tournaments, the history, the player's titles (one query) and
    # « Mes points » (the live ranking's state, the next step's threshold line)
    with django_assert_max_num_queries(17):
        response = client.get("/classement/joueur/1001/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Élise MARTIN" in html
    assert "<svg" in html
    assert "PCN au fil des saisons" in html
    assert "Tournois de la saison 2026-2027" in html
    assert "Classements officiels" in html
    assert "2025-2026" in html
    assert client.get("/classement/joueur/424242/").status_code == 404


def test_staff_see_the_export_link(client, ranked, registry):
    client.force_login(registry.users["committee_staff"])
    html = client.get("/classement/comite/1/").content.decode()
    assert "/api/pcn/ranking/export/?season=2026-2027&amp;kind=live&amp;committee=1" in html


def test_a_season_without_ranking(client, registry):
    response = client.get("/classement/")
    assert response.status_code == 200
    assert "Aucun classement n’a encore été calculé" in response.content.decode()


def test_the_pages_speak_english_on_request(client, ranked):
    html = client.get("/classement/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>National ranking</h1>" in html
    assert "provisional" in html
    assert "par défaut" not in html  # the page's own text (the frame is another's)
    player = ranked.players[0].licence_number
    html = client.get(f"/classement/joueur/{player}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "PCN over the seasons" in html
    assert "series" in html  # the ladder's English labels
    assert "PCN au fil des saisons" not in html


def test_the_series_are_named_the_french_way(client, ranked):
    html = client.get("/classement/").content.decode()
    assert ">1re série<" in html
    assert ">2e série<" in html
    assert "1ère" not in html


def test_plot_escapes_and_scales():
    svg = pcn_plot_svg(
        [SeasonPoint("2024-2025", 300, 300), SeasonPoint("<b>", 1200, 1440)], "PCN <x>"
    )
    assert svg.startswith("<svg")
    assert "<b>" not in svg
    assert "&lt;b&gt;" in svg
    assert "PCN &lt;x&gt;" in svg
    assert "<polyline" in svg
    assert ">1500<" in svg  # a round top of the axis above 1440
    assert pcn_plot_svg([]) == ""
