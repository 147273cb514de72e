"""The end of a tournament day as the arbiter lives it, on a laptop then a phone: a
penalty recorded (a wrong amount refused in French on its field first), the standings for
the projector, the results previewed with places and PCN, then « Envoyer pour
homologation »."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


@pytest.fixture
def played_day(registry):
    """Twelve players, two sessions of two positions, every deal entered (the demo sample
    replayed as the tables' records); the arbiter (1002) also manages the club."""
    from competitions.models import TournamentEntry
    from federation.models import Licence, Player, Role, RoleAssignment
    from tests.competitions.day.test_closing import new_tournament, replay, sample

    for entry in sample()["entries"]:
        for p in entry["players"]:
            last, first = p["name"].split(" ", 1)
            player = Player.objects.create(
                licence_number=p["licence_number"], last_name=last, first_name=first
            )
            Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    RoleAssignment.objects.create(
        user=registry.users["arbiter"], role=Role.CLUB_MANAGER, club=registry.clubs[101]
    )
    tournament = new_tournament(registry, "Tournoi du samedi")
    replay(tournament, sample())
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 12
    return tournament


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_arbiter_penalises_sees_the_standings_previews_and_sends(
    open_window, sign_in, played_day, viewport
):
    from competitions.models import DayPenalty

    window = open_window(viewport, "arbitre")
    page = window.page
    sign_in(window, "arbiter", "x")
    page.goto(f"/tournois/{played_day.pk}/jour/")
    page.get_by_role("link", name="Pénalités et abandons").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Pénalités et abandons")

    form = page.locator("form", has=page.get_by_role("button", name="Enregistrer la pénalité"))
    form.get_by_label("Joueur").select_option(label="n° 9 – NICOLAS Ghislaine")
    form.get_by_label("Faute").select_option(label="Lenteur de jeu")
    form.get_by_label("Points (quand le texte ne fixe pas de montant)").fill("300")
    form.get_by_label("Motif").fill("Lenteur à la table 2")
    form.get_by_role("button", name="Enregistrer la pénalité").click()
    expect(page.get_by_text("coûte ici 100 points")).to_be_visible()
    assert not DayPenalty.objects.exists()
    window.shot("1-montant-refuse")

    form = page.locator("form", has=page.get_by_role("button", name="Enregistrer la pénalité"))
    form.get_by_label("Points (quand le texte ne fixe pas de montant)").fill("")
    form.get_by_role("button", name="Enregistrer la pénalité").click()
    expect(page.get_by_text("Lenteur de jeu : −100")).to_be_visible()
    assert window.sideways() == []
    window.shot("2-penalite")

    page.goto(f"/tournois/{played_day.pk}/jour/")
    page.get_by_role("link", name="Vue pour le projecteur").click()
    expect(page.get_by_text("Après la séance 2, position 2")).to_be_visible()
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(12)
    nicolas = rows.filter(has_text="NICOLAS Ghislaine")
    expect(nicolas.get_by_role("cell").nth(3)).to_have_text("−100")
    assert page.locator('meta[http-equiv="refresh"]').count() == 1
    window.shot("3-classement")

    page.goto(f"/tournois/{played_day.pk}/jour/")
    page.get_by_role("link", name="La fin : aperçu et envoi des résultats").click()
    expect(page.get_by_text("Aperçu : rien n’est encore envoyé")).to_be_visible()
    table = page.locator("table").filter(has_text="PCN")
    expect(table.locator("tbody tr")).to_have_count(12)
    assert window.sideways() == []
    window.shot("4-apercu")
    page.get_by_role("button", name="Envoyer pour homologation").click()
    expect(page.get_by_text(re.compile(r"Résultats reçus \(version 1\)"))).to_be_visible()
    window.shot("5-envoye")
    assert played_day.revisions.get().source == "sheets"
