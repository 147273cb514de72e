"""An abandon without the arbiter's accord (chapter 4: « sera suspendue de jeu en donnes libres
… pour une durée de 12 mois »): homologation proposes the suspension to federation staff, who
confirm it (the sanction recorded, 12 months) or dismiss it with a reason; idempotent on a
second homologation or a correction. And the season's setting on results naming a player
suspended on the tournament's day: flagged (the default) or refused."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.homologation import tournament_correct, tournament_homologate
from competitions.models import ProposalStatus, SuspensionProposal
from competitions.rulebooks import rulebook_in_force, rulebook_update
from competitions.tournaments.suspension_proposals import (
    suspension_last_day,
    suspension_proposal_confirm,
    suspension_proposal_dismiss,
    suspension_proposals_pending,
)
from core.errors import PermissionDenied
from core.problems import RuleViolation
from federation.models import Sanction, SanctionKind
from federation.sanctions import sanction_record

pytestmark = pytest.mark.django_db


def leaving(twelve_results, accord=False, *, entry=12):
    """The twelve results, the last entry (the lowest total) abandoning."""
    document = twelve_results()
    last = document["entries"][entry - 1]
    last["abandoned"] = True
    if accord is not None:
        last["arbiter_accord"] = accord
    return document


@pytest.fixture
def homologated(registry, submitted, twelve_results):
    def homologate(accord=False):
        tournament = submitted("Open quitté", document=leaving(twelve_results, accord))
        return tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])

    return homologate


def test_an_abandon_without_accord_proposes_a_suspension(registry, homologated, twelve_players):
    tournament = homologated()
    (proposal,) = SuspensionProposal.objects.filter(tournament=tournament)
    assert (proposal.player, proposal.entry_number, proposal.status) == (
        twelve_players[11],
        12,
        ProposalStatus.PENDING,
    )
    assert list(suspension_proposals_pending(by=registry.users["federation_staff"])) == [proposal]


@pytest.mark.parametrize("accord", [True, None])
def test_with_the_accord_or_unsaid_nothing_is_proposed(homologated, accord):
    tournament = homologated(accord)
    assert not SuspensionProposal.objects.filter(tournament=tournament).exists()


def test_submitting_alone_proposes_nothing(submitted, twelve_results):
    tournament = submitted("Open envoyé", document=leaving(twelve_results))
    assert not SuspensionProposal.objects.filter(tournament=tournament).exists()


def test_a_correction_keeps_one_proposal_and_withdraws_it_when_the_abandon_goes(
    registry, homologated, twelve_results
):
    staff = registry.users["federation_staff"]
    tournament = homologated()
    first = SuspensionProposal.objects.get(tournament=tournament)
    # The same abandon recorded again (another change to the results): the same proposal.
    changed = leaving(twelve_results)
    changed["sessions"][0]["deals"] = 19
    tournament_correct(
        tournament=tournament, content=changed, source="json", reason="donnes", by=staff
    )
    (again,) = SuspensionProposal.objects.filter(tournament=tournament)
    assert (again.pk, again.status) == (first.pk, ProposalStatus.PENDING)
    assert again.revision.number == 2
    # The arbiter had agreed after all: the proposal is withdrawn, then back if it returns.
    tournament_correct(
        tournament=tournament,
        content=leaving(twelve_results, True),
        source="json",
        reason="accord",
        by=staff,
    )
    assert SuspensionProposal.objects.get(pk=first.pk).status == ProposalStatus.WITHDRAWN
    assert not suspension_proposals_pending(by=staff).exists()
    tournament_correct(
        tournament=tournament, content=leaving(twelve_results), source="json", reason="x", by=staff
    )
    assert SuspensionProposal.objects.get(pk=first.pk).status == ProposalStatus.PENDING


def test_confirming_records_the_twelve_month_suspension(
    registry, homologated, twelve_players, twelve_results
):
    staff = registry.users["federation_staff"]
    tournament = homologated()
    proposal = SuspensionProposal.objects.get(tournament=tournament)
    done = suspension_proposal_confirm(proposal=proposal, by=staff, starts=dt.date(2027, 3, 14))
    sanction = Sanction.objects.get(player=twelve_players[11])
    assert (sanction.kind, sanction.starts, sanction.ends) == (
        SanctionKind.SUSPENSION,
        dt.date(2027, 3, 14),
        dt.date(2028, 3, 13),
    )
    assert "sans l’accord de l’arbitre" in sanction.reason
    assert (done.status, done.sanction, done.decided_by) == (
        ProposalStatus.CONFIRMED,
        sanction,
        staff,
    )
    # Decided once: a second click, or a correction recording it again, changes nothing.
    with pytest.raises(RuleViolation) as refused:
        suspension_proposal_confirm(proposal=proposal, by=staff)
    assert refused.value.problems[0].code == "proposal_already_decided"
    changed = leaving(twelve_results)
    changed["sessions"][0]["deals"] = 19
    tournament_correct(
        tournament=tournament, content=changed, source="json", reason="donnes", by=staff
    )
    assert SuspensionProposal.objects.get(pk=proposal.pk).status == ProposalStatus.CONFIRMED
    assert Sanction.objects.filter(player=twelve_players[11]).count() == 1


def test_dismissing_needs_a_reason(registry, homologated):
    staff = registry.users["federation_staff"]
    proposal = SuspensionProposal.objects.get(tournament=homologated())
    with pytest.raises(RuleViolation) as refused:
        suspension_proposal_dismiss(proposal=proposal, by=staff, reason="  ")
    assert (refused.value.problems[0].field, refused.value.problems[0].code) == (
        "reason",
        "required",
    )
    done = suspension_proposal_dismiss(proposal=proposal, by=staff, reason="Malaise, vu l'arbitre")
    assert (done.status, done.reason) == (ProposalStatus.DISMISSED, "Malaise, vu l'arbitre")
    assert not Sanction.objects.exists()


@pytest.mark.parametrize(
    "role", ["committee_staff", "zone_staff", "club_manager", "player", "arbiter"]
)
def test_only_federation_staff_decide(registry, homologated, role):
    """Committee 1's and zone 1's staff are in the tournament's scope (club 101), and still
    may not decide: the CCN suspends; they do not see the proposals either."""
    proposal = SuspensionProposal.objects.get(tournament=homologated())
    user = registry.users[role]
    with pytest.raises(PermissionDenied):
        suspension_proposal_confirm(proposal=proposal, by=user)
    with pytest.raises(PermissionDenied):
        suspension_proposal_dismiss(proposal=proposal, by=user, reason="non")
    assert not suspension_proposals_pending(by=user).exists()
    assert SuspensionProposal.objects.get(pk=proposal.pk).status == ProposalStatus.PENDING


@pytest.mark.parametrize(
    ("starts", "last"),
    [
        (dt.date(2026, 3, 14), dt.date(2027, 3, 13)),
        (dt.date(2026, 1, 1), dt.date(2026, 12, 31)),
        (dt.date(2028, 2, 29), dt.date(2029, 2, 28)),
        (dt.date(2026, 12, 31), dt.date(2027, 12, 30)),
    ],
)
def test_twelve_months_end_the_day_before_the_same_date(starts, last):
    assert suspension_last_day(starts) == last


def _season_refuses(registry):
    data = rulebook_in_force(season=registry.season)[1].to_dict()
    data["arbitration"]["suspended_player_results"] = "refuse"
    rulebook_update(season=registry.season, data=data, by=registry.users["federation_staff"])


@pytest.mark.parametrize("setting", ["flag", "refuse"])
def test_the_season_says_whether_a_suspended_players_results_are_refused(
    registry, twelve_players, twelve_results, submitted, setting
):
    sanction_record(
        player=twelve_players[2],
        kind=SanctionKind.SUSPENSION,
        starts=dt.date(2026, 6, 1),
        ends=dt.date(2027, 5, 31),
        reason="A quitté un tournoi sans l'accord de l'arbitre.",
        by=registry.users["federation_staff"],
    )
    if setting == "refuse":
        _season_refuses(registry)
        with pytest.raises(RuleViolation) as refused:
            submitted("Open suspendu")
        assert [(p.field, p.code) for p in refused.value.problems] == [
            ("entries[2].players[0].licence_number", "suspended_player_refused")
        ]
    else:
        tournament = submitted("Open suspendu")
        assert [w["code"] for w in tournament.revisions.get().warnings] == [
            "suspended_player_in_results"
        ]


def test_the_refusal_is_a_located_400_in_french(
    api, registry, twelve_players, twelve_results, declare_tournament
):
    sanction_record(
        player=twelve_players[2],
        kind=SanctionKind.SUSPENSION,
        starts=dt.date(2026, 6, 1),
        ends=dt.date(2027, 5, 31),
        reason="Motif privé",
        by=registry.users["federation_staff"],
    )
    _season_refuses(registry)
    tournament = declare_tournament()
    response = api.post(
        f"/api/tournaments/{tournament.pk}/results/", twelve_results(), format="json"
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["code"] == "suspended_player_refused"
    assert "le règlement de la saison refuse" in error["message"]
    assert "Motif privé" not in response.content.decode()


def test_results_without_an_abandon_cost_three_reads_and_no_write(registry, submitted):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from competitions.tournaments.suspension_proposals import suspension_proposals_sync

    tournament = submitted("Open sans abandon")
    with CaptureQueriesContext(connection) as queries:
        assert suspension_proposals_sync(tournament=tournament) == []
    assert len(queries) == 3
    assert all(q["sql"].lstrip().upper().startswith("SELECT") for q in queries.captured_queries)
