"""A club manager declares a festival's tournament over two sessions on a phone: a second
day is refused on its field, in French (a festival is played in one day this season); the
same day at the same hall is declared, and its public page shows the programme. Each
page fits a 360 px phone and a laptop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

PASSWORD = "x"  # the registry fixture's users (tests/conftest.py)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_festival_declared_with_its_sessions(open_window, sign_in, registry, viewport):
    from competitions.models import DeclaredSession, Tournament

    manager = open_window(viewport, f"festival-{viewport}")
    page = manager.page
    sign_in(manager, "club_manager", PASSWORD)
    page.goto("/tournois/declarer/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Déclarer un tournoi")
    page.get_by_label("Nom du tournoi").fill("Festival de Lyon")
    page.get_by_label("Date", exact=True).fill("2026-12-05")
    page.get_by_label("Lieu", exact=True).fill("Lyon, salle Molière")
    page.get_by_label("Formule").select_option(label="individuel")
    page.get_by_label("Type d’épreuve").select_option(label="festival de tarot")
    page.get_by_label("Organisateur").select_option(label="101 – Tarot Club de Lyon")
    page.get_by_label("Numéro de licence de l’arbitre").fill("1002")
    page.get_by_label("Nombre de séances").fill("2")
    page.get_by_label("Jour de la séance 2").fill("2026-12-06")
    assert manager.sideways() == []
    manager.shot("1-declaration")
    page.get_by_role("button", name="Déclarer le tournoi").click()

    error = page.locator("#id_session_2_date_error")
    expect(error).to_contain_text(
        "La séance 2 est déclarée le 06/12/2026, un autre jour que la première séance"
    )
    assert not Tournament.objects.exists()
    assert manager.sideways() == []
    manager.shot("2-refus-sur-le-champ")

    page.get_by_label("Jour de la séance 2").fill("2026-12-05")
    page.get_by_role("button", name="Déclarer le tournoi").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Festival de Lyon")
    tournament = Tournament.objects.get()
    assert tournament.event_kind == "festival"
    assert DeclaredSession.objects.filter(tournament=tournament).count() == 2

    page.goto(f"/calendrier/tournoi/{tournament.pk}/")
    programme = page.get_by_role("table", name="Programme")
    expect(programme.get_by_role("row")).to_have_count(3)  # the header and two sessions
    expect(programme.get_by_role("row").nth(2)).to_contain_text("samedi 5 décembre 2026")
    expect(page.get_by_text("festival de tarot").first).to_be_visible()
    assert manager.sideways() == []
    manager.shot("3-page-publique")
    expect(page).to_have_url(re.compile(rf"/calendrier/tournoi/{tournament.pk}/$"))
