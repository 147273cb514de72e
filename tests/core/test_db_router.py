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
