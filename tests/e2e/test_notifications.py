"""A player chooses their e-mails in a real browser: signs in, goes from their space to
« Mes notifications », ticks one, saves, and finds it saved (on a phone)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize("window", ["phone"], indirect=True)
def test_a_player_ticks_a_notification_and_finds_it_saved(window, registry, sign_in):
    from federation.models import NotificationSubscription

    sign_in(window, "player", "x")
    page = window.page
    page.goto("/compte/")  # the player's space: their ranking page
    page.get_by_role("link", name="Mes notifications").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mes notifications")
    step = page.get_by_role("checkbox", name="mon palier change au classement officiel")
    tournament = page.get_by_role(
        "checkbox", name="un de mes tournois est homologué (mon résultat)"
    )
    expect(step).not_to_be_checked()
    expect(tournament).not_to_be_checked()
    window.shot("1-mes-notifications")

    step.check()
    page.get_by_role("button", name="Enregistrer").click()
    expect(page.get_by_role("status")).to_have_text("Vos choix sont enregistrés.")
    page.reload()
    expect(
        page.get_by_role("checkbox", name="mon palier change au classement officiel")
    ).to_be_checked()
    expect(
        page.get_by_role("checkbox", name="un de mes tournois est homologué (mon résultat)")
    ).not_to_be_checked()
    assert window.sideways() == []
    window.shot("2-enregistre")
    user = registry.users["player"]
    assert dict(
        NotificationSubscription.objects.filter(user=user).values_list("kind", "enabled")
    ) == {
        "step_changed": True,
        "tournament_homologated": False,
        "entry_place_freed": False,
        "entry_convocation": False,
    }
