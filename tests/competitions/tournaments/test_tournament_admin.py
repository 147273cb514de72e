"""The admin is safe: a tournament whose results were sent or homologated,
its revisions and their rows are read-only there (no change of season, date or format,
no revert from its history, no delete); homologation and refusal are admin actions
calling the services."""

from __future__ import annotations

import pytest

from competitions.homologation import tournament_homologate
from competitions.models import Allocation, ResultPlayer, ResultRevision, Tournament

pytestmark = pytest.mark.django_db

ADMIN = "/admin/competitions/tournament/"


@pytest.fixture
def admin_client(client, registry):
    staff = registry.users["federation_staff"]
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    return client


@pytest.fixture
def homologated(registry, submitted):
    tournament = submitted("Open de Lyon")
    return tournament_homologate(
        tournament=tournament, by=registry.users["federation_staff"], revision=1
    )


def change_form(tournament: Tournament, **changes) -> dict:
    data = {
        "season": tournament.season_id, "name": tournament.name, "date": "2026-12-05",
        "venue": tournament.venue, "format": tournament.format, "stage": tournament.stage,
        "event_kind": tournament.event_kind,
        "organizer_kind": tournament.organizer_kind, "organizer_club": tournament.organizer_club_id,
        "arbiter": tournament.arbiter_id, "planned_sessions": 1, "reference": "",
        "revisions-TOTAL_FORMS": 1, "revisions-INITIAL_FORMS": 1,
        "revisions-MIN_NUM_FORMS": 0, "revisions-MAX_NUM_FORMS": 1000,
    }  # fmt: skip
    return {**data, **changes}


def test_a_homologated_tournament_cannot_move_to_another_season_or_date(
    admin_client, registry, homologated
):
    url = f"{ADMIN}{homologated.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200  # shown, read-only
    assert 'name="date"' not in page.content.decode()
    moved = change_form(homologated, season=registry.previous.pk, date="2025-12-05",
                        format="duo")  # fmt: skip
    assert admin_client.post(url, moved).status_code == 403
    homologated.refresh_from_db()
    assert homologated.season == registry.season
    assert str(homologated.date) == "2026-12-05"
    assert homologated.format == "individual"
    assert Allocation.objects.filter(tournament=homologated, season=registry.season).count() == 12


def test_submitted_results_lock_the_declaration_too(admin_client, registry, submitted):
    tournament = submitted("Open de Lyon")
    url = f"{ADMIN}{tournament.pk}/change/"
    assert admin_client.post(url, change_form(tournament, date="2026-12-24")).status_code == 403
    tournament.refresh_from_db()
    assert str(tournament.date) == "2026-12-05"


def test_a_declared_tournament_is_still_edited_here(admin_client, registry):
    tournament = Tournament.objects.create(
        season=registry.season, name="Déclaré", date="2026-12-05", venue="Salle",
        format="individual", organizer_kind="club", organizer_club=registry.clubs[101],
        arbiter=registry.players[1002],
    )  # fmt: skip
    form = change_form(tournament, date="2026-12-12", **{"revisions-INITIAL_FORMS": 0,
                                                          "revisions-TOTAL_FORMS": 0})  # fmt: skip
    response = admin_client.post(f"{ADMIN}{tournament.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert str(tournament.date) == "2026-12-12"


def test_no_revert_from_the_history_and_no_delete(admin_client, registry, homologated):
    record = homologated.history.order_by("history_id").first()  # the declaration
    revert = admin_client.post(
        f"{ADMIN}{homologated.pk}/history/{record.history_id}/", change_form(homologated)
    )
    assert revert.status_code == 403
    assert admin_client.post(f"{ADMIN}{homologated.pk}/delete/", {"post": "yes"}).status_code == 403
    homologated.refresh_from_db()
    assert homologated.status == "homologated"
    actions = admin_client.get(ADMIN).context["action_form"].fields["action"].choices
    assert "delete_selected" not in [name for name, _label in actions]


def test_revisions_and_their_rows_are_read_only(admin_client, homologated):
    revision = ResultRevision.objects.get(tournament=homologated)
    url = f"/admin/competitions/resultrevision/{revision.pk}/"
    assert admin_client.post(f"{url}change/", {"reason": "x"}).status_code == 403
    assert admin_client.post(f"{url}delete/", {"post": "yes"}).status_code == 403
    player = ResultPlayer.objects.filter(revision=revision).first()
    assert (
        admin_client.post(f"/admin/competitions/resultplayer/{player.pk}/delete/", {"post": "yes"})
        .status_code == 403
    )  # fmt: skip
    assert ResultRevision.objects.filter(pk=revision.pk).exists()


def test_the_list_fits_and_offers_the_services_actions(admin_client, submitted):
    submitted("Open de Lyon")
    page = admin_client.get(ADMIN)
    html = page.content.decode()
    assert len(page.context["cl"].list_display) <= 5  # checkbox, name, date, status, organiser
    assert "Homologuer la dernière révision" in html
    assert "Refuser l’homologation (avec motifs)" in html


def test_the_homologate_action_calls_the_service(admin_client, registry, submitted):
    tournament = submitted("Open de Lyon")
    response = admin_client.post(
        ADMIN, {"action": "homologate", "_selected_action": [tournament.pk]}, follow=True
    )
    assert "Tournois homologués" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == "homologated"
    assert Allocation.objects.filter(tournament=tournament, current=True).count() == 12
    again = admin_client.post(
        ADMIN, {"action": "homologate", "_selected_action": [tournament.pk]}, follow=True
    )
    assert "Seuls des résultats déposés peuvent être homologués" in again.content.decode()


def test_the_refuse_action_asks_for_reasons_then_calls_the_service(admin_client, submitted):
    tournament = submitted("Open de Lyon")
    ask = admin_client.post(ADMIN, {"action": "refuse", "_selected_action": [tournament.pk]})
    assert ask.status_code == 200
    assert 'name="reasons"' in ask.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == "results_submitted"
    done = admin_client.post(
        ADMIN,
        {"action": "refuse", "_selected_action": [tournament.pk], "reasons": "Arbitre absent"},
        follow=True,
    )
    assert "Tournois refusés" in done.content.decode()
    tournament.refresh_from_db()
    assert (tournament.status, tournament.refusal_reasons) == ("refused", ["Arbitre absent"])


def test_suspension_proposals_are_read_in_the_admin_never_edited(
    admin_client, registry, submitted, twelve_results
):
    from competitions.models import ProposalStatus, SuspensionProposal

    document = twelve_results()
    document["entries"][11].update(abandoned=True, arbiter_accord=False)
    tournament = submitted("Open quitté", document=document)
    tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])
    proposal = SuspensionProposal.objects.get(tournament=tournament)
    listing = admin_client.get("/admin/competitions/suspensionproposal/")
    assert listing.status_code == 200
    assert "Open quitté" in listing.content.decode()
    url = f"/admin/competitions/suspensionproposal/{proposal.pk}/"
    assert admin_client.get(f"{url}change/").status_code == 200  # shown, read-only
    assert admin_client.post(f"{url}change/", {"status": "dismissed"}).status_code == 403
    assert admin_client.post(f"{url}delete/", {"post": "yes"}).status_code == 403
    assert admin_client.get("/admin/competitions/suspensionproposal/add/").status_code == 403
    assert SuspensionProposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING
