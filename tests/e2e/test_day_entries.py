"""A player enters a tournament in a real browser, on a phone and on a laptop: signs in
through the form, opens the calendar (the coming tournaments, with start time, address, fee
and entrants), presses « S'inscrire », confirms, and finds the tournament in « Mes
inscriptions », reached from their space; no page scrolls sideways."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize("window", ["phone", "desktop"], indirect=True)
def test_a_player_enters_from_the_calendar_and_sees_my_entries(window, registry, sign_in):
    from competitions.models import EntryState, OrganizerKind, Tournament, TournamentEntry

    tournament = Tournament.objects.create(
        season=registry.season, name="Open de Lyon", date=dt.date(2026, 12, 5),
        venue="Salle Molière", format="individual", organizer_kind=OrganizerKind.CLUB,
        organizer_club=registry.clubs[101], arbiter=registry.players[1002],
        online_entries=True, entry_cap=40, start_time=dt.time(14, 0),
        address="18 quai de Bondy, Lyon", contact="Marie, 06 12 34 56 78", entry_fee="12.50",
    )  # fmt: skip
    sign_in(window, "player", "x")
    page = window.page
    page.goto("/calendrier/")
    row = page.get_by_role("row").filter(has_text="Open de Lyon")
    expect(row).to_contain_text("14:00")
    expect(row).to_contain_text("18 quai de Bondy, Lyon")
    expect(row).to_contain_text("12,50")
    expect(row).to_contain_text("inscrits : 0 sur 40 places")
    assert window.sideways() == []
    window.shot("1-calendrier")

    row.get_by_role("link", name="S’inscrire").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("S’inscrire")
    expect(
        page.get_by_text("Vous vous inscrivez en tant que Élise (licence 1001).")
    ).to_be_visible()
    assert window.sideways() == []
    window.shot("2-inscription")
    page.get_by_role("button", name="S’inscrire").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Mes inscriptions")
    expect(page.get_by_role("status")).to_contain_text("Vous êtes inscrit à « Open de Lyon ».")
    entry = page.locator("section.entry").filter(has_text="Open de Lyon")
    expect(entry).to_contain_text("Inscrit, inscription n° 1")
    expect(entry).to_contain_text("Salle Molière (18 quai de Bondy, Lyon)")
    assert window.sideways() == []
    window.shot("3-mes-inscriptions")
    assert TournamentEntry.objects.get(tournament=tournament).state == EntryState.ENTERED

    # « Mes inscriptions » is reached from the player's space
    page.goto("/compte/")
    page.get_by_role("link", name="Mes inscriptions").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mes inscriptions")
    expect(page.locator("section.entry")).to_have_count(1)
