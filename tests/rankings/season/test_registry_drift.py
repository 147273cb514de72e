"""Registry drift (a standing whose licence or club moved) is looked for only when
licences or clubs were written since the last look (``federation.RegistryWrite``,
written by PostgreSQL triggers; ``rankings/season/standings.py::registry_drift``): every way of
writing them is recorded, a burst of homologations with no registry change skips the
anti-join, and a registry write that commits during a look is found by the next one."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection, transaction

from federation.models import Club, Licence, Player, RegistryWrite
from rankings import tasks
from rankings.models import SeasonStanding
from rankings.season import live_ranking, standings
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the triggers are PostgreSQL's (SQLite always looks)"
)


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
    request, federation, add_tournament, looks, store
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


@pytest.mark.django_db(transaction=True)  # a second connection writes the registry
def test_a_registry_write_committed_during_a_look_is_found_by_the_next(federation, looks):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    live_ranking.live_ranking_refresh(season=season)
    looks.clear()
    moved = registry.clubs[201]
    db = connection.settings_dict
    with psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
                         dbname=db["NAME"]) as other:  # fmt: skip
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
