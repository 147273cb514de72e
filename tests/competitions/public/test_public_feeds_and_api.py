"""The iCalendar feeds (RFC 5545, parsed back with the icalendar library) and the public
API: the calendar, a tournament with its ranking, the clubs and committees; anonymous,
paginated, a fixed number of queries, in the OpenAPI schema."""

from __future__ import annotations

import datetime as dt

import pytest
from icalendar import Calendar

pytestmark = pytest.mark.django_db


def _events(response) -> dict[str, dict]:
    calendar = Calendar.from_ical(response.content)
    return {str(event["summary"]): event for event in calendar.walk("VEVENT")}


def test_the_committee_feed_parses_and_has_its_tournaments(
    client, public_season, django_assert_max_num_queries
):
    with django_assert_max_num_queries(3):
        response = client.get("/calendrier/comite/2.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert b"\r\n" in response.content
    assert all(len(line) <= 75 for line in response.content.split(b"\r\n"))  # folded
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["version"]) == "2.0"
    assert "Bretagne" in str(calendar["x-wr-calname"])
    events = _events(response)
    assert set(events) == {"Tournoi de Rennes", "Régional de Bretagne"}
    rennes = events["Tournoi de Rennes"]
    assert rennes.decoded("dtstart") == dt.date(2026, 11, 21)
    assert rennes.decoded("dtend") == dt.date(2026, 11, 22)
    assert str(rennes["uid"]) == f"tournoi-{public_season.submitted.pk}@donnes-libres.fftarot.fr"
    assert str(rennes["location"]) == "Salle des fêtes"
    assert str(rennes["url"]).endswith(f"/calendrier/tournoi/{public_season.submitted.pk}/")
    assert "Petit au Bout Rennes" in str(rennes["description"])


def test_the_club_feed_escapes_text(client, public_season):
    t = public_season.homologated
    t.name = "Open de Lyon, édition 3; la grande"
    t.venue = "Salle A\\B"
    t.save(update_fields=["name", "venue"])
    response = client.get("/calendrier/club/101.ics")
    assert b"SUMMARY:Open de Lyon\\, \xc3\xa9dition 3\\; la grande" in response.content
    events = _events(response)
    assert set(events) == {"Open de Lyon, édition 3; la grande"}
    assert str(events["Open de Lyon, édition 3; la grande"]["location"]) == "Salle A\\B"
    assert client.get("/calendrier/club/999.ics").status_code == 404
    assert client.get("/calendrier/comite/77.ics").status_code == 404


def test_a_refused_tournament_is_cancelled_in_the_feed(client, public_season):
    events = _events(client.get("/calendrier/comite/1.ics"))
    assert str(events["Tournoi refusé de Grenoble"]["status"]) == "CANCELLED"
    assert str(events["Open de Lyon"]["status"]) == "CONFIRMED"


def test_a_feed_is_stable_until_a_tournament_changes_and_answers_304_meanwhile(
    client, public_season
):
    from competitions.models import Tournament

    url = "/calendrier/club/101.ics"
    lyon = public_season.homologated
    written = dt.datetime(2026, 10, 1, 9, 30, tzinfo=dt.UTC)  # the day it was last written
    Tournament.history.filter(id=lyon.pk).update(history_date=written)
    first = client.get(url)
    etag = first["ETag"]
    assert etag

    def last_change():  # iCalendar times are to the second
        latest = Tournament.history.filter(id=lyon.pk).latest("history_date").history_date
        return latest.replace(microsecond=0)

    assert _events(first)["Open de Lyon"].decoded("dtstamp") == written  # not now
    assert client.get(url).content == first.content
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    lyon.venue = "Salle B"
    lyon.save(update_fields=["venue"])  # a change writes a history row
    after = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after["ETag"] != etag
    assert _events(after)["Open de Lyon"].decoded("dtstamp") == last_change()


def test_the_api_calendar(api, public_season, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        response = api.get("/api/public/tournaments/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 5
    by_name = {t["name"]: t for t in body["results"]}
    assert by_name["Open de Lyon"]["status"] == "homologated"
    assert by_name["Open de Lyon"]["player_count"] == 12
    assert by_name["Open de Lyon"]["organiser"] == {
        "kind": "club", "number": 101, "name": "Tarot Club de Lyon"}  # fmt: skip
    assert by_name["Open de Lyon"]["committee"] == 1
    assert by_name["Tournoi refusé de Grenoble"]["status"] == "not_homologated"
    assert by_name["Tournoi de zone"]["committee"] is None
    filtered = api.get("/api/public/tournaments/", {"committee": 2, "month": "2026-11"}).json()
    assert [t["name"] for t in filtered["results"]] == ["Tournoi de Rennes"]
    bad = api.get("/api/public/tournaments/", {"month": "11-2026", "club": 999, "format": "x"})
    assert bad.status_code == 400
    errors = {e["field"]: e["message"] for e in bad.json()["errors"]}
    assert set(errors) == {"month", "club", "format"}
    assert errors["month"] == "Le mois s’écrit AAAA-MM, par exemple 2026-12."
    assert errors["club"] == "Club inconnu."


def test_the_api_tournament_with_its_ranking(api, public_season, django_assert_max_num_queries):
    t = public_season.homologated
    with django_assert_max_num_queries(6):
        body = api.get(f"/api/public/tournaments/{t.pk}/").json()
    assert body["status"] == "homologated"
    assert body["arbiter"] == "LEFÈVRE Jérôme"
    assert body["sessions"] == [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}]
    assert len(body["ranking"]) == 12
    first = body["ranking"][0]
    assert first["place"] == 1
    assert first["players"][0]["licence_number"] == 5001
    assert first["players"][0]["pcn"] > 0
    guest = {"name": "Invité Paul", "licence_number": None, "licensed": False, "pcn": 0, "pp": 0}
    assert body["ranking"][11]["players"][0] == guest
    assert "example.org" not in str(body)
    refused = api.get(f"/api/public/tournaments/{public_season.refused.pk}/").json()
    assert refused["status"] == "not_homologated"
    assert refused["ranking"] == []
    assert refused["sessions"] == []
    assert "Arbitre absent" not in str(refused)
    assert api.get("/api/public/tournaments/999999/").status_code == 404


def test_the_api_clubs_and_committees(api, public_season, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        clubs = api.get("/api/public/clubs/").json()
    assert [c["number"] for c in clubs["results"]] == [101, 102, 201]
    assert clubs["results"][0]["committee"] == {"number": 1, "name": "Rhône-Alpes"}
    of_two = api.get("/api/public/clubs/", {"committee": 2}).json()
    assert [c["number"] for c in of_two["results"]] == [201]
    assert api.get("/api/public/clubs/", {"committee": "deux"}).status_code == 400
    assert api.get("/api/public/clubs/201/").json()["name"] == "Petit au Bout Rennes"
    assert api.get("/api/public/clubs/999/").status_code == 404
    with django_assert_max_num_queries(3):
        committees = api.get("/api/public/committees/").json()
    assert [c["number"] for c in committees["results"]] == [1, 2]
    one = api.get("/api/public/committees/1/").json()
    assert [c["number"] for c in one["clubs"]] == [102, 101]  # by name
    assert one["zone"] == {"number": 1, "name": "Zone 1"}
    assert api.get("/api/public/committees/77/").status_code == 404


def test_the_public_api_is_in_the_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("/api/public/tournaments/", "/api/public/tournaments/{id}/",
                 "/api/public/clubs/", "/api/public/clubs/{number}/",
                 "/api/public/committees/", "/api/public/committees/{number}/"):  # fmt: skip
        assert "get" in schema["paths"][path], path
    names = {p["name"] for p in schema["paths"]["/api/public/tournaments/"]["get"]["parameters"]}
    assert {"committee", "club", "format", "month", "season", "status", "page"} <= names
