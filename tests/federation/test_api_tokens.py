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
