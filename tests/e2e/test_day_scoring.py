"""A table enters its deals on a phone, as players do on the day: the phone scans the
table's QR code (opens its address) at 360 px, enters deals with one thumb, sees an
impossible deal refused in French, loses the network for a few deals (kept on the phone,
« en attente d'envoi »), gets it back, and the server has each deal once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.competitions.day.test_scoring import draw


@pytest.fixture
def drawn(declare_tournament):
    tournament = declare_tournament()
    return draw(tournament, 12)


def choose(page, name: str, value: str) -> None:
    page.locator(f'label:has(input[name="{name}"][value="{value}"])').click()


def enter_deal(page, contract: str, taker: str, oudlers: int, points: str) -> None:
    choose(page, "contract", contract)
    choose(page, "taker", taker)
    choose(page, "oudlers", str(oudlers))
    page.get_by_label("Points de l’attaque").fill(points)
    page.get_by_role("button", name="Enregistrer la donne").click()


def test_a_phone_enters_deals_loses_the_network_and_sends_each_deal_once(
    open_window, drawn, wait_for
):
    from competitions.day.table_tokens import table_url
    from competitions.models import DealRecord

    phone = open_window("phone", "table-1")
    page = phone.page
    page.goto(table_url(drawn, 1, 1))
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 1 · position 1")
    assert phone.sideways() == []
    phone.shot("1-table")

    enter_deal(page, "garde", "N", 2, "45")
    items = page.locator("#deal-list li")
    expect(items.filter(has_text="Donne 1")).to_contain_text("enregistrée")
    # the marks by French letter in the table's seat order, with a real minus sign
    expect(items.filter(has_text="Donne 1")).to_contain_text(
        re.compile(r"\(N \+\d+, S −\d+, E −\d+, O −\d+\)")
    )
    expect(page.locator('[data-total="N"]')).to_have_text("174")

    # An impossible deal: refused at the table, in French, naming what is wrong.
    enter_deal(page, "prise", "E", 1, "95")
    expect(page.locator("#form-errors")).to_contain_text(re.compile(r"Donne 2\s:.*points"))
    assert page.locator("#form-errors").inner_text().count("Donne 2") == 1  # one prefix
    expect(items.filter(has_text="Donne 2")).to_contain_text("refusée")
    expect(page.locator('input[name="deal"][value="2"]')).to_be_checked()  # stays on it
    phone.refused[:] = [r for r in phone.refused if not r.startswith("400 ")]
    phone.shot("2-refused")

    page.context.set_offline(True)
    choose(page, "deal", "2")
    enter_deal(page, "prise", "E", 1, "40")
    enter_deal(page, "garde_sans", "W", 3, "60")
    choose(page, "deal", "4")
    choose(page, "contract", "passe")
    page.get_by_role("button", name="Enregistrer la donne").click()
    expect(page.locator("#network")).to_contain_text("Pas de réseau")
    expect(items.filter(has_text="en attente d’envoi")).to_have_count(3)
    assert phone.sideways() == []
    phone.shot("3-offline")
    assert DealRecord.objects.filter(session=drawn).count() == 1

    page.context.set_offline(False)
    expect(items.filter(has_text="en attente d’envoi")).to_have_count(0, timeout=15_000)
    expect(items.filter(has_text="enregistrée")).to_have_count(4)
    phone.shot("4-back-online")
    deals = list(
        DealRecord.objects.filter(session=drawn, position=1, table=1)
        .order_by("deal")
        .values_list("deal", "line__contract")
    )
    assert deals == [(1, "garde"), (2, "prise"), (3, "garde_sans"), (4, None)]
    totals = page.locator("[data-total]").all_inner_texts()
    assert sum(int(t) for t in totals) == 0

    # The page reloaded (a phone put away and taken out): the same deals, nothing resent twice.
    page.reload()
    expect(items.filter(has_text="enregistrée")).to_have_count(4)
    assert DealRecord.objects.filter(session=drawn).count() == 4


def test_the_arbiter_sees_every_table_and_corrects_a_deal_with_a_reason(
    open_window, sign_in, drawn
):
    from competitions.day.scoring import deal_enter
    from competitions.day.table_tokens import table_token
    from competitions.models import DayCorrection, DealRecord

    token = table_token(drawn, 1, 2)
    deal_enter(token=token, deal=1, line={"contract": "garde", "taker": "N", "oudlers": 2,
                                          "attack_points": 45})  # fmt: skip
    laptop = open_window("desktop", "arbiter")
    page = laptop.page
    sign_in(laptop, "arbiter", "x")
    page.goto(f"/tournois/{drawn.tournament_id}/jour/")
    page.get_by_role("link", name="Saisie des scores").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Saisie des scores")
    row = page.get_by_role("row").filter(has=page.get_by_role("rowheader", name="2", exact=True))
    row.get_by_role("link", name="1/4").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 2 · position 1")
    laptop.shot("1-table-2")
    deal = page.locator("#donne-1")
    deal.get_by_text("Corriger cette donne").click()
    deal.get_by_label("Preneur").select_option("E")
    deal.get_by_role("button", name="Corriger").click()
    expect(page.locator("#donne-1")).to_contain_text("Indiquez pourquoi")
    deal = page.locator("#donne-1")
    deal.get_by_label("Preneur").select_option("E")
    deal.get_by_label("Motif").fill("Le preneur était Est")
    deal.get_by_role("button", name="Corriger").click()
    expect(page.locator("#donne-1 h2")).to_contain_text("E\u202f: 174")
    laptop.shot("2-corrected")
    assert DealRecord.objects.get(session=drawn, table=2, deal=1).line["taker"] == "E"
    correction = DayCorrection.objects.get()
    assert correction.reason == "Le preneur était Est"
    assert correction.corrected_by.username == "arbiter"
    phone = open_window("phone", "arbiter-phone")
    sign_in(phone, "arbiter", "x")
    phone.page.goto(f"/tournois/{drawn.tournament_id}/jour/saisie/seances/1/positions/1/tables/2/")
    expect(phone.page.get_by_role("heading", level=1)).to_contain_text("Table 2")
    assert phone.sideways() == []
