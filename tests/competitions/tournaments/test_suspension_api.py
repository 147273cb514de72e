"""The suspension proposals' API (/api/suspension-proposals/): federation staff list the
proposals to decide and those decided, confirm one (the text's 12 months) or dismiss it
with a reason, through the desk's services; everyone else, in the tournament's scope or
not, gets a 403 whatever the proposal (existing or not) and changes nothing."""

from __future__ import annotations

import pytest
from django.utils import timezone

from competitions.homologation import tournament_homologate
from competitions.models import ProposalStatus, SuspensionProposal
from competitions.tournaments.suspension_proposals import suspension_last_day
from federation.models import Role, RoleAssignment, Sanction, User

pytestmark = pytest.mark.django_db

URL = "/api/suspension-proposals/"


@pytest.fixture
def proposals(registry, submitted, twelve_results):
    """Two pending proposals: entry 12 of one tournament, entry 11 of another."""
    made = []
    for name, entry, day in (("Open de la Croix-Rousse", 12, 5), ("Open de Fourvière", 11, 6)):
        document = twelve_results()
        document["entries"][entry - 1].update(abandoned=True, arbiter_accord=False)
        if entry == 11:  # the abandon ranks last: swap the last two places
            document["entries"][10]["place"], document["entries"][11]["place"] = 12, 11
        tournament = submitted(name, document=document, day=day)
        tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])
        made.append(SuspensionProposal.objects.get(tournament=tournament))
    return made


@pytest.fixture
def staff(api, registry):
    api.force_authenticate(registry.users["federation_staff"])
    return api


def test_federation_staff_list_the_proposals_to_decide_by_tournament_day(
    staff, proposals, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):  # bounded, whatever the number of proposals
        response = staff.get(URL)
    assert response.status_code == 200, response.json()
    listed = response.json()
    assert [p["id"] for p in listed] == [p.pk for p in proposals]
    first = listed[0]
    assert first["tournament"]["name"] == "Open de la Croix-Rousse"
    assert first["player"] == {
        "licence_number": 5012,
        "last_name": "Joueur12",
        "first_name": "Camille",
    }
    assert (first["entry_number"], first["revision"], first["status"]) == (12, 1, "pending")
    assert first["sanction"] is None
    assert staff.get(URL, {"status": "decided"}).json() == []


def test_confirming_records_the_twelve_month_suspension_once(staff, proposals):
    proposal = proposals[0]
    response = staff.post(f"{URL}{proposal.pk}/confirm/")
    assert response.status_code == 200, response.json()
    body = response.json()
    today = timezone.localdate()
    assert body["status"] == "confirmed"
    assert body["sanction"]["starts"] == today.isoformat()
    assert body["sanction"]["ends"] == suspension_last_day(today).isoformat()
    sanction = Sanction.objects.get()
    assert (sanction.player_id, sanction.kind) == (proposal.player_id, "suspension")
    # The same as the desk's page: decided once, refused in French on the field.
    again = staff.post(f"{URL}{proposal.pk}/confirm/")
    assert again.status_code == 400
    (error,) = again.json()["errors"]
    assert (error["field"], error["code"]) == ("status", "proposal_already_decided")
    assert error["message"].startswith("Cette proposition n’est plus à décider")
    assert Sanction.objects.count() == 1
    decided = staff.get(URL, {"status": "decided"}).json()
    assert [p["id"] for p in decided] == [proposal.pk]
    assert [p["id"] for p in staff.get(URL).json()] == [proposals[1].pk]


def test_dismissing_needs_its_reason_on_the_field(staff, proposals):
    proposal = proposals[1]
    for body in ({}, {"reason": "  "}, {"reason": "x" * 2001}):
        refused = staff.post(f"{URL}{proposal.pk}/dismiss/", body, format="json")
        assert refused.status_code == 400, refused.json()
        assert [e["field"] for e in refused.json()["errors"]] == ["reason"]
    assert SuspensionProposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING
    done = staff.post(
        f"{URL}{proposal.pk}/dismiss/", {"reason": "Parti avec l’accord oral"}, format="json"
    )
    assert done.status_code == 200, done.json()
    assert (done.json()["status"], done.json()["reason"]) == (
        "dismissed",
        "Parti avec l’accord oral",
    )
    assert done.json()["decided_by"] == "federation_staff"
    assert not Sanction.objects.exists()


def test_an_unknown_proposal_or_status_is_named(staff, proposals):
    missing = max(p.pk for p in proposals) + 1000
    assert staff.post(f"{URL}{missing}/confirm/").status_code == 404
    assert staff.post(f"{URL}{missing}/dismiss/", {"reason": "x"}, format="json").status_code == 404
    wrong = staff.get(URL, {"status": "withdrawn"})
    assert wrong.status_code == 400
    assert [e["field"] for e in wrong.json()["errors"]] == ["status"]


@pytest.mark.parametrize(
    "role",
    # committee 1 and zone 1 hold club 101, the organiser: in scope; committee 2's staff
    # are outside it; all are refused alike, as are the club, the player and the arbiter.
    ["committee_staff", "zone_staff", "club_manager", "player", "arbiter", "other_committee"],
)
def test_nobody_else_lists_or_decides_and_learns_nothing(api, registry, proposals, role):
    if role == "other_committee":
        user = User.objects.create_user(username="ccr2")
        RoleAssignment.objects.create(
            user=user, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
        )
    else:
        user = registry.users[role]
    api.force_authenticate(user)
    missing = max(p.pk for p in proposals) + 1000
    answers = []
    for pk in (proposals[0].pk, missing):  # an existing proposal and none: the same answer
        confirm = api.post(f"{URL}{pk}/confirm/")
        dismiss = api.post(f"{URL}{pk}/dismiss/", {"reason": "x"}, format="json")
        assert (confirm.status_code, dismiss.status_code) == (403, 403)
        answers.append((confirm.json(), dismiss.json()))
    assert answers[0] == answers[1]
    listed = api.get(URL)
    assert listed.status_code == 403
    assert "Joueur12" not in listed.content.decode()
    assert answers[0][0]["errors"][0]["message"] == (
        "Seul le personnel fédéral (CCN) décide d’une suspension."
    )
    assert set(SuspensionProposal.objects.values_list("status", flat=True)) == {"pending"}
    assert not Sanction.objects.exists()


def test_anonymous_is_asked_to_authenticate(api, proposals):
    assert api.get(URL).status_code == 401
    assert api.post(f"{URL}{proposals[0].pk}/confirm/").status_code == 401
    assert SuspensionProposal.objects.get(pk=proposals[0].pk).status == ProposalStatus.PENDING


def test_the_operations_are_documented():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    assert [p["name"] for p in paths[URL]["get"]["parameters"]] == ["status"]
    assert set(paths[f"{URL}{{id}}/confirm/"]["post"]["responses"]) >= {"200", "403", "404"}
    dismiss = paths[f"{URL}{{id}}/dismiss/"]["post"]
    body = dismiss["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert "reason" in schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]
