"""Cache busting: the read cache's rate on its plain addresses against the same addresses
with a random extra query parameter on every request, on a real gunicorn.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_read \
    CACHE_URL=redis://127.0.0.1:6379/10 \
        .venv/bin/python benchmarks/cache_busting.py [--duration 5] [--rounds 3] [--urls 200]

The synthetic season of ``manage.py generate_ranking_season`` (as ``ranking_load.py``,
whose server, URLs and priming it reuses: gunicorn ``--workers`` × ``--threads``, DEBUG
off, each request from one of 65,536 client addresses behind one trusted proxy, so no
address reaches a rate limit). Every URL of a target is read once first (the cache holds
it), then, ``--rounds`` times alternately, the target is driven by Python threads for
``--duration`` seconds on its plain URLs, then on the same URLs each with
``&cb=<random>`` (a parameter no view reads): requests/s, median, p99, answers other
than 200, and the ratio of the two rates (median of the rounds, each round's).

Targets: the ranking API (``/api/pcn/ranking/?season=…&page=<n>``) and a player's page
(``/classement/joueur/<licence>/?saison=…``). With the read cache keyed on every
parameter, each random one was a miss, built and stored for an hour; keyed on the
parameters each view reads (``core/http/http_cache.py``), it is the stored answer.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import ranking_load
from benchmarks.bench_db import YEAR
from demo.management.commands.generate_ranking_season import season_names
from federation.models import Season

Result = tuple[float, float, float, int]  # req/s, median ms, p99 ms, answers not 200


def drive(path_for: Callable[[random.Random], str], duration: int, connections: int) -> Result:
    """``connections`` threads asking ``path_for(rng)`` in a loop for ``duration`` s."""
    latencies: list[float] = []
    refused = [0]
    stop = time.monotonic() + duration
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection(ranking_load.HOST, ranking_load.PORT, timeout=60)
        mine, bad = [], 0
        while time.monotonic() < stop:
            client = f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.1"
            started = time.perf_counter()
            conn.request("GET", path_for(rng), headers={"X-Forwarded-For": client})
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - started) * 1000)
            bad += response.status != 200
        with lock:
            latencies.extend(mine)
            refused[0] += bad

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return len(latencies) / elapsed, statistics.median(latencies), p99, refused[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--urls", type=int, default=200)
    args = parser.parse_args()
    if not os.environ.get("CACHE_URL"):
        sys.exit("Give the read cache a Redis database: CACHE_URL=redis://127.0.0.1:6379/10")
    season = Season.objects.filter(name=season_names(YEAR)[1]).first()
    if season is None:
        sys.exit("No synthetic season: run manage.py generate_ranking_season first.")
    every = ranking_load.targets(season, random.Random(7))
    paths = {name: every[name][: args.urls] for name in ("ranking API", "player page")}
    from django.core.cache import cache
    from django.db import connection

    connection.close()
    cache.clear()
    server = ranking_load.start_server(args.workers, args.threads, cache=True)
    try:
        print(f"gunicorn {args.workers} workers × {args.threads} threads; {args.connections} "
              f"Python threads, {args.duration} s per measure; load average before: "
              f"{ranking_load.load_average()}", flush=True)  # fmt: skip
        print(f"{'target':12s} {'plain: req/s':>12s} {'p99':>8s}   {'random param: req/s':>19s} "
              f"{'p99':>8s} {'not 200':>7s}   ratio (median; each round)")  # fmt: skip
        for target, urls in paths.items():
            ranking_load.prime(urls, args.connections)

            def plain(rng: random.Random, urls: list[str] = urls) -> str:
                return rng.choice(urls)

            def busted(rng: random.Random, urls: list[str] = urls) -> str:
                return f"{rng.choice(urls)}&cb={rng.getrandbits(48)}"

            drive(plain, 2, args.connections)  # warm-up
            rounds = [
                (drive(plain, args.duration, args.connections),
                 drive(busted, args.duration, args.connections))
                for _ in range(args.rounds)
            ]  # fmt: skip
            ratios = [b[0] / p[0] for p, b in rounds]
            p_rate, p_p99 = (statistics.median(p[i] for p, _ in rounds) for i in (0, 2))
            b_rate, b_p99 = (statistics.median(b[i] for _, b in rounds) for i in (0, 2))
            bad = sum(p[3] + b[3] for p, b in rounds)
            each = " ".join(f"{x:.2f}" for x in ratios)
            print(f"{target:12s} {p_rate:12.1f} {p_p99:6.1f}ms   {b_rate:19.1f} {b_p99:6.1f}ms "
                  f"{bad:7d}   {statistics.median(ratios):.2f} ({each})", flush=True)  # fmt: skip
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)


if __name__ == "__main__":
    main()
