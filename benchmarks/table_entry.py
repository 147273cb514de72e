"""Fifty tables entering their deals at once through their QR tokens, against a live
server: how long each acknowledgement takes (docs/tournament-day.md, « Saisie à la table »).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_table \
        .venv/bin/python benchmarks/table_entry.py [--tables 50] [--positions 2] \
        [--deals 8] [--workers 4] [--threads 2] [--server gunicorn|runserver]

The database (created if absent, migrated) gets a declared tournament of ``4 × tables``
players and one session drawn (the engine's movement, stored as the room stores it). The
script starts the server on 127.0.0.1 (gunicorn: ``--workers`` processes of ``--threads``
threads, as deployed; or ``runserver``), then for every deal of every position all the
tables send that deal **at the same instant**: the worst case of a room, every phone
pressing « Enregistrer » together. The client is one thread holding one kept-alive
connection per table: each burst writes the fifty requests (built beforehand) in one loop
of non-blocking sends, microseconds apart, then reads the answers as they arrive
(``selectors``); the next burst starts once every answer of this one is in (the barrier).
Each POST is timed from its send to the last byte of its acknowledgement (201); then every
deal is sent a second time (the phone that lost the answer: 200, nothing written). One
thread instead of fifty keeps the client's own work (and its share of the two cores) small
beside the server's. It prints p50/p95/p99/max of
both, and checks the database holds each deal once. The tournament is removed at the end.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SERVER_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "benchmark-only-secret-key-never-used-in-production-0123456789",
    "DJANGO_SECURE_SSL_REDIRECT": "0",
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DATABASE_CONN_MAX_AGE": "60",
    "LOG_LEVEL": "WARNING",
    "API_THROTTLE_TABLE": "100000/minute",
    "API_THROTTLE_ANON": "100000000/minute",
}
os.environ.update(SERVER_ENV)  # the tokens this script signs are the server's
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from benchmarks.bench_db import create_database_if_absent  # noqa: E402
from competitions.day.table_tokens import table_token  # noqa: E402
from competitions.models import (  # noqa: E402
    DealRecord,
    EntryMember,
    PlayedSession,
    Tournament,
    TournamentEntry,
)
from competitions.rules.day.layout import (  # noqa: E402
    Holder,
    layout_of,
    layout_to_json,
    seating_to_json,
)
from competitions.rules.engine.movements.planning import plan_movement  # noqa: E402
from federation.models import Club, Committee, Player, Season, Zone  # noqa: E402

HOST, PORT = "127.0.0.1", 8771
NAME = "Banc d'essai de la saisie à la table"
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")


def tournament_drawn(tables: int, positions: int, deals: int) -> PlayedSession:
    today = timezone.localdate()
    start = dt.date(today.year if today.month >= 7 else today.year - 1, 7, 1)
    season = Season.objects.filter(start_date__lte=today, end_date__gte=today).first()
    if season is None:
        season = Season.objects.create(
            name=f"{start.year}-{start.year + 1}", start_date=start,
            end_date=dt.date(start.year + 1, 6, 30),
        )  # fmt: skip
    zone, _ = Zone.objects.get_or_create(number=99, defaults={"name": "Zone banc"})
    committee, _ = Committee.objects.get_or_create(
        number=99, defaults={"name": "Comité banc", "zone": zone}
    )
    club, _ = Club.objects.get_or_create(
        number=9999, defaults={"name": "Club banc", "committee": committee}
    )
    arbiter, _ = Player.objects.get_or_create(
        licence_number=99999, defaults={"last_name": "Banc", "first_name": "Arbitre"}
    )
    tournaments_remove()
    tournament = Tournament.objects.create(
        season=season, name=NAME, date=today, venue="Salle", format="individual",
        organizer_kind="club", organizer_club=club, arbiter=arbiter,
    )  # fmt: skip
    players = 4 * tables
    entries = TournamentEntry.objects.bulk_create(
        TournamentEntry(tournament=tournament, number=n) for n in range(1, players + 1)
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, tournament=tournament, name=f"Joueur {e.number}") for e in entries
    )
    layout = layout_of(plan_movement(players, positions), deals)
    return PlayedSession.objects.create(
        tournament=tournament, number=1, positions=positions, deals_per_position=deals,
        placement="random", seed=1, plan=layout_to_json(layout),
        seating=seating_to_json({n: Holder(n) for n in range(1, players + 1)}),
    )  # fmt: skip


def tournaments_remove() -> None:
    for tournament in Tournament.objects.filter(name=NAME):
        DealRecord.objects.filter(session__tournament=tournament).delete()
        PlayedSession.objects.filter(tournament=tournament).delete()
        EntryMember.objects.filter(tournament=tournament).delete()
        TournamentEntry.objects.filter(tournament=tournament).delete()
        tournament.delete()


def line_of(table: int, position: int, deal: int) -> dict:
    """A plausible deal, different at every table and deal."""
    n = table * 7 + position * 3 + deal
    return {
        "contract": CONTRACTS[n % 4],
        "taker": "NSEW"[n % 4],
        "oudlers": n % 4 or 1,
        "attack_points": 30 + n % 40,
        **({"petit_au_bout": "attack"} if n % 5 == 0 else {}),  # the attack holds the petit
    }


def start_server(kind: str, workers: int, threads: int, worker_class: str) -> subprocess.Popen:
    env = {**os.environ, **SERVER_ENV}
    venv = Path(sys.executable).parent
    if kind == "gunicorn":
        command = [str(venv / "gunicorn"), "config.wsgi", "-b", f"{HOST}:{PORT}",
                   "--workers", str(workers), "--threads", str(threads),
                   "--worker-class", worker_class, "--log-level", "warning"]  # fmt: skip
    else:
        command = [sys.executable, "manage.py", "runserver", f"{HOST}:{PORT}", "--noreload"]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, PORT, timeout=2)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    sys.exit("the server did not start")


def request_bytes(method: str, path: str, body: str | None = None) -> bytes:
    """One HTTP/1.1 request, written once before the clock starts."""
    data = (body or "").encode()
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{PORT}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    )
    return head.encode() + data


class Table:
    """One table's phone: a kept-alive connection, its answer read as it arrives."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.sent_at = 0.0
        self.closing = False  # the server said « Connection: close »: a new one next time

    def connect(self) -> None:
        self.sock = socket.create_connection((HOST, PORT))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.buffer = b""

    def answer(self) -> int | None:
        """The status of the answer once it is whole in the buffer (the buffer then
        emptied); None while it is not."""
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = self.buffer[:end].decode("latin-1").split("\r\n")
        length = 0
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
            if name.strip().lower() == "connection" and value.strip().lower() == "close":
                self.closing = True
        if len(self.buffer) < end + 4 + length:
            return None
        self.buffer = self.buffer[end + 4 + length :]
        return int(head[0].split()[1])


def burst(tables: list[Table], requests: list[bytes]) -> list[tuple[float, int]]:
    """Every table sends its request at the same instant (one loop of non-blocking writes,
    a few microseconds apart); each answer is timed from its table's send to its last
    byte read. A connection the server closed while idle is opened again and the request
    sent again, its time still counted from the first send."""
    selector = selectors.DefaultSelector()
    for table in tables:  # before the clock: a server without keep-alive closed the last one
        if table.sock is None or table.closing:
            if table.sock is not None:
                table.sock.close()
            table.connect()
            table.closing = False
    for table, request in zip(tables, requests, strict=True):
        assert table.sock is not None
        table.sent_at = time.perf_counter()
        try:
            table.sock.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            table.connect()
            table.sock.sendall(request)  # type: ignore[union-attr]
        selector.register(table.sock, selectors.EVENT_READ, table)
    results: list[tuple[float, int]] = [(0.0, 0)] * len(tables)
    waiting = len(tables)
    while waiting:
        ready = selector.select(timeout=30)
        if not ready:
            raise SystemExit(f"no answer in 30 s ({waiting} of {len(tables)} awaited)")
        for key, _ in ready:
            table = key.data
            try:
                chunk = table.sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:  # closed by the server before answering: again
                selector.unregister(key.fileobj)
                table.sock.close()
                table.connect()
                table.sock.sendall(requests[tables.index(table)])
                selector.register(table.sock, selectors.EVENT_READ, table)
                continue
            table.buffer += chunk
            status = table.answer()
            if status is not None:
                took = (time.perf_counter() - table.sent_at) * 1000
                results[tables.index(table)] = (took, status)
                selector.unregister(key.fileobj)
                waiting -= 1
    selector.close()
    return results


def run(session: PlayedSession, tables: int, positions: int, deals: int) -> dict[str, list]:
    kinds = ("alone", "floor", "first", "again")
    timings: dict[str, list[float]] = {kind: [] for kind in kinds}
    statuses: dict[str, dict[int, int]] = {kind: {} for kind in kinds}

    def record(kind: str, results: list[tuple[float, int]]) -> None:
        for took, status in results:
            timings[kind].append(took)
            statuses[kind][status] = statuses[kind].get(status, 0) + 1

    def line_request(table: int, position: int, deal: int, key: bool = True) -> bytes:
        token = table_token(session, position, table)
        body = {"deal": deal, "line": line_of(table, position, deal)}
        if key:
            body["client_key"] = f"{table}-{position}-{deal}"
        return request_bytes("POST", f"/api/day/tables/{token}/deals/", json.dumps(body))

    # One table alone first (the last one of the plan, not in the bursts): no contention.
    alone = [Table(tables + 1)]
    alone[0].connect()
    for position in range(1, positions + 1):
        for deal in range(1, deals + 1):
            record("alone", burst(alone, [line_request(tables + 1, position, deal, False)]))
    phones = [Table(t) for t in range(1, tables + 1)]
    for phone in phones:
        phone.connect()
    floor = request_bytes("GET", "/api/day/tables/not-a-token/")
    for _ in range(positions * deals):  # the same-run yardstick: no view, no database
        record("floor", burst(phones, [floor] * tables))
    for kind in ("first", "again"):
        for position in range(1, positions + 1):
            for deal in range(1, deals + 1):
                requests = [line_request(t, position, deal) for t in range(1, tables + 1)]
                record(kind, burst(phones, requests))
    for phone in phones + alone:
        assert phone.sock is not None
        phone.sock.close()
    print("statuses:", statuses)
    return timings


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--positions", type=int, default=2)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--worker-class", choices=("sync", "gthread"), default="gthread")
    parser.add_argument("--server", choices=("gunicorn", "runserver"), default="gunicorn")
    args = parser.parse_args()
    create_database_if_absent()
    session = tournament_drawn(args.tables + 1, args.positions, args.deals)
    connection.close()
    server = start_server(args.server, args.workers, args.threads, args.worker_class)
    try:
        timings = run(session, args.tables, args.positions, args.deals)
    finally:
        server.terminate()
        server.wait(timeout=20)
    kept = DealRecord.objects.filter(session=session).count()
    expected = (args.tables + 1) * args.positions * args.deals
    print(f"{args.tables} tables × {args.positions} positions × {args.deals} deals, "
          f"{args.server} ({args.workers} {args.worker_class} workers × {args.threads} threads), "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    labels = (("alone", "one table alone (201)"), ("floor", "yardstick (404, no query)"),
              ("first", "deal entered (201)"), ("again", "same deal again (200)"))  # fmt: skip
    for kind, label in labels:
        values = timings[kind]
        print(f"  {label:24} n={len(values):5}  p50 {percentile(values, .5):6.1f} ms  "
              f"p95 {percentile(values, .95):6.1f} ms  p99 {percentile(values, .99):6.1f} ms  "
              f"max {max(values):6.1f} ms  mean {statistics.mean(values):6.1f} ms")  # fmt: skip
    print(f"  deals kept: {kept} (expected {expected}, each once)")
    tournaments_remove()


if __name__ == "__main__":
    main()
