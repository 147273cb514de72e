"""Rotating the secret key (docs/operations.md): what the previous key signed still
verifies once it is in DJANGO_SECRET_KEY_FALLBACKS, read from the environment as in
production (a fresh process, debug off); a short previous key is refused at start-up."""

from __future__ import annotations

import os
import subprocess
import sys

from django.core import signing

from federation.notification_choices import SALT
from tests.deploy.compose import ROOT

OLD_KEY = "the-previous-key-of-the-federation-at-least-fifty-characters-long-0001"
NEW_KEY = "the-new-key-of-the-federation-at-least-fifty-characters-long-000000002"
# An unsubscribe link's token, as an e-mail sent before the rotation carries it.
READ = (
    "import sys, django; django.setup()\n"
    "from federation.notification_choices import read_unsubscribe_token\n"
    "print(read_unsubscribe_token(sys.argv[1]))\n"
)


def run(token: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "-c", READ, token],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0", **env},
        capture_output=True,
        text=True,
    )


def old_link() -> str:
    return signing.dumps({"u": 7, "k": "step_changed"}, key=OLD_KEY, salt=SALT, compress=False)


def test_a_link_signed_with_the_previous_key_verifies_while_it_is_a_fallback():
    rotated = run(old_link(), DJANGO_SECRET_KEY=NEW_KEY, DJANGO_SECRET_KEY_FALLBACKS=OLD_KEY)
    assert rotated.returncode == 0, rotated.stderr[-2000:]
    assert rotated.stdout.strip() == "(7, 'step_changed')"


def test_without_the_fallback_the_link_is_refused():
    dropped = run(old_link(), DJANGO_SECRET_KEY=NEW_KEY)
    assert dropped.returncode != 0
    assert "BadUnsubscribeToken" in dropped.stderr


def test_a_short_previous_key_stops_the_service_at_start_up():
    short = run(old_link(), DJANGO_SECRET_KEY=NEW_KEY, DJANGO_SECRET_KEY_FALLBACKS="court")
    assert short.returncode != 0
    assert "DJANGO_SECRET_KEY_FALLBACKS" in short.stderr
