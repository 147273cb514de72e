"""Public reads from the read replica, writes to the primary (core/db_router.py), on two
real PostgreSQL databases standing for the primary and its replica: a row only the
replica holds is what a public read shows; a write lands on the primary only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection

from core.db_router import public_reads
from federation.models import Season

pytestmark = [
    pytest.mark.django_db(databases=["default", "replica"]),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs two PostgreSQL databases"),
]


@pytest.fixture
def replica(settings):
    settings.READ_REPLICA = True


def _season(name: str, year: int, using: str) -> Season:
    return Season.objects.using(using).create(
        name=name, start_date=dt.date(year, 7, 1), end_date=dt.date(year + 1, 6, 30)
    )


def test_public_reads_go_to_the_replica(replica):
    _season("2101-2102", 2101, "default")
    _season("2102-2103", 2102, "replica")
    with public_reads():
        assert list(Season.objects.values_list("name", flat=True)) == ["2102-2103"]
    # outside the public read path: the primary
    assert list(Season.objects.values_list("name", flat=True)) == ["2101-2102"]


def test_writes_go_to_the_primary(replica):
    with public_reads():
        Season.objects.create(
            name="2103-2104", start_date=dt.date(2103, 7, 1), end_date=dt.date(2104, 6, 30)
        )
    assert Season.objects.using("default").filter(name="2103-2104").exists()
    assert not Season.objects.using("replica").filter(name="2103-2104").exists()


def test_the_public_api_reads_the_replica(api, replica):
    """The ranking API's version and its answer both come from the replica: a season the
    primary alone knows is unknown to the public read."""
    from django.utils.translation import gettext

    _season("2104-2105", 2104, "default")
    unknown = api.get("/api/pcn/ranking/", {"season": "2104-2105"})
    assert unknown.status_code == 404
    assert unknown.json()["errors"][0]["message"] == gettext("Unknown season.")
    _season("2104-2105", 2104, "replica")
    known = api.get("/api/pcn/ranking/", {"season": "2104-2105"})
    assert known.status_code == 404  # the replica knows it, without a ranking yet
    assert known.json()["errors"][0]["message"] == gettext("This season has no ranking yet.")


def test_without_a_replica_everything_reads_the_primary(settings):
    settings.READ_REPLICA = False
    _season("2105-2106", 2105, "default")
    with public_reads():
        assert Season.objects.filter(name="2105-2106").exists()


def test_a_recent_writer_reads_the_primary(replica):
    from core.db_router import own_writes

    _season("2106-2107", 2106, "default")
    with own_writes(), public_reads():
        assert Season.objects.filter(name="2106-2107").exists()
    with public_reads():
        assert not Season.objects.filter(name="2106-2107").exists()


def _score_a_deal(api):
    """A write for the middleware: any request of another method than GET answered below 400."""
    deal = {"table_size": 4, "contract": "garde", "taker": "E", "oudlers": 2,
            "attack_points": 49}  # fmt: skip
    response = api.post("/api/engine/deals/score/", deal, format="json")
    assert response.status_code == 200
    return response


def test_after_a_write_the_public_api_reads_the_primary(api, replica, settings):
    """The cookie a write sets sends the writer's public reads to the primary
    (core/http/middleware.py::ReadYourWrites); a reader without it reads the replica."""
    from django.utils.translation import gettext
    from rest_framework.test import APIClient

    from core.http.middleware import OWN_WRITES_COOKIE

    settings.READ_YOUR_WRITES_S = 30
    _season("2107-2108", 2107, "default")  # written on the primary, not yet on the replica
    response = _score_a_deal(api)
    assert response.cookies[OWN_WRITES_COOKIE]["max-age"] == 30
    writer = api.get("/api/pcn/ranking/", {"season": "2107-2108"})
    assert writer.json()["errors"][0]["message"] == gettext("This season has no ranking yet.")
    stranger = APIClient().get("/api/pcn/ranking/", {"season": "2107-2108"})
    assert stranger.json()["errors"][0]["message"] == gettext("Unknown season.")
    forged = APIClient()
    forged.cookies[OWN_WRITES_COOKIE] = "1"  # not signed: ignored
    assert forged.get("/api/pcn/ranking/", {"season": "2107-2108"}).json() == stranger.json()


def test_read_your_writes_off(api, replica, settings):
    settings.READ_YOUR_WRITES_S = 0
    from core.http.middleware import OWN_WRITES_COOKIE

    assert OWN_WRITES_COOKIE not in _score_a_deal(api).cookies
