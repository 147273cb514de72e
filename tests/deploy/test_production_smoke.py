"""docker-compose.yml, run natively: every service started as a process with the command
and the environment Compose gives its container, every healthcheck run as written, and
the site fetched through nginx as the TLS-terminating load balancer in front would.

There is no Docker engine here, so each service's host name (``postgres``, ``pgbouncer``,
``redis-broker``…) becomes 127.0.0.1 and a free port, its database the test's own; the
env_file is `.env.example` as it stands. Debian's ``nginx-light``, ``pgbouncer`` and
``redis-server`` stand for the images (`.ci/run` installs the first two). Every process is
started in its own process group and killed, group and all, in ``finally``.
"""

from __future__ import annotations

import contextlib
import csv
import http.client
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.deploy.compose import (
    ENV_EXAMPLE,
    IMAGE_ENV,
    ROOT,
    Address,
    Service,
    localize_url,
    read_env_file,
    services,
)

BIN = Path(sys.executable).parent
PATH = f"{BIN}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
LOCAL = "127.0.0.1"
PROXY_SOURCE = "127.0.0.2"  # the proxy's address, as seen by gunicorn
METRICS_TOKEN = "a-metrics-token-for-the-smoke-test-0123456789"
REDIS = ("redis-broker", "redis-cache", "redis-store")
# How long the services may take to become healthy (Compose gives web 10 tries 10 s apart),
# and one healthcheck run (the workers' allow 15 s).
START_TIMEOUT_S = 90
CHECK_TIMEOUT_S = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOCAL, 0))
        return int(sock.getsockname()[1])


def replaced(text: str, *pairs: tuple[str, str]) -> str:
    """``text`` with each ``old`` made ``new``; each must be there (a compose file that
    changed under the test fails here rather than testing something else)."""
    for old, new in pairs:
        assert old in text, f"{old!r} not in {text!r}"
        text = text.replace(old, new)
    return text


def swapped(argv: list[str], old: str, new: str) -> list[str]:
    assert old in argv, f"{old!r} not in {argv}"
    return [new if part == old else part for part in argv]


class Processes:
    """The services' processes, each in its own group, with its output in a log file."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.running: dict[str, subprocess.Popen] = {}

    def start(self, name: str, argv: list[str], env: Mapping[str, str]) -> None:
        with (self.directory / f"{name}.log").open("wb") as log:
            self.running[name] = subprocess.Popen(
                argv, cwd=ROOT, env=dict(env), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def log(self, name: str) -> str:
        path = self.directory / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def check_alive(self) -> None:
        for name, process in self.running.items():
            if process.poll() is not None:
                pytest.fail(f"{name} exited ({process.returncode}):\n{self.log(name)}")

    def stop_all(self) -> None:
        for process in self.running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 3  # then killed: nothing here needs a clean stop
        for process in self.running.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            # the group: gunicorn's and Celery's children, nginx's workers
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def finished(attempt: subprocess.Popen, timeout_s: float) -> bytes:
    """The output of one healthcheck run; killed (so failed) past Docker's timeout."""
    try:
        return attempt.communicate(timeout=timeout_s)[0]
    except subprocess.TimeoutExpired:
        attempt.kill()
        return attempt.communicate()[0] + b"\n(killed: past the healthcheck's timeout)"


def wait_healthy(checks: Mapping[str, tuple[str, Mapping[str, str]]], processes: Processes):
    """Run each healthcheck (a shell command line, as Docker runs CMD-SHELL) until it
    passes, all of them side by side; fail with the service's log if one never does."""
    pending = dict(checks)
    deadline = time.monotonic() + START_TIMEOUT_S
    while pending:
        attempts = {
            name: subprocess.Popen(["sh", "-c", line], env=dict(env), cwd="/",
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            for name, (line, env) in pending.items()
        }  # fmt: skip
        outputs = {name: finished(attempt, CHECK_TIMEOUT_S) for name, attempt in attempts.items()}
        for name, attempt in attempts.items():
            if attempt.returncode == 0:
                del pending[name]
        if not pending:
            return
        processes.check_alive()
        if time.monotonic() > deadline:
            name = next(iter(pending))
            pytest.fail(
                f"healthcheck of {name} never passed: {pending[name][0]}\n"
                f"{outputs[name].decode(errors='replace')}\n{processes.log(name)}"
            )
        time.sleep(0.5)


def pgbouncer_ini(service: Service, port: int, directory: Path, db: dict) -> Path:
    """The edoburu/pgbouncer image's configuration from its environment (its entrypoint
    writes the same keys), pointed at this machine's PostgreSQL and the test's database.
    The local PostgreSQL trusts its clients: so does this PgBouncer."""
    env = service.environment({})
    assert (env["DB_HOST"], env["DB_NAME"]) == ("postgres", "fft")
    (directory / "users.txt").write_text(f'"{db["USER"]}" ""\n')
    prepared = int(env.get("MAX_PREPARED_STATEMENTS", "0"))
    ini = directory / "pgbouncer.ini"
    ini.write_text(
        "[databases]\n"
        f"{db['NAME']} = host={db['HOST'] or LOCAL} port={db['PORT'] or 5432} dbname={db['NAME']}\n"
        "[pgbouncer]\n"
        f"listen_addr = {LOCAL}\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {directory / 'users.txt'}\nstats_users = {db['USER']}\n"
        f"pool_mode = {env['POOL_MODE']}\nmax_client_conn = {env['MAX_CLIENT_CONN']}\n"
        f"default_pool_size = {env['DEFAULT_POOL_SIZE']}\n"
        "ignore_startup_parameters = extra_float_digits\n"
        + (f"max_prepared_statements = {prepared}\n" if prepared else "")
    )
    return ini


def nginx_conf(port: int, web_port: int, directory: Path) -> Path:
    """The image's main configuration around deploy/nginx.conf (its conf.d/default.conf),
    with ``web:8000`` and the listening port made local. nginx reaches gunicorn from
    another address than gunicorn's own, as from another container: gunicorn trusts
    X-Forwarded-Proto only from its own host (``forwarded_allow_ips``), so the scheme is
    left to Django's DJANGO_SECURE_PROXY_SSL_HEADER, as in Docker."""
    site = replaced(
        (ROOT / "deploy" / "nginx.conf").read_text(),
        ("listen 80;", f"listen {LOCAL}:{port};"),
        ("http://web:8000", f"http://{LOCAL}:{web_port}"),
    )
    (directory / "default.conf").write_text(site)
    temp = "".join(
        f"  {kind}_temp_path {directory}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = directory / "nginx.conf"
    main.write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"worker_processes 1;\npid {directory}/nginx.pid;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n  include /etc/nginx/mime.types;\n  access_log {directory}/access.log;\n{temp}"
        f"  proxy_bind {PROXY_SOURCE};\n  include {directory}/default.conf;\n}}\n"
    )
    return main


@dataclass
class Deployment:
    """The running services: where the proxy and each Redis listen, what passed."""

    compose: dict[str, Service]
    ports: dict[str, int]
    host: str  # the first of DJANGO_ALLOWED_HOSTS in .env.example
    workers: list[str]
    db_user: str
    healthy: set[str] = field(default_factory=set)

    def request(
        self,
        path: str,
        proto: str | None = None,
        method: str = "GET",
        body: str = "",
        headers: Mapping[str, str] | None = None,
        service: str = "proxy",
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """``path`` through the proxy, as the load balancer forwards it (``proto``: the
        X-Forwarded-Proto it sets; None: a client reaching nginx directly); or straight to
        ``service`` (``web``), as from inside the network."""
        sent = {"Host": self.host, **(headers or {})}
        if proto:
            sent["X-Forwarded-Proto"] = proto
        connection = http.client.HTTPConnection(LOCAL, self.ports[service], timeout=30)
        try:
            connection.request(method, path, body=body or None, headers=sent)
            response = connection.getresponse()
            return response.status, response.msg, response.read()
        finally:
            connection.close()

    def pgbouncer(self, command: str) -> list[dict[str, str]]:
        """A ``SHOW`` of PgBouncer's console, one dict a row."""
        argv = ["psql", "-h", LOCAL, "-p", str(self.ports["pgbouncer"]), "-U", self.db_user,
                "-d", "pgbouncer", "--csv", "-c", command]  # fmt: skip
        out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
        return list(csv.DictReader(io.StringIO(out)))

    def redis(self, service: str, *command: str) -> list[str]:
        argv = ["redis-cli", "-p", str(self.ports[service]), *command]
        return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.split()


@pytest.fixture(scope="module")
def deployment(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Deployment]:
    from django.core.management import call_command
    from django.db import connection

    db = connection.settings_dict  # the test database, migrated
    assert "postgresql" in db["ENGINE"], "the smoke test runs on PostgreSQL (DATABASE_URL)"
    for command in ("nginx", "pgbouncer", "redis-server", "redis-cli", "pg_isready"):
        assert shutil.which(command, path=PATH), f"{command} missing (.ci/run installs it)"
    tmp_path = tmp_path_factory.mktemp("compose")
    tmp_path.chmod(0o755)  # PgBouncer runs as postgres when we are root

    env_file = read_env_file(ENV_EXAMPLE) | {"METRICS_TOKEN": METRICS_TOKEN}  # an operator's
    compose = services(env_file)  # Compose interpolates the file with .env's variables
    ports = {name: free_port() for name in (*REDIS, "pgbouncer", "web", "proxy")}
    addresses = {name: Address(LOCAL, port) for name, port in ports.items()}
    addresses["postgres"] = Address(db["HOST"] or LOCAL, int(db["PORT"] or 5432))
    hostname = socket.gethostname()
    plain_env = {"PATH": PATH, "HOME": str(tmp_path), "HOSTNAME": hostname}

    def in_container(name: str, text: str) -> str:
        """A container's /tmp is its own: here, a folder of the test's per service."""
        (tmp_path / "tmp" / name).mkdir(parents=True, exist_ok=True)
        return text.replace("/tmp/", f"{tmp_path}/tmp/{name}/")

    def app_env(service: Service) -> dict[str, str]:
        env = service.environment(env_file)
        env = {k: localize_url(v, addresses, db["NAME"], db["USER"]) for k, v in env.items()}
        env = {k: in_container(service.name, v) for k, v in env.items()}
        return {**IMAGE_ENV, **env, **plain_env}

    def command(name: str) -> list[str]:
        return [in_container(name, part) for part in compose[name].command]

    # Each healthcheck as written, its host names and ports made local.
    pg = addresses["postgres"]
    checks = {
        "postgres": replaced(
            compose["postgres"].healthcheck,
            ("-U fft -d fft", f"-h {pg.host} -p {pg.port} -U {db['USER']} -d {db['NAME']}"),
        ),
        "pgbouncer": replaced(
            compose["pgbouncer"].healthcheck,
            ("-p 5432 -U fft -d fft", f"-p {ports['pgbouncer']} -U {db['USER']} -d {db['NAME']}"),
        ),
        **{
            name: replaced(compose[name].healthcheck, ("redis-cli", f"redis-cli -p {ports[name]}"))
            for name in REDIS
        },
        "web": replaced(compose["web"].healthcheck, ("127.0.0.1:8000", f"{LOCAL}:{ports['web']}")),
        "proxy": replaced(
            compose["proxy"].healthcheck, ("http://127.0.0.1/", f"http://{LOCAL}:{ports['proxy']}/")
        ),
    }
    workers = [name for name, service in compose.items() if "worker" in service.command]
    checks |= {name: in_container(name, compose[name].healthcheck) for name in (*workers, "beat")}
    host = env_file["DJANGO_ALLOWED_HOSTS"].split(",")[0]
    deployment = Deployment(compose, ports, host, workers, db["USER"])

    processes = Processes(tmp_path)
    try:
        for name in REDIS:
            (tmp_path / name).mkdir()
            local = ["--port", str(ports[name]), "--bind", LOCAL, "--dir", str(tmp_path / name)]
            processes.start(name, [*compose[name].command, *local], plain_env)
        as_postgres = ["-u", "postgres"] if os.geteuid() == 0 else []
        ini = pgbouncer_ini(compose["pgbouncer"], ports["pgbouncer"], tmp_path, db)
        processes.start("pgbouncer", ["pgbouncer", *as_postgres, str(ini)], plain_env)
        # The image's build step (Dockerfile), meanwhile: the static files and their manifest.
        collectstatic = subprocess.Popen(
            ["python", "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT,
            env={**app_env(compose["migrate"]), "DJANGO_SECRET_KEY": "collectstatic-only-" * 4},
        )  # fmt: skip
        backing = ("postgres", "pgbouncer", *REDIS)
        wait_healthy({name: (checks[name], plain_env) for name in backing}, processes)
        migrate = subprocess.run(command("migrate"), cwd=ROOT, capture_output=True,
                                 env=app_env(compose["migrate"]))  # fmt: skip
        assert migrate.returncode == 0, migrate.stderr[-3000:]

        for name in (*workers, "beat"):
            processes.start(name, command(name), app_env(compose[name]))
        assert collectstatic.wait(timeout=120) == 0
        web = swapped(command("web"), "0.0.0.0:8000", f"{LOCAL}:{ports['web']}")
        processes.start("web", web, app_env(compose["web"]))
        main = nginx_conf(ports["proxy"], ports["web"], tmp_path)
        nginx = ["nginx", "-p", str(tmp_path), "-c", str(main), "-e", str(tmp_path / "proxy.log"),
                 "-g", "daemon off;"]  # fmt: skip
        processes.start("proxy", nginx, plain_env)
        wait_healthy(
            {name: (checks[name], app_env(compose[name])) for name in ("web", *workers, "beat")}
            | {"proxy": (checks["proxy"], plain_env)},
            processes,
        )
        deployment.healthy = set(checks)
        yield deployment
        processes.check_alive()
    finally:
        processes.stop_all()
        with django_db_blocker.unblock():  # what the services wrote (sessions, attempts)
            call_command("flush", interactive=False, verbosity=0)


# The services write to the test database through their own connections: these tests run
# with the transactional ones, after every test that expects the rows the migrations
# wrote. The fixture empties the database once the services stopped; each test, which
# reads nothing itself, empties no table (no app available in this process).
pytestmark = pytest.mark.django_db(transaction=True, available_apps=[])


def test_every_service_but_migrate_passes_its_healthcheck_as_written(deployment):
    assert deployment.healthy == set(deployment.compose) - {"migrate"}
    assert {"worker-live", "worker-publication", "worker-asof", "worker-email", "worker"} <= set(
        deployment.workers
    )


def test_https_from_the_load_balancer_is_served_not_redirected_again(deployment):
    for path in ("/", "/calendrier/", "/api/public/tournaments/"):
        status, headers, body = deployment.request(path, "https")
        assert status == 200, (path, status, headers["Location"], body[:300])
        assert "max-age=" in headers["Strict-Transport-Security"]
    status, headers, body = deployment.request("/api/public/tournaments/", "https")
    assert headers["Content-Type"] == "application/json"
    assert "results" in json.loads(body)


def test_plain_http_is_redirected_to_https_once(deployment):
    for proto in (None, "http", "gopher"):  # nginx directly; the load balancer on :80; junk
        status, headers, _ = deployment.request("/calendrier/?page=2", proto)
        assert (status, headers["Location"]) == (
            301,
            f"https://{deployment.host}/calendrier/?page=2",
        )
    # Following the redirect, as the load balancer forwards it: served.
    status, _, _ = deployment.request("/calendrier/?page=2", "https")
    assert status == 200


@pytest.mark.parametrize("port", ["", ":8443"])  # the site on the standard port, or not
def test_a_form_posted_through_the_load_balancer_passes_the_csrf_check(deployment, port):
    host = {"Host": deployment.host + port}
    status, headers, body = deployment.request("/compte/connexion/", "https", headers=host)
    assert status == 200
    cookie = next(c for c in headers.get_all("Set-Cookie") if c.startswith("csrftoken="))
    assert "Secure" in cookie
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)[1].decode()
    form = f"csrfmiddlewaretoken={token}&username=personne&password=faux"
    origin = f"https://{deployment.host}{port}"  # what the browser sends: with the port
    headers = {
        **host,
        "Cookie": cookie.split(";")[0],
        "Origin": origin,
        "Referer": f"{origin}/compte/connexion/",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    status, _, body = deployment.request("/compte/connexion/", "https", "POST", form, headers)
    assert status == 200, body[:500]  # the form again, with its error: not a 403


def test_healthz_answers_over_plain_http_with_every_dependency_up(deployment):
    status, _, body = deployment.request("/healthz")
    assert status == 200
    roles = {"database": "ok", "broker": "ok", "cache": "ok", "store": "ok"}  # each configured
    assert json.loads(body) == {"status": "ok", **roles}


def test_each_redis_keeps_to_its_role(deployment):
    assert deployment.redis("redis-cache", "config", "get", "maxmemory-policy")[1] == "allkeys-lru"
    assert int(deployment.redis("redis-cache", "config", "get", "maxmemory")[1]) > 0
    assert deployment.redis("redis-store", "config", "get", "maxmemory-policy")[1] == "noeviction"
    assert deployment.redis("redis-store", "config", "get", "appendonly")[1] == "yes"
    assert deployment.redis("redis-broker", "config", "get", "maxmemory-policy")[1] == "noeviction"
    assert deployment.redis("redis-broker", "config", "get", "appendonly")[1] == "yes"
    deployment.request("/api/public/tournaments/", "https")
    assert int(deployment.redis("redis-cache", "dbsize")[0]) > 0  # the rate limits' counters
    assert int(deployment.redis("redis-broker", "dbsize")[0]) > 0


def test_each_worker_listens_on_its_queue_through_the_broker(deployment):
    """Which queues those are: tests/deploy/test_compose_queues.py."""
    consumed = set()
    for name in deployment.workers:
        command = deployment.compose[name].command
        consumed.add(command[command.index("-Q") + 1])
    bindings = set(deployment.redis("redis-broker", "keys", "_kombu.binding.*"))
    assert {f"_kombu.binding.{queue}" for queue in consumed} <= bindings


def test_web_reaches_postgresql_through_pgbouncer_in_transaction_mode(deployment):
    pools = [row for row in deployment.pgbouncer("SHOW POOLS") if row["database"] != "pgbouncer"]
    assert pools
    assert {pool["pool_mode"] for pool in pools} == {"transaction"}
    before = sum(int(row["total_xact_count"]) for row in deployment.pgbouncer("SHOW STATS"))
    status, _, _ = deployment.request("/api/public/tournaments/?page_size=7", "https")
    assert status == 200
    after = sum(int(row["total_xact_count"]) for row in deployment.pgbouncer("SHOW STATS"))
    assert after > before


def requests_counted(deployment: Deployment, view: str) -> int:
    """The requests of ``view`` in a scrape of one web replica, as Prometheus makes it."""
    status, _, body = deployment.request(
        "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, service="web"
    )
    assert status == 200
    pattern = rf'^fft_http_requests_total{{[^}}]*view="{view}"[^}}]*}} ([0-9.e+]+)$'
    return int(sum(float(m[1]) for m in re.finditer(pattern, body.decode(), re.MULTILINE)))


def test_the_metrics_sum_every_gunicorn_worker_and_stay_inside_the_network(deployment):
    before = requests_counted(deployment, "public-api-calendar")
    for _ in range(6):
        assert deployment.request("/api/public/tournaments/", "https")[0] == 200
    assert requests_counted(deployment, "public-api-calendar") == before + 6
    bearer = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    assert deployment.request("/metrics", "https", headers=bearer)[0] == 404  # not outside


def test_the_request_id_is_the_load_balancers_or_the_proxys(deployment):
    _, headers, _ = deployment.request("/healthz", headers={"X-Request-ID": "lb-7f3a.1"})
    assert headers["X-Request-ID"] == "lb-7f3a.1"
    _, headers, _ = deployment.request("/healthz")
    assert re.fullmatch(r"[0-9a-f]{32}", headers["X-Request-ID"])
