"""Récidive (chapter 4) wired to stored results: the season's ``arbitration.repeat_scope``
decides what the arbiter's offence costs (``/api/tournaments/<pk>/offence-cost/``) and
which submitted penalty amounts are flagged; each scope changes the answer."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.homologation import results_submit
from competitions.models import ResultRevision, Tournament
from competitions.rulebooks import rulebook_in_force, rulebook_update
from competitions.tournaments.repeats import earlier_offences

pytestmark = pytest.mark.django_db


def set_scope(registry, scope: str) -> None:
    data = rulebook_in_force(season=registry.season)[1].to_dict()
    data["arbitration"]["repeat_scope"] = scope
    rulebook_update(season=registry.season, data=data, by=registry.users["federation_staff"])


def with_penalties(twelve_results, penalties):
    """The twelve players' results with ``penalties`` (licence, kind, points), the totals
    still balancing (each penalty comes off its player's total)."""
    from tests.competitions.tournaments.conftest import TOTALS

    totals = list(TOTALS)
    for n, _, points in penalties:
        totals[n - 5001] -= points
    document = twelve_results(totals)
    document["penalties"] = [
        {"licence_number": n, "kind": kind, "points": points, "reason": "noté par l'arbitre"}
        for n, kind, points in penalties
    ]
    return document


def tournament_on(registry, day: int, name: str) -> Tournament:
    return Tournament.objects.create(
        season=registry.season, name=name, date=dt.date(2026, 12, day), venue="Salle",
        format="individual", organizer_kind="club", organizer_club=registry.clubs[101],
        arbiter=registry.players[1002],
    )  # fmt: skip


def submit(registry, tournament, document):
    return results_submit(
        tournament=tournament,
        content=document,
        source="json",
        by=registry.users["federation_staff"],
    )


@pytest.fixture
def slow_on_the_1st(registry, twelve_players, twelve_results):
    """Player 5001 penalised for slowness (100, a first offence) on 1 December."""
    earlier = tournament_on(registry, 1, "Tournoi du 1er")
    submit(registry, earlier, with_penalties(twelve_results, [(5001, "slowness", 100)]))
    return earlier


def ask(api, registry, tournament, role="arbiter", **body):
    api.force_authenticate(registry.users[role])
    return api.post(f"/api/tournaments/{tournament.pk}/offence-cost/", body, format="json")


@pytest.mark.parametrize(
    ("scope", "number", "points"),
    [
        ("same_fault_same_tournament", 1, 100),
        ("any_fault_same_tournament", 2, 200),  # the exposed card earlier today counts
        ("same_fault_same_season", 2, 200),  # the slowness of 1 December counts
    ],
)
def test_each_scope_changes_what_the_offence_costs(
    api, registry, slow_on_the_1st, scope, number, points
):
    set_scope(registry, scope)
    today = tournament_on(registry, 5, "Tournoi du 5")
    response = ask(
        api, registry, today, licence_number=5001, kind="slowness", in_tournament=["exposed_card"]
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["repeat_scope"], body["offence_number"], body["points"]) == (scope, number, points)
    assert body["repeat"] is (number > 1)
    assert body["counted_before"] == (1 if scope == "same_fault_same_season" else 0)


def test_the_same_day_and_later_tournaments_do_not_count(api, registry, slow_on_the_1st):
    set_scope(registry, "same_fault_same_season")
    response = ask(api, registry, slow_on_the_1st, licence_number=5001, kind="slowness")
    assert response.json()["offence_number"] == 1  # its own penalties are not "earlier"
    same_day = tournament_on(registry, 1, "Autre tournoi du 1er")
    assert (
        ask(api, registry, same_day, licence_number=5001, kind="slowness").json()["offence_number"]
        == 1
    )


def test_a_refused_tournament_and_an_old_revision_do_not_count(
    registry, twelve_players, twelve_results, slow_on_the_1st
):
    tournament = tournament_on(registry, 5, "Tournoi du 5")
    licences = [5001]
    scope = rulebook_in_force(season=registry.season)[1].arbitration.repeat_scope
    assert earlier_offences(tournament=tournament, licence_numbers=licences, scope=scope) == {}
    from competitions.rules.engine.penalties import RepeatScope

    season_scope = RepeatScope.SAME_FAULT_SAME_SEASON
    assert (
        len(
            earlier_offences(tournament=tournament, licence_numbers=licences, scope=season_scope)[
                5001
            ]
        )
        == 1
    )
    # A corrected revision without the penalty replaces the first one.
    submit(registry, slow_on_the_1st, twelve_results())
    assert ResultRevision.objects.filter(tournament=slow_on_the_1st).count() == 2
    assert (
        earlier_offences(tournament=tournament, licence_numbers=licences, scope=season_scope) == {}
    )
    submit(registry, slow_on_the_1st, with_penalties(twelve_results, [(5001, "slowness", 100)]))
    Tournament.objects.filter(pk=slow_on_the_1st.pk).update(status="refused")
    assert (
        earlier_offences(tournament=tournament, licence_numbers=licences, scope=season_scope) == {}
    )


def test_amounts_without_a_fixed_figure_are_null(api, registry, twelve_players):
    today = tournament_on(registry, 5, "Tournoi du 5")
    for kind in ("late_arrival", "ethics"):
        body = ask(api, registry, today, licence_number=5001, kind=kind).json()
        assert (body["offence_number"], body["points"]) == (1, None)


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("arbiter", 200),  # the tournament's arbiter (1002)
        ("club_manager", 200),  # club 101 organises it
        ("committee_staff", 200),
        ("federation_staff", 200),
        ("player", 403),
        ("anonymous", 401),
    ],
)
def test_who_may_ask(api, registry, twelve_players, role, status):
    today = tournament_on(registry, 5, "Tournoi du 5")
    api.force_authenticate(registry.users[role])
    response = api.post(
        f"/api/tournaments/{today.pk}/offence-cost/",
        {"licence_number": 5001, "kind": "slowness"},
        format="json",
    )
    assert response.status_code == status


def test_out_of_scope_staff_are_refused(api, registry, twelve_players):
    from federation.models import Role, RoleAssignment, User

    other = User.objects.create_user(username="bretagne", password="x")
    RoleAssignment.objects.create(
        user=other, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
    )
    today = tournament_on(registry, 5, "Tournoi du 5")
    api.force_authenticate(other)
    response = api.post(
        f"/api/tournaments/{today.pk}/offence-cost/",
        {"licence_number": 5001, "kind": "slowness"},
        format="json",
    )
    assert response.status_code == 403


def test_bad_input_is_a_precise_400(api, registry, twelve_players):
    today = tournament_on(registry, 5, "Tournoi du 5")
    response = ask(
        api, registry, today, licence_number=0, kind="sloth", in_tournament=["slowness", "x"]
    )
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert {"licence_number", "kind"} <= fields
    assert any(f.startswith("in_tournament") for f in fields)


def codes_of(submitted):
    return [(w.field, w.code) for w in submitted.warnings if w.code.startswith("penalty_")]


@pytest.mark.parametrize(
    ("scope", "flagged"),
    [
        ("same_fault_same_tournament", []),
        ("any_fault_same_tournament", [("penalties[1].points", "penalty_first_amount_on_repeat")]),
        ("same_fault_same_season", [("penalties[0].points", "penalty_first_amount_on_repeat")]),
    ],
)
def test_submitted_amounts_are_checked_under_the_scope(
    registry, twelve_results, slow_on_the_1st, scope, flagged
):
    set_scope(registry, scope)
    today = tournament_on(registry, 5, "Tournoi du 5")
    document = with_penalties(twelve_results, [(5001, "slowness", 100), (5001, "exposed_card", 0)])
    submitted = submit(registry, today, document)
    assert codes_of(submitted) == flagged
    stored = ResultRevision.objects.get(tournament=today).warnings
    assert [w["code"] for w in stored if w["code"].startswith("penalty_")] == [
        c for _, c in flagged
    ]


def test_the_warning_is_in_french(
    api, registry, declare_tournament, twelve_players, twelve_results
):
    tournament = declare_tournament()
    document = with_penalties(twelve_results, [(5002, "slowness", 100), (5002, "slowness", 100)])
    response = api.post(f"/api/tournaments/{tournament.pk}/results/", document, format="json")
    assert response.status_code == 201, response.json()
    (warning,) = [w for w in response.json()["warnings"] if w["code"].startswith("penalty_")]
    assert warning["field"] == "penalties[1].points"
    assert "est une récidive et coûte 200 points, pas 100" in warning["message"]


def test_earlier_offences_are_read_in_one_query(
    registry, twelve_players, twelve_results, slow_on_the_1st, django_assert_num_queries
):
    from competitions.rules.engine.penalties import RepeatScope

    second = tournament_on(registry, 3, "Tournoi du 3")
    submit(
        registry,
        second,
        with_penalties(twelve_results, [(5001, "slowness", 200), (5002, "exposed_card", 0)]),
    )
    today = tournament_on(registry, 5, "Tournoi du 5")
    with django_assert_num_queries(1):
        found = earlier_offences(
            tournament=today,
            licence_numbers=[5001, 5002, 5003],
            scope=RepeatScope.SAME_FAULT_SAME_SEASON,
        )
    assert {
        n: [(e.kind.value, e.tournament) for e in offences] for n, offences in found.items()
    } == {
        5001: [("slowness", str(slow_on_the_1st.pk)), ("slowness", str(second.pk))],
        5002: [("exposed_card", str(second.pk))],
    }
    with django_assert_num_queries(0):  # the tournament scopes read nothing
        assert (
            earlier_offences(
                tournament=today,
                licence_numbers=[5001],
                scope=RepeatScope.ANY_FAULT_SAME_TOURNAMENT,
            )
            == {}
        )
