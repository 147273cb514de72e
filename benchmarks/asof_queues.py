"""After anonymous readers ask for the ranking as of many days, how long until a
homologation shows in the live ranking (docs/scaling.md, "Queues").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_queues \
    BENCH_REDIS_URL=redis://127.0.0.1:6379/3 \
        .venv/bin/python benchmarks/asof_queues.py [--runs 3] [--requests 60] \
        [--layouts queues,one-worker]

The database holds the synthetic season of a past year (``--year 2025``: its days can
be asked; generated if absent, 150,000 players and 2,000,000 allocations). For each
layout the script starts gunicorn (2 workers × 4 threads) and the Celery workers on that
database, Redis ``BENCH_REDIS_URL`` being the broker and the live ranking store:

- ``queues``: one worker per queue of ``settings.CELERY_QUEUES_BY_KIND``, as deployed;
- ``one-worker``: a single worker consuming every queue (what a deployment that does
  not run a worker per queue gets).

Then ``--runs`` times:

1. ``--requests`` anonymous ``GET /api/pcn/ranking/?as_of=<day>``, each for a day not
   stored yet (202: queued; 503: the season's ``AS_OF_QUEUED_MAX`` reached, nothing
   queued), counted, with the as-of computations queued (the outbox rows);
2. commits a 100-player tournament's allocations and the task homologation sends
   (``rankings.refresh_season_totals``), in one transaction;
3. polls ``GET /api/pcn/ranking/players/<winner>/?kind=live`` until the winner's new
   place shows: **latency from the commit**;
4. removes the tournament and waits until the as-of computations have ended (not
   timed), so that each run starts with none queued.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# First of the project's: sets the broker, the queues' prefix and the ranking store
# (BENCH_REDIS_URL), then sets Django up.
from django.conf import settings  # noqa: E402
from django.db import transaction  # noqa: E402

from benchmarks import live_ranking_latency as latency  # noqa: E402
from benchmarks.bench_db import synthetic_season  # noqa: E402
from core.models import OutboxMessage  # noqa: E402
from federation.models import Licence, Player, Season  # noqa: E402
from rankings.season import live_store  # noqa: E402
from rankings.season.as_of import is_month_end, queued_days  # noqa: E402

MODE = "redis"  # the live ranking in Redis, as in production


def start(layout: str) -> list[subprocess.Popen]:
    env = {**latency.children_env(MODE), "CACHE_URL": latency.REDIS_URL, "LOG_LEVEL": "ERROR"}
    venv = Path(sys.executable).parent
    groups = (
        [[queue] for queue in settings.CELERY_QUEUES_BY_KIND]
        if layout == "queues"
        else [list(settings.CELERY_QUEUES_BY_KIND)]
    )

    def worker(queues: list[str]) -> subprocess.Popen:
        return subprocess.Popen(
            [str(venv / "celery"), "-A", "config", "worker", "--pool=solo", "--loglevel=WARNING",
             "--without-gossip", "--without-mingle", "--without-heartbeat",
             "-Q", ",".join(queues), "-n", f"{queues[0]}-{layout}@%h"],
            cwd=ROOT, env=env,
        )  # fmt: skip

    started = [worker(queues) for queues in groups]
    started.append(subprocess.Popen(
        [str(venv / "gunicorn"), "config.wsgi", "-b", f"{latency.HOST}:{latency.PORT}",
         "--workers", "2", "--threads", "4", "--worker-class", "gthread",
         "--log-level", "warning"],
        cwd=ROOT, env=env,
    ))  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            latency.get("/api/pcn/series-policies/")
            return started
        except OSError:
            time.sleep(0.2)
    latency.stop(started)
    sys.exit("gunicorn did not start")


def live_place(season: Season, licence: int) -> tuple[int, int] | None:
    ranking = latency.get(f"/api/pcn/ranking/players/{licence}/?kind=live&season={season.name}")
    line = ranking.get("ranking")
    return (line["place"], line["total_pcn"]) if line else None


def days_to_ask(season: Season, run: int, count: int) -> list[dt.date]:
    """``count`` days of the season, none a month end (those are kept stored), distinct
    from one run to the next."""
    days: list[dt.date] = []
    day = season.start_date + dt.timedelta(days=1 + run % 5 * (count + count // 28 + 2))
    while len(days) < count:
        if not is_month_end(day):
            days.append(day)
        day += dt.timedelta(days=1)
    return days


def asked() -> int:
    return OutboxMessage.objects.filter(task="rankings.as_of_days").count()


def quiet(season: Season) -> None:
    """Until no as-of computation of the season is queued (the workers are done)."""
    deadline = time.monotonic() + 600
    while queued_days(season) and time.monotonic() < deadline:
        time.sleep(0.5)


def measure(season: Season, layout: str, runs: int, requests: int, offset: int) -> list[float]:
    settings.RANKING_STORE_URL = latency.REDIS_URL
    with transaction.atomic():
        live_store.rebuild(season=season)
    processes = start(layout)
    found: list[float] = []
    try:
        for run in range(runs):
            quiet(season)
            players = latency.tournament_players(season, offset + run)
            winner = Player.objects.get(pk=players[0]).licence_number
            before = live_place(season, winner)
            queued_before = asked()
            statuses: dict[int, int] = {}
            began = time.perf_counter()
            for day in days_to_ask(season, offset + run, requests):
                answer = latency.get(f"/api/pcn/ranking/?as_of={day.isoformat()}&page_size=1")
                code = answer["status"] if isinstance(answer.get("status"), int) else 200
                statuses[code] = statuses.get(code, 0) + 1
            asking = time.perf_counter() - began
            latency.homologate(season, players, offset + run)
            committed = time.perf_counter()
            while True:
                now = live_place(season, winner)
                if now != before:
                    break
                if time.perf_counter() - committed > 300:
                    sys.exit(f"{layout}: the new place never showed")
                time.sleep(0.005)
            found.append(time.perf_counter() - committed)
            print(f"  {layout} run {run + 1}: {requests} as-of requests in {asking:.1f} s "
                  f"({', '.join(f'{n} × {c}' for c, n in sorted(statuses.items()))}), "
                  f"{asked() - queued_before} computations queued; then the homologation: "
                  f"place {before} -> {now} in {found[-1] * 1000:.0f} ms", flush=True)  # fmt: skip
            latency.remove_tournaments(season, MODE)
    finally:
        quiet(season)
        latency.stop(processes)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--players", type=int, default=150_000)
    parser.add_argument("--year", type=int, default=2025)
    parser.add_argument("--layouts", default="queues")
    args = parser.parse_args()
    season = synthetic_season(players=args.players, year=args.year)
    from rankings.models import SeasonStanding
    from rankings.season.standings import standings_write

    if not SeasonStanding.objects.filter(season=season).exists():
        standings_write(season=season, player_ids=None)
    latency.remove_tournaments(season, MODE)
    licensees = Licence.objects.filter(season=season).count()
    print(f"season {season}: {licensees:,} licensees, AS_OF_QUEUED_MAX "
          f"{settings.AS_OF_QUEUED_MAX}, {args.requests} as-of requests then a 100-player "
          f"homologation, {args.runs} runs")  # fmt: skip
    results = {}
    for index, layout in enumerate(args.layouts.split(",")):
        results[layout] = measure(season, layout, args.runs, args.requests, 1 + 3 * index)
    for layout, found in results.items():
        print(f"{layout:12} homologation -> visible: median {statistics.median(found) * 1000:.0f}"
              f" ms, max {max(found) * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
