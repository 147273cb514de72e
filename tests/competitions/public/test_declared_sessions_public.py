"""A tournament whose declared sessions span two days, and a team match, as the public
reads them: the calendar (its last day), the tournament's page (its programme), the
public API and the iCalendar feeds (one event per day, at that day's venue)."""

from __future__ import annotations

import datetime as dt

import pytest
from icalendar import Calendar

from tests.competitions.api.test_tournament_declaration import URL, as_role, declaration

pytestmark = pytest.mark.django_db

RULEBOOK_URL = "/api/pcn/rulebooks/2026-2027/"


@pytest.fixture
def two_day_festival(api, registry):
    """Club 101's festival over two days (5 and 6 December), the second day at another
    venue, declared under a season letting festivals span days and venues; and a team
    match of the same club on one day."""
    api.force_authenticate(registry.users["federation_staff"])
    data = api.get(RULEBOOK_URL).json()["rulebook"]
    data["homologation"]["several_days_in"] = ["official_championship", "festival"]
    data["homologation"]["several_venues_in"] = ["festival"]
    assert api.put(RULEBOOK_URL, {"rulebook": data}, format="json").status_code == 200
    client = as_role(api, registry, "club_manager")
    festival = client.post(
        URL,
        declaration(
            name="Festival de Lyon", date="2026-12-05", venue="Lyon, salle Molière",
            event_kind="festival",
            sessions=[{"date": "2026-12-05"}, {"date": "2026-12-06", "venue": "Villeurbanne"}],
        ),
        format="json",
    )  # fmt: skip
    assert festival.status_code == 201, festival.json()
    match = client.post(
        URL,
        declaration(name="Match Lyon–Grenoble", date="2026-12-12", format="team4",
                    event_kind="team_match"),
        format="json",
    )  # fmt: skip
    assert match.status_code == 201, match.json()
    api.force_authenticate(None)
    return festival.json()["id"], match.json()["id"]


def test_the_calendar_shows_the_last_day_and_the_kind(client, two_day_festival):
    page = client.get("/calendrier/?saison=2026-2027").content.decode()
    assert "au 06/12/2026" in page
    assert "match par équipes" in page
    assert "festival de tarot" in page


def test_the_tournament_page_shows_its_programme(client, two_day_festival):
    festival, match = two_day_festival
    page = client.get(f"/calendrier/tournoi/{festival}/").content.decode()
    assert "du samedi 5 décembre 2026 au dimanche 6 décembre 2026" in page
    assert "Programme" in page
    assert "Villeurbanne" in page
    assert "festival de tarot" in page
    one_day = client.get(f"/calendrier/tournoi/{match}/").content.decode()
    assert "Programme" not in one_day
    assert "match par équipes" in one_day


def test_the_public_api_gives_the_sessions_and_the_kind(api, two_day_festival):
    festival, match = two_day_festival
    body = api.get(f"/api/public/tournaments/{festival}/").json()
    assert body["event_kind"] == "festival"
    assert body["last_date"] == "2026-12-06"
    assert body["declared_sessions"] == [
        {"number": 1, "date": "2026-12-05", "venue": "Lyon, salle Molière"},
        {"number": 2, "date": "2026-12-06", "venue": "Villeurbanne"},
    ]
    listed = {t["id"]: t for t in api.get("/api/public/tournaments/").json()["results"]}
    assert listed[festival]["last_date"] == "2026-12-06"
    assert listed[match]["last_date"] == "2026-12-12"
    assert listed[match]["event_kind"] == "team_match"


def test_the_feed_has_one_event_per_day_at_its_venue(client, two_day_festival):
    festival, match = two_day_festival
    calendar = Calendar.from_ical(client.get("/calendrier/club/101.ics").content)
    events = {str(e["uid"]): e for e in calendar.walk("VEVENT")}
    first = events[f"tournoi-{festival}@donnes-libres.fftarot.fr"]
    second = events[f"tournoi-{festival}-20261206@donnes-libres.fftarot.fr"]
    assert (first.decoded("dtstart"), first.decoded("dtend")) == (
        dt.date(2026, 12, 5),
        dt.date(2026, 12, 6),
    )
    assert (second.decoded("dtstart"), second.decoded("dtend")) == (
        dt.date(2026, 12, 6),
        dt.date(2026, 12, 7),
    )
    assert str(first["location"]) == "Lyon, salle Molière"
    assert str(second["location"]) == "Villeurbanne"
    assert str(first["summary"]) == "Festival de Lyon (jour 1 sur 2)"
    assert str(second["summary"]) == "Festival de Lyon (jour 2 sur 2)"
    one_day = events[f"tournoi-{match}@donnes-libres.fftarot.fr"]
    assert str(one_day["summary"]) == "Match Lyon–Grenoble"
    assert "match par équipes" in str(one_day["description"])
