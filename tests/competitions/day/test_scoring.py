"""Score entry on the tournament day: each deal checked by the engine at once, kept once,
corrected by the arbiter only (and logged); the table's token reaches that table at that
position and nothing else; who may do what, inside and outside their scope."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import signing

from competitions.day import scoring
from competitions.day.table_tokens import SALT, table_place, table_token, table_url
from competitions.models import (
    DayCorrection,
    DealRecord,
    EntryMember,
    PlayedSession,
    TableTotals,
    TournamentEntry,
    TournamentStatus,
)
from competitions.rules.day.layout import Holder, layout_of, layout_to_json, seating_to_json
from competitions.rules.engine.movements.planning import plan_movement
from competitions.rules.engine.movements.settings import MovementSettings
from core.errors import Conflict, NotFound, PermissionDenied
from core.problems import RuleViolation

GARDE_N = {"contract": "garde", "taker": "N", "oudlers": 2, "attack_points": 45}
PRISE_E_LOST = {"contract": "prise", "taker": "E", "oudlers": 1, "attack_points": 40}


def draw(tournament, players: int, *, positions: int = 2, deals: int = 4, fives=False):
    """A drawn session of ``players`` individual entries, as d-room stores it."""
    for number in range(1, players + 1):
        entry = TournamentEntry.objects.create(tournament=tournament, number=number)
        EntryMember.objects.create(
            entry=entry, tournament=tournament, name=f"Joueur {number}", order=1
        )
    plan = plan_movement(players, positions, settings=MovementSettings(tables_of_five=fives))
    layout = layout_of(plan, deals)
    return PlayedSession.objects.create(
        tournament=tournament,
        number=PlayedSession.objects.filter(tournament=tournament).count() + 1,
        positions=positions,
        deals_per_position=deals,
        placement="random",
        seed=1,
        plan=layout_to_json(layout),
        seating=seating_to_json({n: Holder(n) for n in range(1, players + 1)}),
    )


@pytest.fixture
def tournament(declare_tournament):
    return declare_tournament()


@pytest.fixture
def session(tournament):
    return draw(tournament, 12)


@pytest.fixture
def arbiter(registry):
    return registry.users["arbiter"]


def enter(session, deal, line, *, position=1, table=1, key="k"):
    return scoring.deal_enter(
        token=table_token(session, position, table), deal=deal, line=line, client_key=key
    )


# ----------------------------------------------------------------------------- services


def test_a_deal_from_the_table_is_scored_by_the_engine_and_kept_once(session):
    ack = enter(session, 1, GARDE_N)
    assert ack.created
    # garde, 2 oudlers, 45 points against 41: (25 + 4) x 2 = 58 per defender
    assert ack.marks == {"N": 174, "S": -58, "E": -58, "W": -58}
    assert ack.totals == ack.marks
    again = enter(session, 1, dict(reversed(list(GARDE_N.items()))), key="k")
    assert not again.created
    assert again.marks == ack.marks
    assert DealRecord.objects.filter(session=session).count() == 1
    record = DealRecord.objects.get()
    assert record.provenance == "table"
    assert record.client_key == "k"


def test_other_content_for_a_kept_deal_is_a_409_saying_only_the_arbiter_corrects(session):
    enter(session, 1, GARDE_N)
    with pytest.raises(Conflict) as refused:
        enter(session, 1, PRISE_E_LOST, key="other")
    assert refused.value.code == "day_deal_already_kept"
    from core.messages import error_message

    assert "seul l’arbitre" in error_message(refused.value, language="fr")
    assert DealRecord.objects.get().line["contract"] == "garde"


def test_an_impossible_deal_is_refused_in_french_naming_its_field(session):
    from core.messages import problem_message

    with pytest.raises(RuleViolation) as refused:
        enter(session, 2, {**GARDE_N, "oudlers": 4})
    fields = {p.field for p in refused.value.problems}
    assert "line.oudlers" in fields
    message = problem_message(refused.value.problems[0], language="fr")
    assert "bout" in message.lower() or "oudler" in message.lower()
    with pytest.raises(RuleViolation) as refused:
        enter(session, 2, {**GARDE_N, "taker": "X"})
    assert {p.field for p in refused.value.problems} == {"line.taker"}
    with pytest.raises(RuleViolation) as refused:
        enter(session, 5, GARDE_N)  # a position of 4 deals
    assert refused.value.problems[0].field == "deal"
    assert not DealRecord.objects.exists()


def test_written_marks_that_do_not_sum_to_zero_are_refused(session):
    with pytest.raises(RuleViolation) as refused:
        enter(session, 1, {"marks": {"N": 90, "S": -30, "E": -30, "W": -20}})
    assert refused.value.problems[0].code == "marks_do_not_sum_to_zero"


def test_a_table_of_3_scores_at_three(tournament):
    session = draw(tournament, 11, positions=1)
    place = next(
        t for t in table_place(table_token(session, 1, 1)).layout.positions[0] if t.size == 3
    )
    ack = enter(session, 1, {"contract": "garde", "taker": "S", "oudlers": 3, "attack_points": 40},
                table=place.table)  # fmt: skip
    assert set(ack.marks) == {"S", "E", "W"}
    assert sum(ack.marks.values()) == 0
    with pytest.raises(RuleViolation):
        enter(session, 2, {**GARDE_N, "taker": "N"}, table=place.table)  # no North at 3


def test_a_table_of_5_names_its_mort_and_follows_the_rotation(tournament):
    tournament.tables_of_five = True
    tournament.save()
    session = draw(tournament, 13, positions=1, deals=5, fives=True)
    five = next(t for t in table_place(table_token(session, 1, 1)).layout.positions[0]
                if t.size == 5)  # fmt: skip
    with pytest.raises(RuleViolation) as refused:
        enter(session, 1, GARDE_N, table=five.table)
    assert refused.value.problems[0].code == "day_mort_missing"
    ack = enter(session, 1, {**GARDE_N, "taker": "S", "sitting_out": "N"}, table=five.table)
    assert ack.marks["N"] == 0
    assert sum(ack.marks.values()) == 0
    # North sat out deal 1: deal 2's mort is West (anticlockwise) or the fifth seat; not South.
    with pytest.raises(RuleViolation):
        enter(session, 2, {**GARDE_N, "sitting_out": "S"}, table=five.table)
    enter(session, 2, {**GARDE_N, "sitting_out": "W"}, table=five.table)
    assert DealRecord.objects.filter(table=five.table).count() == 2


def test_a_mort_out_of_turn_is_said_once_in_seat_words_and_a_later_clash_calls_the_arbiter(
    tournament,
):
    from core.messages import problem_message

    tournament.tables_of_five = True
    tournament.save()
    session = draw(tournament, 13, positions=1, deals=5, fives=True)
    five = next(t for t in table_place(table_token(session, 1, 1)).layout.positions[0]
                if t.size == 5)  # fmt: skip
    enter(session, 1, {**GARDE_N, "taker": "S", "sitting_out": "N"}, table=five.table)
    with pytest.raises(RuleViolation) as refused:
        enter(session, 2, {**GARDE_N, "sitting_out": "S"}, table=five.table)
    message = problem_message(refused.value.problems[0], language="fr")
    assert message.startswith("Donne 2\xa0: Sud est le mort, mais c’est au tour de Ouest ou 5e")
    assert "W/5" not in message
    # Deal 3 kept first (West must sit out between North and East): deal 2 cannot close the gap
    enter(session, 3, {**GARDE_N, "sitting_out": "E"}, table=five.table, key="k3")
    with pytest.raises(RuleViolation) as refused:
        enter(session, 2, {**GARDE_N, "sitting_out": "W"}, table=five.table, key="k2")
    problem = refused.value.problems[0]
    assert (problem.field, problem.code) == (
        "deals[3].sitting_out",
        "day_mort_blocked_by_later_deal",
    )
    message = problem_message(problem, language="fr")
    assert message.startswith("Donne 2\xa0: ce mort ne s’accorde pas avec la donne 3")
    assert "Est y est le mort" in message
    assert "appelez l’arbitre" in message
    assert message.count("Donne") == 1


def test_position_totals_where_allowed_must_sum_to_zero(tournament, session):
    token = table_token(session, 1, 2)
    with pytest.raises(Conflict):
        scoring.totals_enter(token=token, totals={"N": 10, "S": -10, "E": 0, "W": 0})
    tournament.position_totals = True
    tournament.save()
    with pytest.raises(RuleViolation) as refused:
        scoring.totals_enter(token=token, totals={"N": 10, "S": -10, "E": 5, "W": 0})
    assert refused.value.problems[0].code == "day_totals_do_not_sum_to_zero"
    kept = scoring.totals_enter(token=token, totals={"N": 10, "S": -10, "E": 5, "W": -5})
    assert scoring.totals_enter(token=token, totals=kept) == kept
    with pytest.raises(Conflict):
        scoring.totals_enter(token=token, totals={"N": 0, "S": 0, "E": 0, "W": 0})
    with pytest.raises(Conflict):
        enter(session, 1, GARDE_N, table=2)
    assert TableTotals.objects.count() == 1


def test_the_arbiter_corrects_with_a_reason_and_the_correction_is_logged(session, arbiter):
    enter(session, 1, GARDE_N)
    with pytest.raises(RuleViolation) as refused:
        scoring.deal_correct(by=arbiter, session=session, position=1, table=1, deal=1,
                             line=PRISE_E_LOST, reason=" ")  # fmt: skip
    assert refused.value.problems[0].field == "reason"
    scoring.deal_correct(by=arbiter, session=session, position=1, table=1, deal=1,
                         line=PRISE_E_LOST, reason="Le preneur était Est")  # fmt: skip
    record = DealRecord.objects.get()
    assert record.line["taker"] == "E"
    assert record.marks["E"] < 0
    correction = DayCorrection.objects.get()
    assert correction.before["line"]["taker"] == "N"
    assert correction.after["line"]["taker"] == "E"
    assert correction.corrected_by == arbiter
    assert correction.reason == "Le preneur était Est"
    scoring.deal_correct(by=arbiter, session=session, position=1, table=1, deal=1, line=None,
                         reason="Donne rejouée")  # fmt: skip
    assert not DealRecord.objects.exists()
    assert DayCorrection.objects.count() == 2


def test_the_arbiter_corrects_position_totals_with_a_reason_and_it_is_logged(
    tournament, session, arbiter
):
    tournament.position_totals = True
    tournament.save()
    where = {"session": session, "position": 1, "table": 2}
    scoring.totals_enter(token=table_token(session, 1, 2), totals={"N": 10, "S": -10, "E": 5,
                                                                   "W": -5})  # fmt: skip
    with pytest.raises(RuleViolation) as refused:
        scoring.totals_correct(by=arbiter, totals={"N": 0, "S": 0, "E": 0, "W": 0}, reason=" ",
                               **where)  # fmt: skip
    assert refused.value.problems[0].field == "reason"
    with pytest.raises(RuleViolation) as refused:
        scoring.totals_correct(by=arbiter, totals={"N": 1, "S": 0, "E": 0, "W": 0},
                               reason="Erreur de report", **where)  # fmt: skip
    assert refused.value.problems[0].code == "day_totals_do_not_sum_to_zero"
    scoring.totals_correct(by=arbiter, totals={"N": 20, "S": -10, "E": 0, "W": -10},
                           reason="Erreur de report", **where)  # fmt: skip
    assert TableTotals.objects.get().totals == {"N": 20, "S": -10, "E": 0, "W": -10}
    correction = DayCorrection.objects.get()
    assert correction.deal == scoring.TOTALS_DEAL == 0
    assert correction.before == {"totals": {"N": 10, "S": -10, "E": 5, "W": -5}}
    assert correction.after == {"totals": {"N": 20, "S": -10, "E": 0, "W": -10}}
    assert (correction.corrected_by, correction.reason) == (arbiter, "Erreur de report")
    scoring.totals_correct(by=arbiter, totals=None, reason="Position rejouée", **where)
    assert not TableTotals.objects.exists()
    removal = DayCorrection.objects.latest("corrected_at")
    assert removal.after is None
    assert removal.before == {"totals": {"N": 20, "S": -10, "E": 0, "W": -10}}
    with pytest.raises(NotFound) as refused:
        scoring.totals_correct(by=arbiter, totals=None, reason="encore", **where)
    assert refused.value.code == "day_totals_not_kept"
    # Missing totals entered by the arbiter; a table of deals keeps its deals.
    scoring.totals_correct(by=arbiter, totals={"N": 3, "S": -3, "E": 0, "W": 0},
                           reason="Feuille papier", **where)  # fmt: skip
    assert TableTotals.objects.get().provenance == "arbiter"
    enter(session, 1, GARDE_N, table=1)
    with pytest.raises(Conflict) as refused:
        scoring.totals_correct(by=arbiter, totals={"N": 3, "S": -3, "E": 0, "W": 0},
                               reason="x", session=session, position=1, table=1)  # fmt: skip
    assert refused.value.code == "day_totals_beside_deals"
    assert DayCorrection.objects.count() == 3


def test_position_totals_are_corrected_only_where_the_tournament_allows_them(session, arbiter):
    with pytest.raises(Conflict) as refused:
        scoring.totals_correct(by=arbiter, session=session, position=1, table=1,
                               totals={"N": 0, "S": 0, "E": 0, "W": 0}, reason="x")  # fmt: skip
    assert refused.value.code == "day_totals_not_allowed"
    assert not DayCorrection.objects.exists()


def test_a_deal_is_scored_under_the_rulebook_staff_just_published(session, registry):
    """The rulebook is parsed once per process per version: a new version is read at the
    next deal, never an older one kept in memory."""
    from competitions.rulebooks import rulebook_update
    from competitions.rules.rulebook import Rulebook

    failed_chelem = {"contract": "garde", "taker": "N", "oudlers": 0, "attack_points": 5,
                     "chelem_announced": True, "chelem_made_by": "defence"}  # fmt: skip
    before = enter(session, 1, failed_chelem, table=1)  # both count (« add »), the default
    data = Rulebook.default().to_dict()
    data["scoring"] = {**(data["scoring"] or {}),
                       "defence_chelem_after_announced_chelem": "replace"}  # fmt: skip
    rulebook_update(season=session.tournament.season, data=data,
                    by=registry.users["federation_staff"])  # fmt: skip
    after = enter(session, 1, failed_chelem, table=2)
    assert after.marks["N"] - before.marks["N"] == 3 * 200  # the failed announcement dropped


def test_the_sheet_gives_seats_names_and_running_totals(session):
    enter(session, 1, GARDE_N)
    enter(session, 2, PRISE_E_LOST, key="2")
    sheet = scoring.table_sheet(token=table_token(session, 1, 1))
    assert [s.seat for s in sheet.seats] == ["N", "S", "E", "W"]
    assert all(s.name.startswith("Joueur ") for s in sheet.seats)
    assert sum(sheet.totals.values()) == 0
    assert sheet.missing == (3, 4)


# ----------------------------------------------------------------------------- the token


def test_a_token_reaches_its_table_at_its_position_only(session, tournament):
    enter(session, 1, GARDE_N, table=1)
    value = signing.Signer(salt=SALT).unsign(table_token(session, 1, 1))
    assert value == f"{tournament.pk}.1.1.1"
    for forged in (
        f"{tournament.pk}.1.1.2",
        f"{tournament.pk}.1.2.1",
        f"{tournament.pk + 1}.1.1.1",
    ):
        signature = table_token(session, 1, 1).rsplit(":", 1)[1]
        with pytest.raises(NotFound):
            table_place(f"{forged}:{signature}")
    other_salt = signing.Signer(salt="another").sign(f"{tournament.pk}.1.1.1")
    with pytest.raises(NotFound):
        table_place(other_salt)
    with pytest.raises(NotFound):
        table_place(table_token(session, 1, 99))  # no such table
    with pytest.raises(NotFound):
        table_place(table_token(session, 9, 1))  # no such position
    # The table's own token sees its own deal, the next position's nothing.
    assert scoring.table_sheet(token=table_token(session, 2, 1)).deals == ()
    assert table_url(session, 1, 1).startswith("/table/")


def test_a_token_is_refused_once_results_are_sent_or_the_day_is_over(session, tournament):
    token = table_token(session, 1, 1)
    the_day_after = dt.datetime(2026, 12, 6, 0, 30, tzinfo=dt.UTC)
    table_place(token, now=dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC))
    with pytest.raises(PermissionDenied):
        table_place(token, now=the_day_after)
    tournament.status = TournamentStatus.RESULTS_SUBMITTED
    tournament.save()
    with pytest.raises(PermissionDenied) as refused:
        enter(session, 1, GARDE_N)
    assert refused.value.code == "table_entry_closed"
    assert not DealRecord.objects.exists()


# ----------------------------------------------------------------------------- permissions

# The organiser's managers and the staff above them run the day (competitions.day.access).
RUNNERS = {"arbiter", "club_manager", "committee_staff", "zone_staff", "federation_staff"}
VIEWERS = RUNNERS
ROLES = ["anonymous", "player", "arbiter", "club_manager", "committee_staff", "zone_staff",
         "federation_staff"]  # fmt: skip


def _user(registry, role):
    from django.contrib.auth.models import AnonymousUser

    return registry.users[role] or AnonymousUser()


@pytest.mark.parametrize("role", ROLES)
def test_who_enters_and_corrects_a_deal(registry, session, role):
    user = _user(registry, role)
    where = {"session": session, "position": 1, "table": 1}
    if role in RUNNERS:
        scoring.deal_enter(by=user, deal=1, line=GARDE_N, **where)
        scoring.deal_correct(by=user, deal=1, line=PRISE_E_LOST, reason="erreur", **where)
        assert DealRecord.objects.get().provenance == "arbiter"
    else:
        with pytest.raises(NotFound):
            scoring.deal_enter(by=user, deal=1, line=GARDE_N, **where)
        enter(session, 1, GARDE_N)
        with pytest.raises(NotFound):
            scoring.deal_correct(by=user, deal=1, line=PRISE_E_LOST, reason="x", **where)
        assert DealRecord.objects.get().line["contract"] == "garde"


@pytest.mark.parametrize("role", ROLES)
def test_who_reads_the_grid_and_a_table(registry, session, tournament, role):
    user = _user(registry, role)
    if role in VIEWERS:
        assert scoring.scores_grid(by=user, tournament=tournament)
        scoring.table_sheet(by=user, session=session, position=1, table=1)
    else:
        with pytest.raises(NotFound):
            scoring.scores_grid(by=user, tournament=tournament)
        with pytest.raises(NotFound):
            scoring.table_sheet(by=user, session=session, position=1, table=1)


@pytest.mark.parametrize("kind", ["club", "committee"])
def test_staff_of_another_club_or_committee_see_and_run_nothing_here(
    registry, session, tournament, kind
):
    from federation.models import Role, RoleAssignment, User

    other = User.objects.create_user(username="other", password="x")
    if kind == "club":
        RoleAssignment.objects.create(user=other, role=Role.CLUB_MANAGER, club=registry.clubs[201])
    else:
        RoleAssignment.objects.create(
            user=other, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
        )
    enter(session, 1, GARDE_N)
    where = {"session": session, "position": 1, "table": 1}
    with pytest.raises(NotFound):
        scoring.deal_enter(by=other, deal=2, line=GARDE_N, **where)
    with pytest.raises(NotFound):
        scoring.deal_correct(by=other, deal=1, line=None, reason="x", **where)
    with pytest.raises(NotFound):
        scoring.totals_correct(by=other, totals=None, reason="x", **where)
    with pytest.raises(NotFound):
        scoring.table_sheet(by=other, **where)
    with pytest.raises(NotFound):
        scoring.scores_grid(by=other, tournament=tournament)
    assert DealRecord.objects.count() == 1


def test_a_runner_cannot_enter_once_results_are_sent(session, tournament, arbiter):
    tournament.status = TournamentStatus.RESULTS_SUBMITTED
    tournament.save()
    with pytest.raises(Conflict):
        scoring.deal_enter(by=arbiter, session=session, position=1, table=1, deal=1,
                           line=GARDE_N)  # fmt: skip


def test_a_runner_cannot_correct_totals_once_results_are_sent(session, tournament, arbiter):
    tournament.position_totals = True
    tournament.save()
    scoring.totals_enter(token=table_token(session, 1, 1), totals={"N": 2, "S": -2, "E": 0,
                                                                   "W": 0})  # fmt: skip
    tournament.status = TournamentStatus.RESULTS_SUBMITTED
    tournament.save()
    with pytest.raises(Conflict) as refused:
        scoring.totals_correct(by=arbiter, session=session, position=1, table=1, totals=None,
                               reason="x")  # fmt: skip
    assert refused.value.code == "day_results_sent"
    assert TableTotals.objects.exists()
    assert not DayCorrection.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_who_corrects_position_totals(registry, session, tournament, role):
    tournament.position_totals = True
    tournament.save()
    user = _user(registry, role)
    where = {"session": session, "position": 1, "table": 1}
    scoring.totals_enter(token=table_token(session, 1, 1), totals={"N": 2, "S": -2, "E": 0,
                                                                   "W": 0})  # fmt: skip
    if role in RUNNERS:
        scoring.totals_correct(by=user, totals={"N": 4, "S": -4, "E": 0, "W": 0},
                               reason="erreur", **where)  # fmt: skip
        assert TableTotals.objects.get().totals["N"] == 4
        assert DayCorrection.objects.count() == 1
    else:
        with pytest.raises(NotFound):
            scoring.totals_correct(by=user, totals=None, reason="x", **where)
        assert TableTotals.objects.get().totals["N"] == 2
        assert not DayCorrection.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_phones_sending_the_same_deal_at_once_keep_it_once(declare_tournament):
    """Two phones of a table send deal 1 together, each from its own connection: one row,
    both acknowledged; the same race with other content gives one row and one 409."""
    import threading

    from django.db import connection

    session = draw(declare_tournament(), 12)
    barrier = threading.Barrier(2)
    answers: list[object] = []

    def phone(line, key):
        try:
            barrier.wait()
            answers.append(enter(session, 1, line, key=key))
        except Conflict as refused:
            answers.append(refused)
        finally:
            connection.close()

    for lines in ((GARDE_N, GARDE_N), (PRISE_E_LOST, GARDE_N)):
        DealRecord.objects.all().delete()
        answers.clear()
        threads = [threading.Thread(target=phone, args=(line, str(i))) for i, line in
                   enumerate(lines)]  # fmt: skip
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert DealRecord.objects.filter(session=session).count() == 1
        acks = [a for a in answers if isinstance(a, scoring.DealAck)]
        if lines[0] == lines[1]:
            assert len(acks) == 2
            assert {a.created for a in acks} == {True, False}
        else:
            assert len(acks) == 1
            assert sum(isinstance(a, Conflict) for a in answers) == 1
