"""Every snapshot write renews the planner's statistics of the snapshot tables: the new
snapshot is known to PostgreSQL (in ``pg_stats``) as soon as it is read, so that a search
in it starts from the name indexes instead of walking every entry."""

from __future__ import annotations

import pytest
from django.db import connection

from rankings import tasks
from rankings.models import RankingEntry, RankingSnapshot, SeasonRanking
from rankings.season.live_ranking import live_ranking_refresh
from rankings.season.recompute import full_recompute


def _analyzed_at(table: str):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT last_analyze FROM pg_stat_user_tables WHERE relname = %s",
            [table],
        )
        return cursor.fetchone()[0]


def _now():
    with connection.cursor() as cursor:
        cursor.execute("SELECT clock_timestamp()")
        return cursor.fetchone()[0]


def _snapshots_known_to_the_planner() -> set[int]:
    """The snapshot ids in the entries' statistics (every one, on tables this small)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT most_common_vals::text, histogram_bounds::text FROM pg_stats "
            "WHERE tablename = %s AND attname = 'snapshot_id'",
            [RankingEntry._meta.db_table],
        )
        row = cursor.fetchone()
    if row is None:
        return set()
    return {int(v) for part in row if part for v in part.strip("{}").split(",") if v}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["python", "sql"])
def test_a_provisional_snapshot_written_is_analyzed(path, federation, add_tournament, settings):
    settings.RANKING_STORE_URL = ""  # the embedded mode: the live ranking is a snapshot
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)  # the SQL path's provisional snapshot
    add_tournament(season, {p[3]: (120, 1), p[6]: (80, 0)}, club=registry.clubs[101],
                   arbiter=p[2])  # fmt: skip
    before = _now()
    if path == "python":  # a homologation's refresh: the pure core's snapshot
        tasks.refresh_season_totals(season.pk, [p[3].pk, p[6].pk])
        live_ranking_refresh(season=season)
    else:
        full_recompute(season=season)
    live = SeasonRanking.objects.get(season=season).live_id
    assert live is not None
    assert live in _snapshots_known_to_the_planner()
    for table in (RankingEntry._meta.db_table, RankingSnapshot._meta.db_table):
        analyzed = _analyzed_at(table)
        assert analyzed is not None
        assert analyzed >= before, table
