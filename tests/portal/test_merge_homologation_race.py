"""A merge of two player records racing the homologation of a tournament that names the
retired record, on PostgreSQL with real threads and their own connections: whichever
commits first, no allocation stays on the retired record and the kept record's points
are the sum of both tournaments (federation/player_locks.py, portal/merging.py,
competitions/tournaments/homologation.py::allocations_replace).

Each round forces one order: the homologation paused after reading its results while
the merge commits; the merge paused holding its locks while the homologation comes to
write; or both released together. Six rounds, two of each.
"""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection, connections
from django.db.models import Sum

from competitions.homologation import results_submit, tournament_homologate
from competitions.models import Allocation, Tournament
from competitions.tournaments import homologation as plain_homologation
from federation.models import Licence, Player
from portal import merging
from rankings.models import PlayerSeasonTotal

pytestmark = pytest.mark.django_db(transaction=True)

TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.fail("This test needs PostgreSQL: run the suite with DATABASE_URL=postgres://…")


def results(numbers: list[int], totals: list[int]) -> dict:
    return {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
        "entries": [
            {
                "number": i + 1,
                "place": 1 + sum(1 for other in totals if other > total),
                "total": total,
                "players": [{"licence_number": number, "name": f"Joueur{number} Camille"}],
            }
            for i, (number, total) in enumerate(zip(numbers, totals, strict=True))
        ],
    }


def submitted(registry, name: str, numbers: list[int], totals: list[int], day: int) -> Tournament:
    tournament = Tournament.objects.create(
        season=registry.season, name=name, date=dt.date(2026, 12, day), venue="Salle",
        format="individual", organizer_kind="club", organizer_club=registry.clubs[101],
        arbiter=registry.players[1002],
    )  # fmt: skip
    results_submit(
        tournament=tournament,
        content=results(numbers, totals),
        source="json",
        by=registry.users["federation_staff"],
    )
    return tournament


def waiting_on_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
        return cursor.fetchone()[0]


def in_thread(target, errors: list, name: str) -> threading.Thread:
    def run():
        try:
            target()
        except BaseException as exc:  # reported to the test
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread


@pytest.mark.parametrize("order", ["merge_first"] * 2 + ["homologation_first"] * 2 + ["free"] * 2)
def test_a_merge_racing_a_homologation_loses_no_points(
    postgresql, registry, monkeypatch, wait_for, order
):
    staff = registry.users["federation_staff"]
    numbers = [7001 + i for i in range(12)]
    for number in numbers:  # licensed this season; 7001 is the record to be retired
        player = Player.objects.create(
            licence_number=number, last_name=f"Joueur{number}", first_name="Camille"
        )
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    retired = Player.objects.get(licence_number=7001)
    kept = Player.objects.create(licence_number=7100, last_name="Joueur7001", first_name="Camille")
    Licence.objects.create(player=kept, season=registry.previous, club=registry.clubs[101])
    first = submitted(registry, "Premier", numbers, list(reversed(TOTALS)), day=5)
    tournament_homologate(tournament=first, by=staff)  # 7001 last: few points
    second = submitted(registry, "Second", numbers, TOTALS, day=12)  # 7001 first
    before = Allocation.objects.get(tournament=first, player=retired).pcn

    homologation_read, merge_done = threading.Event(), threading.Event()
    merge_locked, release_merge = threading.Event(), threading.Event()
    allocation_values, check_merge = plain_homologation.allocation_values, merging.check_merge

    def paused_allocation_values(*args, **kwargs):
        values = allocation_values(*args, **kwargs)
        if threading.current_thread().name == "homologate" and order == "merge_first":
            homologation_read.set()  # the results read, the allocations not yet written
            merge_done.wait(30)
        return values

    def paused_check_merge(*args, **kwargs):
        if order == "homologation_first":
            merge_locked.set()  # both records locked, nothing moved yet
            release_merge.wait(30)
        return check_merge(*args, **kwargs)

    monkeypatch.setattr(plain_homologation, "allocation_values", paused_allocation_values)
    monkeypatch.setattr(merging, "check_merge", paused_check_merge)
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def homologate():
        start.wait(30)
        if order == "homologation_first":
            merge_locked.wait(30)
        tournament_homologate(tournament=second, by=staff)

    def merge():
        start.wait(30)
        if order == "merge_first":
            homologation_read.wait(30)
        try:
            merging.players_merge(kept=kept, merged=retired, by=staff)
        finally:
            merge_done.set()

    threads = [in_thread(homologate, errors, "homologate"), in_thread(merge, errors, "merge")]
    if order == "homologation_first":
        assert merge_locked.wait(30)
        wait_for(lambda: waiting_on_a_lock() > 0 or not threads[0].is_alive(), timeout=10)
        release_merge.set()
    for thread in threads:
        thread.join(60)
    assert not errors, errors

    assert not Allocation.objects.filter(player__merged_into__isnull=False).exists()
    on_kept = Allocation.objects.filter(player=kept, current=True)
    assert sorted(on_kept.values_list("tournament__name", flat=True)) == ["Premier", "Second"]
    won = on_kept.get(tournament=second).pcn
    assert won > before
    assert on_kept.aggregate(pcn=Sum("pcn"))["pcn"] == before + won
    total = PlayerSeasonTotal.objects.get(season=registry.season, player=kept)
    assert total.pcn == before + won
    assert not PlayerSeasonTotal.objects.filter(player=retired, pcn__gt=0).exists()
