"""The staff desk's suspension proposals (/bureau/suspensions/): federation staff confirm in
one click or dismiss with a reason; everyone else, in the tournament's scope or not, gets a
403 and changes nothing."""

from __future__ import annotations

import pytest

from competitions.homologation import tournament_homologate
from competitions.models import ProposalStatus, SuspensionProposal
from federation.models import Sanction

pytestmark = pytest.mark.django_db


@pytest.fixture
def proposal(registry, submitted, twelve_results):
    document = twelve_results()
    document["entries"][11].update(abandoned=True, arbiter_accord=False)
    tournament = submitted("Open de la Croix-Rousse", document=document)
    tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])
    return SuspensionProposal.objects.get(tournament=tournament)


def test_federation_staff_see_it_on_the_desk_and_confirm_in_one_click(client, registry, proposal):
    client.force_login(registry.users["federation_staff"])
    home = client.get("/bureau/").content.decode()
    assert "Suspensions à décider" in home
    page = client.get("/bureau/suspensions/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Joueur12 Camille" in html or "Camille Joueur12" in html
    assert "Open de la Croix-Rousse" in html
    assert "Confirmer\xa0: suspendre 12 mois" in html
    answer = client.post(f"/bureau/suspensions/{proposal.pk}/confirmer/", follow=True)
    assert answer.status_code == 200
    assert "est suspendu jusqu’au" in answer.content.decode()
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.CONFIRMED
    assert Sanction.objects.get().player == proposal.player
    # Clicked twice: refused in French, nothing more recorded.
    again = client.post(f"/bureau/suspensions/{proposal.pk}/confirmer/", follow=True)
    assert "n’est plus à décider" in again.content.decode()
    assert Sanction.objects.count() == 1


def test_dismissing_needs_its_reason_on_the_field(client, registry, proposal):
    client.force_login(registry.users["federation_staff"])
    empty = client.post(f"/bureau/suspensions/{proposal.pk}/classer/", {"reason": " "})
    assert empty.status_code == 400
    assert "Ce champ est obligatoire" in empty.content.decode()
    assert SuspensionProposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING
    done = client.post(
        f"/bureau/suspensions/{proposal.pk}/classer/", {"reason": "Parti avec l'accord oral"}
    )
    assert done.status_code == 302
    proposal.refresh_from_db()
    assert (proposal.status, proposal.reason) == (
        ProposalStatus.DISMISSED,
        "Parti avec l'accord oral",
    )
    assert not Sanction.objects.exists()


def test_an_unknown_proposal_is_a_404(client, registry, proposal):
    client.force_login(registry.users["federation_staff"])
    assert client.post(f"/bureau/suspensions/{proposal.pk + 1000}/confirmer/").status_code == 404


@pytest.mark.parametrize(
    "role",
    # committee 1 and zone 1 hold club 101, the organiser: in scope; committee staff of
    # another committee would be out of it; both are refused alike.
    ["committee_staff", "zone_staff", "club_manager", "player", "arbiter", "other_committee"],
)
def test_nobody_else_opens_or_decides(client, registry, proposal, role):
    if role == "other_committee":
        from federation.models import Role, RoleAssignment, User

        user = User.objects.create_user(username="ccr2", password="x")
        RoleAssignment.objects.create(
            user=user, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
        )
    else:
        user = registry.users[role]
    client.force_login(user)
    assert client.get("/bureau/suspensions/").status_code == 403
    assert client.post(f"/bureau/suspensions/{proposal.pk}/confirmer/").status_code == 403
    assert (
        client.post(f"/bureau/suspensions/{proposal.pk}/classer/", {"reason": "x"}).status_code
        == 403
    )
    assert "Suspensions à décider" not in client.get("/bureau/").content.decode()
    assert SuspensionProposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING
    assert not Sanction.objects.exists()


def test_anonymous_is_sent_to_sign_in(client, proposal):
    answer = client.post(f"/bureau/suspensions/{proposal.pk}/confirmer/")
    assert answer.status_code == 302
    assert "/compte/connexion/" in answer["Location"]
    assert SuspensionProposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING
