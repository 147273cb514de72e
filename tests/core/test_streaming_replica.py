"""A real streaming replica (docs/scaling.md): a throw-away primary and its hot standby
(``pg_basebackup -R``) on spare ports, the demo restored on the primary, the site served
by gunicorn with ``DATABASE_URL`` on the primary and ``DATABASE_REPLICA_URL`` on the
standby. Public reads come from the standby and catch up with the primary within a
bounded lag; a person who has just written (here: then signed out, reading as the
public does) reads their own write at once, from the primary (core/db_router.py,
core/http/middleware.py::ReadYourWrites), even while the standby replays nothing
(``pg_wal_replay_pause()``: the lag made as long as we like).

The PostgreSQL servers run as the ``postgres`` user when the suite runs as root (initdb
refuses root); everything started here is stopped in ``finally``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from core.management.backups import binary, restore
from tests.core.conftest import ROOT, DemoArchive, admin_connection

LAG_BOUND_S = 30  # how long a public read may take to show a write once the standby replays


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _free_port() -> int:
    while True:
        port = random.randint(20000, 29999)
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is the answer itself (its status is checked)


class Browser:
    """An HTTP client that keeps its cookies, as a browser does (standard library only)."""

    def __init__(self) -> None:
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def send(self, method: str, url: str, *, form: dict | None = None, body: dict | None = None,
             headers: dict | None = None, timeout: float = 30) -> tuple[int, bytes]:  # fmt: skip
        data, kinds = None, {}
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            kinds = {"Content-Type": "application/x-www-form-urlencoded"}
        elif body is not None:
            data, kinds = json.dumps(body).encode(), {"Content-Type": "application/json"}
        request = urllib.request.Request(
            url, data=data, method=method, headers={**kinds, **(headers or {})}
        )
        try:
            with self.opener.open(request, timeout=timeout) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read()


@dataclass
class Server:
    data: Path
    port: int
    log: Path

    def url(self, database: str = "fft") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, query: str, database: str = "postgres"):
        import psycopg

        with psycopg.connect(self.url(database).replace("postgres://", "postgresql://"),
                             autocommit=True) as conn:  # fmt: skip
            return conn.execute(query).fetchall()


def _run(command: list[str]) -> None:
    run = subprocess.run(_as_server_user(command), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"{command[0]}: {run.stdout}{run.stderr}"


def _start(server: Server, pg_ctl: Path, sockets: Path) -> None:
    with (server.data / "postgresql.conf").open("a") as conf:
        conf.write(
            f"port = {server.port}\nlisten_addresses = '127.0.0.1'\n"
            f"unix_socket_directories = '{sockets}'\nfsync = off\nmax_connections = 40\n"
        )
    _run([str(pg_ctl), "-D", str(server.data), "-l", str(server.log), "-w", "-t", "60", "start"])


@pytest.fixture
def primary_and_standby(demo_archive: DemoArchive) -> Iterator[tuple[Server, Server]]:
    with admin_connection(demo_archive) as conn:
        major = int(conn.execute("SHOW server_version_num").fetchone()[0]) // 10000
    initdb, pg_ctl = binary("initdb", major), binary("pg_ctl", major)
    pg_basebackup = binary("pg_basebackup", major)
    base = Path(tempfile.mkdtemp(prefix="fft-replica-"))
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
    primary = Server(base / "primary", _free_port(), base / "primary.log")
    standby = Server(base / "standby", _free_port(), base / "standby.log")
    started: list[Server] = []
    try:
        _run([str(initdb), "-D", str(primary.data), "-A", "trust", "-U", "postgres",
              "--no-sync", "-E", "UTF8", "--locale", "C.UTF-8"])  # fmt: skip
        _start(primary, pg_ctl, base)
        started.append(primary)
        on_primary = demo_archive.target(name="fft", host="127.0.0.1", port=str(primary.port))
        restore(demo_archive.archive, where=on_primary)
        # the standby: a base backup of the primary, streaming from it (-R: standby.signal
        # and primary_conninfo), hot standby (the default) so that it serves reads
        _run([str(pg_basebackup), "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres",
              "-D", str(standby.data), "-R", "-X", "stream", "--checkpoint=fast"])  # fmt: skip
        assert (standby.data / "standby.signal").is_file()
        _start(standby, pg_ctl, base)
        started.append(standby)
        assert standby.sql("SELECT pg_is_in_recovery()") == [(True,)]
        yield primary, standby
    finally:
        for server in reversed(started):
            subprocess.run(_as_server_user([str(pg_ctl), "-D", str(server.data), "-m", "immediate",
                                            "stop"]), capture_output=True, timeout=60)  # fmt: skip
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def site(primary_and_standby) -> Iterator[str]:
    """gunicorn serving the site: writes and private reads on the primary, public reads
    on the standby; no cache shared between requests but the process's (local memory)."""
    primary, standby = primary_and_standby
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items()
           if not k.startswith(("DATABASE_", "CACHE_URL", "RANKING_STORE_URL"))},
        "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "1",
        "DATABASE_URL": primary.url(), "DATABASE_REPLICA_URL": standby.url(),
        "CELERY_BROKER_URL": "", "READ_YOUR_WRITES_S": "60",
    }  # fmt: skip
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
             f"127.0.0.1:{port}", "--workers", "1", "--threads", "2", "--timeout", "120",
             "--graceful-timeout", "1"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        address = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):  # gunicorn imports Django, then answers
                try:
                    if Browser().send("GET", f"{address}/healthz")[0] == 200:
                        break
                except (urllib.error.URLError, ConnectionError):
                    pass
                if server.poll() is not None:
                    log.seek(0)
                    pytest.fail(f"gunicorn stopped: {log.read().decode()[-3000:]}")
                time.sleep(0.1)
            else:
                pytest.fail("gunicorn did not answer /healthz")
            yield address
        finally:
            server.terminate()
            server.wait(timeout=30)


def _joueur(primary: Server) -> tuple[int, int, str]:
    """The demo player « joueur »: licence number, club number and season of their latest
    official ranking entry."""
    ((licence, club, season),) = primary.sql(
        """SELECT p.licence_number, c.number, s.name
             FROM federation_user u JOIN federation_player p ON p.id = u.player_id
             JOIN federation_licence l ON l.player_id = p.id
             JOIN federation_club c ON c.id = l.club_id
             JOIN federation_season s ON s.id = l.season_id
             JOIN rankings_seasonranking r ON r.season_id = s.id AND r.official_id IS NOT NULL
            WHERE u.username = 'joueur' ORDER BY s.start_date DESC LIMIT 1""",
        "fft",
    )
    return licence, club, season


def _named(client: Browser, address: str, licence: int, club: int, season: str) -> bool:
    """Whether the public ranking of ``club`` names the player ``licence`` (a hidden player
    appears without licence number)."""
    query = urllib.parse.urlencode(
        {"season": season, "kind": "official", "club": club, "page_size": 200}
    )
    status, body = client.send("GET", f"{address}/api/pcn/ranking/?{query}")
    assert status == 200, body[:500]
    return any(line["licence_number"] == licence for line in json.loads(body)["results"])


def test_public_reads_follow_the_standby_and_a_writer_reads_their_write(primary_and_standby, site):
    primary, standby = primary_and_standby
    licence, club, season = _joueur(primary)
    stranger = Browser()
    assert _named(stranger, site, licence, club, season)

    player = Browser()  # « joueur » signs in, then objects to appearing by name
    player.send("GET", f"{site}/compte/connexion/")
    signed_in = player.send("POST", f"{site}/compte/connexion/", form={
        "username": "joueur", "password": "demo-fft",
        "csrfmiddlewaretoken": player.cookie("csrftoken"),
    })  # fmt: skip
    assert signed_in[0] == 302, signed_in[1][:500]
    standby.sql("SELECT pg_wal_replay_pause()")  # the standby falls behind, as long as we like
    hidden = player.send(
        "PUT", f"{site}/api/federation/players/{licence}/privacy/", body={"name_hidden": True},
        headers={"X-CSRFToken": player.cookie("csrftoken")},
    )  # fmt: skip
    assert hidden[0] == 200, hidden[1][:500]
    assert primary.sql(
        f"SELECT name_hidden FROM federation_player WHERE licence_number = {licence}", "fft"
    ) == [(True,)]

    # A signed-in reader's answers are built for them, from the primary; signed out, the
    # player reads as the public does, but their own write at once, from the primary.
    signed_out = player.send(
        "POST", f"{site}/compte/deconnexion/",
        form={"csrfmiddlewaretoken": player.cookie("csrftoken")},
    )  # fmt: skip
    assert signed_out[0] == 302
    assert player.cookie("sessionid") is None
    assert not _named(player, site, licence, club, season)
    assert _named(stranger, site, licence, club, season)  # the public: the standby, behind

    standby.sql("SELECT pg_wal_replay_resume()")
    deadline = time.monotonic() + LAG_BOUND_S
    while _named(stranger, site, licence, club, season):
        assert time.monotonic() < deadline, f"the standby did not catch up in {LAG_BOUND_S} s"
        time.sleep(0.1)
    assert standby.sql(
        f"SELECT name_hidden FROM federation_player WHERE licence_number = {licence}", "fft"
    ) == [(True,)]
