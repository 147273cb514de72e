"""A tournament opened from a player's page, on a phone: the public page of a homologated
tournament (its club, sessions and full ranking with each player's PCN), then the club's
page and its calendar feed, without signing in."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize("window", ["phone"], indirect=True)
def test_open_a_tournament_from_a_players_page(window, homologated_open):
    from competitions.models import Allocation

    winner = Allocation.objects.get(
        tournament=homologated_open, player__licence_number=3103, current=True
    )
    page = window.page
    page.goto("/classement/joueur/3103/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Hélène GÉNIN")
    window.shot("1-page-joueur")

    page.get_by_role("link", name="Open de Lyon").click()
    expect(page).to_have_url(re.compile(rf"/calendrier/tournoi/{homologated_open.pk}/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Open de Lyon")
    expect(page.get_by_text("homologué", exact=True)).to_be_visible()
    ranking = page.get_by_role("table", name="Classement")
    expect(ranking.get_by_role("row")).to_have_count(13)  # the header and twelve players
    first = ranking.get_by_role("row").nth(1)
    expect(first.get_by_role("cell").first).to_have_text("1")
    expect(first.get_by_role("link", name="GÉNIN Hélène")).to_be_visible()
    expect(first.get_by_role("cell").nth(-2)).to_have_text(str(winner.pcn))
    expect(first.get_by_role("cell").nth(-1)).to_have_text(str(winner.pp))
    assert window.sideways() == []
    window.shot("2-page-tournoi")

    page.get_by_role("link", name="la page du club").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Tarot Club de Lyon")
    feed = page.get_by_role("link", name="S’abonner au calendrier du club (iCalendar)")
    expect(feed).to_have_attribute("href", "/calendrier/club/101.ics")
    address = page.get_by_label("Adresse du calendrier à coller dans votre application d’agenda")
    expect(address).to_have_value(re.compile(r"^http://.+/calendrier/club/101\.ics$"))
    assert window.sideways() == []
    window.shot("3-page-club")

    first.page.go_back()
    page.get_by_role("link", name="GÉNIN Hélène").first.click()
    expect(page).to_have_url(re.compile(r"/classement/joueur/3103/\?saison=2026-2027$"))
