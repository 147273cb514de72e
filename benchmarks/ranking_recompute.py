"""National ranking at ten times the FFT's size: full recompute vs a hand-written
SQL floor, and the incremental update of one 100-player tournament.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_ranking \
        .venv/bin/python benchmarks/ranking_recompute.py [--runs 3]

Creates the database named in DATABASE_URL if absent, migrates it, generates
the synthetic season if absent (``manage.py generate_ranking_season``: 150,000
players, 2,000,000 allocations, COPY), then prints in one run (medians of
``--runs``, wall clock):

1. **full recompute** = (a) the standings rebuild from the allocations, from
   empty tables (``standings_write`` for the whole season: totals and
   standings), then (b) the live-ranking refresh (read the standings, rank
   with the pure core, write the snapshot); also (a') the same rebuild when
   nothing changed (the nightly case);
2. **SQL floor A**: the same aggregation as (a) in one hand-written statement
   (licences ⋈ clubs ⋈ per-player sums of the current allocations ⋈ last
   official entry), written into a temporary table; **floor A'**: one
   statement (a writable CTE) writing the same rows into the real, emptied
   tables (totals and standings, foreign keys checked), rolled back after;
3. **SQL floor B**: floor A plus the carry-over (default coefficients) and the
   three places (``RANK()`` overall, in committee, in club): the whole ranking
   but the steps, in one statement;
4. the ratios (a)/A', (a)/A, (a')/A and (a+b)/B;
5. **incremental update** of one new 100-player tournament: the standings
   write of its players (what the homologation task does), then the live
   refresh that follows it. The tournament is removed after each run.

Use a database of its own: the script writes to it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402

from benchmarks.bench_db import synthetic_season, tournament_write, tournaments_remove  # noqa: E402
from competitions.models import Allocation  # noqa: E402
from federation.models import Licence, Season  # noqa: E402
from rankings.live_ranking import live_ranking_refresh  # noqa: E402
from rankings.models import PlayerSeasonTotal, SeasonStanding  # noqa: E402
from rankings.ranking_state import inputs_changed  # noqa: E402
from rankings.standings import T, standings_write  # noqa: E402

FLOOR_A = """
CREATE TEMPORARY TABLE floor_a AS
SELECT l.player_id, c.committee_id, l.club_id,
       COALESCE(t.pcn, 0) AS season_pcn, COALESCE(t.pp, 0) AS season_pp,
       COALESCE(t.n, 0) AS tournaments,
       p.season_id AS previous_season_id, COALESCE(p.total_pcn, 0) AS previous_pcn,
       COALESCE(p.total_pp, 0) AS previous_pp, COALESCE(p.step, '') AS previous_step,
       p.series AS previous_series, 0 AS missed_seasons
FROM {licence} l
JOIN {club} c ON c.id = l.club_id
LEFT JOIN (
    SELECT player_id, SUM(pcn) AS pcn, SUM(pp) AS pp, COUNT(*) AS n
    FROM {allocation} WHERE season_id = %(season)s AND "current" GROUP BY player_id
) t ON t.player_id = l.player_id
LEFT JOIN (
    SELECT DISTINCT ON (e.player_id) e.player_id, e.total_pcn, e.total_pp, e.step, e.series,
           r.season_id
    FROM {entry} e JOIN {season_ranking} r ON r.official_id = e.snapshot_id
    JOIN {season} s ON s.id = r.season_id
    WHERE s.start_date < %(start)s
    ORDER BY e.player_id, s.start_date DESC
) p ON p.player_id = l.player_id
WHERE l.season_id = %(season)s
"""

FLOOR_WRITE = """
WITH sums AS (
    SELECT player_id, SUM(pcn) AS pcn, SUM(pp) AS pp, COUNT(*) AS n
    FROM {allocation} WHERE season_id = %(season)s AND "current" GROUP BY player_id
), totals AS (
    INSERT INTO {total} (season_id, player_id, pcn, pp, tournaments, updated_at)
    SELECT %(season)s, player_id, pcn, pp, n, now() FROM sums
)
INSERT INTO {standing} (season_id, player_id, committee_id, club_id, season_pcn, season_pp,
    tournaments, previous_season_id, previous_pcn, previous_pp, previous_step, previous_series,
    missed_seasons)
SELECT %(season)s, l.player_id, c.committee_id, l.club_id, COALESCE(t.pcn, 0),
       COALESCE(t.pp, 0), COALESCE(t.n, 0), p.season_id, COALESCE(p.total_pcn, 0),
       COALESCE(p.total_pp, 0), COALESCE(p.step, ''), p.series, 0
FROM {licence} l
JOIN {club} c ON c.id = l.club_id
LEFT JOIN sums t ON t.player_id = l.player_id
LEFT JOIN (
    SELECT DISTINCT ON (e.player_id) e.player_id, e.total_pcn, e.total_pp, e.step, e.series,
           r.season_id
    FROM {entry} e JOIN {season_ranking} r ON r.official_id = e.snapshot_id
    JOIN {season} s ON s.id = r.season_id
    WHERE s.start_date < %(start)s
    ORDER BY e.player_id, s.start_date DESC
) p ON p.player_id = l.player_id
WHERE l.season_id = %(season)s
"""

FLOOR_B = """
CREATE TEMPORARY TABLE floor_b AS
SELECT x.*,
       RANK() OVER (ORDER BY total_pcn DESC, total_pp DESC) AS place,
       RANK() OVER (PARTITION BY committee_id ORDER BY total_pcn DESC, total_pp DESC)
           AS place_in_committee,
       RANK() OVER (PARTITION BY club_id ORDER BY total_pcn DESC, total_pp DESC) AS place_in_club
FROM (
    SELECT a.*, a.season_pcn + a.carried_pcn AS total_pcn, a.season_pp + a.carried_pp AS total_pp
    FROM (
        SELECT f.*, (f.previous_pcn * 4) / 5 AS carried_pcn, (f.previous_pp * 4) / 5 AS carried_pp
        FROM ({floor_a}) f
    ) a
) x
"""


def sql(text: str) -> str:
    return text.format(floor_a=FLOOR_A.split(" AS\n", 1)[1].format(**T), **T)


def timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def tune(cursor) -> None:
    """The session settings the recompute uses (rankings.standings._tune), for fairness."""
    cursor.execute("SET LOCAL jit = off")
    cursor.execute("SET LOCAL work_mem = '64MB'")


def floor(statement: str, table: str, season: Season) -> float:
    """One statement computing into a temporary table."""
    with transaction.atomic(), connection.cursor() as cursor:
        tune(cursor)
        started = time.perf_counter()
        cursor.execute(sql(statement), {"season": season.pk, "start": season.start_date})
        elapsed = time.perf_counter() - started
        cursor.execute(f"DROP TABLE {table}")
    return elapsed


def floor_write(season: Season) -> float:
    """One statement writing the same rows into the real (emptied) tables, foreign
    keys checked; rolled back afterwards."""
    empty_standings(season)
    with transaction.atomic(), connection.cursor() as cursor:
        tune(cursor)
        started = time.perf_counter()
        cursor.execute(sql(FLOOR_WRITE), {"season": season.pk, "start": season.start_date})
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        elapsed = time.perf_counter() - started
        transaction.set_rollback(True)
    return elapsed


def empty_standings(season: Season) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {T['standing']} WHERE season_id = %s", [season.pk])
        cursor.execute(f"DELETE FROM {T['total']} WHERE season_id = %s", [season.pk])
        inputs_changed(season_id=season.pk)
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {T['standing']}")
        cursor.execute(f"VACUUM ANALYZE {T['total']}")


def add_tournament(season: Season, number: int) -> list[int]:
    """A homologated 100-player tournament (committed), as homologation writes it."""
    players = list(
        Licence.objects.filter(season=season)
        .order_by("player_id")
        .values_list("player_id", flat=True)[number * 977 % 140_000 :][:100]
    )
    with transaction.atomic():
        tournament_write(season, players, name=f"Incrémental {number}", first_pcn=1000)
    return players


def remove_tournaments(season: Season) -> None:
    """Delete the incremental runs' tournaments."""
    players = tournaments_remove(season, "Incrémental")
    standings_write(season=season, player_ids=players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    season = synthetic_season()
    remove_tournaments(season)
    allocations = Allocation.objects.filter(season=season, current=True).count()
    players = Licence.objects.filter(season=season).count()
    print(f"season {season}: {players:,} licensees, {allocations:,} current allocations")

    rebuild, unchanged, refresh, floor_a, floor_b, floor_w = [], [], [], [], [], []
    for _ in range(args.runs):
        floor_w.append(floor_write(season))
        empty_standings(season)
        rebuild.append(timed(lambda: standings_write(season=season, player_ids=None)))
        unchanged.append(timed(lambda: standings_write(season=season, player_ids=None)))
        refresh.append(timed(lambda: live_ranking_refresh(season=season)))
        floor_a.append(floor(FLOOR_A, "floor_a", season))
        floor_b.append(floor(FLOOR_B, "floor_b", season))
    assert SeasonStanding.objects.filter(season=season).count() == players
    assert PlayerSeasonTotal.objects.filter(season=season).count() > 0

    incremental, incremental_refresh = [], []
    for run in range(args.runs):
        ids = add_tournament(season, run + 1)
        incremental.append(timed(lambda ids=ids: standings_write(season=season, player_ids=ids)))
        incremental_refresh.append(timed(lambda: live_ranking_refresh(season=season)))
        remove_tournaments(season)
    live_ranking_refresh(season=season)

    m = statistics.median
    full = m(rebuild) + m(refresh)
    print(f"(a)  standings rebuild from empty tables  {m(rebuild):7.2f} s")
    print(f"(a') standings rebuild, nothing changed   {m(unchanged):7.2f} s")
    print(f"(b)  live ranking refresh (pure core)     {m(refresh):7.2f} s")
    print(f"     full recompute (a)+(b)               {full:7.2f} s  (target < 30 s)")
    print(f"SQL floor A: standings in one statement   {m(floor_a):7.2f} s  (into a temp table)")
    print(f"SQL floor A': the same, into the tables   {m(floor_w):7.2f} s  (from empty, FKs)")
    print(f"SQL floor B: + carry-over and places      {m(floor_b):7.2f} s  (into a temp table)")
    print(f"ratio (a)/A'  from empty, same writes     {m(rebuild) / m(floor_w):7.2f}  (target ≤ 2)")
    print(f"ratio (a)/A   from empty, vs compute only {m(rebuild) / m(floor_a):7.2f}")
    print(f"ratio (a')/A  nightly, nothing changed    {m(unchanged) / m(floor_a):7.2f}")
    print(f"ratio (a)+(b) / B                         {full / m(floor_b):7.2f}")
    print(f"incremental update, 100-player tournament {m(incremental) * 1000:7.1f} ms  "
          "(target < 200 ms)")  # fmt: skip
    print(f"  then its live ranking refresh           {m(incremental_refresh):7.2f} s")


if __name__ == "__main__":
    main()
