"""« Mes points » and « Et si… » on a phone: from the player's page to the simulation form,
a refusal shown on its field, then a 2nd place in a 20-table regional final priced as the
printed table says and the player's place after it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize("window", ["phone"], indirect=True)
def test_simulate_a_result_from_my_points(window, homologated_open, registry):
    from rankings.models import RankingEntry
    from rankings.reads import selectors

    live = selectors.ranking_for_season(registry.season, selectors.LIVE)
    entry = RankingEntry.objects.get(snapshot_id=live.snapshot_id, licence_number=3103)
    page = window.page
    page.goto("/classement/joueur/3103/")
    section = page.locator("#mes-points")
    expect(section.get_by_role("heading", name="Mes points")).to_be_visible()
    expect(section).to_contain_text(f"Total\xa0: {entry.total_pcn} PCN")
    expect(section).to_contain_text("Ces seuils bougent jusqu’au classement officiel")
    assert window.sideways() == []
    window.shot("1-mes-points")

    section.get_by_role("link", name="Et si… simuler un résultat").click()
    expect(page).to_have_url(re.compile(r"/classement/simulation/\?saison=2026-2027&licence=3103$"))
    expect(page.get_by_label("Numéro de licence (facultatif)")).to_have_value("3103")
    page.get_by_label("Type de tournoi").select_option(label="Finale régionale")
    page.get_by_label("Tables").fill("20")
    page.get_by_label("Place").fill("81")
    page.get_by_role("button", name="Simuler").click()
    expect(page.locator("#id_place_error")).to_have_text(
        "La place 81 n’existe pas\xa0: le tournoi ne compte que 80 inscrits."
    )
    expect(page.get_by_test_id("pcn")).to_have_count(0)
    window.shot("2-place-refusee")

    page.get_by_label("Place").fill("2")
    page.get_by_role("button", name="Simuler").click()
    expect(page.get_by_test_id("pcn")).to_have_text("1238")  # ⌊688 × 1.8⌋ (printed: 688)
    expect(page.get_by_test_id("place-after")).to_have_text("1")
    assert window.sideways() == []
    window.shot("3-deuxieme-d-une-finale-regionale")
