"""Security basics over real requests: API rate limits, login lockout, the deployment
check, the Content-Security-Policy (config/throttling.py, config/csp.py, settings)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCORE = {"table_size": 4, "contract": "garde", "taker": "E", "oudlers": 2, "attack_points": 49}


@pytest.fixture
def rates(settings):
    """Low rates for one test, and counters that start from zero."""

    def set_rates(**scopes: str) -> None:
        base = {"anon": "1000/minute", "user_write": "1000/minute", "token_failures": "1000/hour"}
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": base | scopes,
        }

    cache.clear()
    yield set_rates
    cache.clear()


def assert_throttled(response) -> None:
    assert response.status_code == 429, response.content
    assert response.json()["errors"][0]["code"] == "throttled"
    assert int(response["Retry-After"]) > 0


def test_anonymous_requests_are_throttled_per_address(api, registry, rates):
    rates(anon="5/minute")
    for _ in range(5):
        assert api.get("/api/federation/seasons/").status_code == 200
    assert_throttled(api.get("/api/federation/seasons/"))
    # another address has its own count
    assert api.get("/api/federation/seasons/", REMOTE_ADDR="10.0.0.2").status_code == 200


def test_authenticated_writes_are_throttled_per_user_not_their_reads(api, registry, rates):
    rates(user_write="3/minute")
    api.force_authenticate(registry.users["club_manager"])
    for _ in range(3):
        assert api.post("/api/engine/deals/score/", SCORE, format="json").status_code == 200
    assert_throttled(api.post("/api/engine/deals/score/", SCORE, format="json"))
    for _ in range(5):
        assert api.get("/api/federation/seasons/").status_code == 200
    api.force_authenticate(registry.users["committee_staff"])  # another user
    assert api.post("/api/engine/deals/score/", SCORE, format="json").status_code == 200


def test_failed_token_attempts_are_throttled_per_address(api, registry, rates):
    rates(token_failures="5/hour")
    good = registry.token("club_manager")
    for _ in range(5):
        api.credentials(HTTP_AUTHORIZATION=f"Token {secrets.token_hex(20)}")
        assert api.get("/api/federation/me/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {secrets.token_hex(20)}")
    assert_throttled(api.get("/api/federation/me/"))
    # once over the rate even the right token waits: guessing costs the window
    api.credentials(HTTP_AUTHORIZATION=f"Token {good}")
    assert_throttled(api.get("/api/federation/me/"))
    # the same token from another address works, and no token at all is not refused
    assert api.get("/api/federation/me/", REMOTE_ADDR="10.0.0.3").status_code == 200
    api.credentials()
    assert api.get("/api/federation/seasons/").status_code == 200


@pytest.mark.parametrize("url", ["/admin/login/", "/api/auth/login/"])
def test_logins_lock_out_after_repeated_failures(registry, settings, url):
    settings.AXES_FAILURE_LIMIT = 5
    client = Client()
    for _ in range(4):
        response = client.post(url, {"username": "federation_staff", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    # the fifth failure locks the pair out; the right password then gets no further
    assert client.post(url, {"username": "federation_staff", "password": "no"}).status_code == 429
    response = client.post(url, {"username": "federation_staff", "password": "x"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    # the same account from another address, and another account, still sign in
    other = Client(REMOTE_ADDR="10.0.0.4")
    assert other.post(url, {"username": "federation_staff", "password": "x"}).status_code == 302
    assert client.post(url, {"username": "club_manager", "password": "x"}).status_code in (200, 302)


def test_a_success_before_the_limit_resets_the_count(registry, settings):
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    login = "/api/auth/login/"
    for _ in range(2):
        client.post(login, {"username": "player", "password": "wrong"})
    assert client.post(login, {"username": "player", "password": "x"}).status_code == 302
    client.logout()
    for _ in range(2):
        client.post(login, {"username": "player", "password": "wrong"})
    assert client.post(login, {"username": "player", "password": "x"}).status_code == 302


def production_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_"))}
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env | extra


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_deploy_check_is_clean_in_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env())
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_check_fails_without_hsts_or_redirect():
    env = production_env(DJANGO_SECURE_HSTS_SECONDS="0", DJANGO_SECURE_SSL_REDIRECT="0")
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    assert "security.W004" in result.stderr
    assert "security.W008" in result.stderr


def test_a_short_secret_key_fails_at_start_up():
    result = manage("check", env=production_env(DJANGO_SECRET_KEY="short-but-not-empty"))
    assert result.returncode != 0
    assert "at least 50 characters" in result.stderr


def test_html_pages_carry_a_content_security_policy(client, registry):
    for url in ("/admin/login/", "/classement/"):
        policy = client.get(url)["Content-Security-Policy"]
        assert "script-src 'self';" in policy
        assert "frame-ancestors 'none'" in policy
        assert "unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    docs = client.get("/api/docs/")["Content-Security-Policy"]
    assert "worker-src 'self' blob:" in docs
    assert "Content-Security-Policy" not in client.get("/api/federation/seasons/")


def test_numeric_passwords_are_refused():
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        validate_password("7364918250472")
    assert any(e.code == "password_entirely_numeric" for e in refused.value.error_list)
