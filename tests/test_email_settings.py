"""E-mail settings from the environment: the console by default, files or SMTP on request,
a bad value refused when the service starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOW = (
    "from django.conf import settings as s; "
    "print(s.EMAIL_BACKEND, s.EMAIL_PORT, s.DEFAULT_FROM_EMAIL)"
)


def start(**variables: str) -> subprocess.CompletedProcess[str]:
    """``manage.py shell`` with these variables only (no e-mail variable inherited)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DEFAULT_FROM"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **variables)
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", SHOW],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_console_by_default_files_or_smtp_on_request(tmp_path):
    assert "backends.console.EmailBackend 587" in start().stdout
    assert "backends.filebased.EmailBackend" in start(EMAIL_FILE_PATH=str(tmp_path)).stdout
    smtp = start(EMAIL_HOST="smtp.example.org", EMAIL_PORT="465",
                 DEFAULT_FROM_EMAIL="FFT <tarot@example.org>")  # fmt: skip
    assert smtp.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend", "465",
                                   "FFT", "<tarot@example.org>"]  # fmt: skip


@pytest.mark.parametrize(
    ("variables", "reason"),
    [
        ({"EMAIL_PORT": "25x"}, "EMAIL_PORT must be a port number"),
        ({"EMAIL_PORT": "70000"}, "EMAIL_PORT must be a port number"),
        ({"EMAIL_USE_TLS": "perhaps"}, "EMAIL_USE_TLS must be a boolean"),
        ({"EMAIL_HOST": "smtp.example.org"}, "DEFAULT_FROM_EMAIL is required"),
        ({"DEFAULT_FROM_EMAIL": "tarot"}, "DEFAULT_FROM_EMAIL must be an address"),
        ({"EMAIL_HOST": "smtp.example.org", "EMAIL_FILE_PATH": "/tmp/mail",
          "DEFAULT_FROM_EMAIL": "tarot@example.org"}, "not both"),
    ],
)  # fmt: skip
def test_a_bad_value_stops_the_start(variables, reason):
    result = start(**variables)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert reason in result.stderr
