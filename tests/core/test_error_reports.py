"""Error reports (config/settings.py, SENTRY_DSN): off unless the variable is set; set,
an unhandled exception of a request reaches the DSN's server, tagged with the request
id. The server is a real local HTTP server standing for Sentry's ingestion; the request
fails for real (its database is a closed port)."""

from __future__ import annotations

import gzip
import http.server
import os
import socket
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import sentry_sdk

ROOT = Path(__file__).resolve().parents[2]

FAILING_REQUEST = """
import django
django.setup()
import sentry_sdk
from django.test import Client
client = Client(HTTP_HOST="localhost", raise_request_exception=False)
response = client.get("/", HTTP_X_REQUEST_ID="rid-for-sentry")
sentry_sdk.flush(timeout=10)
print(response.status_code)
"""


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _Ingest(http.server.BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        self.received.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


def test_without_sentry_dsn_nothing_is_initialised():
    assert not os.environ.get("SENTRY_DSN")
    assert not sentry_sdk.get_client().is_active()


def test_with_sentry_dsn_a_failing_request_is_reported_with_its_request_id():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Ingest)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        env = {
            **os.environ,
            "SENTRY_DSN": f"http://publickey@127.0.0.1:{server.server_address[1]}/1",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{_closed_port()}/fft",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LOG_LEVEL": "CRITICAL",
        }
        done = subprocess.run(
            [sys.executable, "-c", FAILING_REQUEST], env=env, cwd=ROOT, capture_output=True,
            text=True, timeout=120,
        )  # fmt: skip
    finally:
        server.shutdown()
    assert done.returncode == 0, done.stderr
    reports = b"\n".join(_Ingest.received)
    assert done.stdout.strip() == "500"  # (debug on here: Django's own error page)
    assert b"OperationalError" in reports
    assert b'"request_id":"rid-for-sentry"' in reports.replace(b" ", b"")
