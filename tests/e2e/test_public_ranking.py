"""The public ranking in a real browser, on a phone: search a name typed without its
accents, open the player's page, see the PCN plot. And the admin's own login, which lets
federation staff in and turns everyone else away."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize("window", ["phone"], indirect=True)
def test_a_player_found_without_accents_and_the_pcn_plot(window, homologated_open, registry):
    from competitions.models import Allocation

    points = Allocation.objects.get(
        tournament=homologated_open, player__licence_number=3103, current=True
    ).pcn
    assert points > 0  # Hélène Génin won the Open
    page = window.page
    page.goto("/classement/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Classement national")
    window.shot("1-classement")

    search = page.get_by_role("searchbox", name="Nom ou numéro de licence")
    search.fill("genin")  # Génin, as people type it on a phone
    search.press("Enter")
    player = page.get_by_role("link", name="GÉNIN Hélène")
    expect(player).to_be_visible()
    expect(page.get_by_role("link", name="MARTIN Élise")).to_have_count(0)
    window.shot("2-recherche-genin")

    player.click()
    expect(page).to_have_url(re.compile(r"/classement/joueur/3103/\?saison=2026-2027$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Hélène GÉNIN")
    plot = page.get_by_role("img", name="PCN de Hélène Génin")
    expect(plot).to_be_visible()
    # Every label of the plot is drawn at 12 px or more on the phone's screen.
    label_sizes = plot.locator("text").evaluate_all(
        "labels => labels.map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"
    )
    assert label_sizes
    assert min(label_sizes) >= 12, label_sizes
    box = plot.bounding_box()
    assert box is not None
    assert box["width"] <= 360  # the plot fits the phone's width, no sideways scrolling
    assert window.sideways() == []
    row = page.get_by_role("row").filter(has_text="Open de Lyon")
    expect(row.get_by_role("cell")).to_have_text(["05/12/2026", "Open de Lyon", "1", str(points)])
    window.shot("3-page-joueur")


def test_the_admin_lets_federation_staff_in_and_turns_a_club_manager_away(open_window, registry):
    manager = open_window("desktop", "club-manager")
    page = manager.page
    page.goto("/admin/")
    page.get_by_label("Nom d’utilisateur").fill("club_manager")
    page.get_by_label("Mot de passe").fill("x")
    page.get_by_role("button", name="Connexion").click()
    expect(page.locator(".errornote")).to_contain_text("d'un compte autorisé")
    expect(page).to_have_url(re.compile(r"/admin/login/\?next=/admin/$"))
    manager.shot("1-admin-refuse-un-gestionnaire-de-club")

    staff = open_window("desktop", "federation-staff")
    page = staff.page
    page.goto("/admin/")
    page.get_by_label("Nom d’utilisateur").fill("federation_staff")
    page.get_by_label("Mot de passe").fill("x")
    page.get_by_role("button", name="Connexion").click()
    expect(page).to_have_url(re.compile(r"/admin/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Administration")
    staff.shot("2-admin-accueille-la-federation")


def test_a_stored_page_switches_language_in_another_browser(open_window, homologated_open):
    """The ranking page one reader loaded is stored; a second browser gets the stored page
    with its own CSRF token, so its language switch (a POST) is accepted."""
    first = open_window("desktop", "first-reader")
    first.page.goto("/classement/")
    expect(first.page.get_by_role("heading", level=1)).to_have_text("Classement national")
    second = open_window("phone", "second-reader")
    page = second.page
    page.goto("/classement/")  # from the read cache
    expect(page.get_by_role("heading", level=1)).to_have_text("Classement national")
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("National ranking")
    second.shot("1-english-from-a-stored-page")


def test_the_ranking_as_of_a_past_day_with_its_heading_and_a_place(window, homologated_open):
    """A reader opens the ranking, picks a past day in the date picker and reads the
    ranking as it stood at the end of that day: its heading, the Open's winner first;
    the day before the Open's homologation, nobody has its points yet."""
    import datetime as dt

    from rankings.as_of import PARIS

    homologated = dt.datetime.now(PARIS) - dt.timedelta(days=3)
    type(homologated_open).objects.filter(pk=homologated_open.pk).update(homologated_at=homologated)
    day = homologated.date() + dt.timedelta(days=1)
    french_day = f"{day.day}{'er' if day.day == 1 else ''}"
    page = window.page
    page.goto("/classement/")
    picker = page.get_by_label("À la date du (fin de journée)")
    picker.fill(day.isoformat())
    page.get_by_role("button", name="Afficher").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(re.compile(rf"^Classement au {french_day} \w+ {day.year}$"))
    expect(page).to_have_url(re.compile(rf"au={day.isoformat()}"))
    first = page.get_by_role("row").nth(1)
    expect(first.get_by_role("cell").first).to_have_text("1")
    expect(first).to_contain_text("GÉNIN Hélène")
    window.shot("1-classement-a-une-date")

    before = homologated.date() - dt.timedelta(days=1)
    picker = page.get_by_label("À la date du (fin de journée)")
    picker.fill(before.isoformat())
    page.get_by_role("button", name="Afficher").click()
    expect(page).to_have_url(re.compile(rf"au={before.isoformat()}"))
    genin = page.get_by_role("row").filter(has_text="GÉNIN Hélène")
    expect(genin.get_by_role("cell").nth(3)).to_have_text("0")  # no PCN yet that day
    window.shot("2-la-veille")
