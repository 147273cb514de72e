"""The arbiter runs the room on a phone (360 px) and on a laptop: signs in through the form,
checks players in from the day's hub, adds a non-licensee arriving late, withdraws the
no-show, and draws session 1 with a table of 5 (the organiser chose tables of 5; 13 players
present)."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect


def _entries(tournament, count: int) -> None:
    """``count`` licensed players entered, none checked in yet."""
    from competitions.models import EntryMember, TournamentEntry
    from federation.models import Licence, Player

    club = tournament.organizer_club
    for number in range(1, count + 1):
        player = Player.objects.create(
            licence_number=40000 + number,
            last_name=f"Joueur{number:02d}",
            first_name="Camille",
            birth_date=dt.date(1970, 1, 1),
        )
        Licence.objects.create(player=player, season=tournament.season, club=club)
        entry = TournamentEntry.objects.create(tournament=tournament, number=number)
        EntryMember.objects.create(entry=entry, tournament=tournament, player=player)


@pytest.mark.parametrize("window", ["phone", "desktop"], indirect=True)
def test_the_arbiter_checks_in_and_draws_a_table_of_five(
    window, registry, declare_tournament, sign_in
):
    tournament = declare_tournament()
    tournament.tables_of_five = True
    tournament.save()
    _entries(tournament, 13)

    sign_in(window, "arbiter", "x")
    page = window.page
    page.goto(f"/tournois/{tournament.pk}/jour/")
    page.get_by_role("link", name="Pointage", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Pointage")
    assert window.sideways() == []
    window.shot("1-pointage")

    for number in range(1, 13):  # the 13th does not come
        page.locator(f"#entry-{number}").get_by_role("button", name="Présent ?").click()
        expect(page.locator(f"#entry-{number}").get_by_role("button")).to_have_text("✓ Présent")
    search = page.get_by_label("Chercher un joueur (nom ou numéro de licence)")
    search.fill("joueur05")
    search.press("Enter")
    expect(page.locator(".checkin-list li")).to_have_count(1)
    expect(page.locator("#entry-5")).to_contain_text("JOUEUR05 Camille")

    page.get_by_label("Numéro de licence ou nom").fill("99999999")
    page.get_by_role("button", name="Ajouter et marquer présent").click()
    expect(
        page.get_by_text("Aucun licencié ne porte le numéro de licence 99999999.")
    ).to_be_visible()
    page.get_by_label("Numéro de licence ou nom").fill("Jeanne Invitée")
    page.get_by_role("button", name="Ajouter et marquer présent").click()
    expect(page.get_by_text("Inscription n° 14 ajoutée et marquée présente.")).to_be_visible()
    expect(page.locator("#entry-14")).to_contain_text("Jeanne Invitée")

    page.get_by_role("button", name="Retirer les absents").click()
    page.get_by_role("button", name="Les retirer").click()
    expect(page.get_by_text("1 inscription retirée.")).to_be_visible()
    assert window.sideways() == []
    window.shot("2-pointes")

    page.get_by_role("link", name="Tirer une séance").click()
    expect(page.get_by_text("1 table de 5 joueurs (avec un mort)")).to_be_visible()
    page.locator("#id_positions").fill("3")
    page.get_by_label("Donnes par position").fill("5")
    assert window.sideways() == []
    window.shot("3-tirage")
    page.get_by_role("button", name="Tirer la séance 1").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Plan de salle, séance 1")
    expect(page.get_by_text("Séance 1 tirée.")).to_be_visible()
    expect(page.locator(".room-tables .card")).to_have_count(3)
    expect(page.get_by_text("table de 5 (avec un mort)")).to_have_count(1)
    assert window.sideways() == []
    window.shot("4-plan")
    session = tournament.played_sessions.get()
    assert (session.positions, session.deals_per_position) == (3, 5)
    assert len(session.seating) == 13
