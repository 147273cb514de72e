"""How long until a homologation shows in the public API, and what it writes: the live
ranking in Redis (updated for the touched players) against the provisional snapshot
(the embedded mode, rewritten whole), in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_live \
    BENCH_REDIS_URL=redis://127.0.0.1:6379/7 \
        .venv/bin/python benchmarks/live_ranking_latency.py [--runs 3] [--modes redis,snapshot]

The database must hold the synthetic season (``manage.py generate_ranking_season``,
150,000 players and 2,000,000 allocations by default; ``--players 1000000`` for the
large one); its standings are built first if empty. For each mode the script starts a
real Celery worker and gunicorn (2 workers × 4 threads) on that database, Redis
``BENCH_REDIS_URL`` being the broker and the ranking store, then ``--runs`` times:

1. commits a 100-player tournament's allocations and, in the same transaction, the task
   homologation sends (``rankings.refresh_season_totals`` through the outbox);
2. polls ``GET /api/pcn/ranking/players/<winner>/?kind=live`` until the winner's new
   place shows: **latency from the commit**;
3. once the worker is done, reads the **WAL written** (``pg_current_wal_lsn()`` before
   the commit and when the worker is done, the tournament's own 100 allocations
   included: cluster-wide, so other work on the machine adds to it; the minimum of
   the runs is the better bound; with the ``pg_walinspect`` extension in the database,
   also the WAL of this database's relations alone) and the **ranking rows written**
   (``pg_stat_user_tables``: inserts + updates + deletes of totals, standings,
   snapshots, entries and the season's ranking row; the tournament's 100 allocations
   are not counted);
4. removes the tournament (through the same services; not timed).

Prints medians (and minima) per mode and the same-run ratios snapshot / Redis.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
QUEUE = f"bench-live-{uuid.uuid4().hex[:8]}"  # every queue's name starts with it (and "-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["CELERY_BROKER_URL"] = REDIS_URL
os.environ["CELERY_QUEUE_PREFIX"] = f"{QUEUE}-"
os.environ["RANKING_STORE_URL"] = REDIS_URL

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import OperationalError, connection, transaction  # noqa: E402

from benchmarks.bench_db import (  # noqa: E402
    YEAR,
    generated_season_with_standings,
    tournament_write,
    tournaments_remove,
)
from core.tasks import send_on_commit  # noqa: E402
from demo.management.commands.generate_ranking_season import season_names  # noqa: E402
from federation.models import Licence, Player, Season  # noqa: E402
from rankings.models import (  # noqa: E402
    PlayerSeasonTotal,
    RankingEntry,
    RankingSnapshot,
    SeasonRanking,
    SeasonStanding,
)
from rankings.season import live_store  # noqa: E402
from rankings.season.live_ranking import live_ranking_refresh, live_totals_update  # noqa: E402

HOST, PORT = "127.0.0.1", 8767
RANKING_TABLES = [m._meta.db_table for m in (PlayerSeasonTotal, SeasonStanding, RankingSnapshot,
                                             RankingEntry, SeasonRanking)]  # fmt: skip
NAME = "Latence"
STATS_FLUSH_S = 11  # an idle backend flushes its table statistics within 10 s


def children_env(mode: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only-secret-key-never-used-in-production-0123456789",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "API_THROTTLE_ANON": "100000000/minute",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
        "RANKING_STORE_URL": REDIS_URL if mode == "redis" else "off",
    }


def start(mode: str) -> list[subprocess.Popen]:
    env = children_env(mode)
    venv = Path(sys.executable).parent
    worker = subprocess.Popen(
        [str(venv / "celery"), "-A", "config", "worker", "--pool=solo", "--loglevel=WARNING",
         "--without-gossip", "--without-mingle", "--without-heartbeat",
         "-Q", ",".join(settings.CELERY_QUEUES_BY_KIND),
         "-n", f"{QUEUE}-{mode}@%h"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    server = subprocess.Popen(
        [str(venv / "gunicorn"), "config.wsgi", "-b", f"{HOST}:{PORT}", "--workers", "2",
         "--threads", "4", "--worker-class", "gthread", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            get("/api/pcn/series-policies/" + season_names(YEAR)[1] + "/")
            return [worker, server]
        except OSError:
            time.sleep(0.2)
    sys.exit("gunicorn did not start")


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


_conn: http.client.HTTPConnection | None = None


def get(path: str) -> dict:
    try:
        return _get(path)
    except (http.client.RemoteDisconnected, ConnectionResetError):  # keep-alive closed
        return _get(path)


def _get(path: str) -> dict:
    global _conn
    if _conn is None:
        _conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
    try:
        _conn.request("GET", path)
        response = _conn.getresponse()
        body = response.read()
    except (OSError, http.client.HTTPException):
        _conn.close()
        _conn = None
        raise
    return json.loads(body) if response.status == 200 else {"status": response.status}


def live_place(licence: int) -> tuple[int, int] | None:
    ranking = get(f"/api/pcn/ranking/players/{licence}/?kind=live&season={season_names(YEAR)[1]}")
    line = ranking.get("ranking")
    return (line["place"], line["total_pcn"]) if line else None


def wal_lsn() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")
        return int(cursor.fetchone()[0])


def database_wal(start: int, end: int) -> int | None:
    """WAL bytes of this database's relations between two positions (``pg_walinspect``:
    the records whose block references name this database), else ``None``."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_walinspect'")
        if cursor.fetchone() is None:
            return None
        for _attempt in range(100):  # pg_walinspect reads only WAL flushed to disk
            cursor.execute("SELECT pg_current_wal_flush_lsn() - '0/0'::pg_lsn")
            if int(cursor.fetchone()[0]) >= end:
                break
            time.sleep(0.05)
        try:
            with transaction.atomic():
                cursor.execute(
                    "SELECT COALESCE(SUM(record_length), 0) FROM pg_get_wal_records_info("
                    "'0/0'::pg_lsn + %s, '0/0'::pg_lsn + %s) WHERE block_ref LIKE %s",
                    [start, end, f"% rel %/{database_oid()}/%"],
                )
                return int(cursor.fetchone()[0])
        except OperationalError:  # its segments already recycled (hundreds of MB later)
            return None


def database_oid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def rows_written() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT COALESCE(SUM(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables"
            " WHERE relname = ANY(%s)",
            [RANKING_TABLES],
        )
        return int(cursor.fetchone()[0])


def tournament_players(season: Season, number: int) -> list[int]:
    return list(
        Licence.objects.filter(season=season)
        .order_by("player_id")
        .values_list("player_id", flat=True)[number * 7919 % 140_000 :][:100]
    )


def homologate(season: Season, players: list[int], number: int) -> None:
    """A homologated 100-player tournament and the task homologation sends, one commit."""
    with transaction.atomic():
        tournament_write(season, players, name=f"{NAME} {number}", first_pcn=3000)
        send_on_commit("rankings.refresh_season_totals", season.pk, players)


def remove_tournaments(season: Season, mode: str) -> None:
    players = tournaments_remove(season, NAME)
    if not players:
        return
    settings.RANKING_STORE_URL = REDIS_URL if mode == "redis" else ""
    live_totals_update(season=season, player_ids=players)
    if mode != "redis":
        live_ranking_refresh(season=season)


def settled(season: Season, mode: str) -> None:
    """Wait until the worker has nothing left for this season."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = SeasonRanking.objects.get(season=season)
        if mode == "redis":
            meta = live_store.read_meta(season.pk)
            done = meta is not None and meta.version == state.inputs_version
        else:
            done = state.live_id is not None and state.live_version >= state.inputs_version
        if done:
            return
        time.sleep(0.05)


def measure(season: Season, mode: str, runs: int, offset: int) -> dict[str, list[float]]:
    settings.RANKING_STORE_URL = REDIS_URL if mode == "redis" else ""
    if mode == "redis":
        with transaction.atomic():
            live_store.rebuild(season=season)
    else:
        live_ranking_refresh(season=season)
    processes = start(mode)
    found: dict[str, list[float]] = {"latency": [], "wal": [], "db_wal": [], "rows": []}
    try:
        for run in range(runs):
            players = tournament_players(season, offset + run)
            winner = Player.objects.get(pk=players[0]).licence_number
            before = live_place(winner)
            settled(season, mode)
            time.sleep(STATS_FLUSH_S)
            wal0, rows0 = wal_lsn(), rows_written()
            homologate(season, players, offset + run)
            committed = time.perf_counter()
            while True:
                now = live_place(winner)
                if now != before:
                    break
                if time.perf_counter() - committed > 120:
                    sys.exit(f"{mode}: the new place never showed")
                time.sleep(0.005)
            found["latency"].append(time.perf_counter() - committed)
            settled(season, mode)
            wal1 = wal_lsn()  # before the wait: less of others' WAL
            found["wal"].append(wal1 - wal0)
            db_wal = database_wal(wal0, wal1)
            found["db_wal"].append(float("nan") if db_wal is None else db_wal)
            time.sleep(STATS_FLUSH_S)
            found["rows"].append(rows_written() - rows0)
            print(f"  {mode} run {run + 1}: place {before} -> {now}, "
                  f"{found['latency'][-1] * 1000:.0f} ms, {found['wal'][-1] / 1e6:.2f} MB WAL "
                  f"(this database {found['db_wal'][-1] / 1e6:.3f} MB), "
                  f"{found['rows'][-1]:.0f} ranking rows", flush=True)  # fmt: skip
            remove_tournaments(season, mode)
    finally:
        stop(processes)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modes", default="redis,snapshot")
    args = parser.parse_args()
    season = generated_season_with_standings()
    for mode in args.modes.split(","):
        remove_tournaments(season, mode)
    players = Licence.objects.filter(season=season).count()
    print(f"season {season}: {players:,} licensees, 100-player tournaments, {args.runs} runs")
    results = {}
    for index, mode in enumerate(args.modes.split(",")):
        results[mode] = measure(season, mode, args.runs, offset=1 + 10 * index)
    m = statistics.median
    print(f"{'mode':10} {'latency (ms)':>14} {'WAL MB med/min':>16} {'db WAL MB':>10} "
          f"{'ranking rows':>13}")  # fmt: skip
    for mode, found in results.items():
        print(f"{mode:10} {m(found['latency']) * 1000:14.0f} "
              f"{m(found['wal']) / 1e6:8.2f}/{min(found['wal']) / 1e6:<7.2f} "
              f"{m(found['db_wal']) / 1e6:10.3f} {m(found['rows']):13.0f}")  # fmt: skip
    if {"redis", "snapshot"} <= results.keys():
        r, s = results["redis"], results["snapshot"]
        print(f"ratios snapshot / redis: latency {m(s['latency']) / m(r['latency']):.1f}×, "
              f"WAL {m(s['wal']) / max(m(r['wal']), 1):.1f}× "
              f"(this database {m(s['db_wal']) / max(m(r['db_wal']), 1):.0f}×), "
              f"rows {m(s['rows']) / max(m(r['rows']), 1):.1f}×")  # fmt: skip


if __name__ == "__main__":
    main()
