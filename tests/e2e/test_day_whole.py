"""The whole tournament day, as the room lives it: thirty players at tables of 5 with a
mort (the organiser's choice: seven tables, two of 5), two sessions. The arbiter signs in
on a laptop, checks players in and draws each session from the pages; two phones (360 px)
open their table's address as the table card carries it and enter deals while the laptop
enters a third table through the arbiter's grid and the other tables send theirs to the
phone's JSON endpoints at the same time; one phone loses the network for a position and the
server keeps each deal once; an impossible deal is refused in French at the phone; the
arbiter corrects a deal (with its reason, logged) and records a penalty; the end page
previews and sends the results, staff homologate them; the same score sheets sent as a file
for a second tournament give every player the same PCN."""

from __future__ import annotations

import datetime as dt
import json
import re
import threading
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

PLAYERS = 30
POSITIONS = 2
DEALS = 2

# Two deals a 4-player table plays (the second taker loses): valid at every table.
FOUR = (
    {"contract": "garde", "taker": "N", "oudlers": 2, "attack_points": 45},
    {"contract": "prise", "taker": "E", "oudlers": 1, "attack_points": 40},
)
# At a table of 5 the mort goes round in the direction of play: North, then West.
FIVE = (
    {"contract": "garde", "taker": "S", "oudlers": 2, "attack_points": 45, "sitting_out": "N"},
    {"contract": "prise", "taker": "E", "oudlers": 1, "attack_points": 40, "sitting_out": "W"},
)


@pytest.fixture
def day(registry, declare_tournament):
    """The Open de Lyon at tables of 5, thirty licensed players entered; the arbiter (1002)
    also manages the club (he sends the results)."""
    from competitions.models import EntryMember, TournamentEntry
    from federation.models import Licence, Player, Role, RoleAssignment

    tournament = declare_tournament()
    tournament.tables_of_five = True
    tournament.save()
    club = tournament.organizer_club
    for number in range(1, PLAYERS + 1):
        player = Player.objects.create(
            licence_number=41000 + number,
            last_name=f"Joueur{number:02d}",
            first_name="Camille",
            birth_date=dt.date(1960 + number, 1, 1),
        )
        Licence.objects.create(player=player, season=tournament.season, club=club)
        entry = TournamentEntry.objects.create(tournament=tournament, number=number)
        EntryMember.objects.create(entry=entry, tournament=tournament, player=player)
    RoleAssignment.objects.create(
        user=registry.users["arbiter"], role=Role.CLUB_MANAGER, club=registry.clubs[101]
    )
    return tournament


def choose(page, name: str, value: str) -> None:
    page.locator(f'label:has(input[name="{name}"][value="{value}"])').click()


def phone_deal(page, deal: int, line: dict) -> None:
    """One deal with one thumb on the table's phone page."""
    choose(page, "deal", str(deal))
    choose(page, "contract", line["contract"])
    choose(page, "taker", line["taker"])
    choose(page, "oudlers", str(line["oudlers"]))
    page.get_by_label("Points de l’attaque").fill(str(line["attack_points"]))
    page.get_by_role("button", name="Enregistrer la donne").click()


def grid_deal(page, deal: int, line: dict) -> None:
    """One deal through the arbiter's form for that deal (the table's page of the grid)."""
    section = page.locator(f"#donne-{deal}")
    section.locator("summary").click()
    section.locator(f'[name="d{deal}-contract"]').select_option(line["contract"])
    section.locator(f'[name="d{deal}-taker"]').select_option(line["taker"])
    section.locator(f'[name="d{deal}-oudlers"]').fill(str(line["oudlers"]))
    section.locator(f'[name="d{deal}-attack_points"]').fill(str(line["attack_points"]))
    section.locator("button[type=submit]").click()
    expect(page.locator(f"#donne-{deal} h2")).not_to_contain_text("manquante")


def as_on_the_card(session, position: int, table: int) -> str:
    """The address the table card's QR code carries, opened on the test's server."""
    from competitions.day.printouts import table_url

    return urlsplit(table_url(session, position, table)).path


def grid_url(tournament, session: int, position: int, table: int) -> str:
    """A table's page of the arbiter's grid."""
    from django.urls import reverse

    return reverse(
        "day-scores-table",
        kwargs={"pk": tournament.pk, "session": session, "position": position, "table": table},
    )


def post_deals(base: str, tokens: list[tuple[str, int]], failures: list[str]) -> None:
    """The other tables' phones: each deal to the JSON endpoint with the table's token."""
    for token, size in tokens:
        for deal, line in enumerate(FIVE if size == 5 else FOUR, start=1):
            body = json.dumps({"deal": deal, "line": line, "client_key": f"{token[:8]}-{deal}"})
            request = urllib.request.Request(
                f"{base}/api/day/tables/{token}/deals/",
                data=body.encode(),
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    if answer.status != 201:
                        failures.append(f"{answer.status} {token}")
            except urllib.error.HTTPError as error:
                failures.append(f"{error.code} {error.read()[:300]!r}")


def test_the_whole_day_from_check_in_to_the_same_pcn_twice(
    open_window, sign_in, live_server, registry, day, declare_tournament
):
    from competitions.day import room
    from competitions.day.closing import closing_document
    from competitions.day.table_tokens import table_token
    from competitions.homologation import results_submit, tournament_homologate
    from competitions.models import (
        Allocation,
        DayCorrection,
        DayPenalty,
        DealRecord,
        PlayedSession,
    )
    from competitions.rules.day.layout import layout_from_json

    arbiter = registry.users["arbiter"]
    laptop = open_window("desktop", "arbitre")
    page = laptop.page
    sign_in(laptop, "arbiter", "x")

    # Check-in: three at the page, the others through the service (time).
    page.goto(f"/tournois/{day.pk}/jour/")
    page.get_by_role("link", name="Pointage", exact=True).click()
    for number in range(1, 4):
        page.locator(f"#entry-{number}").get_by_role("button", name="Présent ?").click()
        expect(page.locator(f"#entry-{number}").get_by_role("button")).to_have_text("✓ Présent")
    for number in range(4, PLAYERS + 1):
        room.entry_presence_set(tournament=day, entry_number=number, present=True, by=arbiter)

    phones = [open_window("phone", "table-a"), open_window("phone", "table-b")]

    def draw_session(number: int) -> PlayedSession:
        page.goto(f"/tournois/{day.pk}/jour/accueil/")
        page.get_by_role("link", name="Tirer une séance").click()
        expect(page.get_by_text("2 tables de 5 joueurs (chacune avec un mort)")).to_be_visible()
        page.locator("#id_positions").fill(str(POSITIONS))
        page.get_by_label("Donnes par position").fill(str(DEALS))
        page.get_by_role("button", name=f"Tirer la séance {number}").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Plan de salle, séance {number}")
        expect(page.locator(".room-tables .card")).to_have_count(7)
        expect(page.get_by_text("table de 5 (avec un mort)")).to_have_count(2)
        laptop.shot(f"s{number}-plan")
        return day.played_sessions.get(number=number)

    def play_session(session: PlayedSession) -> None:
        layout = layout_from_json(session.plan)
        for position in range(1, POSITIONS + 1):
            tables = layout.tables_at(position)
            fours = [t.table for t in tables if t.size == 4]
            assert len(tables) == 7
            assert len(fours) == 5
            phone_tables, grid_table = fours[:2], fours[2]
            others = [
                (table_token(session, position, t.table), t.size)
                for t in tables
                if t.table not in (*phone_tables, grid_table)
            ]
            failures: list[str] = []
            sender = threading.Thread(target=post_deals, args=(live_server.url, others, failures))
            for phone, table in zip(phones, phone_tables, strict=True):
                phone.page.goto(as_on_the_card(session, position, table))
                expect(phone.page.get_by_role("heading", level=1)).to_have_text(
                    f"Table {table} · position {position}"
                )
            page.goto(grid_url(day, session.number, position, grid_table))
            offline = phones[1] if (session.number, position) == (1, 2) else None
            if offline is not None:
                offline.page.context.set_offline(True)
            if (session.number, position) == (1, 1):
                # An impossible deal at the table: refused there, in French.
                a = phones[0].page
                phone_deal(a, 1, {**FOUR[0], "contract": "prise", "attack_points": 95})
                expect(a.locator("#form-errors")).to_contain_text(re.compile(r"Donne 1\s:.*points"))
                expect(a.locator("#deal-list li").filter(has_text="Donne 1")).to_contain_text(
                    "refusée"
                )
                phones[0].refused[:] = [r for r in phones[0].refused if not r.startswith("400 ")]
                phones[0].shot("refused")
            sender.start()
            for deal, line in enumerate(FOUR, start=1):  # the three at once, deal by deal
                for phone in phones:
                    phone_deal(phone.page, deal, line)
                grid_deal(page, deal, line)
            for phone in phones:
                items = phone.page.locator("#deal-list li")
                if phone is offline:
                    expect(phone.page.locator("#network")).to_contain_text("Pas de réseau")
                    expect(items.filter(has_text="en attente d’envoi")).to_have_count(DEALS)
                    assert phone.sideways() == []
                    phone.shot("offline")
                    assert not DealRecord.objects.filter(
                        session=session, position=position, table=phone_tables[1]
                    ).exists()
                    phone.page.context.set_offline(False)
                    expect(items.filter(has_text="en attente d’envoi")).to_have_count(
                        0, timeout=15_000
                    )
                expect(items.filter(has_text="enregistrée")).to_have_count(DEALS)
                assert phone.sideways() == []
            sender.join()
            assert failures == []
            kept = DealRecord.objects.filter(session=session, position=position)
            assert kept.count() == 7 * DEALS  # every table complete, each deal once
            assert kept.filter(table=phone_tables[1]).count() == DEALS
            assert kept.filter(table=grid_table, provenance="arbiter").count() == DEALS

    session_1 = draw_session(1)
    play_session(session_1)

    # A correction at the arbiter's table page: without a reason, refused; with one, logged.
    table = next(t.table for t in layout_from_json(session_1.plan).tables_at(1) if t.size == 4)
    page.goto(grid_url(day, 1, 1, table))
    deal = page.locator("#donne-1")
    deal.locator("summary").click()
    deal.get_by_label("Preneur").select_option("W")
    deal.get_by_role("button", name="Corriger").click()
    expect(page.locator("#donne-1")).to_contain_text("Indiquez pourquoi")
    deal = page.locator("#donne-1")
    deal.get_by_label("Preneur").select_option("W")
    deal.get_by_label("Motif").fill("Le preneur était Ouest")
    deal.get_by_role("button", name="Corriger").click()
    expect(page.locator("#donne-1 h2")).to_contain_text("O\u202f: 174")
    laptop.shot("corrected")
    correction = DayCorrection.objects.get()
    assert (correction.reason, correction.corrected_by) == ("Le preneur était Ouest", arbiter)
    assert (
        DealRecord.objects.get(session=session_1, position=1, table=table, deal=1).line["taker"]
        == "W"
    )

    # A penalty through the penalties page.
    page.goto(f"/tournois/{day.pk}/jour/")
    page.get_by_role("link", name="Pénalités et abandons").click()
    form = page.locator("form", has=page.get_by_role("button", name="Enregistrer la pénalité"))
    form.get_by_label("Joueur").select_option(label="n° 9 – Joueur09 Camille")
    form.get_by_label("Faute").select_option(label="Lenteur de jeu")
    form.get_by_label("Motif").fill("Lenteur à la table")
    form.get_by_role("button", name="Enregistrer la pénalité").click()
    expect(page.get_by_text("Lenteur de jeu : −100")).to_be_visible()
    assert DayPenalty.objects.get().points == 100

    session_2 = draw_session(2)
    play_session(session_2)

    # The end: preview, then send through the end page.
    page.goto(f"/tournois/{day.pk}/jour/")
    page.get_by_role("link", name="La fin : aperçu et envoi des résultats").click()
    expect(page.get_by_text("Aperçu : rien n’est encore envoyé")).to_be_visible()
    expect(page.locator("table").filter(has_text="PCN").locator("tbody tr")).to_have_count(PLAYERS)
    assert laptop.sideways() == []
    laptop.shot("apercu")
    page.get_by_role("button", name="Envoyer pour homologation").click()
    expect(page.get_by_text(re.compile(r"Résultats reçus \(version 1\)"))).to_be_visible()
    assert day.revisions.get().source == "sheets"
    staff = registry.users["federation_staff"]
    tournament_homologate(tournament=day, by=staff)

    # The same score sheets, sent as a file for a second tournament with the same players.
    document = closing_document(tournament=day, by=arbiter)
    twin = declare_tournament()
    twin.tables_of_five = True
    twin.save()
    results_submit(
        tournament=twin,
        content=json.dumps(document),
        source="sheets",
        by=registry.users["club_manager"],
    )
    tournament_homologate(tournament=twin, by=staff)

    def pcn(tournament) -> dict[int, int]:
        rows = Allocation.objects.filter(tournament=tournament, current=True)
        return {a.player.licence_number: a.pcn for a in rows.select_related("player")}

    assert len(pcn(day)) == PLAYERS
    assert pcn(twin) == pcn(day)
