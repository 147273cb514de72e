"""The ranking API and pages under concurrent load, on loopback, with a real WSGI server.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_ranking \
        .venv/bin/python benchmarks/ranking_load.py [--duration 20] [--connections 16]

Uses the synthetic season of ``benchmarks/ranking_recompute.py`` (run it first: it
generates the season and its live ranking). Starts gunicorn on 127.0.0.1 (2 workers ×
4 threads, DEBUG off) with that database, then for each target drives bounded
concurrent requests for a fixed duration — with ``wrk`` if installed (``apt-get
install wrk``), else a small generator of threads using ``http.client`` — and prints
requests per second, median and p99 latency. Stops the server at the end.

Targets (random players and pages of the 150,000-player ranking):

- ``player API``: ``GET /api/pcn/ranking/players/<licence>/`` (place, series, points,
  tournaments, history: the player lookup);
- ``player page``: ``GET /classement/joueur/<licence>/`` (HTML with the SVG plot);
- ``ranking API``: ``GET /api/pcn/ranking/?page=<n>`` (50 entries);
- ``ranking page``: ``GET /classement/?page=<n>`` (HTML, 50 entries);
- ``committee page``: ``GET /classement/comite/<n>/`` (HTML).
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from demo.management.commands.generate_ranking_season import season_names  # noqa: E402
from federation.models import Season  # noqa: E402
from rankings.live_ranking import live_ranking_refresh  # noqa: E402
from rankings.models import RankingEntry, SeasonRanking  # noqa: E402

HOST, PORT = "127.0.0.1", 8765


def targets(season: Season, rng: random.Random) -> dict[str, list[str]]:
    state = SeasonRanking.objects.get(season=season)
    if state.live_id is None:
        live_ranking_refresh(season=season)
        state.refresh_from_db()
    licences = list(
        RankingEntry.objects.filter(snapshot_id=state.live_id).values_list(
            "licence_number", flat=True
        )
    )
    committees = sorted(
        set(RankingEntry.objects.filter(snapshot_id=state.live_id).values_list(
            "committee__number", flat=True)[:20000])
    )  # fmt: skip
    pages = state.live.player_count // 50
    sample = rng.sample(licences, 2000)
    name = season.name
    return {
        "player API": [f"/api/pcn/ranking/players/{n}/?season={name}" for n in sample],
        "player page": [f"/classement/joueur/{n}/?saison={name}" for n in sample],
        "ranking API": [
            f"/api/pcn/ranking/?season={name}&page={rng.randint(1, pages)}" for _ in range(2000)
        ],
        "ranking page": [
            f"/classement/?saison={name}&page={rng.randint(1, pages)}" for _ in range(2000)
        ],
        "committee page": [
            f"/classement/comite/{rng.choice(committees)}/?saison={name}" for _ in range(500)
        ],
    }


def start_server(workers: int, threads: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only-secret-key-never-used-in-production-0123456789",
        "DJANGO_SECURE_SSL_REDIRECT": "0",  # plain HTTP on 127.0.0.1
        "API_THROTTLE_ANON": "100000000/minute",  # one address sends the whole load
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi", "-b", f"{HOST}:{PORT}",
         "--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread",
         "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, PORT, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    sys.exit("gunicorn did not start")


def with_wrk(paths: list[str], duration: int, connections: int) -> tuple[float, float, float]:
    lua = (
        "paths = {"
        + ",".join(f'"{p}"' for p in paths)
        + "}\n"
        + (
            "request = function() return wrk.format('GET', paths[math.random(#paths)]) end\n"
            "response = function(status) if status ~= 200 then wrk.thread:stop() end end\n"
        )
    )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(lua)
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", "-s", script.name,
         f"http://{HOST}:{PORT}"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    os.unlink(script.name)

    def ms(label: str) -> float:
        value, unit = re.search(rf"{label}\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    if "Non-2xx" in out:
        sys.exit(f"errors during the run:\n{out}")
    return rate, ms("50%"), ms("99%")


def with_threads(paths: list[str], duration: int, connections: int) -> tuple[float, float, float]:
    latencies: list[float] = []
    errors: list[str] = []
    stop = time.monotonic() + duration
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
        mine = []
        while time.monotonic() < stop:
            started = time.perf_counter()
            conn.request("GET", rng.choice(paths))
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - started) * 1000)
            if response.status != 200:
                errors.append(str(response.status))
                break
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        sys.exit(f"errors during the run: {errors[:5]}")
    latencies.sort()
    elapsed = time.monotonic() - started
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return len(latencies) / elapsed, statistics.median(latencies), p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=20, help="seconds per target")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Run this benchmark on PostgreSQL (DATABASE_URL=postgres://…).")
    season = Season.objects.filter(name=season_names(2090)[1]).first()
    if season is None:
        sys.exit("No synthetic season: run benchmarks/ranking_recompute.py first.")
    paths = targets(season, random.Random(7))
    connection.close()
    tool = "wrk" if shutil.which("wrk") else "python threads"
    run = with_wrk if tool == "wrk" else with_threads
    server = start_server(args.workers, args.threads)
    try:
        print(f"gunicorn {args.workers} workers × {args.threads} threads on {HOST}:{PORT}; "
              f"{tool}, {args.connections} connections, {args.duration} s per target")  # fmt: skip
        for name, urls in paths.items():
            run(urls[:50], 3, args.connections)  # warm-up
            rate, median, p99 = run(urls, args.duration, args.connections)
            print(f"{name:15s} {rate:8.1f} req/s   median {median:7.1f} ms   p99 {p99:7.1f} ms")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)


if __name__ == "__main__":
    main()
