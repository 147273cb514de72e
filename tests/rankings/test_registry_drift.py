"""Registry drift (a standing whose licence or club moved) is looked for only when
licences or clubs were written by a transaction the last look could not see
(``federation.RegistryWrite``, written by PostgreSQL triggers;
``rankings/standings.py::registry_drift``): every way of writing them is recorded, a
burst of homologations with no registry change skips the anti-join, and a registry
write that commits during a look, or that a transaction older than the look makes, is
found by the next one. All of it holds while other transactions stay open in the
cluster: in another database, or in this one with an older snapshot."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection, transaction

from federation.models import Club, Licence, Player, RegistryWrite
from rankings import live_ranking, standings, tasks
from rankings.models import SeasonStanding
from rankings.recompute import full_recompute

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the triggers are PostgreSQL's (SQLite always looks)"
)


def _connect(dbname: str | None = None, **options) -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
                           password=db["PASSWORD"] or None, dbname=dbname or db["NAME"],
                           **options)  # fmt: skip


@pytest.fixture(scope="session")
def another_database() -> Iterator[str]:
    """A throw-away database of the same cluster, dropped at the end of the session."""
    name = f"{connection.settings_dict['NAME']}_elsewhere"
    with _connect("postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield name
    finally:
        with _connect("postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["nothing added", "another database", "older snapshot"])
def open_elsewhere(request) -> Iterator[None]:
    """The test runs as the cluster is, or while a transaction stays open from before
    its first registry write to its end: a backup, a report or another application in
    another database of the cluster (with a transaction id), or a report in this
    database (an older snapshot, and a transaction id). Each holds the cluster's oldest
    snapshot (``xmin``) back for the whole test."""
    if request.param == "nothing added":
        yield
        return
    if request.param == "another database":
        other = _connect(request.getfixturevalue("another_database"))
    else:
        other = _connect()
        other.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
    try:
        other.execute("SELECT txid_current(), pg_current_snapshot()")  # BEGIN; kept open
        yield
    finally:
        other.close()  # before the test's tables are flushed


def _current_xact() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_xact_id()::text::bigint")
        return int(cursor.fetchone()[0])


@pytest.mark.django_db
def test_every_way_of_writing_licences_or_clubs_is_recorded(federation):
    registry, p = federation.registry, federation.players
    club, other = registry.clubs[101], registry.clubs[201]
    writes = [
        lambda: Licence.objects.filter(player=p[5], season=registry.season).update(club=other),
        lambda: Licence.objects.get(player=p[6], season=registry.season).delete(),
        lambda: Licence.objects.create(player=p[6], season=registry.season, club=club),
        lambda: Licence.objects.bulk_create(
            [Licence(player=p[7], season=registry.previous, club=club)], ignore_conflicts=True
        ),
        lambda: Club.objects.filter(pk=club.pk).update(committee=other.committee),
        lambda: connection.cursor().execute(
            "UPDATE federation_licence SET issued_on = NULL WHERE id < 0"  # no row: still one
        ),
    ]
    for write in writes:
        with transaction.atomic():
            before = RegistryWrite.objects.count()
            write()
            assert list(RegistryWrite.objects.order_by("id").values_list("xact", flat=True))[
                before:
            ] == [_current_xact()]
    before = RegistryWrite.objects.count()
    Player.objects.filter(pk=p[5].pk).update(first_name="Ève")  # not the registry's places
    assert RegistryWrite.objects.count() == before


@pytest.fixture
def looks(monkeypatch) -> list[int]:
    """How many times the anti-join ran (``standings._drifting``)."""
    calls: list[int] = []
    drifting = standings._drifting
    monkeypatch.setattr(standings, "_drifting", lambda season: calls.append(1) or drifting(season))
    return calls


@pytest.mark.django_db(transaction=True)  # committed: a test's own transaction is always
# newer than the last look's horizon, so it would look every time (as it should)
@pytest.mark.parametrize("store", [False, True], ids=["snapshot", "redis store"])
def test_the_drift_is_looked_for_only_after_a_registry_write(
    open_elsewhere, request, federation, add_tournament, looks, store, django_assert_num_queries
):
    if store:
        request.getfixturevalue("live_store_redis")
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    live_ranking.live_ranking_refresh(season=season)
    looks.clear()
    for n in range(3):  # homologations, no registry change: no look
        add_tournament(season, {p[n]: (100, 0), p[n + 1]: (50, 0)},
                       club=registry.clubs[101], arbiter=p[20])  # fmt: skip
        tasks.refresh_season_totals(season.pk, [p[n].pk, p[n + 1].pk])
        live_ranking.live_ranking_refresh(season=season)
    assert looks == []
    moved = registry.clubs[201]
    assert SeasonStanding.objects.get(season=season, player=p[5]).club_id != moved.pk
    Licence.objects.filter(player=p[5], season=season).update(club=moved)
    live_ranking.live_ranking_refresh(season=season)
    assert looks == [1]
    assert SeasonStanding.objects.get(season=season, player=p[5]).club_id == moved.pk
    live_ranking.live_ranking_refresh(season=season)
    assert looks == [1]
    with django_assert_num_queries(1):  # nothing written since: one indexed query
        assert standings.registry_drift(season=season) == standings.RegistryDrift([])
    assert looks == [1]


@pytest.mark.django_db(transaction=True)  # a second connection writes the registry
def test_a_registry_write_committed_during_a_look_is_found_by_the_next(
    open_elsewhere, federation, looks
):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    live_ranking.live_ranking_refresh(season=season)
    looks.clear()
    moved = registry.clubs[201]
    with _connect() as other:
        other.execute(
            "UPDATE federation_licence SET club_id = %s WHERE player_id = %s AND season_id = %s",
            [moved.pk, p[6].pk, season.pk],
        )  # running, not committed, while the registry is written and looked at
        Licence.objects.filter(player=p[5], season=season).update(club=moved)
        live_ranking.live_ranking_refresh(season=season)
        assert looks == [1]
        assert SeasonStanding.objects.get(season=season, player=p[5]).club_id == moved.pk
        assert SeasonStanding.objects.get(season=season, player=p[6]).club_id != moved.pk
        other.commit()
    live_ranking.live_ranking_refresh(season=season)
    assert looks == [1, 1]
    assert SeasonStanding.objects.get(season=season, player=p[6]).club_id == moved.pk


@pytest.mark.django_db(transaction=True)  # a second connection writes the registry
def test_a_registry_write_by_a_transaction_older_than_the_look_is_found(
    open_elsewhere, federation, looks
):
    """A transaction that began before the look (its id lower than every later one)
    and writes the registry after it, committing later still: the look's snapshot has
    it in progress, so its write was not seen."""
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    live_ranking.live_ranking_refresh(season=season)
    looks.clear()
    moved = registry.clubs[201]
    with _connect() as other:
        other.execute("SELECT txid_current()")  # begun, not yet a registry writer
        Licence.objects.filter(player=p[5], season=season).update(club=moved)
        live_ranking.live_ranking_refresh(season=season)
        assert looks == [1]
        other.execute(
            "UPDATE federation_licence SET club_id = %s WHERE player_id = %s AND season_id = %s",
            [moved.pk, p[6].pk, season.pk],
        )
        other.commit()
    live_ranking.live_ranking_refresh(season=season)
    assert looks == [1, 1]
    assert SeasonStanding.objects.get(season=season, player=p[6]).club_id == moved.pk
    live_ranking.live_ranking_refresh(season=season)
    assert looks == [1, 1]


@pytest.mark.django_db(transaction=True)  # the test's own transaction, then a later one
def test_a_registry_write_after_the_look_in_its_own_transaction_is_found(
    open_elsewhere, federation, looks
):
    """A look in a transaction that has a transaction id (it wrote the registry before)
    does not see what that transaction writes after it, although its snapshot leaves
    the transaction out of the in-progress list."""
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    live_ranking.live_ranking_refresh(season=season)
    looks.clear()
    moved = registry.clubs[201]
    with transaction.atomic():
        Licence.objects.filter(player=p[5], season=season).update(club=moved)
        with _connect(autocommit=True) as other:  # a later transaction ends first: the
            other.execute("SELECT txid_current()")  # look's xmax is above this one's id
        live_ranking.live_ranking_refresh(season=season)
        assert looks == [1]
        assert SeasonStanding.objects.get(season=season, player=p[5]).club_id == moved.pk
        Licence.objects.filter(player=p[6], season=season).update(club=moved)
    live_ranking.live_ranking_refresh(season=season)
    assert looks == [1, 1]
    assert SeasonStanding.objects.get(season=season, player=p[6]).club_id == moved.pk
