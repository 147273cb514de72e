"""Suite-wide fixtures: a real Celery worker process, the API client, a small registry.

Imports of Django and DRF stay inside the fixtures so that the pure rules
tests also run with ``-p no:django``.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from federation.models import Club, Committee, Player, Season, User, Zone

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _empty_read_cache(request):
    """Every test starts with an empty cache: the public reads' cache (core/http/http_cache.py)
    keys on ids that a rolled-back test may hand out again."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.core.cache import cache

    from core.http.http_cache import recent
    from rankings.reads.read_versions import memo_forget, refresher

    cache.clear()
    recent.clear()
    memo_forget()
    yield
    refresher.stop()  # its connection goes before the test's database does


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


def _database_url() -> str:
    from django.conf import settings

    db = settings.DATABASES["default"]
    if "postgresql" not in db["ENGINE"]:
        pytest.fail("the Celery worker test needs PostgreSQL: run the suite with DATABASE_URL set")
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def _reset_connections(app) -> None:
    """Drop the app's broker connections and the objects that cache them (the
    pool, routing with its default queue, the control mailbox), so the next
    use connects to the broker now configured."""
    from kombu import pools

    pools.reset()  # kombu keeps its pools in a global registry, by URL
    app._pool = None
    for cached in ("amqp", "control"):
        app.__dict__.pop(cached, None)


@dataclass(frozen=True)
class CeleryWorker:
    """The worker the ``celery_worker_process`` fixture started: its node name, and the
    prefix of every queue it consumes (unique to the run: no other worker on the machine
    takes our tasks)."""

    node: str
    prefix: str
    process: subprocess.Popen = field(repr=False)

    def queue(self, kind: str) -> str:
        """This run's name of the queue ``kind`` (``live``, ``asof``…, ``celery``)."""
        return self.prefix + kind


def celery_routing(prefix: str) -> dict:
    """The settings that route this process's tasks to the queues named with ``prefix``:
    the project's routing (``CELERY_TASK_ROUTES``), each queue renamed."""
    from django.conf import settings

    own = settings.CELERY_QUEUE_PREFIX
    return {
        "CELERY_TASK_DEFAULT_QUEUE": prefix + settings.CELERY_TASK_DEFAULT_QUEUE[len(own) :],
        "CELERY_TASK_ROUTES": {
            task: {"queue": prefix + route["queue"][len(own) :]}
            for task, route in settings.CELERY_TASK_ROUTES.items()
        },
    }


def start_celery_worker(
    prefix: str,
    name: str,
    kinds: tuple[str, ...] | None = None,
    log: Path | None = None,
    **env: str,
) -> subprocess.Popen:
    """A real ``celery worker`` subprocess on the test database consuming every queue
    of ``settings.CELERY_QUEUES_BY_KIND`` (or those of ``kinds``: ``("asof",)``) under
    ``prefix``, answering pings as ``name@host``; ``log``: the file it writes its log to
    (INFO), else its warnings go to the test's output; ``env``: settings of its own
    (``RECOMPUTE_HEARTBEAT_S``…)."""
    from django.conf import settings

    from config.celery import app as celery_app

    own = settings.CELERY_QUEUE_PREFIX
    every = [queue[len(own) :] for queue in settings.CELERY_QUEUES_BY_KIND]
    queues = ",".join(prefix + kind for kind in every if kinds is None or kind in kinds)
    environment = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DATABASE_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": celery_app.conf.broker_url,
        "CELERY_QUEUE_PREFIX": prefix,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        **env,
    }
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
               f"--loglevel={'INFO' if log else 'WARNING'}", "--without-gossip",
               "--without-mingle", "--without-heartbeat",
               "-Q", queues, "-n", f"{name}@%h"]  # fmt: skip
    if log is None:
        worker = subprocess.Popen(command, cwd=ROOT, env=environment)
    else:
        with log.open("w") as log_file:  # the child keeps its own descriptor
            worker = subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=log_file, stderr=subprocess.STDOUT
            )
    deadline = time.monotonic() + 30
    while not celery_app.control.ping(destination=[f"{name}@{os.uname().nodename}"], timeout=0.5):
        if worker.poll() is not None or time.monotonic() > deadline:
            worker.kill()
            pytest.fail(f"Celery worker did not start (exit code {worker.poll()})")
    return worker


def stop_celery_worker(worker: subprocess.Popen) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=15)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait(timeout=15)


@pytest.fixture
def celery_broker(transactional_db):
    """This process sends its tasks through Redis (not eagerly), to queues named with a
    prefix unique to this run; yields the prefix. No worker: see ``celery_worker_process``."""
    from config.celery import app as celery_app

    broker = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
    prefix = f"fft-test-{uuid.uuid4().hex[:8]}-"
    # The app reads its settings under the CELERY_ namespace: those keys win.
    overrides = {
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": False,
        **celery_routing(prefix),
    }
    saved = {key: celery_app.conf.get(key) for key in overrides}
    celery_app.conf.update(overrides)
    _reset_connections(celery_app)
    try:
        yield prefix
    finally:
        celery_app.conf.update(saved)
        _reset_connections(celery_app)


@pytest.fixture
def start_worker(celery_broker):
    """A factory: ``start_worker(name, kinds=None, **env)`` starts another real worker
    consuming every queue of this run, or those of ``kinds`` (``env``: its own settings);
    each is stopped after the test unless the test killed it."""
    started: list[subprocess.Popen] = []

    def start(name: str, kinds: tuple[str, ...] | None = None, **env: str) -> subprocess.Popen:
        worker = start_celery_worker(celery_broker, f"{celery_broker}{name}", kinds, **env)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        stop_celery_worker(worker)


@pytest.fixture
def celery_worker_log(tmp_path) -> Path:
    """The file the ``celery_worker_process`` fixture's worker writes its log to (INFO)."""
    return tmp_path / "celery-worker.log"


@pytest.fixture
def celery_worker_process(celery_broker, celery_worker_log):
    """A real `celery worker` subprocess on the test database, fed through Redis, consuming
    every queue (``settings.CELERY_QUEUES_BY_KIND``) under this run's prefix. Tasks sent
    by the test go through the broker (not eagerly). The worker's log goes to
    ``celery_worker_log``, shown with a failing test's output."""
    name = celery_broker.rstrip("-")
    worker = start_celery_worker(celery_broker, name, log=celery_worker_log)
    try:
        yield CeleryWorker(f"{name}@{os.uname().nodename}", celery_broker, worker)
    finally:
        stop_celery_worker(worker)
        sys.stderr.write(celery_worker_log.read_text(encoding="utf-8", errors="replace"))


class OwnRedis:
    """A throw-away ``redis-server`` of one test, on a free port of 20000-29999 (never
    the shared Redis): :meth:`url` of one of its databases, :meth:`stop` (SIGTERM, as an
    orchestrator stops it; its port then refuses connections)."""

    def __init__(self, directory: Path) -> None:
        import random
        import socket

        rng = random.Random()
        for _ in range(50):
            port = rng.randint(20000, 29999)
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) != 0:
                    break
        self.port = port
        directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not start on port {port}")
            time.sleep(0.05)

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def answers(self) -> bool:
        import socket

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        assert not self.answers()


@pytest.fixture
def own_redis(tmp_path):
    """A throw-away redis-server for an outage test (:class:`OwnRedis`), stopped at the end."""
    server = OwnRedis(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def wait_for():
    """Poll a predicate until it returns a truthy value or the timeout passes."""

    def poll(predicate, timeout: float = 30.0, interval: float = 0.1):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(interval)
        return predicate()

    return poll


@dataclass
class Registry:
    """What the ``registry`` fixture built, by number (licence, club, committee,
    zone) and by role name."""

    season: Season
    previous: Season
    zones: dict[int, Zone]
    committees: dict[int, Committee]
    clubs: dict[int, Club]
    players: dict[int, Player]
    users: dict[str, User | None] = field(default_factory=dict)

    def token(self, role: str) -> str:
        """A new API token key for ``role``'s user (only its digest is stored)."""
        from federation.api_tokens import api_token_issue

        return api_token_issue(user=self.users[role])[1]


@pytest.fixture
def registry(db) -> Registry:
    """A small federation: two zones, two committees, three clubs, two seasons,
    players licensed in each club, and one user per role."""
    from federation.models import (
        ArbiterAccreditation,
        ArbiterGrade,
        Club,
        ClubAffiliation,
        Committee,
        Licence,
        Player,
        Role,
        RoleAssignment,
        Season,
        User,
        Zone,
    )

    previous = Season.objects.create(
        name="2025-2026", start_date=dt.date(2025, 7, 1), end_date=dt.date(2026, 6, 30)
    )
    season = Season.objects.create(
        name="2026-2027", start_date=dt.date(2026, 7, 1), end_date=dt.date(2027, 6, 30)
    )
    zones = {n: Zone.objects.create(number=n, name=f"Zone {n}") for n in (1, 2)}
    committees = {
        1: Committee.objects.create(number=1, name="Rhône-Alpes", zone=zones[1]),
        2: Committee.objects.create(number=2, name="Bretagne", zone=zones[2]),
    }
    clubs = {
        101: Club.objects.create(number=101, name="Tarot Club de Lyon", committee=committees[1]),
        102: Club.objects.create(number=102, name="Excuse Grenobloise", committee=committees[1]),
        201: Club.objects.create(number=201, name="Petit au Bout Rennes", committee=committees[2]),
    }
    for number in (101, 102, 201):  # affiliated this season (none recorded for the previous one)
        ClubAffiliation.objects.create(club=clubs[number], season=season)
    people = [
        (1001, "Martin", "Élise", dt.date(1950, 3, 2), 101),
        (1002, "Lefèvre", "Jérôme", dt.date(1980, 11, 20), 101),
        (1003, "Dubois", "Anaïs", dt.date(1972, 5, 5), 102),
        (2001, "Le Gall", "Yannick", dt.date(1961, 1, 15), 201),
        (2002, "Quéré", "Maëlle", dt.date(1999, 8, 30), 201),
    ]
    players = {}
    for licence_number, last, first, born, club in people:
        player = Player.objects.create(
            licence_number=licence_number,
            last_name=last,
            first_name=first,
            birth_date=born,
            email=f"{licence_number}@example.org",
        )
        Licence.objects.create(player=player, season=season, club=clubs[club])
        Licence.objects.create(player=player, season=previous, club=clubs[club])
        players[licence_number] = player
    ArbiterAccreditation.objects.create(
        player=players[1002], season=season, grade=ArbiterGrade.REGIONAL
    )

    def user(name: str, **kwargs) -> User:
        return User.objects.create_user(username=name, password="x", **kwargs)

    users: dict[str, User | None] = {
        "anonymous": None,
        "player": user("player", player=players[1001]),
        "arbiter": user("arbiter", player=players[1002]),
        "club_manager": user("club_manager"),
        "committee_staff": user("committee_staff"),
        "zone_staff": user("zone_staff"),
        "federation_staff": user("federation_staff", is_staff=True),
    }
    RoleAssignment.objects.create(
        user=users["club_manager"], role=Role.CLUB_MANAGER, club=clubs[101]
    )
    RoleAssignment.objects.create(
        user=users["committee_staff"], role=Role.COMMITTEE_STAFF, committee=committees[1]
    )
    RoleAssignment.objects.create(user=users["zone_staff"], role=Role.ZONE_STAFF, zone=zones[1])
    RoleAssignment.objects.create(user=users["federation_staff"], role=Role.FEDERATION_STAFF)
    return Registry(season, previous, zones, committees, clubs, players, users)


@pytest.fixture
def declare_tournament(api, registry):
    """A factory: club 101's manager declares the "Open de Lyon" (individual, 5 December
    2026, arbiter 1002) through the API and gets the tournament back; the API client
    stays signed in as the club manager."""

    def declare():
        from competitions.models import Tournament

        api.force_authenticate(registry.users["club_manager"])
        response = api.post(
            "/api/tournaments/",
            {"name": "Open de Lyon", "date": "2026-12-05", "venue": "Lyon", "format": "individual",
             "organizer_kind": "club", "organizer_number": 101, "arbiter_licence_number": 1002},
            format="json",
        )  # fmt: skip
        assert response.status_code == 201, response.json()
        return Tournament.objects.get(pk=response.json()["id"])

    return declare
