"""Signing in as people do: the real login form (never force_login), each role landing on
its space, the French errors, signing out, changing and resetting a password, the lockout,
and the admin's own login that stays for federation staff only."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client

from federation.models import User

pytestmark = pytest.mark.django_db

LOGIN = "/compte/connexion/"


def sign_in(client: Client, username: str, password: str = "x", **extra):
    return client.post(LOGIN, {"username": username, "password": password, **extra})


@pytest.mark.parametrize(
    ("role", "space"),
    [
        ("club_manager", "/tournois/"),
        ("committee_staff", "/bureau/homologation/"),
        ("zone_staff", "/bureau/homologation/"),
        ("federation_staff", "/bureau/"),
        ("player", "/classement/joueur/1001/"),
        ("arbiter", "/classement/joueur/1002/"),  # a licensed player with no role
    ],
)
def test_each_role_signs_in_with_the_form_and_lands_on_its_space(client, registry, role, space):
    form = client.get(LOGIN)
    assert form.status_code == 200
    html = form.content.decode()
    assert '<label for="id_username">' in html
    assert '<label for="id_password">' in html
    response = sign_in(client, role)
    assert response.status_code == 302
    assert response["Location"] == "/compte/"
    assert client.session["_auth_user_id"] == str(registry.users[role].pk)
    landing = client.get("/compte/", follow=True)
    assert landing.redirect_chain == [(space, 302)]
    assert landing.status_code == 200


def test_an_account_with_no_role_and_no_licence_is_told_so(client, registry):
    User.objects.create_user(username="nobody", password="x")
    sign_in(client, "nobody")
    response = client.get("/compte/")
    assert response.status_code == 200
    assert "pas encore lié" in response.content.decode()


def test_a_safe_next_wins_and_an_unsafe_one_is_ignored(client, registry):
    response = sign_in(client, "club_manager", next="/classement/club/101/")
    assert response["Location"] == "/classement/club/101/"
    client.logout()
    response = sign_in(client, "club_manager", next="https://evil.example/")
    assert response["Location"] == "/compte/"


def test_the_space_asks_to_sign_in_first(client, registry):
    response = client.get("/compte/")
    assert response.status_code == 302
    assert response["Location"] == "/compte/connexion/?next=/compte/"


def test_a_wrong_password_shows_a_french_error_on_the_form(client, registry):
    response = sign_in(client, "club_manager", "wrong")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Saisissez un nom d’utilisateur et un mot de passe valides" in html
    assert "_auth_user_id" not in client.session
    # the user name typed is kept, the password is not
    assert 'value="club_manager"' in html
    assert 'value="wrong"' not in html


def test_the_header_shows_who_is_signed_in_and_signs_out_with_a_post(client, registry):
    anonymous = client.get("/").content.decode()
    assert "Se connecter" in anonymous
    assert "Se déconnecter" not in anonymous
    sign_in(client, "committee_staff")
    signed_in = client.get("/").content.decode()
    assert "committee_staff" in signed_in
    assert 'action="/compte/deconnexion/"' in signed_in
    assert "Se déconnecter" in signed_in
    assert "Mon espace" in signed_in
    assert client.get("/compte/deconnexion/").status_code == 405  # never by a link
    response = client.post("/compte/deconnexion/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "_auth_user_id" not in client.session
    assert client.get("/compte/").status_code == 302


def test_password_change(client, registry):
    assert client.get("/compte/mot-de-passe/")["Location"].startswith(LOGIN)
    sign_in(client, "club_manager")
    form = client.get("/compte/mot-de-passe/").content.decode()
    assert "Ancien mot de passe" in form
    wrong = client.post(
        "/compte/mot-de-passe/",
        {"old_password": "nope", "new_password1": "Tarot-2026!", "new_password2": "Tarot-2026!"},
    )
    assert wrong.status_code == 200
    assert "Votre ancien mot de passe est incorrect" in wrong.content.decode()
    response = client.post(
        "/compte/mot-de-passe/",
        {"old_password": "x", "new_password1": "Tarot-2026!", "new_password2": "Tarot-2026!"},
        follow=True,
    )
    assert response.redirect_chain == [("/compte/mot-de-passe/modifie/", 302)]
    assert "Votre mot de passe a été modifié" in response.content.decode()
    assert "_auth_user_id" in client.session  # still signed in
    client.logout()
    assert sign_in(client, "club_manager", "x").status_code == 200  # the old one is refused
    assert sign_in(client, "club_manager", "Tarot-2026!").status_code == 302


def test_password_reset_by_e_mail(client, registry, settings):
    settings.SITE_URL = "https://tournois.fftarot.example"
    user = registry.users["club_manager"]
    user.email = "club101@example.org"
    user.save()
    assert "Mot de passe oublié" in client.get(LOGIN).content.decode()
    response = client.post("/compte/mot-de-passe/oubli/", {"email": "club101@example.org"})
    assert response["Location"] == "/compte/mot-de-passe/oubli/envoye/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["club101@example.org"]
    assert "nouveau mot de passe" in message.subject
    assert message.message()["Message-ID"].endswith("@tournois.fftarot.example>")
    link = re.search(r"http://testserver(/compte/mot-de-passe/nouveau/\S+/)", message.body)
    assert link, message.body
    # Django swaps the token for a session marker, then shows the form
    page = client.get(link[1], follow=True)
    assert page.status_code == 200
    set_password = page.redirect_chain[-1][0]
    assert "Nouveau mot de passe" in page.content.decode()
    done = client.post(
        set_password, {"new_password1": "Excuse-2026!", "new_password2": "Excuse-2026!"}
    )
    assert done["Location"] == "/compte/mot-de-passe/nouveau/fait/"
    assert "mot de passe est enregistré" in client.get(done["Location"]).content.decode()
    # the link works once
    assert "lien n’est pas valide" in client.get(link[1], follow=True).content.decode()
    assert sign_in(Client(), "club_manager", "Excuse-2026!").status_code == 302


def test_password_reset_for_an_unknown_address_says_the_same_and_sends_nothing(client, registry):
    response = client.post("/compte/mot-de-passe/oubli/", {"email": "nobody@example.org"})
    assert response["Location"] == "/compte/mot-de-passe/oubli/envoye/"
    assert mail.outbox == []


RESET = "/compte/mot-de-passe/oubli/"
SENT = "/compte/mot-de-passe/oubli/envoye/"


@pytest.fixture
def redis_cache(settings):
    """The default cache on the tests' Redis, as in production (its own key prefix, its
    keys deleted after)."""
    import os
    import uuid

    import redis

    url = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
    prefix = f"test-accounts-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    }
    yield
    client = redis.Redis.from_url(url)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.unlink(key)


def test_password_resets_of_one_address_send_a_few_e_mails_an_hour(client, registry, redis_cache):
    user = registry.users["club_manager"]
    user.email = "club101@example.org"
    user.save()
    answers = [client.post(RESET, {"email": "club101@example.org"}) for _ in range(20)]
    assert {(a.status_code, a["Location"]) for a in answers} == {(302, SENT)}
    assert len(mail.outbox) == settings.PASSWORD_RESET_EMAILS_PER_HOUR == 3
    # the same address written otherwise is the same address
    assert client.post(RESET, {"email": " Club101@EXAMPLE.org"})["Location"] == SENT
    assert len(mail.outbox) == 3
    # an address nobody has answers the same, before and after its own limit
    for _ in range(5):
        assert client.post(RESET, {"email": "nobody@example.org"})["Location"] == SENT
    assert len(mail.outbox) == 3
    # another account's address has its own count
    other = registry.users["committee_staff"]
    other.email = "ccr@example.org"
    other.save()
    client.post(RESET, {"email": "ccr@example.org"})
    assert [m.to for m in mail.outbox[3:]] == [["ccr@example.org"]]


def test_many_usernames_from_one_address_are_paused_before_the_sixtieth(registry):
    """Credential stuffing: 60 usernames, one wrong password each, from one address. Each
    username alone stays under django-axes' limit; the address's own limit pauses them."""
    client = Client(REMOTE_ADDR="10.0.0.7")
    statuses = [sign_in(client, f"membre{i:02d}", "wrong").status_code for i in range(60)]
    assert 429 in statuses
    paused = statuses.index(429)
    assert paused + 1 == settings.AXES_ADDRESS_FAILURE_LIMIT == 20
    assert set(statuses[:paused]) == {200}
    assert set(statuses[paused:]) == {429}
    page = sign_in(client, "membre99", "wrong").content.decode()
    assert "Après 20 échecs de connexion depuis cette adresse" in page
    # a right password from that address waits too; the account signs in from elsewhere
    assert sign_in(client, "club_manager").status_code == 429
    assert sign_in(Client(REMOTE_ADDR="10.0.0.8"), "club_manager").status_code == 302


def test_the_login_form_locks_out_after_repeated_failures(registry, settings):
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    for _ in range(2):
        assert sign_in(client, "club_manager", "wrong").status_code == 200
    locked = sign_in(client, "club_manager", "wrong")
    assert locked.status_code == 429
    html = locked.content.decode()
    assert "Trop de tentatives" in html
    assert "Réessayez dans 15 minutes" in html
    # the right password gets no further, from this address
    assert sign_in(client, "club_manager").status_code == 429
    assert "_auth_user_id" not in client.session
    # the same account from another address still signs in
    assert sign_in(Client(REMOTE_ADDR="10.0.0.5"), "club_manager").status_code == 302


def test_the_admin_keeps_its_own_login_for_federation_staff_only(registry):
    client = Client()
    refused = client.post("/admin/login/", {"username": "club_manager", "password": "x"})
    assert refused.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "compte autorisé" in refused.content.decode()
    staff = client.post(
        "/admin/login/", {"username": "federation_staff", "password": "x"}, follow=True
    )
    assert staff.redirect_chain[-1] == ("/bureau/", 302)  # no next: my space, the staff desk
    assert staff.status_code == 200
