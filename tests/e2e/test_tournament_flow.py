"""A tournament's way from the club to the ranking, in a real browser, as people use it:

- a club manager signs in, declares a tournament, uploads the results saved by French
  Excel with three mistakes, sees all three in French with their lines, fixes the file,
  previews places and points, sends them, and finds the tournament as sent ("résultats transmis");
- committee staff see it in their list; staff of another committee do not;
- once federation staff homologate it, a player of the file signs in and finds it on
  their ranking page with their points; the live ranking follows through the real
  Celery worker.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

PASSWORD = "x"  # the registry fixture's users (tests/conftest.py)
RESULTS_FILE = "Fichier des résultats"
CHECK_THE_FILE = "Vérifier le fichier"


def test_a_club_manager_declares_uploads_fixes_previews_and_sends(
    open_window, sign_in, registry, results_sheet, scratch_dir
):
    from competitions.homologation import tournament_homologate
    from competitions.models import Allocation, Tournament

    manager = open_window("desktop", "club-manager")
    page = manager.page
    sign_in(manager, "club_manager", PASSWORD)
    expect(page).to_have_url(re.compile(r"/tournois/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Mes tournois")
    manager.shot("1-mes-tournois")

    page.get_by_role("link", name="Déclarer un tournoi").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Déclarer un tournoi")
    page.get_by_label("Nom du tournoi").fill("Tournoi de la Saint-Nicolas")
    page.get_by_label("Date").fill("2026-12-06")
    page.get_by_label("Lieu", exact=True).fill("Salle des fêtes, Lyon")
    page.get_by_label("Formule").select_option(label="individuel")
    page.get_by_label("Organisateur").select_option(label="101 – Tarot Club de Lyon")
    page.get_by_label("Numéro de licence de l’arbitre").fill("1002")
    manager.shot("2-declaration")
    page.get_by_role("button", name="Déclarer le tournoi").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Tournoi de la Saint-Nicolas")
    tournament = Tournament.objects.get(name="Tournoi de la Saint-Nicolas")
    expect(page).to_have_url(re.compile(rf"/tournois/{tournament.pk}/$"))
    expect(page.get_by_text(re.compile(r"^État\s*:\s*déclaré$"))).to_be_visible()
    manager.shot("3-tournoi-declare")

    # Three mistakes of three kinds, as a secretary makes them.
    sheet = results_sheet()
    impostor = sheet.player_row(3103)  # Hélène Génin's lines...
    for row in sheet.rows_of(3103):
        row["licence_number"] = "1003"  # ...with Anaïs Dubois's licence number
    score = sheet.rows_of(3106)[1]  # Zoé Périer's first position
    score["score"] = str(int(score["score"]) + 10)  # a table that no longer sums to zero
    misplaced = sheet.player_row(3102)
    assert misplaced["place"] != "2"
    misplaced["place"] = "2"  # François Côté is not 2nd
    broken = sheet.save(scratch_dir / "resultats-saint-nicolas.csv")

    page.get_by_role("link", name="Envoyer les résultats").click()
    page.get_by_label(RESULTS_FILE).set_input_files(broken)
    manager.shot("4-choix-du-fichier")
    page.get_by_role("button", name=CHECK_THE_FILE).click()
    # Each mistake once, located by its line in the spreadsheet, in French.
    report = page.locator("table.errors tbody").get_by_role("row")
    expect(report).to_have_count(3)

    def problem_at(row: dict[str, str]):
        return report.filter(has_text=re.compile(rf"\bligne {sheet.line_of(row)}\b"))

    expect(problem_at(impostor)).to_contain_text("Dubois Anaïs")
    expect(problem_at(impostor)).to_contain_text("GÉNIN Hélène")
    expect(problem_at(score)).to_contain_text("+10")
    right_place = results_sheet().player_row(3102)["place"]
    expect(problem_at(misplaced)).to_contain_text(re.compile(rf"place 2\b.*place {right_place}\b"))
    for words in (r"\blines?\b", r"\bentry\b", r"\bplaced\b", "lines\\["):  # no English
        expect(page.locator("table.errors")).not_to_contain_text(re.compile(words, re.I))
    manager.shot("5-trois-problemes-en-francais")
    assert not tournament.revisions.exists()  # nothing stored

    fixed = results_sheet().save(scratch_dir / "resultats-saint-nicolas-corriges.csv")
    page.get_by_label(RESULTS_FILE).set_input_files(fixed)
    page.get_by_role("button", name=CHECK_THE_FILE).click()
    preview = page.get_by_role("table", name=re.compile("^Places et points"))
    expect(preview.get_by_role("columnheader")).to_have_text(
        ["Place", "Inscrit", "Nom", "Licence", "Total", "PCN", "PP"], ignore_case=True
    )
    winner = preview.get_by_role("row").filter(has_text="GÉNIN Hélène")
    expect(winner.get_by_role("cell")).to_contain_text(["1", "", "GÉNIN Hélène", "3103"])
    manager.shot("6-apercu-places-et-pcn")
    shown = {
        int(licence): (int(place), int(pcn))
        for place, _entry, _name, licence, _total, pcn, _pp in (
            row.get_by_role("cell").all_inner_texts()
            for row in preview.locator("tbody").get_by_role("row").all()
        )
    }
    assert len(shown) == 12
    assert not tournament.revisions.exists()  # a preview stores nothing

    page.get_by_role("button", name="Envoyer ces résultats").click()
    expect(page.locator(".ok")).to_be_visible()
    manager.shot("7-resultats-envoyes")
    assert tournament.revisions.count() == 1

    page.get_by_role("link", name="Mes tournois").first.click()
    row = page.get_by_role("row").filter(has_text="Tournoi de la Saint-Nicolas")
    expect(row).to_contain_text("résultats transmis")
    manager.shot("8-mes-tournois-resultats-envoyes")

    # The preview promised what homologation then gives.
    tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])
    given = {
        a.player.licence_number: (a.place, a.pcn)
        for a in Allocation.objects.filter(tournament=tournament).select_related("player")
    }
    assert given == shown
    assert max(pcn for _place, pcn in given.values()) > 0


def test_committee_staff_see_their_clubs_tournament_and_no_other_committee_does(
    open_window, sign_in, registry, submitted_open
):
    from federation.models import Role, RoleAssignment, User

    other = User.objects.create_user(username="bretagne", password=PASSWORD)
    RoleAssignment.objects.create(
        user=other, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
    )

    staff = open_window("phone", "committee-staff")  # on the go, on a phone
    sign_in(staff, "committee_staff", PASSWORD)
    expect(staff.page).to_have_url(re.compile(r"/bureau/homologation/$"))  # their work
    staff.page.goto("/tournois/")
    row = staff.page.get_by_role("row").filter(has_text="Open de Lyon")
    expect(row).to_contain_text("Tarot Club de Lyon")
    expect(row).to_contain_text("résultats transmis")
    assert staff.sideways() == []
    staff.shot("1-comite-1-voit-le-tournoi")
    row.get_by_role("link", name="Open de Lyon").click()
    expect(staff.page.get_by_role("heading", level=1)).to_have_text("Open de Lyon")
    expect(staff.page.get_by_role("cell", name=re.compile("GÉNIN Hélène"))).to_be_visible()
    staff.shot("2-comite-1-ouvre-le-tournoi")

    stranger = open_window("desktop", "other-committee-staff")
    sign_in(stranger, "bretagne", PASSWORD)
    expect(stranger.page).to_have_url(re.compile(r"/bureau/homologation/$"))
    stranger.page.goto("/tournois/")
    expect(stranger.page.get_by_role("heading", level=1)).to_have_text("Mes tournois")
    expect(stranger.page.get_by_text("Open de Lyon")).to_have_count(0)
    stranger.shot("3-comite-2-ne-le-voit-pas")
    answer = stranger.page.goto(f"/tournois/{submitted_open.pk}/")
    assert answer is not None
    assert answer.status in (403, 404)
    expect(stranger.page.get_by_text("Open de Lyon")).to_have_count(0)
    expect(stranger.page.get_by_text("GÉNIN")).to_have_count(0)
    stranger.shot("4-comite-2-refuse-sur-la-page-du-tournoi")
    answer = stranger.page.goto(f"/tournois/{submitted_open.pk}/resultats/")
    assert answer is not None
    assert answer.status in (403, 404)
    expect(stranger.page.get_by_text("Open de Lyon")).to_have_count(0)


@pytest.mark.parametrize("window", ["phone"], indirect=True)
def test_a_player_finds_the_homologated_tournament_with_their_points(
    window, sign_in, registry, submitted_open, celery_worker_process
):
    """Homologation through the service, as federation staff would from the staff desk
    (a later issue); the ranking refresh it sends goes through the outbox, Redis and the
    real worker, as in production."""
    from competitions.homologation import tournament_homologate
    from competitions.models import Allocation
    from rankings.reads.selectors import player_record

    tournament_homologate(tournament=submitted_open, by=registry.users["federation_staff"])
    points = Allocation.objects.get(
        tournament=submitted_open, player=registry.players[1001], current=True
    )
    assert points.pcn > 0

    page = window.page
    sign_in(window, "player", PASSWORD)  # Élise Martin, licence 1001, 2nd of the Open
    expect(page).to_have_url(re.compile(r"/classement/joueur/1001/"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Élise MARTIN")
    row = page.get_by_role("row").filter(has_text="Open de Lyon")
    expect(row.get_by_role("cell")).to_have_text(
        ["05/12/2026", "Open de Lyon", str(points.place), str(points.pcn)]
    )
    window.shot("1-page-du-joueur")

    # The live ranking is refreshed by the worker a moment after the homologation: the
    # player's place appears on a later visit.
    place = page.get_by_text(re.compile(r"^Place \(classement provisoire\)$", re.IGNORECASE))
    for _visit in range(30):
        if place.count():
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(place).to_be_visible()
    entry = player_record(1001, registry.season).entry
    assert entry is not None
    expect(page.locator(".card").filter(has=place)).to_contain_text(f"{entry.place} /")
    expect(page.get_by_text(f"PCN de la saison : {points.pcn}")).to_be_visible()
    window.shot("2-place-au-classement-provisoire")
