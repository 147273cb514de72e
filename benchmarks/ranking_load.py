"""The ranking API and pages under concurrent load, on loopback, with a real WSGI server,
each target measured beside a constant-JSON view on the same gunicorn in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_read \
    CACHE_URL=redis://127.0.0.1:6379/10 RANKING_STORE_URL=redis://127.0.0.1:6379/11 \
        .venv/bin/python benchmarks/ranking_load.py [--duration 10] [--rounds 3] [--urls 2000]

Uses the synthetic season of ``manage.py generate_ranking_season`` (150,000 players,
2,000,000 allocations; run it first) and its live ranking. Starts gunicorn on 127.0.0.1
(``--workers`` × ``--threads``, DEBUG off, settings ``benchmarks.bench_settings``: the
site plus ``/bench/constant/``), with the read cache in ``CACHE_URL`` (Redis; emptied
first), then for each target drives bounded concurrent requests for a fixed duration —
with ``wrk`` if installed (``apt-get install wrk``), else a small generator of threads
using ``http.client`` — alternating ``--rounds`` times the constant view and the target
(the machine's load drifts), and prints the medians of the rounds: requests per second,
median and p99 latency, and the ratio of the target's rate to the constant view's (each
round's ratio too). Stops the server at the end.

Two passes (``--passes``):

- ``warm``: every URL of the target was read once before the measure (the read cache
  holds it): what readers get between two changes of the ranking;
- ``miss``: the read cache off (``READ_CACHE_TTL=0``): every request builds its answer
  (the cost after each change, and of a URL nobody read yet).

Targets (random players and pages of the 150,000-player ranking):

- ``ranking API``: ``GET /api/pcn/ranking/?page=<n>`` (50 entries);
- ``ranking page``: ``GET /classement/?page=<n>`` (HTML, 50 entries);
- ``player API``: ``GET /api/pcn/ranking/players/<licence>/``;
- ``player page``: ``GET /classement/joueur/<licence>/`` (HTML with the SVG plot);
- ``search API``: ``GET /api/pcn/ranking/?q=<name>`` (a player's full name, or a common
  last name that matches thousands: the count stops at 1,000);
- ``search page``: ``GET /classement/?q=<name>`` (HTML);
- ``committee page``: ``GET /classement/comite/<n>/`` (HTML).
"""

from __future__ import annotations

import argparse
import contextlib
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
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import override_settings  # noqa: E402

from benchmarks.bench_db import YEAR  # noqa: E402
from core.folding import fold  # noqa: E402
from demo.management.commands.generate_ranking_season import (  # noqa: E402
    LAST_NAMES,
    season_names,
)
from federation.models import Season  # noqa: E402
from rankings.models import RankingEntry, SeasonRanking  # noqa: E402
from rankings.season.live_ranking import live_ranking_refresh  # noqa: E402

HOST, PORT = "127.0.0.1", 8765


def targets(season: Season, rng: random.Random) -> dict[str, list[str]]:
    state = SeasonRanking.objects.filter(season=season).first()
    if state is None or state.live_id is None:  # a season just generated: rank it once as
        # a snapshot to draw the URLs from (the server reads its live store, RANKING_STORE_URL)
        with override_settings(RANKING_STORE_URL=""):
            live_ranking_refresh(season=season)
        state = SeasonRanking.objects.get(season=season)
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
    names = dict(
        RankingEntry.objects.filter(snapshot_id=state.live_id, licence_number__in=sample[:1000])
        .values_list("licence_number", "search_name")
    )  # fmt: skip
    queries = [quote(name) for name in names.values()] + [
        quote(fold(rng.choice(LAST_NAMES)).split()[0]) for _ in range(1000)
    ]
    name = season.name
    return {
        "ranking API": [
            f"/api/pcn/ranking/?season={name}&page={rng.randint(1, pages)}" for _ in range(2000)
        ],
        "ranking page": [
            f"/classement/?saison={name}&page={rng.randint(1, pages)}" for _ in range(2000)
        ],
        "player API": [f"/api/pcn/ranking/players/{n}/?season={name}" for n in sample],
        "player page": [f"/classement/joueur/{n}/?saison={name}" for n in sample],
        "search API": [f"/api/pcn/ranking/?season={name}&q={q}" for q in queries],
        "search page": [f"/classement/?saison={name}&q={q}" for q in queries],
        "committee page": [
            f"/classement/comite/{rng.choice(committees)}/?saison={name}" for _ in range(500)
        ],
    }


def start_server(workers: int, threads: int, cache: bool) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "benchmarks.bench_settings",
        "READ_CACHE_TTL": "3600" if cache else "0",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only-secret-key-never-used-in-production-0123456789",
        "DJANGO_SECURE_SSL_REDIRECT": "0",  # plain HTTP on 127.0.0.1
        # The load comes from 65,536 client addresses (X-Forwarded-For, one trusted proxy):
        # each stays under the production rate, as readers do, so every read is throttled
        # (counted) as in production.
        "TRUSTED_PROXY_COUNT": "1",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
    }
    if not (ROOT / "var" / "static" / "staticfiles.json").exists():  # DEBUG off: the manifest
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                       cwd=ROOT, env=env, check=True)  # fmt: skip
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi", "-b", f"{HOST}:{PORT}",
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


def with_wrk(
    paths: list[str], duration: int, connections: int, port: int = PORT
) -> tuple[float, float, float]:
    lua = (
        "paths = {"
        + ",".join(f'"{p}"' for p in paths)
        + "}\n"
        + (
            "request = function()\n"
            "  local client = '10.' .. math.random(0, 255) .. '.' .. math.random(0, 255) .. '.1'\n"
            "  return wrk.format('GET', paths[math.random(#paths)],"
            " {['X-Forwarded-For'] = client})\n"
            "end\n"
            "response = function(status) if status ~= 200 then wrk.thread:stop() end end\n"
        )
    )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(lua)
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", "-s", script.name,
         f"http://{HOST}:{port}"],
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
            client = f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.1"
            conn.request("GET", rng.choice(paths), headers={"X-Forwarded-For": client})
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


def prime(paths: list[str], connections: int) -> None:
    """Read every URL once (in parallel): the read cache then holds them all."""
    chunks = [paths[i::connections] for i in range(connections)]

    def read(chunk: list[str]) -> None:
        conn = http.client.HTTPConnection(HOST, PORT, timeout=60)
        for k, path in enumerate(chunk):
            conn.request("GET", path, headers={"X-Forwarded-For": f"10.99.{k % 256}.{k // 256}"})
            conn.getresponse().read()

    threads = [threading.Thread(target=read, args=(c,)) for c in chunks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def load_average() -> str:
    with contextlib.suppress(OSError):
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10,
                        help="seconds of each measure in a round")  # fmt: skip
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--passes", default="warm,miss", help="warm, miss or both")
    parser.add_argument("--only", default="", help="comma-separated target names")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternations of the constant view and the target")  # fmt: skip
    parser.add_argument("--urls", type=int, default=2000,
                        help="at most this many URLs a target (a sample of them)")  # fmt: skip
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Run this benchmark on PostgreSQL (DATABASE_URL=postgres://…).")
    if not os.environ.get("CACHE_URL"):
        sys.exit("Give the read cache a Redis database: CACHE_URL=redis://127.0.0.1:6379/10")
    season = Season.objects.filter(name=season_names(YEAR)[1]).first()
    if season is None:
        sys.exit("No synthetic season: run manage.py generate_ranking_season first.")
    paths = targets(season, random.Random(7))
    if args.only:
        paths = {k: v for k, v in paths.items() if k in args.only.split(",")}
    paths = {k: v[:: max(1, len(v) // args.urls)][: args.urls] for k, v in paths.items()}
    connection.close()
    from django.core.cache import cache

    tool = "wrk" if shutil.which("wrk") else "python threads"
    run = with_wrk if tool == "wrk" else with_threads
    constant = ["/bench/constant/"]
    for name in args.passes.split(","):
        cache.clear()
        server = start_server(args.workers, args.threads, cache=name == "warm")
        try:
            print(f"\n[{name}] gunicorn {args.workers} workers × {args.threads} threads; {tool}, "
                  f"{args.connections} connections, {args.duration} s per target; "
                  f"load average before: {load_average()}", flush=True)  # fmt: skip
            print(f"{'target':15s} {'req/s':>8s} {'median':>9s} {'p99':>9s}   "
                  f"constant JSON same run: req/s, p99;  ratio of rates (median of "
                  f"{args.rounds} alternations; each round's)")  # fmt: skip
            for target, urls in paths.items():
                if name == "warm":
                    prime(urls, args.connections)
                run(urls[:50], 2, args.connections)  # warm-up (connections, workers)
                rounds = []
                for _ in range(args.rounds):  # alternate: the machine's load drifts
                    base = run(constant, args.duration, args.connections)
                    rounds.append((run(urls, args.duration, args.connections), base))
                rate, median, p99 = (statistics.median(r[0][i] for r in rounds) for i in range(3))
                base_rate, base_p99 = (statistics.median(r[1][i] for r in rounds) for i in (0, 2))
                ratios = [r[0][0] / r[1][0] for r in rounds]
                each = " ".join(f"{x:.2f}" for x in ratios)
                line = (f"{target:15s} {rate:8.1f} {median:7.1f}ms {p99:7.1f}ms   "
                        f"{base_rate:8.1f} req/s {base_p99:6.1f}ms   "
                        f"{statistics.median(ratios):5.2f} ({each})")  # fmt: skip
                print(line, flush=True)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)


if __name__ == "__main__":
    main()
