"""The table's phone page and its JSON endpoints (under the table's token), the arbiter's
grid and a table's correction form, over HTTP: statuses, the one error shape in French,
the throttle per token, and nothing private shown."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from competitions.day.table_tokens import table_token
from competitions.models import DayCorrection, DealRecord, EntryMember, TournamentStatus
from tests.competitions.day.test_scoring import GARDE_N, PRISE_E_LOST, draw


@pytest.fixture
def tournament(declare_tournament):
    return declare_tournament()


@pytest.fixture
def session(tournament):
    return draw(tournament, 12)


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()
    yield
    cache.clear()


def deals_url(token: str) -> str:
    return f"/api/day/tables/{token}/deals/"


def test_a_deal_posted_twice_is_201_then_200_and_kept_once(client, session):
    token = table_token(session, 1, 1)
    body = {"deal": 1, "line": GARDE_N, "client_key": "abc"}
    first = client.post(deals_url(token), body, content_type="application/json")
    assert first.status_code == 201, first.json()
    assert first.json()["marks"]["N"] == 174
    again = client.post(deals_url(token), body, content_type="application/json")
    assert again.status_code == 200
    assert again.json()["created"] is False
    assert DealRecord.objects.count() == 1


def test_refusals_come_in_the_one_error_shape_in_french(client, session, tournament):
    token = table_token(session, 1, 1)
    bad = client.post(deals_url(token), {"deal": 1, "line": {**GARDE_N, "oudlers": 5}},
                      content_type="application/json")  # fmt: skip
    assert bad.status_code == 400
    errors = bad.json()["errors"]
    assert errors[0]["field"] == "line.oudlers"
    assert errors[0]["message"]
    client.post(deals_url(token), {"deal": 1, "line": GARDE_N}, content_type="application/json")
    conflict = client.post(deals_url(token), {"deal": 1, "line": PRISE_E_LOST},
                           content_type="application/json")  # fmt: skip
    assert conflict.status_code == 409
    assert "seul l’arbitre" in conflict.json()["errors"][0]["message"]
    forged = client.get(f"/api/day/tables/{token[:-2]}xx/")
    assert forged.status_code == 404
    assert forged.json()["errors"][0]["code"] == "table_link_unknown"
    tournament.status = TournamentStatus.RESULTS_SUBMITTED
    tournament.save()
    closed = client.get(f"/api/day/tables/{token}/")
    assert closed.status_code == 403
    assert "close" in closed.json()["errors"][0]["message"]
    page = client.get(f"/table/{token}/")
    assert page.status_code == 403
    assert tournament.name not in page.content.decode()


def test_a_token_is_held_to_its_rate_whatever_the_address(client, session, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "table_entry": "3/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    token = table_token(session, 1, 1)
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        assert client.get(f"/api/day/tables/{token}/", REMOTE_ADDR=address).status_code == 200
    refused = client.get(f"/api/day/tables/{token}/", REMOTE_ADDR="10.0.0.4")
    assert refused.status_code == 429
    assert refused.json()["errors"][0]["field"] is None
    page = client.get(f"/table/{token}/")
    assert page.status_code == 429
    assert "Trop de demandes pour cette table" in page.content.decode()
    other_table = table_token(session, 1, 2)
    assert client.get(f"/api/day/tables/{other_table}/").status_code == 200
    assert client.get(f"/table/{other_table}/").status_code == 200


def test_the_table_page_shows_its_seats_and_hides_a_player_who_objected(client, session, registry):
    hidden = registry.players[1003]
    hidden.name_hidden = True
    hidden.save()
    token = table_token(session, 1, 1)
    sheet = client.get(f"/api/day/tables/{token}/").json()
    numbers = [seat["number"] for seat in sheet["seats"]]
    EntryMember.objects.filter(entry__number=numbers[0]).update(player=hidden, name="")
    page = client.get(f"/table/{token}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Dubois" not in text
    assert "anonymat" in text
    assert f"Joueur {numbers[1]}" in text
    assert "Content-Security-Policy" in page.headers
    assert '<script src="/static/day/table.js"' in text
    assert "1003" not in client.get(f"/api/day/tables/{token}/").content.decode()


def test_the_grid_and_a_correction_through_the_arbiter_pages(client, session, tournament, registry):
    client.force_login(registry.users["arbiter"])
    token = table_token(session, 1, 1)
    client.post(deals_url(token), {"deal": 1, "line": GARDE_N}, content_type="application/json")
    grid = client.get(f"/tournois/{tournament.pk}/jour/saisie/")
    assert grid.status_code == 200
    assert "1/4" in grid.content.decode()
    url = f"/tournois/{tournament.pk}/jour/saisie/seances/1/positions/1/tables/1/"
    page = client.get(url)
    assert page.status_code == 200
    # Preneur, Poignée: the seats in French words, the values sent stay the codes
    assert page.content.decode().count('<option value="W">Ouest</option>') >= 2
    assert '<option value="W">W</option>' not in page.content.decode()
    form = {"deal": "1", "d1-contract": "prise", "d1-taker": "E", "d1-oudlers": "1",
            "d1-attack_points": "40", "d1-reason": ""}  # fmt: skip
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert "Indiquez pourquoi" in refused.content.decode()
    done = client.post(url, {**form, "d1-reason": "Preneur mal noté"})
    assert done.status_code == 302
    assert DealRecord.objects.get(deal=1).line["taker"] == "E"
    assert DayCorrection.objects.get().reason == "Preneur mal noté"
    missing = client.post(url, {"deal": "2", "d2-contract": "garde", "d2-taker": "N",
                                "d2-oudlers": "9", "d2-attack_points": "45"})  # fmt: skip
    assert missing.status_code == 400
    assert DealRecord.objects.filter(deal=2).count() == 0


def test_position_totals_corrected_through_the_arbiter_page(client, session, tournament, registry):
    from competitions.models import TableTotals

    tournament.position_totals = True
    tournament.save()
    client.force_login(registry.users["arbiter"])
    url = f"/tournois/{tournament.pk}/jour/saisie/seances/1/positions/1/tables/1/"
    page = client.get(url)
    assert page.status_code == 200
    assert "Saisir ces bilans" in page.content.decode()
    entered = client.post(url, {"totals": "1", "totals-seat_N": "6", "totals-seat_S": "-6",
                                "totals-seat_E": "0", "totals-seat_W": "0"})  # fmt: skip
    assert entered.status_code == 302
    assert TableTotals.objects.get().totals == {"N": 6, "S": -6, "E": 0, "W": 0}
    assert not DayCorrection.objects.exists()  # entering missing totals is no correction
    form = {"totals": "1", "totals-seat_N": "8", "totals-seat_S": "-6", "totals-seat_E": "0",
            "totals-seat_W": "-2", "totals-reason": ""}  # fmt: skip
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert "Indiquez pourquoi" in refused.content.decode()
    odd = client.post(url, {**form, "totals-seat_W": "0", "totals-reason": "Report"})
    assert odd.status_code == 400
    assert "totalisent +2" in odd.content.decode()
    done = client.post(url, {**form, "totals-reason": "Erreur de report"})
    assert done.status_code == 302
    assert TableTotals.objects.get().totals == {"N": 8, "S": -6, "E": 0, "W": -2}
    assert DayCorrection.objects.get().after == {"totals": {"N": 8, "S": -6, "E": 0, "W": -2}}
    grid = client.get(f"/tournois/{tournament.pk}/jour/saisie/").content.decode()
    assert "table 1, bilans" in grid
    assert "Erreur de report" in grid
    removed = client.post(url, {"totals": "1", "totals-remove": "on",
                                "totals-reason": "Position rejouée"})  # fmt: skip
    assert removed.status_code == 302
    assert not TableTotals.objects.exists()
    assert DayCorrection.objects.latest("corrected_at").after is None


def test_the_totals_form_is_not_found_for_others_or_without_totals(
    client, session, tournament, registry
):
    from competitions.models import TableTotals

    url = f"/tournois/{tournament.pk}/jour/saisie/seances/1/positions/1/tables/1/"
    form = {"totals": "1", "totals-seat_N": "6", "totals-seat_S": "-6", "totals-seat_E": "0",
            "totals-seat_W": "0"}  # fmt: skip
    client.force_login(registry.users["arbiter"])
    assert client.post(url, form).status_code == 404  # this tournament has every deal entered
    tournament.position_totals = True
    tournament.save()
    client.force_login(registry.users["player"])
    assert client.post(url, form).status_code == 404
    assert not TableTotals.objects.exists()


@pytest.mark.parametrize("role", ["anonymous", "player"])
def test_the_arbiter_pages_are_not_found_for_others(client, session, tournament, registry, role):
    if registry.users[role]:
        client.force_login(registry.users[role])
    grid = f"/tournois/{tournament.pk}/jour/saisie/"
    for url in (grid, f"{grid}seances/1/positions/1/tables/1/"):
        answer = client.get(url)
        assert answer.status_code in (302, 404)
        if role != "anonymous":
            assert answer.status_code == 404
    assert client.post(f"/tournois/{tournament.pk}/jour/saisie/seances/1/positions/1/tables/1/",
                       {"deal": "1", "d1-contract": "garde"}).status_code in (302, 404)  # fmt: skip
    assert not DealRecord.objects.exists()
