"""The production topology of docs/scaling.md, run on this machine without Docker (the
machine kind has no Docker engine): PgBouncer in transaction mode, two web replicas
reaching PostgreSQL through it, two Celery workers and one beat connected directly,
Redis as broker, cache and ranking store.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_read \\
    BENCH_REDIS_URL=redis://127.0.0.1:6379/8 \\
        .venv/bin/python benchmarks/topology.py [--homologations 6] [--duration 5]

Needs Debian's ``pgbouncer`` and ``wrk`` packages and the synthetic season
(``manage.py generate_ranking_season``). The script:

1. starts PgBouncer (``pool_mode = transaction``, 20 server connections) on
   127.0.0.1:6433; two gunicorn replicas (2 workers × 4 threads each) on ports 8781 and
   8782 with ``DATABASE_URL`` through PgBouncer, ``DATABASE_POOLER_TRANSACTION_MODE=1``
   and ``DATABASE_CONN_MAX_AGE=0`` (as ``docker-compose.yml`` sets them); two Celery
   workers and one beat on the database directly;
2. homologates ``--homologations`` 100-player tournaments one after the other (the
   allocations and the task homologation sends, one commit) and times until the
   winner's new place shows on **each** replica: a replica keeps no state of its own;
3. asks each worker how many tasks it ran (``celery inspect stats``);
4. reads a staff CSV export of the whole ranking through replica 2 (a streamed
   ``.iterator()``, server-side cursors off behind PgBouncer) and counts its lines;
5. loads both replicas at once with ``wrk`` for ``--duration`` seconds (16 connections
   each, the cached public reads of ``ranking_load.py``); any answer but 200 stops the
   run; prints req/s and p99 per replica and PgBouncer's counters (``SHOW STATS``).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402

# First of the project's: sets the broker, the queue and the ranking store
# (BENCH_REDIS_URL), then sets Django up.
from benchmarks import live_ranking_latency as latency  # noqa: E402
from benchmarks.bench_db import YEAR, generated_season_with_standings  # noqa: E402
from benchmarks.ranking_load import targets, with_wrk  # noqa: E402
from config.celery import app  # noqa: E402
from demo.management.commands.generate_ranking_season import season_names  # noqa: E402
from federation.models import Player, Role, RoleAssignment, Season, User  # noqa: E402
from rankings.season import live_store  # noqa: E402

HOST, BOUNCER_PORT, WEB_PORTS = "127.0.0.1", 6433, (8781, 8782)
STAFF = "topology-staff"


def bouncer(directory: Path) -> subprocess.Popen:
    """PgBouncer in transaction mode in front of this benchmark's database."""
    db = connection.settings_dict
    (directory / "users.txt").write_text(f'"{db["USER"]}" ""\n')
    (directory / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={db['HOST']} port={db['PORT'] or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = {HOST}\nlisten_port = {BOUNCER_PORT}\n"
        f"unix_socket_dir =\nauth_type = trust\nauth_file = {directory / 'users.txt'}\n"
        f"admin_users = {db['USER']}\npool_mode = transaction\n"
        "max_client_conn = 1000\ndefault_pool_size = 20\nignore_startup_parameters = options\n"
        "log_connections = 0\nlog_disconnections = 0\n"
    )
    directory.chmod(0o755)  # PgBouncer refuses to run as root: as postgres when root
    as_root = ["-u", "postgres"] if os.geteuid() == 0 else []
    process = subprocess.Popen(["pgbouncer", *as_root, str(directory / "pgbouncer.ini")])
    wait_for(lambda: psql("SHOW VERSION;", "pgbouncer"), "PgBouncer")
    return process


def psql(sql: str, database: str | None = None) -> str:
    db = connection.settings_dict
    return subprocess.run(
        ["psql", "-h", HOST, "-p", str(BOUNCER_PORT), "-U", db["USER"], "-Atc", sql,
         database or db["NAME"]],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


def wait_for(ready, what: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            if ready():
                return
        time.sleep(0.2)
    sys.exit(f"{what} did not start")


def processes() -> list[subprocess.Popen]:
    """Two workers and a beat on the database, two web replicas through PgBouncer."""
    env = {**latency.children_env("redis"), "CACHE_URL": latency.REDIS_URL}
    db = connection.settings_dict
    web_env = {
        **env,
        "DATABASE_URL": f"postgres://{db['USER']}@{HOST}:{BOUNCER_PORT}/{db['NAME']}",
        "DATABASE_POOLER_TRANSACTION_MODE": "1",
        "DATABASE_CONN_MAX_AGE": "0",
    }
    venv = Path(sys.executable).parent
    if not (ROOT / "var" / "static" / "staticfiles.json").exists():  # DEBUG off: the manifest
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                       cwd=ROOT, env=env, check=True)  # fmt: skip

    def celery(*args: str) -> subprocess.Popen:
        return subprocess.Popen([str(venv / "celery"), "-A", "config", *args,
                                 "--loglevel=WARNING"], cwd=ROOT, env=env)  # fmt: skip

    schedule = Path(tempfile.mkdtemp()) / "celerybeat-schedule"
    started = [
        *(celery("worker", "--pool=solo", "--without-gossip", "--without-mingle",
                 "-Q", ",".join(settings.CELERY_QUEUES_BY_KIND), "-n", f"{latency.QUEUE}-{n}@%h")
          for n in (1, 2)),
        celery("beat", "-s", str(schedule)),
    ]  # fmt: skip
    for port in WEB_PORTS:
        started.append(subprocess.Popen(
            [str(venv / "gunicorn"), "config.wsgi", "-b", f"{HOST}:{port}", "--workers", "2",
             "--threads", "4", "--worker-class", "gthread", "--log-level", "warning"],
            cwd=ROOT, env=web_env,
        ))  # fmt: skip
    policy = f"/api/pcn/series-policies/{season_names(YEAR)[1]}/"
    for port in WEB_PORTS:
        wait_for(lambda port=port: get(port, policy)[0] == 200, f"web replica {port}")
    return started


def get(port: int, path: str, token: str | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("GET", path, headers={"Authorization": f"Token {token}"} if token else {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def place_on(port: int, licence: int) -> tuple[int, int] | None:
    status, body = get(port, f"/api/pcn/ranking/players/{licence}/?kind=live"
                             f"&season={season_names(YEAR)[1]}")  # fmt: skip
    line = json.loads(body).get("ranking") if status == 200 else None
    return (line["place"], line["total_pcn"]) if line else None


def visible_on_each(season: Season, number: int) -> list[float]:
    """Seconds from a homologation's commit until each replica shows the winner's new
    place (polled in turn)."""
    players = latency.tournament_players(season, number)
    winner = Player.objects.get(pk=players[0]).licence_number
    before = {port: place_on(port, winner) for port in WEB_PORTS}
    latency.settled(season, "redis")
    latency.homologate(season, players, number)
    committed = time.perf_counter()
    seen: dict[int, float] = {}
    while len(seen) < len(WEB_PORTS):
        for port in WEB_PORTS:
            if port not in seen and place_on(port, winner) != before[port]:
                seen[port] = time.perf_counter() - committed
        if time.perf_counter() - committed > 120:
            sys.exit("the new place never showed on every replica")
        time.sleep(0.005)
    return [seen[port] for port in WEB_PORTS]


def staff_token() -> str:
    from knox.models import AuthToken

    user, _ = User.objects.get_or_create(username=STAFF, defaults={"is_staff": True})
    RoleAssignment.objects.get_or_create(user=user, role=Role.FEDERATION_STAFF)
    return AuthToken.objects.create(user)[1]


def load_both(season: Season, duration: int) -> list[tuple[float, float, float]]:
    import random

    paths = [url for urls in targets(season, random.Random(7)).values() for url in urls[:300]]
    for port in WEB_PORTS:  # every URL read once: the cached reads
        for path in paths:
            status, _ = get(port, path)
            if status != 200:
                sys.exit(f"{path} answered {status} on {port}")
    found: dict[int, tuple[float, float, float]] = {}

    def run(port: int) -> None:
        found[port] = with_wrk(paths, duration, 16, port=port)

    threads = [threading.Thread(target=run, args=(port,)) for port in WEB_PORTS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [found[port] for port in WEB_PORTS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--homologations", type=int, default=6)
    parser.add_argument("--duration", type=int, default=5)
    args = parser.parse_args()
    if not (shutil.which("pgbouncer") and shutil.which("wrk")):
        sys.exit("Needs the pgbouncer and wrk commands (Debian's packages of those names).")
    season = generated_season_with_standings()
    settings.RANKING_STORE_URL = latency.REDIS_URL
    latency.remove_tournaments(season, "redis")
    with transaction.atomic():
        live_store.rebuild(season=season)
    token = staff_token()
    directory = Path(tempfile.mkdtemp())
    started = [bouncer(directory)]
    try:
        started += processes()
        print(f"PgBouncer (transaction mode) on {BOUNCER_PORT}; web replicas on {WEB_PORTS} "
              f"through it; 2 workers and 1 beat on the database directly")  # fmt: skip
        delays = [visible_on_each(season, 1 + n) for n in range(args.homologations)]
        for n, pair in enumerate(delays, 1):
            print(f"  homologation {n}: visible on replica 1 after {pair[0] * 1000:.0f} ms, "
                  f"on replica 2 after {pair[1] * 1000:.0f} ms")  # fmt: skip
        latency.settled(season, "redis")
        stats = app.control.inspect(timeout=5).stats() or {}
        ran = {name.split("@")[0]: sum(s.get("total", {}).values()) for name, s in stats.items()}
        print(f"tasks run by each worker: {ran}")
        status, body = get(WEB_PORTS[1], f"/api/pcn/ranking/export/?kind=live&season="
                                         f"{season.name}", token)  # fmt: skip
        lines = body.decode().count("\n") if status == 200 else 0
        print(f"CSV export of the live ranking through replica 2: {status}, {lines:,} lines")
        loads = load_both(season, args.duration)
        for port, (rate, median, p99) in zip(WEB_PORTS, loads, strict=True):
            print(f"replica {port}: {rate:,.0f} req/s, median {median:.1f} ms, p99 {p99:.1f} ms "
                  f"(16 connections, both replicas loaded at once, no answer but 200)")  # fmt: skip
        totals = psql("SHOW STATS_TOTALS;", "pgbouncer").splitlines()
        pools = psql("SHOW POOLS;", "pgbouncer").splitlines()
        print("PgBouncer totals (database|xact|query|…):", *totals, sep="\n  ")
        print("PgBouncer pools (database|user|cl_active|cl_waiting|…|sv_active|sv_idle|…):",
              *pools, sep="\n  ")  # fmt: skip
        m = statistics.median
        print(f"median visible after: replica 1 {m(d[0] for d in delays) * 1000:.0f} ms, "
              f"replica 2 {m(d[1] for d in delays) * 1000:.0f} ms")  # fmt: skip
    finally:
        latency.stop(started[1:])
        latency.stop(started[:1])
        latency.remove_tournaments(season, "redis")
        User.objects.filter(username=STAFF).delete()


if __name__ == "__main__":
    main()
