"""The organiser is e-mailed, after the commit, when staff homologate, refuse or correct
its tournament: in French, with the reasons, who and why, and a link to its page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from competitions.homologation import (
    tournament_correct,
    tournament_homologate,
    tournament_refuse,
)
from competitions.models import Tournament
from competitions.tournaments.homologation import ranking_updates_deferred
from federation.models import Role, RoleAssignment, User

NBSP = "\u00a0"


@pytest.fixture
def managers(registry):
    """Club 101's manager with an address, a second one with another, a third without."""
    manager = registry.users["club_manager"]
    manager.email = "secretaire@tarot-lyon.example"
    manager.save()
    second = User.objects.create_user("tresorier", email="tresorier@tarot-lyon.example")
    third = User.objects.create_user("sans-adresse")
    for user in (second, third):
        RoleAssignment.objects.create(user=user, role=Role.CLUB_MANAGER, club=registry.clubs[101])
    other = User.objects.create_user("rennes", email="rennes@example.org")
    RoleAssignment.objects.create(user=other, role=Role.CLUB_MANAGER, club=registry.clubs[201])
    staff = registry.users["committee_staff"]
    staff.first_name, staff.last_name = "Claire", "Arbitre"
    staff.email = "ccr@example.org"
    staff.save()
    return staff


@pytest.mark.django_db
def test_homologation_emails_each_manager_of_the_club_after_the_commit(
    api, registry, managers, submitted_tournament, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://tournois.fftarot.example"
    api.force_authenticate(managers)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/tournaments/{submitted_tournament.pk}/homologate/")
        assert response.status_code == 200
        assert mail.outbox == []  # nothing before the commit
    assert sorted(m.to[0] for m in mail.outbox) == [
        "secretaire@tarot-lyon.example",
        "tresorier@tarot-lyon.example",
    ]
    assert all(len(m.to) == 1 for m in mail.outbox)  # nobody sees the others' address
    message = mail.outbox[0]
    assert message.subject == (f"Tournoi «{NBSP}Open de Lyon{NBSP}» du 05/12/2026{NBSP}: homologué")
    assert "est homologué" in message.body
    assert "Claire Arbitre" in message.body
    assert f"https://tournois.fftarot.example/tournois/{submitted_tournament.pk}/" in message.body
    # Message-IDs on the site's domain, each its own
    ids = {m.message()["Message-ID"] for m in mail.outbox}
    assert len(ids) == 2
    assert all(i.endswith("@tournois.fftarot.example>") for i in ids)


@pytest.mark.django_db
def test_a_refusal_emails_its_reasons(
    registry, managers, submitted_tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament_refuse(
            tournament=submitted_tournament,
            reasons=["Arbitre absent de la liste officielle", "Table 3 non équilibrée"],
            by=managers,
        )
    assert len(mail.outbox) == 2
    message = mail.outbox[0]
    assert message.subject.endswith(f"{NBSP}: homologation refusée")
    assert "- Arbitre absent de la liste officielle\n- Table 3 non équilibrée" in message.body
    assert "Corrigez les résultats et envoyez-les à nouveau." in message.body


@pytest.mark.django_db
def test_a_correction_emails_who_and_why(
    registry, managers, submitted_tournament, twelve_results, django_capture_on_commit_callbacks
):
    tournament_homologate(tournament=submitted_tournament, by=managers)
    mail.outbox.clear()
    swapped = [700, 900, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]
    with django_capture_on_commit_callbacks(execute=True):
        tournament_correct(
            tournament=submitted_tournament,
            content=twelve_results(swapped),
            source="json",
            reason="Totaux des deux premiers inversés",
            by=managers,
        )
    message = mail.outbox[0]
    assert message.subject.endswith(f"{NBSP}: résultats corrigés")
    assert "corrigés (version 2)" in message.body
    assert f"Motif{NBSP}: Totaux des deux premiers inversés" in message.body
    assert f"Décision de{NBSP}: Claire Arbitre" in message.body


@pytest.mark.django_db
def test_a_refused_request_sends_nothing(
    api, registry, managers, submitted_tournament, django_capture_on_commit_callbacks
):
    api.force_authenticate(managers)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = api.post(
            f"/api/tournaments/{submitted_tournament.pk}/refuse/", {"reasons": []}, format="json"
        )
    assert response.status_code == 400
    assert callbacks == []
    assert mail.outbox == []


@pytest.mark.django_db
def test_a_committee_s_tournament_emails_the_committee_s_staff(
    registry, managers, twelve_players, twelve_results, django_capture_on_commit_callbacks
):
    from competitions.homologation import results_submit

    tournament = Tournament.objects.create(
        season=registry.season, name="Régional d'hiver", date=dt.date(2026, 12, 6), venue="Lyon",
        format="individual", organizer_kind="committee",
        organizer_committee=registry.committees[1], arbiter=registry.players[1002],
    )  # fmt: skip
    results_submit(tournament=tournament, content=twelve_results(), source="json", by=managers)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])
    assert [m.to for m in mail.outbox] == [["ccr@example.org"]]
    subject = mail.outbox[0].subject  # plain text: nothing escaped as in HTML
    assert subject == f"Tournoi «{NBSP}Régional d'hiver{NBSP}» du 06/12/2026{NBSP}: homologué"


@pytest.mark.django_db
def test_a_bulk_load_of_past_results_tells_nobody(
    registry, managers, submitted_tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), ranking_updates_deferred():
        tournament_homologate(tournament=submitted_tournament, by=managers)
    assert mail.outbox == []


@pytest.fixture
def mail_dir(tmp_path, monkeypatch):
    """Where the real worker writes the e-mails it sends (file backend)."""
    monkeypatch.setenv("EMAIL_FILE_PATH", str(tmp_path))
    return tmp_path


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_sends_the_refusal(
    mail_dir, registry, managers, submitted_tournament, celery_worker_process, wait_for
):
    tournament_refuse(
        tournament=submitted_tournament, reasons=["Feuille de marque illisible"], by=managers
    )

    def sent() -> str | None:
        text = "\n".join(f.read_text() for f in sorted(mail_dir.iterdir()))
        return text if text.count("\nTo: ") == 2 else None  # both messages written

    text = wait_for(sent)
    assert text, "the worker sent no e-mail"
    assert "Feuille de marque illisible" in text
    assert "To: secretaire@tarot-lyon.example" in text
    assert "To: tresorier@tarot-lyon.example" in text
