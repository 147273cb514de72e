"""Homologation guards the revision the staff member reviewed: named in the
body (``revision``, a newer revision submitted in between makes it a 409) or as the
``If-Match`` ETag the tournament's reads send (then a 412), ``stale_revision`` naming both
numbers, and nothing is written."""

from __future__ import annotations

import pytest

from competitions.models import Allocation, Tournament
from federation.models import Licence, Player

pytestmark = pytest.mark.django_db

TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]


def document(totals):
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    return {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
        "entries": [
            {"number": i + 1, "place": order.index(i) + 1, "total": total,
             "players": [{"licence_number": 5001 + i, "name": f"J{i}", "total": total}]}
            for i, total in enumerate(totals)
        ],
    }  # fmt: skip


@pytest.fixture
def two_revisions(api, registry, declare_tournament) -> Tournament:
    """A tournament whose results were submitted twice: revisions 1 and 2."""
    for i in range(12):
        player = Player.objects.create(licence_number=5001 + i, last_name=f"J{i}", first_name="")
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    tournament = declare_tournament()
    url = f"/api/tournaments/{tournament.pk}/results/"
    assert api.post(url, document(TOTALS), format="json").status_code == 201
    corrected = [TOTALS[1], TOTALS[0], *TOTALS[2:]]  # the first two swapped
    assert api.post(url, document(corrected), format="json").status_code == 201
    api.force_authenticate(registry.users["zone_staff"])
    return tournament


def homologate(api, tournament, body=None, **headers):
    return api.post(
        f"/api/tournaments/{tournament.pk}/homologate/", body or {}, format="json", **headers
    )


def assert_stale(response, tournament, status_code: int = 409) -> None:
    assert response.status_code == status_code, response.json()
    (error,) = response.json()["errors"]
    assert error["code"] == "stale_revision"
    assert "La révision 1 a été examinée" in error["message"]
    assert "la dernière révision est la 2" in error["message"]
    tournament.refresh_from_db()
    assert tournament.status == "results_submitted"
    assert not Allocation.objects.filter(tournament=tournament).exists()


def test_a_stale_revision_in_the_body_is_409_and_writes_nothing(api, two_revisions):
    assert_stale(homologate(api, two_revisions, {"revision": 1}), two_revisions)
    done = homologate(api, two_revisions, {"revision": 2})
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "homologated"


def test_a_stale_if_match_etag_is_412(api, two_revisions):
    assert_stale(homologate(api, two_revisions, HTTP_IF_MATCH='"1"'), two_revisions, 412)
    assert homologate(api, two_revisions, HTTP_IF_MATCH='W/"2"').status_code == 200


@pytest.mark.parametrize("read", ["/api/tournaments/{pk}/", "/api/tournaments/{pk}/revisions/"])
def test_the_etag_of_a_read_is_the_if_match_of_the_homologation(api, two_revisions, read):
    """GET → ETag → POST with If-Match: the revision read is homologated; a revision
    submitted between the read and the homologation makes the ETag stale (412)."""
    etag = api.get(read.format(pk=two_revisions.pk))["ETag"]
    assert etag == '"2"'
    assert homologate(api, two_revisions, HTTP_IF_MATCH=etag).status_code == 200
    two_revisions.refresh_from_db()
    assert two_revisions.homologated_revision.number == 2


def test_a_tournament_without_results_has_no_etag(api, declare_tournament):
    tournament = declare_tournament()
    assert "ETag" not in api.get(f"/api/tournaments/{tournament.pk}/")
    assert "ETag" not in api.get(f"/api/tournaments/{tournament.pk}/revisions/")


def test_an_etag_read_before_a_newer_revision_is_412(api, registry, two_revisions):
    etag = api.get(f"/api/tournaments/{two_revisions.pk}/")["ETag"]
    api.force_authenticate(registry.users["club_manager"])
    corrected = [TOTALS[2], TOTALS[0], TOTALS[1], *TOTALS[3:]]
    url = f"/api/tournaments/{two_revisions.pk}/results/"
    assert api.post(url, document(corrected), format="json").status_code == 201
    api.force_authenticate(registry.users["zone_staff"])
    stale = homologate(api, two_revisions, HTTP_IF_MATCH=etag)
    assert stale.status_code == 412, stale.json()
    assert stale.json()["errors"][0]["code"] == "stale_revision"
    assert "la dernière révision est la 3" in stale.json()["errors"][0]["message"]
    two_revisions.refresh_from_db()
    assert two_revisions.status == "results_submitted"
    fresh = api.get(f"/api/tournaments/{two_revisions.pk}/")["ETag"]
    assert homologate(api, two_revisions, HTTP_IF_MATCH=fresh).status_code == 200


def test_without_a_revision_the_latest_is_homologated(api, two_revisions):
    assert homologate(api, two_revisions).status_code == 200
    two_revisions.refresh_from_db()
    assert two_revisions.homologated_revision.number == 2


@pytest.mark.parametrize(
    ("body", "headers", "field"),
    [
        ({"revision": 0}, {}, "revision"),
        ({"revision": "two"}, {}, "revision"),
        ({}, {"HTTP_IF_MATCH": '"abc"'}, "If-Match"),
        ({"revision": 2}, {"HTTP_IF_MATCH": '"1"'}, "revision"),
    ],
)
def test_a_malformed_revision_is_400(api, two_revisions, body, headers, field):
    response = homologate(api, two_revisions, body, **headers)
    assert response.status_code == 400, response.json()
    assert response.json()["errors"][0]["field"] == field
    two_revisions.refresh_from_db()
    assert two_revisions.status == "results_submitted"


def test_the_revision_guard_is_in_the_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/tournaments/{id}/homologate/"]["post"]
    assert any(p["name"] == "If-Match" for p in operation["parameters"])
    assert operation["responses"]["412"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    for read in ("/api/tournaments/{id}/", "/api/tournaments/{id}/revisions/"):
        assert "ETag" in schema["paths"][read]["get"]["responses"]["200"]["headers"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert "revision" in schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]
