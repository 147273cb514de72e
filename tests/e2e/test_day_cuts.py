"""The arbiter of a championship stage whose committee's table eliminates at each position
draws, on a phone (360 px), the rest of session 2 after its cut after position 1: the draw
page says who plays on and who was eliminated, waits for the position to be complete, then
seats the best 4 at one table on a position of their own."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from competitions.day import room
from tests.competitions.championships.test_day_eliminations import (
    DEALS,
    eliminating_stages,
    play_position,
)


@pytest.mark.parametrize("window", ["phone"], indirect=True)
def test_the_arbiter_draws_the_rest_of_a_session_after_a_cut(window, registry, sign_in):
    final, _, arbiter = eliminating_stages(registry)
    room.session_draw(
        tournament=final, positions=2, deals_per_position=DEALS, placement="championship",
        seed=3, by=arbiter,
    )  # fmt: skip
    play_position(arbiter, final, 1, 1, seed=1)
    play_position(arbiter, final, 1, 2, seed=2)
    room.session_draw(tournament=final, positions=1, deals_per_position=DEALS, by=arbiter)

    sign_in(window, "arbiter", "x")
    page = window.page
    page.goto(f"/tournois/{final.pk}/jour/tirage/")
    expect(page.get_by_text("8 inscriptions continuent")).to_be_visible()
    expect(page.get_by_text("4 inscriptions éliminées")).to_be_visible()
    expect(page.get_by_text("La position 1 n’est pas complète")).to_be_visible()
    expect(page.get_by_role("button", name="Tirer la suite de la séance 2")).to_have_count(0)
    assert window.sideways() == []
    window.shot("1-en-attente")

    play_position(arbiter, final, 2, 1, seed=3)
    page.reload()
    expect(
        page.get_by_text("La table du comité garde les 4 meilleures inscriptions.")
    ).to_be_visible()
    assert window.sideways() == []
    window.shot("2-suite")
    page.get_by_role("button", name="Tirer la suite de la séance 2").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Plan de salle, séance 2")
    expect(page.get_by_text("Suite de la séance 2 tirée après la position 1.")).to_be_visible()
    expect(page.locator(".room-tables .card")).to_have_count(1)
    expect(page.get_by_text("4 inscriptions continuent")).to_be_visible()
    assert window.sideways() == []
    window.shot("3-derniere-position")
    session = final.played_sessions.get(number=2)
    assert session.positions == 2
