"""The database unreachable: the site, served by gunicorn with debug off as in production,
answers every page and API call ``503 Service Unavailable`` with ``Retry-After`` (the API's
error shape under ``/api/``, a French page elsewhere), and serves again as soon as the
database is back.

The outage is real: the server reaches PostgreSQL through a TCP relay on its own port,
and the relay is stopped (its port closed, every connection through it cut), then started
again. The shared PostgreSQL itself is never stopped."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
RETRY_AFTER = "17"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Relay:
    """A TCP relay from a port of its own to PostgreSQL: ``stop`` closes the port and cuts
    every connection through it (the database is unreachable), ``start`` opens it again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = _free_port()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None

    def start(self) -> None:
        listener = socket.create_server(("127.0.0.1", self.port))
        listener.settimeout(0.1)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            for s in self._sockets:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._sockets.clear()

    def _accept(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self._lock:
                self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)


@pytest.fixture(scope="module")
def collected_static():
    """The static files as the production image collects them: with debug off, the pages
    name them through whitenoise's manifest."""
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": "collectstatic-only-never-used-to-sign-anything-0123456789",
    }
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip


@pytest.fixture
def relay():
    from django.db import connection

    relay = Relay((connection.settings_dict["HOST"] or "127.0.0.1",
                   int(connection.settings_dict["PORT"] or 5432)))  # fmt: skip
    relay.start()
    yield relay
    relay.stop()


@pytest.fixture
def server(relay, collected_static):
    """gunicorn with debug off, its database reached through the relay."""
    from django.db import connection

    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "a-test-secret-key-long-enough-for-the-production-checks-0123456789",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DATABASE_URL": f"postgres://{db['USER']}{password}@127.0.0.1:{relay.port}/{db['NAME']}",
        "DATABASE_CONN_MAX_AGE": "60",
        "CACHE_URL": "",
        "CELERY_BROKER_URL": "",
        "RANKING_STORE_URL": "off",
        "SERVICE_UNAVAILABLE_RETRY_AFTER_S": RETRY_AFTER,
        "LOG_LEVEL": "ERROR",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--workers", "1",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"gunicorn did not start (exit code {process.poll()})")
            time.sleep(0.2)
    yield port
    process.terminate()
    process.wait(timeout=15)


def get(port: int, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    answer = response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    connection.close()
    return answer


# Each reads the database (a public read the read cache holds may still be served from it).
PAGES = ["/", "/calendrier/", "/clubs/101/", "/comites/1/"]
API = ["/api/federation/seasons/", "/api/public/tournaments/", "/api/championships/titles/",
       "/api/tournaments/", "/api/federation/players/1001/"]  # fmt: skip


def test_the_database_unreachable_is_a_503_to_retry_then_the_site_serves_again(
    registry, relay, server
):
    for path in PAGES + API:
        status, _, body = get(server, path)
        assert status == 200, (path, body[:300])

    relay.stop()  # the database's port closed, every connection cut
    for path in PAGES:
        status, headers, body = get(server, path)
        assert status == 503, (path, body[:300])
        assert headers["retry-after"] == RETRY_AFTER
        assert headers["content-type"].startswith("text/html")
        page = body.decode()
        assert '<html lang="fr">' in page
        assert "Service momentanément indisponible" in page
        assert f"Réessayez dans {RETRY_AFTER}\u00a0secondes" in page
    for path in API:
        status, headers, body = get(server, path)
        assert status == 503, (path, body[:300])
        assert headers["retry-after"] == RETRY_AFTER
        assert headers["content-type"] == "application/json"
        [error] = json.loads(body)["errors"]
        assert error["field"] is None
        assert error["code"] == "service_unavailable"
        assert error["message"].startswith("Le service est momentanément indisponible")
    status, headers, body = get(server, "/api/federation/seasons/", **{"Accept-Language": "en"})
    assert status == 503
    assert "temporarily unavailable" in json.loads(body)["errors"][0]["message"]
    status, _, body = get(server, "/healthz")
    assert (status, json.loads(body)["database"]) == (503, "unavailable")

    relay.start()  # the database is back: the next request is served
    for path in PAGES + API:
        status, _, body = get(server, path)
        assert status == 200, (path, body[:300])
