"""The ranking as of a date at national scale (150,000 players, 2,000,000 allocations):
the first (cold) read of a day, the read of a stored day, the read-cache hit, a
player's place over the season, against the live ranking's page read in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_as_of \\
        .venv/bin/python benchmarks/ranking_as_of.py [--runs 3] [--players 150000]

Creates the database named in DATABASE_URL if absent, migrates it, generates the
synthetic season if absent (``manage.py generate_ranking_season``: tournaments
homologated two days after they are played, all through the season), builds the
standings and the live ranking (the SQL path, Redis live store off: the live page is
read from its provisional snapshot), then prints medians of ``--runs`` (wall clock,
through Django's test client: the whole API view):

1. **live page**: ``GET /api/pcn/ranking/?kind=live`` (first page of 50), read cache
   off (the view builds the page), and read-cache hit;
2. **as of, cold**: ``GET /api/pcn/ranking/?as_of=D`` for a day never read at this
   inputs version: the ranking computed by the ranking statement over the allocations
   homologated by the end of D, stored as a snapshot, and its first page (several
   days through the season; each run deletes the stored days first);
3. **as of, stored**: the same read again, read cache off (the stored snapshot's page);
4. **as of, read-cache hit**;
5. **places over the season**: ``rankings.season.as_of.places_over_season`` (one statement,
   a point per month) for players from the top, the middle and the bottom;
6. a check: a player's place as of D counted by hand (1 + players with a greater
   (total PCN, total PP) summed from the allocations) equals the stored place.

The "today" of the API is set to the day after the season (the synthetic season lies
in the future). Use a database of its own: the script writes to it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from benchmarks.bench_db import YEAR, synthetic_season  # noqa: E402

settings.RANKING_STORE_URL = ""  # the live ranking as a provisional snapshot
settings.ALLOWED_HOSTS = ["*"]

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from competitions.models import Allocation  # noqa: E402
from core.http import http_cache  # noqa: E402
from federation.models import Season  # noqa: E402
from rankings.models import (  # noqa: E402
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    SeasonStanding,
)
from rankings.reads import read_versions  # noqa: E402
from rankings.season import as_of  # noqa: E402
from rankings.season.as_of import (  # noqa: E402
    day_end,
    places_over_season,
    ranking_as_of,
    sample_days,
)
from rankings.season.ranking_sql import live_ranking_by_sql  # noqa: E402
from rankings.season.standings import standings_write  # noqa: E402


def timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def get(client: Client, url: str) -> None:
    response = client.get(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 200, (url, response.status_code, response.content[:300])


def no_read_cache() -> None:
    settings.READ_CACHE_TTL = 0
    http_cache.recent.clear()


def read_cache_on() -> None:
    settings.READ_CACHE_TTL = 3600


def drop_as_of(season: Season) -> None:
    ids = list(
        RankingSnapshot.objects.filter(season=season, kind=RankingKind.AS_OF).values_list(
            "pk", flat=True
        )
    )
    RankingEntry.objects.filter(snapshot_id__in=ids).delete()
    RankingSnapshot.objects.filter(pk__in=ids).delete()


def place_by_hand(season: Season, player_id: int, day: dt.date) -> tuple[int, int]:
    """1 + the players whose (total PCN, total PP) is greater, the season's points summed
    from the allocations of tournaments homologated before the end of ``day`` and the
    carried points taken from the live ranking (they do not depend on the day)."""
    live_id = RankingSnapshot.objects.filter(season=season, kind="provisional").latest("pk").pk
    totals = f"""
        SELECT e.player_id, e.carried_pcn + COALESCE(s.pcn, 0) AS pcn,
               e.carried_pp + COALESCE(s.pp, 0) AS pp
        FROM {RankingEntry._meta.db_table} e
        LEFT JOIN (
            SELECT a.player_id, SUM(a.pcn) AS pcn, SUM(a.pp) AS pp
            FROM {Allocation._meta.db_table} a
            JOIN competitions_tournament t ON t.id = a.tournament_id
            WHERE a.season_id = %(season)s AND a."current" AND t.homologated_at < %(cutoff)s
            GROUP BY a.player_id
        ) s ON s.player_id = e.player_id
        WHERE e.snapshot_id = %(live)s"""
    params = {"season": season.pk, "cutoff": day_end(day), "live": live_id}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pcn, pp FROM ({totals}) x WHERE player_id = %(player)s",
                       {**params, "player": player_id})  # fmt: skip
        pcn, pp = cursor.fetchone()
        cursor.execute(
            f"SELECT 1 + COUNT(*) FROM ({totals}) x "
            "WHERE x.pcn > %(pcn)s OR (x.pcn = %(pcn)s AND x.pp > %(pp)s)",
            {**params, "pcn": pcn, "pp": pp},
        )
        (place,) = cursor.fetchone()
    return int(place), int(pcn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=150_000)
    parser.add_argument("--year", type=int, default=YEAR, help="a season of its own per size")
    args = parser.parse_args()

    season = synthetic_season(players=args.players, year=args.year)
    if not SeasonStanding.objects.filter(season=season).exists():
        standings_write(season=season, player_ids=None)
    live_ranking_by_sql(season=season)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    players = SeasonStanding.objects.filter(season=season).count()
    allocations = Allocation.objects.filter(season=season, current=True).count()
    print(f"season {season}: {players:,} licensees, {allocations:,} current allocations")

    client = Client()
    base = f"/api/pcn/ranking/?season={season.name}"
    days = [dt.date(args.year, 10, 15), dt.date(args.year + 1, 1, 15),
            dt.date(args.year + 1, 4, 15)]  # fmt: skip
    today = season.end_date + dt.timedelta(days=1)
    settings.READ_VERSION_MAX_AGE_MS = 0
    live_built, live_hit, cold, stored, hit, plot = [], [], [], [], [], []
    cold_by_day: dict[dt.date, list[float]] = {d: [] for d in days}
    with mock.patch("django.utils.timezone.localdate", return_value=today):
        no_read_cache()
        get(client, f"{base}&kind=live")  # warm-up: the first request loads the URL conf
        for _ in range(args.runs):
            no_read_cache()
            live_built.append(timed(lambda: get(client, f"{base}&kind=live")))
            read_cache_on()
            get(client, f"{base}&kind=live")
            live_hit.append(timed(lambda: get(client, f"{base}&kind=live")))
            drop_as_of(season)
            read_versions.memo_forget()
            for day in days:
                no_read_cache()
                url = f"{base}&as_of={day.isoformat()}"
                elapsed = timed(lambda url=url: get(client, url))
                cold.append(elapsed)
                print(f"  as of {day}: cold {elapsed * 1000:.0f} ms", file=sys.stderr, flush=True)
                cold_by_day[day].append(elapsed)
                stored.append(timed(lambda url=url: get(client, url)))
                read_cache_on()
                get(client, url)
                hit.append(timed(lambda url=url: get(client, url)))
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT player_id FROM rankings_rankingentry WHERE snapshot_id = %s "
                "AND rank_order = ANY(%s) ORDER BY rank_order",
                [
                    RankingSnapshot.objects.filter(season=season, kind="provisional")
                    .latest("pk")
                    .pk,
                    [1, players // 2, players - 10],
                ],
            )
            sampled = [row[0] for row in cursor.fetchall()]
        # the month ends (what the nightly task stores), then a player's place over them
        months = sample_days(season, today)
        month_ends = []
        for month in months:
            month_ends.append(timed(lambda m=month: ranking_as_of(season=season, day=m)))
            print(f"  month end {month}: {month_ends[-1] * 1000:.0f} ms", file=sys.stderr,
                  flush=True)  # fmt: skip
        for _ in range(args.runs):
            for player_id in sampled:
                plot.append(
                    timed(
                        lambda p=player_id, days=months: places_over_season(
                            season=season, player_id=p, days=days
                        )
                    )
                )
        key_fresh = []
        for _ in range(args.runs):  # the day's key after the inputs moved (memo emptied)
            as_of._season_parts.clear()
            as_of._day_parts.clear()
            key_fresh.append(timed(lambda: as_of.as_of_key(season, days[0])))

    # the check by hand, on the last day measured and a player from the middle
    day = dt.date(args.year, 12, 31)  # a month end: in the stored rankings and the plot
    snapshot = RankingSnapshot.objects.get(season=season, kind=RankingKind.AS_OF, as_of=day)
    entry = RankingEntry.objects.get(snapshot=snapshot, player_id=sampled[1])
    by_hand = place_by_hand(season, sampled[1], day)
    over = {p.day: p for p in places_over_season(season=season, player_id=sampled[1],
                                                  days=sample_days(season, today))}  # fmt: skip
    month_end = dt.date(args.year, 12, 31)

    m = statistics.median
    live = m(live_built)
    print(f"live page (kind=live, page 1 of 50), built       {live * 1000:8.1f} ms")
    print(f"live page, read-cache hit                        {m(live_hit) * 1000:8.1f} ms")
    print(f"as of, cold (computed, stored, page 1)           {m(cold) * 1000:8.1f} ms   "
          f"ratio to the live page {m(cold) / live:6.1f}")  # fmt: skip
    for d, values in cold_by_day.items():
        print(f"    as of {d}, cold                        {m(values) * 1000:8.1f} ms")
    print(f"as of, stored snapshot (page built)              {m(stored) * 1000:8.1f} ms   "
          f"ratio {m(stored) / live:6.2f}")  # fmt: skip
    print(f"as of, read-cache hit                            {m(hit) * 1000:8.1f} ms   "
          f"ratio {m(hit) / live:6.2f}")  # fmt: skip
    print(f"the day's key after the inputs moved (memo empty){m(key_fresh) * 1000:8.1f} ms")
    print(f"a month end computed (nightly task), per day     {m(month_ends) * 1000:8.1f} ms")
    print(f"places over the season ({len(months)} points), one player  "
          f"{m(plot) * 1000:8.1f} ms   ratio {m(plot) / live:6.2f}")  # fmt: skip
    same = entry.place == by_hand[0] == over[month_end].place
    print(f"check by hand as of {day}: stored place {entry.place} ({entry.total_pcn} PCN), "
          f"counted {by_hand[0]} ({by_hand[1]} PCN), places over the season "
          f"{over[month_end].place}: {'OK' if same else 'MISMATCH'}")  # fmt: skip
    print(
        f"runs: cold {', '.join(f'{x * 1000:.0f}' for x in cold)} ms; "
        f"plot {', '.join(f'{x * 1000:.0f}' for x in plot)} ms"
    )


if __name__ == "__main__":
    main()
