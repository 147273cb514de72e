"""The table's phone page writes the seats as a French score sheet does: N, S, E, O (the
documents' code W is Ouest), and a table of 5 its fifth seat 5."""

from __future__ import annotations

import re

import pytest

from competitions.day.table_tokens import table_token
from competitions.rules.day.layout import layout_from_json
from tests.competitions.day.test_scoring import draw

pytestmark = pytest.mark.django_db


def test_the_phone_page_names_the_seats_in_french_at_a_table_of_five(client, declare_tournament):
    session = draw(declare_tournament(), 13, fives=True)
    five = next(t for t in layout_from_json(session.plan).tables_at(1) if t.size == 5)
    page = client.get(f"/table/{table_token(session, 1, five.table)}/").content.decode()
    assert 'data-size="5"' in page
    shown = re.findall(r'<span class="seat" title="(\w+)">(\w)</span>', page)
    assert shown == [("Nord", "N"), ("Sud", "S"), ("Est", "E"), ("Ouest", "O"), ("5e", "5")]
    assert re.search(r"<span>O · Joueur \d+</span>", page)  # the taker, the mort
    assert not re.search(r"<span>W[ <]", page)
    assert 'name="taker" value="W"' in page  # what the phone sends stays the documents' code


def test_the_arbiters_table_page_writes_each_deals_marks_by_french_seat(
    client, declare_tournament, registry
):
    from tests.competitions.day.test_scoring import GARDE_N

    tournament = declare_tournament()
    session = draw(tournament, 12)
    client.post(
        f"/api/day/tables/{table_token(session, 1, 1)}/deals/",
        {"deal": 1, "line": GARDE_N},
        content_type="application/json",
    )
    client.force_login(registry.users["arbiter"])
    page = client.get(
        f"/tournois/{tournament.pk}/jour/saisie/seances/1/positions/1/tables/1/"
    ).content.decode()
    heading = re.search(r"Donne 1 — ([^<]+)<", page).group(1)
    assert heading == "N\u202f: 174, S\u202f: -58, E\u202f: -58, O\u202f: -58"
    assert re.search(r"\bO Joueur \d+ \(\d+\)", page)
    assert not re.search(r"\bW Joueur", page)
