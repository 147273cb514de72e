"""The players who chose it are e-mailed their result when a tournament they played is
homologated (a correction: only those whose result changed): in French, with their
place, PCN and PP, the public page, and the one-click unsubscribe (link and headers).
Nobody else: not the unsubscribed, not the players of other tournaments."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from competitions.homologation import tournament_correct, tournament_homologate
from competitions.models import Allocation
from competitions.tournaments import player_notices
from competitions.tournaments.homologation import ranking_updates_deferred
from federation.models import NotificationSent, NotificationSubscription, User

NBSP = "\u00a0"
KIND = "tournament_homologated"


@pytest.fixture
def accounts(registry, twelve_players):
    """Accounts for players 5001 (subscribed), 5002 (subscribed, no address), 5003 (not
    subscribed), and 1001 of the registry (subscribed, not in the tournament)."""
    made = {}
    for player, email, subscribed in (
        (twelve_players[0], "camille1@example.org", True),
        (twelve_players[1], "", True),
        (twelve_players[2], "camille3@example.org", False),
    ):
        user = User.objects.create_user(f"j{player.licence_number}", email=email, player=player)
        NotificationSubscription.objects.create(user=user, kind=KIND, enabled=subscribed)
        made[player.licence_number] = user
    outsider = registry.users["player"]
    outsider.email = "elise@example.org"
    outsider.save()
    NotificationSubscription.objects.create(user=outsider, kind=KIND, enabled=True)
    made[1001] = outsider
    return made


def _players_mail():
    return [m for m in mail.outbox if "votre résultat" in m.subject]


@pytest.mark.django_db
def test_homologation_emails_the_subscribed_players_of_the_tournament_only(
    registry, accounts, submitted_tournament, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://tournois.fftarot.example"
    with django_capture_on_commit_callbacks(execute=True):
        tournament_homologate(
            tournament=submitted_tournament, by=registry.users["federation_staff"]
        )
    sent = _players_mail()
    assert [m.to for m in sent] == [["camille1@example.org"]]
    message = sent[0]
    assert message.subject == (
        f"Tournoi «{NBSP}Open de Lyon{NBSP}» du 05/12/2026{NBSP}: votre résultat"
    )
    mine = Allocation.objects.get(tournament=submitted_tournament, player__licence_number=5001)
    assert "Bonjour Camille," in message.body
    assert "est homologué" in message.body
    assert f"place{NBSP}: {mine.place}" in message.body
    assert f"PCN{NBSP}: {mine.pcn}" in message.body
    assert f"PP{NBSP}: {mine.pp}" in message.body
    link = "https://tournois.fftarot.example" + reverse(
        "public-tournament", args=[submitted_tournament.pk]
    )
    assert link in message.body
    unsubscribe = message.extra_headers["List-Unsubscribe"]
    assert re.fullmatch(
        r"<https://tournois\.fftarot\.example/compte/notifications/desabonnement/[^/]+/>",
        unsubscribe,
    )
    assert unsubscribe.strip("<>") in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.message()["Message-ID"].endswith("@tournois.fftarot.example>")
    # the header's URL unsubscribes in one POST, as a mail client does it (RFC 8058)
    response = Client(enforce_csrf_checks=True).post(
        urlsplit(unsubscribe.strip("<>")).path, {"List-Unsubscribe": "One-Click"}
    )
    assert response.status_code == 200
    assert not NotificationSubscription.objects.get(user=accounts[5001], kind=KIND).enabled


@pytest.mark.django_db
def test_the_notices_are_sent_once_even_when_the_task_runs_again(
    registry, accounts, submitted_tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament_homologate(
            tournament=submitted_tournament, by=registry.users["federation_staff"]
        )
    assert len(_players_mail()) == 1
    submitted_tournament.refresh_from_db()
    revision_id = submitted_tournament.homologated_revision_id
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            player_notices.tournament_player_notices_plan(
                tournament_id=submitted_tournament.pk, revision_id=revision_id
            )
            == 1
        )
    assert len(_players_mail()) == 1  # planned again, sent no second time
    assert (
        NotificationSent.objects.filter(kind=KIND, subject_key=f"revision:{revision_id}").count()
        == 1
    )


@pytest.mark.django_db
def test_recipients_are_sent_on_in_chunks(
    registry, accounts, submitted_tournament, django_capture_on_commit_callbacks, monkeypatch
):
    accounts[5002].email = "camille2@example.org"
    accounts[5002].save()
    monkeypatch.setattr(player_notices, "NOTICES_PER_TASK", 1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        tournament_homologate(
            tournament=submitted_tournament, by=registry.users["federation_staff"]
        )
    assert sorted(m.to[0] for m in _players_mail()) == [
        "camille1@example.org",
        "camille2@example.org",
    ]
    assert len(callbacks) >= 2 + 2  # the plan, then one task per recipient


@pytest.mark.django_db
def test_a_correction_tells_only_the_players_whose_result_changed(
    registry, accounts, submitted_tournament, twelve_results, django_capture_on_commit_callbacks
):
    accounts[5002].email = "camille2@example.org"
    accounts[5002].save()
    staff = registry.users["federation_staff"]
    tournament_homologate(tournament=submitted_tournament, by=staff)
    mail.outbox.clear()
    # 5001 and 5002 swap totals; 5001..5002 change places, nobody else does
    swapped = [700, 900, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]
    with django_capture_on_commit_callbacks(execute=True):
        tournament_correct(
            tournament=submitted_tournament,
            content=twelve_results(swapped),
            source="json",
            reason="Totaux inversés",
            by=staff,
        )
    sent = _players_mail()
    assert sorted(m.to[0] for m in sent) == ["camille1@example.org", "camille2@example.org"]
    assert all(m.subject.endswith(f"{NBSP}: votre résultat corrigé") for m in sent)
    assert all("ont été corrigés" in m.body for m in sent)
    mail.outbox.clear()
    # a second correction that leaves 5001's and 5002's results as they are tells nobody
    swapped_again = [700, 900, 500, 300, 100, 50, 0, -50, -100, -300, -1200, -900]
    with django_capture_on_commit_callbacks(execute=True):
        tournament_correct(
            tournament=submitted_tournament,
            content=twelve_results(swapped_again),
            source="json",
            reason="Deux derniers inversés",
            by=staff,
        )
    assert _players_mail() == []


@pytest.mark.django_db
def test_a_bulk_load_of_past_results_tells_no_player(
    registry, accounts, submitted_tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), ranking_updates_deferred():
        tournament_homologate(
            tournament=submitted_tournament, by=registry.users["federation_staff"]
        )
    assert _players_mail() == []


@pytest.fixture
def mail_dir(tmp_path, monkeypatch):
    """Where the real worker writes the e-mails it sends (file backend)."""
    monkeypatch.setenv("EMAIL_FILE_PATH", str(tmp_path))
    return tmp_path


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_sends_the_players_notices(
    mail_dir, registry, accounts, submitted_tournament, celery_worker_process, wait_for
):
    tournament_homologate(tournament=submitted_tournament, by=registry.users["federation_staff"])

    def sent() -> str | None:
        text = "\n".join(f.read_text() for f in sorted(mail_dir.iterdir()))
        text = text.replace("\n ", " ")  # long headers are folded
        return text if "List-Unsubscribe-Post" in text else None

    text = wait_for(sent)
    assert text, "the worker sent no notice to the player"
    assert "To: camille1@example.org" in text
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in text
    assert re.search(
        r"List-Unsubscribe:\s+<https?://[^>]+/compte/notifications/desabonnement/", text
    )
    for nobody in ("camille3@example.org", "elise@example.org"):
        assert nobody not in text
    assert wait_for(lambda: NotificationSent.objects.filter(kind=KIND).count() == 1)


@pytest.mark.django_db
def test_a_chunk_costs_the_same_few_queries_whatever_its_size(
    registry, twelve_players, submitted_tournament, django_assert_max_num_queries
):
    ids = []
    for player in twelve_players:
        user = User.objects.create_user(
            f"j{player.licence_number}", email=f"{player.licence_number}@example.org", player=player
        )
        NotificationSubscription.objects.create(user=user, kind=KIND, enabled=True)
        ids.append(user.pk)
    with ranking_updates_deferred():  # no notices yet: the chunk below is the only send
        tournament_homologate(
            tournament=submitted_tournament, by=registry.users["federation_staff"]
        )
    submitted_tournament.refresh_from_db()
    with django_assert_max_num_queries(6):
        sent = player_notices.tournament_player_notices_send(
            tournament_id=submitted_tournament.pk,
            revision_id=submitted_tournament.homologated_revision_id,
            user_ids=ids,
        )
    assert sent == 12
    assert len(_players_mail()) == 12
