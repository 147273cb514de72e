"""The e-mails a player chooses: their own choices only (service, API, page), the
one-click unsubscribe (signed token, RFC 8058 POST, tampered token), and each notice
sent once even when a task runs again or the mail server fails half-way."""

from __future__ import annotations

from smtplib import SMTPRecipientsRefused, SMTPServerDisconnected
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.core.mail.backends.locmem import EmailBackend
from django.test import Client

from core.errors import PermissionDenied
from core.problems import RuleViolation
from federation.models import NotificationSent, NotificationSubscription, User
from federation.notification_choices import (
    notices_send_once,
    notification_choices,
    notification_choices_set,
    notification_subscribe,
    notification_unsubscribe,
    unsubscribe_token,
    unsubscribe_url,
)

pytestmark = pytest.mark.django_db

HOMOLOGATED = "tournament_homologated"
STEP = "step_changed"
ENTRIES = {"entry_place_freed": False, "entry_convocation": False}  # the entries' e-mails


@pytest.fixture
def player(registry) -> User:
    user = registry.users["player"]
    user.email = "elise.martin@example.org"
    user.save()
    return user


def enabled(user: User) -> dict[str, bool]:
    return dict(NotificationSubscription.objects.filter(user=user).values_list("kind", "enabled"))


# --- the service ---------------------------------------------------------------------------


def test_nobody_is_subscribed_by_default_and_a_player_chooses(player):
    assert notification_choices(user=player, by=player) == {
        HOMOLOGATED: False,
        STEP: False,
        **ENTRIES,
    }
    notification_subscribe(user=player, kind=HOMOLOGATED, by=player)
    notification_subscribe(user=player, kind=HOMOLOGATED, by=player)  # again: no change
    assert notification_choices(user=player, by=player) == {
        HOMOLOGATED: True,
        STEP: False,
        **ENTRIES,
    }
    notification_unsubscribe(user=player, kind=HOMOLOGATED, by=player)
    notification_unsubscribe(user=player, kind=STEP, by=player)  # never subscribed: fine
    assert enabled(player) == {HOMOLOGATED: False, STEP: False}


@pytest.mark.parametrize("role", ["anonymous", "arbiter", "club_manager", "federation_staff"])
def test_only_the_player_themselves_changes_or_reads_their_choices(registry, player, role):
    other = registry.users[role]
    for call in (
        lambda: notification_subscribe(user=player, kind=STEP, by=other),
        lambda: notification_unsubscribe(user=player, kind=STEP, by=other),
        lambda: notification_choices_set(user=player, choices={STEP: True}, by=other),
        lambda: notification_choices(user=player, by=other),
    ):
        with pytest.raises(PermissionDenied):
            call()
    assert enabled(player) == {}


def test_an_account_without_a_player_chooses_nothing(registry):
    manager = registry.users["club_manager"]
    with pytest.raises(PermissionDenied) as refused:
        notification_subscribe(user=manager, kind=STEP, by=manager)
    assert refused.value.code == "notifications_need_player"
    assert enabled(manager) == {}


def test_bad_choices_are_refused_each_on_its_field_and_nothing_is_written(player):
    with pytest.raises(RuleViolation) as refused:
        notification_choices_set(
            user=player, choices={STEP: True, "newsletter": True, HOMOLOGATED: "yes"}, by=player
        )
    problems = {(p.field, p.code) for p in refused.value.problems}
    assert problems == {("newsletter", "unknown_notification_kind"), (HOMOLOGATED, "not_a_boolean")}
    assert enabled(player) == {}
    with pytest.raises(RuleViolation):
        notification_subscribe(user=player, kind="newsletter", by=player)


# --- the API -------------------------------------------------------------------------------


def test_the_api_reads_and_sets_one_s_own_choices(api, player):
    api.force_authenticate(player)
    assert api.get("/api/federation/me/notifications/").json() == {
        HOMOLOGATED: False,
        STEP: False,
        **ENTRIES,
    }
    response = api.put("/api/federation/me/notifications/", {STEP: True}, format="json")
    assert response.status_code == 200
    assert response.json() == {HOMOLOGATED: False, STEP: True, **ENTRIES}
    assert enabled(player) == {STEP: True}


def test_the_api_refuses_bad_choices_with_a_precise_400(api, player):
    api.force_authenticate(player)
    response = api.put(
        "/api/federation/me/notifications/", {STEP: "oui", "spam": True}, format="json"
    )
    assert response.status_code == 400
    errors = {(e["field"], e["code"]) for e in response.json()["errors"]}
    assert errors == {(STEP, "not_a_boolean"), ("spam", "unknown_notification_kind")}
    assert enabled(player) == {}


def test_the_api_refuses_anonymous_and_accounts_without_a_player(api, registry):
    assert api.get("/api/federation/me/notifications/").status_code == 401
    api.force_authenticate(registry.users["club_manager"])
    response = api.put("/api/federation/me/notifications/", {STEP: True}, format="json")
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "notifications_need_player"
    assert api.get("/api/federation/me/notifications/").status_code == 403


# --- the page ------------------------------------------------------------------------------


def test_the_page_shows_the_choices_in_french_and_saves_them(client, player):
    client.force_login(player)
    page = client.get("/compte/notifications/").content.decode()
    assert "Mes notifications" in page
    assert 'name="tournament_homologated"' in page
    assert "checked" not in page
    response = client.post("/compte/notifications/", {STEP: "1"})
    assert response.status_code == 302
    assert enabled(player) == {HOMOLOGATED: False, STEP: True, **ENTRIES}
    page = client.get(response["Location"]).content.decode()
    assert "Vos choix sont enregistrés." in page
    assert 'name="step_changed" value="1" checked' in page


def test_the_page_is_for_signed_in_players_only(client, registry):
    assert client.get("/compte/notifications/")["Location"].startswith("/compte/connexion/")
    client.force_login(registry.users["club_manager"])
    assert client.get("/compte/notifications/").status_code == 404
    assert client.post("/compte/notifications/", {STEP: "1"}).status_code == 404


def test_the_player_s_own_ranking_page_links_to_it(client, registry, player):
    client.force_login(player)
    assert "/compte/notifications/" in client.get("/classement/joueur/1001/").content.decode()
    assert "/compte/notifications/" not in client.get("/classement/joueur/1002/").content.decode()


# --- the one-click unsubscribe -------------------------------------------------------------


def test_a_get_only_asks_and_a_post_unsubscribes_without_signing_in(player):
    notification_choices_set(user=player, choices={HOMOLOGATED: True, STEP: True}, by=player)
    path = urlsplit(unsubscribe_url(player.pk, STEP)).path
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(path)
    assert page.status_code == 200
    assert "Se désabonner" in page.content.decode()
    assert enabled(player) == {HOMOLOGATED: True, STEP: True}  # a scanner's GET changes nothing
    done = browser.post(path)
    assert done.status_code == 200
    assert "vous ne recevrez plus" in done.content.decode()
    assert enabled(player) == {HOMOLOGATED: True, STEP: False}  # only that kind


def test_the_mail_client_s_one_click_post_unsubscribes(player):
    notification_subscribe(user=player, kind=HOMOLOGATED, by=player)
    path = f"/compte/notifications/desabonnement/{unsubscribe_token(player.pk, HOMOLOGATED)}/"
    response = Client(enforce_csrf_checks=True).post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert enabled(player)[HOMOLOGATED] is False
    again = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert again.status_code == 200  # already unsubscribed: the same answer
    assert enabled(player)[HOMOLOGATED] is False


@pytest.mark.parametrize(
    "tamper",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # signature
        lambda token: token.replace(token.split(":")[0], token.split(":")[0][::-1]),  # payload
        lambda token: "nimporte-quoi",
    ],
)
def test_a_tampered_token_is_a_400_that_names_nobody(client, registry, player, tamper):
    notification_subscribe(user=player, kind=STEP, by=player)
    path = f"/compte/notifications/desabonnement/{tamper(unsubscribe_token(player.pk, STEP))}/"
    for response in (client.get(path), client.post(path)):
        assert response.status_code == 400
        text = response.content.decode()
        assert "pas valide" in text
        for private in ("player", "elise.martin@example.org", "Martin", "Élise", "1001"):
            assert private not in text
    assert enabled(player)[STEP] is True


def test_a_token_of_another_salt_is_refused(client, player):
    from django.core import signing

    forged = signing.dumps({"u": player.pk, "k": STEP}, salt="another.purpose")
    assert client.post(f"/compte/notifications/desabonnement/{forged}/").status_code == 400


# --- sending once --------------------------------------------------------------------------


def _message(user_id: int) -> EmailMessage:
    return EmailMessage("Sujet", "Corps", to=[f"{user_id}@example.org"])


def test_a_notice_is_sent_once_however_often_the_task_runs(registry, player):
    ids = [player.pk, registry.users["arbiter"].pk]
    assert (
        notices_send_once(kind=STEP, subject_key="snapshot:1", user_ids=ids, message_for=_message)
        == 2
    )
    assert (
        notices_send_once(kind=STEP, subject_key="snapshot:1", user_ids=ids, message_for=_message)
        == 0
    )
    assert len(mail.outbox) == 2
    # another subject is another notice
    assert (
        notices_send_once(
            kind=STEP, subject_key="snapshot:2", user_ids=ids[:1], message_for=_message
        )
        == 1
    )
    assert NotificationSent.objects.count() == 3


def test_a_mail_server_failing_half_way_leaves_only_the_unsent_for_the_retry(
    registry, player, monkeypatch
):
    ids = sorted([player.pk, registry.users["arbiter"].pk, registry.users["club_manager"].pk])
    original = EmailBackend.send_messages
    calls = {"n": 0}

    def second_fails(self, messages):
        calls["n"] += 1
        if calls["n"] == 2:
            raise SMTPServerDisconnected("the server went away")
        return original(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", second_fails)
    with pytest.raises(SMTPServerDisconnected):
        notices_send_once(kind=STEP, subject_key="snapshot:9", user_ids=ids, message_for=_message)
    assert [m.to[0] for m in mail.outbox] == [f"{ids[0]}@example.org"]
    assert list(NotificationSent.objects.values_list("user_id", flat=True)) == [ids[0]]
    # the retry sends the two others, not the first again
    assert (
        notices_send_once(kind=STEP, subject_key="snapshot:9", user_ids=ids, message_for=_message)
        == 2
    )
    assert sorted(m.to[0] for m in mail.outbox) == sorted(f"{i}@example.org" for i in ids)


def test_a_skipped_recipient_is_not_recorded(player):
    assert (
        notices_send_once(
            kind=STEP, subject_key="s", user_ids=[player.pk], message_for=lambda uid: None
        )
        == 0
    )
    assert not NotificationSent.objects.exists()


def test_an_address_the_server_refuses_does_not_hold_up_the_others(registry, player, monkeypatch):
    ids = sorted([player.pk, registry.users["arbiter"].pk, registry.users["club_manager"].pk])
    original = EmailBackend.send_messages
    bad = f"{ids[1]}@example.org"

    def refuse_one(self, messages):
        if messages[0].to == [bad]:
            raise SMTPRecipientsRefused({bad: (550, b"no such user")})
        return original(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", refuse_one)
    sent = notices_send_once(kind=STEP, subject_key="s", user_ids=ids, message_for=_message)
    assert sent == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{i}@example.org" for i in (ids[0], ids[2])
    )
    # recorded: the retry of a later failure does not knock on that address again
    assert NotificationSent.objects.filter(user_id=ids[1]).exists()
