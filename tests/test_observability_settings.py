"""The observability settings from the environment: JSON logs when debug is off, text in
development, either on request; a bad value refused when the service starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOW = "from django.conf import settings as s; print(s.LOG_FORMAT, bool(s.METRICS_TOKEN))"
OBSERVABILITY = ("LOG_FORMAT", "METRICS_TOKEN", "PROMETHEUS_MULTIPROC_DIR", "SENTRY_DSN")
PRODUCTION = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "k" * 60}


def start(**variables: str) -> subprocess.CompletedProcess[str]:
    """``manage.py shell`` with these variables (none of the observability ones inherited)."""
    env = {k: v for k, v in os.environ.items() if k not in OBSERVABILITY}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **variables)
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", SHOW],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_json_logs_in_production_text_in_development_either_on_request():
    assert start(DJANGO_DEBUG="1").stdout.split() == ["text", "False"]
    assert start(**PRODUCTION).stdout.split() == ["json", "False"]
    assert start(DJANGO_DEBUG="1", LOG_FORMAT="json").stdout.split() == ["json", "False"]
    assert start(**PRODUCTION, LOG_FORMAT="text").stdout.split() == ["text", "False"]
    assert start(METRICS_TOKEN="t" * 32).stdout.split() == ["text", "True"]


@pytest.mark.parametrize(
    ("variables", "reason"),
    [
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be json or text"),
        ({"METRICS_TOKEN": "short"}, "METRICS_TOKEN must be at least 32 characters"),
        ({"PROMETHEUS_MULTIPROC_DIR": "/dev/null/metrics"}, "PROMETHEUS_MULTIPROC_DIR must be"),
        ({"SENTRY_DSN": "not a dsn"}, "BadDsn"),
    ],
)
def test_a_bad_value_stops_the_start(variables, reason):
    started = start(**variables)
    assert started.returncode != 0
    assert reason in started.stderr
