"""API tokens: only a digest stored, the key shown once, a user's own tokens listed and
revoked, existing plain-text DRF tokens moved by the migration, the admin without keys."""

from __future__ import annotations

import importlib
import secrets

import pytest
from django.apps import apps
from django.db import connection
from knox.crypto import hash_token
from knox.models import AuthToken

pytestmark = pytest.mark.django_db


def test_a_created_token_is_shown_once_and_only_its_digest_is_stored(api, registry):
    api.force_authenticate(registry.users["club_manager"])
    response = api.post("/api/federation/tokens/")
    assert response.status_code == 201
    body = response.json()
    key = body["token"]
    assert len(key) == 64
    assert body["token_key"] == key[:15]
    stored = AuthToken.objects.get(user=registry.users["club_manager"])
    assert stored.digest == hash_token(key)
    assert key not in (stored.digest, stored.token_key)
    listed = api.get("/api/federation/tokens/").json()
    assert listed == [{"token_key": key[:15], "created": body["created"], "expiry": None}]
    api.force_authenticate(None)
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/federation/me/").json()["username"] == "club_manager"


def test_a_manager_revokes_their_own_token_and_not_anothers(api, registry):
    mine = registry.token("club_manager")
    theirs = registry.token("committee_staff")
    api.credentials(HTTP_AUTHORIZATION=f"Token {mine}")
    assert api.delete(f"/api/federation/tokens/{theirs[:15]}/").status_code == 404
    assert api.delete(f"/api/federation/tokens/{mine[:15]}/").status_code == 204
    assert api.get("/api/federation/me/").status_code == 401  # revoked at once
    api.credentials(HTTP_AUTHORIZATION=f"Token {theirs}")
    assert api.get("/api/federation/me/").status_code == 200


def test_a_token_cannot_mint_tokens_and_anonymous_cannot_list(api, registry):
    assert api.get("/api/federation/tokens/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {registry.token('club_manager')}")
    response = api.post("/api/federation/tokens/")
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "permission_denied"
    assert AuthToken.objects.filter(user=registry.users["club_manager"]).count() == 1


def test_the_migration_moves_plain_drf_tokens_to_digests(api, registry):
    key = secrets.token_hex(20)  # a DRF key: 40 hexadecimal characters
    user = registry.users["club_manager"]
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id bigint NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, '2024-09-01T10:00:00Z', %s)", [key, user.pk]
        )
    migration = importlib.import_module("federation.migrations.0002_hash_api_tokens")
    with connection.schema_editor() as editor:
        migration.hash_drf_tokens(apps, editor)
    assert "authtoken_token" not in connection.introspection.table_names()  # no plain key left
    stored = AuthToken.objects.get(user=user)
    assert (stored.digest, stored.token_key, stored.expiry) == (hash_token(key), key[:15], None)
    assert stored.created.year == 2024
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")  # the club's software keeps working
    assert api.get("/api/federation/me/").json()["username"] == "club_manager"


def test_staff_see_token_metadata_never_a_key(client, registry):
    key = registry.token("club_manager")
    stored = AuthToken.objects.get(user=registry.users["club_manager"])
    client.force_login(registry.users["federation_staff"].__class__.objects.create_superuser(
        "root", password="x"))  # fmt: skip
    listing = client.get("/admin/knox/authtoken/").content.decode()
    assert key[:15] in listing  # the token's name, its holder, its dates
    assert "club_manager" in listing
    assert key not in listing
    change = client.get(f"/admin/knox/authtoken/{stored.pk}/change/").content.decode()
    assert key[:15] in change
    assert key not in change


PASSWORD_TOKEN = "/api/federation/tokens/password/"


def test_a_password_gets_a_token_without_session_or_csrf(registry):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    body = {"username": "club_manager", "password": "x"}
    response = client.post(PASSWORD_TOKEN, body, content_type="application/json")
    assert response.status_code == 201
    key = response.json()["token"]
    assert AuthToken.objects.get(user=registry.users["club_manager"]).digest == hash_token(key)
    assert "sessionid" not in response.cookies
    me = Client().get("/api/federation/me/", HTTP_AUTHORIZATION=f"Token {key}")
    assert me.json()["username"] == "club_manager"


def test_a_wrong_password_gets_a_french_400_that_names_nothing_private(api, registry):
    wrong = api.post(PASSWORD_TOKEN, {"username": "club_manager", "password": "y"}, format="json")
    unknown = api.post(PASSWORD_TOKEN, {"username": "personne", "password": "y"}, format="json")
    assert wrong.status_code == unknown.status_code == 400
    assert (
        wrong.json()
        == unknown.json()
        == {
            "errors": [
                {
                    "field": None,
                    "code": "invalid_credentials",
                    "message": "Identifiant ou mot de passe incorrect.",
                }
            ]
        }
    )
    missing = api.post(PASSWORD_TOKEN, {"username": "club_manager"}, format="json")
    assert missing.status_code == 400
    assert missing.json()["errors"][0]["field"] == "password"
    assert not AuthToken.objects.exists()


def test_password_failures_lock_out_like_the_sign_in_page(api, registry, settings):
    """The API's failures and the page's count together, per user name and address."""
    from django.test import Client

    settings.AXES_FAILURE_LIMIT = 3
    bad = {"username": "club_manager", "password": "wrong"}
    assert api.post(PASSWORD_TOKEN, bad, format="json").status_code == 400
    assert Client().post("/compte/connexion/", bad).status_code == 200  # the page's failure
    locked = api.post(PASSWORD_TOKEN, bad, format="json")
    assert locked.status_code == 429
    error = locked.json()["errors"][0]
    assert error["code"] == "locked_out"
    assert error["message"].startswith("Trop de tentatives : après 3 mauvais mots de passe")
    assert "Réessayez dans 15 minutes" in error["message"]
    # the right password gets no token from this address, nor the page a session
    right = {"username": "club_manager", "password": "x"}
    assert api.post(PASSWORD_TOKEN, right, format="json").status_code == 429
    assert Client().post("/compte/connexion/", right).status_code == 429
    assert not AuthToken.objects.exists()
    # from another address, the same account still gets its token
    other = api.post(PASSWORD_TOKEN, right, format="json", REMOTE_ADDR="10.0.0.5")
    assert other.status_code == 201


def test_many_usernames_from_one_address_pause_the_token_operation(api, registry, settings):
    settings.AXES_ADDRESS_FAILURE_LIMIT = 4
    for i in range(4):
        api.post(PASSWORD_TOKEN, {"username": f"membre{i:02d}", "password": "y"}, format="json")
    locked = api.post(PASSWORD_TOKEN, {"username": "club_manager", "password": "x"}, format="json")
    assert locked.status_code == 429
    assert locked.json()["errors"][0]["code"] == "address_locked_out"
