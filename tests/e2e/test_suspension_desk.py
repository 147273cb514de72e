"""The suspensions to decide in a real browser, on a phone (docs/sanctions.md): homologated
results record a player leaving without the arbiter's accord; federation staff find the
proposal from the desk's home and confirm it in one click; the page fits 360 px."""

from __future__ import annotations

import datetime as dt

from playwright.sync_api import expect

PASSWORD = "x"  # the registry fixture's users (tests/conftest.py)
TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]


def _homologated_with_an_abandon(registry):
    from competitions.homologation import results_submit, tournament_homologate
    from competitions.models import Tournament
    from federation.models import Licence, Player

    for i in range(12):
        player = Player.objects.create(
            licence_number=5001 + i, last_name=f"Joueur{i + 1}", first_name="Camille"
        )
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    document = {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
        "entries": [
            {"number": i + 1, "place": i + 1, "total": total,
             "players": [{"licence_number": 5001 + i, "name": f"Joueur{i + 1} Camille"}]}
            for i, total in enumerate(TOTALS)
        ],
    }  # fmt: skip
    document["entries"][11].update(abandoned=True, arbiter_accord=False)
    tournament = Tournament.objects.create(
        season=registry.season, name="Open de la Croix-Rousse", date=dt.date(2026, 12, 5),
        venue="Lyon", format="individual", organizer_kind="club",
        organizer_club=registry.clubs[101], arbiter=registry.players[1002],
    )  # fmt: skip
    staff = registry.users["federation_staff"]
    results_submit(tournament=tournament, content=document, source="json", by=staff)
    tournament_homologate(tournament=tournament, by=staff)


def test_federation_staff_confirm_a_proposed_suspension_on_a_phone(open_window, sign_in, registry):
    from federation.models import Sanction

    _homologated_with_an_abandon(registry)
    window = open_window("phone", "staff")
    sign_in(window, "federation_staff", PASSWORD)
    page = window.page
    page.goto("/bureau/")
    page.get_by_role("link", name="Suspensions à décider").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Suspensions à décider")
    expect(page.get_by_text("Open de la Croix-Rousse")).to_be_visible()
    assert window.sideways() == []
    window.shot("proposal")
    page.get_by_role("button", name="Confirmer\xa0: suspendre 12 mois").click()
    expect(page.get_by_text("est suspendu jusqu’au")).to_be_visible()
    expect(page.get_by_text("Aucune suspension n’attend de décision.")).to_be_visible()
    assert window.sideways() == []
    window.shot("confirmed")
    assert Sanction.objects.get().kind == "suspension"
