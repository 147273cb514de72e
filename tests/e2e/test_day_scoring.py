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
    expect(page.locator('[data-total="N"]')).to_have_text("174")

    # An impossible deal: refused at the table, in French, naming what is wrong.
    enter_deal(page, "prise", "E", 1, "95")
    expect(page.locator("#form-errors")).to_contain_text(re.compile(r"Donne 2 : .*points"))
    expect(items.filter(has_text="Donne 2")).to_contain_text("refusée")
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
