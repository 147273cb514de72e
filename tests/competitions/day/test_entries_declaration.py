"""The declaration's facts for the day, on the form and in the API: start time, address,
contact, fee, cap, online entries, tables of 5, position totals, live page; a bad fee or cap
refused on its field in French, nothing stored."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client

from competitions.models import Tournament

pytestmark = pytest.mark.django_db

DAY_FIELDS = {
    "start_time": "13:30",
    "address": "18 quai de Bondy, Lyon",
    "contact": "Marie, 06 12 34 56 78",
    "entry_fee": "12.50",
    "entry_cap": "40",
}


def form(**changes) -> dict:
    return {
        "name": "Open de Villeurbanne", "date": "2026-12-12", "venue": "Salle Molière",
        "format": "individual", "organiser": "club:101", "arbiter_licence_number": "1002",
        "planned_sessions": "1", **DAY_FIELDS, "online_entries": "on", "tables_of_five": "on",
        **changes,
    }  # fmt: skip


def test_the_form_declares_the_day_s_facts(registry):
    client = Client()
    client.force_login(registry.users["club_manager"])
    response = client.post("/tournois/declarer/", form())
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert (t.start_time, t.address, t.contact) == (
        dt.time(13, 30),
        "18 quai de Bondy, Lyon",
        "Marie, 06 12 34 56 78",
    )
    assert (t.entry_fee, t.entry_cap) == (Decimal("12.50"), 40)
    assert (t.online_entries, t.tables_of_five, t.position_totals, t.live_page) == (
        True,
        True,
        False,
        False,
    )


def test_a_bad_cap_or_fee_is_refused_on_its_field(registry):
    client = Client()
    client.force_login(registry.users["club_manager"])
    response = client.post("/tournois/declarer/", form(entry_cap="0", entry_fee="-1"))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) >= {"entry_cap", "entry_fee"}
    assert not Tournament.objects.exists()


def test_the_api_declares_and_shows_the_day_s_facts(registry, api):
    api.force_authenticate(registry.users["club_manager"])
    body = {
        "name": "Open de Lyon", "date": "2026-12-05", "venue": "Lyon", "format": "duo",
        "organizer_kind": "club", "organizer_number": 101, "arbiter_licence_number": 1002,
        **DAY_FIELDS, "online_entries": True, "position_totals": True, "live_page": True,
    }  # fmt: skip
    response = api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    out = response.json()
    assert out["start_time"] == "13:30:00"
    assert (out["entry_fee"], out["entry_cap"], out["online_entries"]) == ("12.50", 40, True)
    assert (out["position_totals"], out["live_page"], out["tables_of_five"]) == (True, True, False)
    bad = api.post(
        "/api/tournaments/", {**body, "entry_cap": 0, "entry_fee": "12.555"}, format="json"
    )
    assert bad.status_code == 400
    assert {e["field"] for e in bad.json()["errors"]} == {"entry_cap", "entry_fee"}
    assert Tournament.objects.count() == 1
