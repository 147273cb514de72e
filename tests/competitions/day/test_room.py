"""The room's services: check-in, late arrivals, no-shows, the draw (every field size the
engine seats from 12 to 40 players, with tables of 3 or of 5), the redraw, and who may."""

from collections import Counter

import pytest

from competitions.day import penalties, room
from competitions.models import DealRecord, EntryMember, EntryState, Provenance
from competitions.rules.day.layout import layout_from_json, seating_from_json
from competitions.rules.engine.movements.planning import max_positions
from competitions.rules.engine.movements.settings import MovementSettings
from core.errors import Conflict, PermissionDenied
from core.messages import error_message, problem_message
from core.problems import RuleViolation
from core.vocabulary import Format

RUNNERS = ("arbiter", "club_manager", "committee_staff", "zone_staff", "federation_staff")
OTHERS = ("player", "other_club", "other_committee", "other_arbiter")


def user_of(registry, role: str):
    """A role's user; ``other_*``: the same role outside the tournament's scope (club 102's
    manager, committee 2's staff, an accredited arbiter not named on it)."""
    from federation.models import ArbiterAccreditation, ArbiterGrade, Role, RoleAssignment, User

    if not role.startswith("other_"):
        return registry.users[role]
    user = User.objects.create_user(username=role, password="x")
    if role == "other_club":
        RoleAssignment.objects.create(user=user, role=Role.CLUB_MANAGER, club=registry.clubs[102])
    elif role == "other_committee":
        RoleAssignment.objects.create(
            user=user, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
        )
    else:
        ArbiterAccreditation.objects.create(
            player=registry.players[2001], season=registry.season, grade=ArbiterGrade.REGIONAL
        )
        user.player = registry.players[2001]
        user.save()
    return user


def codes(refusal: RuleViolation) -> list[str]:
    return [p.code for p in refusal.problems]


def test_presence_is_marked_and_unmarked(registry, day_tournament, enter_players):
    tournament = day_tournament()
    enter_players(tournament, 3, present=False)
    entry = room.entry_presence_set(
        tournament=tournament, entry_number=2, present=True, by=registry.users["arbiter"]
    )
    assert entry.present
    assert entry.checked_in_at is not None
    entry = room.entry_presence_set(
        tournament=tournament, entry_number=2, present=False, by=registry.users["arbiter"]
    )
    assert not entry.present
    assert entry.checked_in_at is None


def test_an_unknown_or_waiting_entry_cannot_be_present(registry, day_tournament, enter_players):
    tournament = day_tournament()
    (entry,) = enter_players(tournament, 1, present=False)
    entry.state = EntryState.WAITING
    entry.save()
    arbiter = registry.users["arbiter"]
    with pytest.raises(RuleViolation) as refused:
        room.entry_presence_set(tournament=tournament, entry_number=1, present=True, by=arbiter)
    assert problem_message(refused.value.problems[0]) == (
        "L’inscription n° 1 est « liste d’attente » : seule une inscription retenue peut être "
        "présente."
    )
    with pytest.raises(RuleViolation) as refused:
        room.entry_presence_set(tournament=tournament, entry_number=9, present=True, by=arbiter)
    assert codes(refused.value) == ["day_room_no_entry"]


def test_a_seated_entry_cannot_be_marked_absent_while_its_session_runs(registry, day_field):
    with pytest.raises(RuleViolation) as refused:
        room.entry_presence_set(
            tournament=day_field.tournament,
            entry_number=1,
            present=False,
            by=registry.users["arbiter"],
        )
    assert "séance 1, en cours" in problem_message(refused.value.problems[0])


def test_a_late_arrival_is_entered_present(registry, day_tournament, enter_players, day_player):
    tournament = day_tournament()
    enter_players(tournament, 2)
    late = day_player(last_name="Retard")
    entry = room.late_arrival_add(
        tournament=tournament, members=[late.licence_number], by=registry.users["arbiter"]
    )
    assert (entry.number, entry.present, entry.late_arrival) == (3, True, True)
    guest = room.late_arrival_add(
        tournament=tournament, members=["  Jean   Invité "], by=registry.users["arbiter"]
    )
    assert guest.members.get().name == "Jean Invité"


def test_a_late_arrival_is_refused_precisely(registry, day_tournament, enter_players):
    tournament = day_tournament(format="duo")
    (entry,) = enter_players(tournament, 1)
    entered = entry.members.first().player.licence_number
    with pytest.raises(RuleViolation) as refused:
        room.late_arrival_add(
            tournament=tournament, members=[999999, entered], by=registry.users["arbiter"]
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("members[0]", "day_room_unknown_licence"),
        ("members[1]", "day_room_already_entered"),
    ]
    with pytest.raises(RuleViolation) as refused:
        room.late_arrival_add(tournament=tournament, members=[""], by=registry.users["arbiter"])
    assert codes(refused.value) == ["day_room_member_count", "day_room_bad_name"]
    assert tournament.day_entries.count() == 1  # nothing half-written


def test_no_shows_are_withdrawn_and_their_players_freed(registry, day_tournament, enter_players):
    tournament = day_tournament()
    enter_players(tournament, 2)
    enter_players(tournament, 2, present=False)
    assert room.no_shows_withdraw(tournament=tournament, by=registry.users["arbiter"]) == [3, 4]
    states = dict(tournament.day_entries.values_list("number", "state"))
    assert states == {1: "entered", 2: "entered", 3: "withdrawn", 4: "withdrawn"}
    assert EntryMember.objects.filter(tournament=tournament, active=False).count() == 2


@pytest.mark.parametrize("fives", [False, True])
def test_every_field_from_12_to_40_players_is_seated(
    registry, day_tournament, enter_players, fives
):
    """Each field the engine seats is drawn (and redrawn as players arrive): everyone present
    sits once at every position; tables of 3 or of 5 as many as players beyond a multiple of
    4; a field the engine cannot seat is refused with the engine's reason in French."""
    tournament = day_tournament(tables_of_five=fives)
    arbiter = registry.users["arbiter"]
    enter_players(tournament, 11)
    drawn = 0
    for players in range(12, 41):
        enter_players(tournament, 1)
        settings = MovementSettings(tables_of_five=fives)
        try:
            allowed = max_positions(players, Format.INDIVIDUAL, settings)
        except RuleViolation:
            allowed = 0
        positions = min(allowed, 4) or 4
        arguments = {"tournament": tournament, "positions": positions, "deals_per_position": 4}
        if drawn:
            arguments["session_number"] = 1
        if allowed == 0:
            with pytest.raises(RuleViolation) as refused:
                room.session_draw(**arguments, by=arbiter)
            assert all(problem_message(p) for p in refused.value.problems)
            continue
        session = room.session_draw(**arguments, seed=players, by=arbiter)
        drawn += 1
        layout = layout_from_json(session.plan)
        seating = seating_from_json(session.seating)
        assert sorted(h.entry for h in seating.values()) == list(range(1, players + 1))
        odd = players % 4
        for tables in layout.positions:
            sizes = Counter(t.size for t in tables)
            seated = sorted(n for t in tables for n in t.seats.values())
            assert seated == sorted(seating)
            if odd:
                assert sizes[5 if fives else 3] == (odd if fives else 4 - odd)
            else:
                assert set(sizes) == {4}
    assert drawn >= 25
    assert tournament.played_sessions.count() == 1


def test_the_positions_asked_are_checked_against_the_movement(registry, day_field):
    with pytest.raises(RuleViolation) as refused:
        room.session_draw(
            tournament=day_field.tournament,
            positions=9,
            deals_per_position=0,
            session_number=1,
            by=registry.users["arbiter"],
        )
    assert codes(refused.value) == ["day_room_deals_range"]
    with pytest.raises(RuleViolation) as refused:
        room.session_draw(
            tournament=day_field.tournament,
            positions=9,
            deals_per_position=4,
            session_number=1,
            by=registry.users["arbiter"],
        )
    assert codes(refused.value) == ["formula_too_many_positions"]
    assert "12 joueurs" in problem_message(refused.value.problems[0])


def test_a_duo_or_team_field_is_seated_by_whole_entries(registry, day_tournament, enter_players):
    arbiter = registry.users["arbiter"]
    duo = day_tournament(format="duo", tables_of_five=True)  # tables of 5 are individual only
    enter_players(duo, 9)  # 18 players: tables of 3 for a duo
    session = room.session_draw(tournament=duo, positions=3, deals_per_position=5, by=arbiter)
    layout = layout_from_json(session.plan)
    assert sorted(t.size for t in layout.tables_at(1)) == [3, 3, 4, 4, 4]
    team = day_tournament(format="team4")
    enter_players(team, 5)
    session = room.session_draw(tournament=team, positions=4, deals_per_position=4, by=arbiter)
    seating = seating_from_json(session.seating)
    assert Counter(h.entry for h in seating.values()) == dict.fromkeys(range(1, 6), 4)
    first = layout_from_json(session.plan).tables_at(1)
    assert all(t.size == 4 for t in first)


def test_a_redraw_is_refused_once_scores_exist(registry, day_field):
    arbiter = registry.users["arbiter"]
    session = room.session_draw(
        tournament=day_field.tournament,
        positions=4,
        deals_per_position=4,
        session_number=1,
        seed=99,
        by=arbiter,
    )
    assert session.seed == 99
    DealRecord.objects.create(
        session=session, position=1, table=1, deal=1, line={}, marks={},
        provenance=Provenance.ARBITER,
    )  # fmt: skip
    with pytest.raises(Conflict) as refused:
        room.session_draw(
            tournament=day_field.tournament,
            positions=4,
            deals_per_position=4,
            session_number=1,
            by=arbiter,
        )
    assert error_message(refused.value) == (
        "Des scores de la séance 1 sont déjà saisis : elle ne peut plus être tirée à nouveau."
    )


def test_a_later_session_seats_best_against_best(registry, day_field):
    with pytest.raises(RuleViolation) as refused:
        room.session_draw(
            tournament=day_field.tournament,
            positions=3,
            deals_per_position=4,
            placement="best_against_best",
            session_number=1,
            by=registry.users["arbiter"],
        )
    assert codes(refused.value) == ["day_room_placement_not_allowed"]
    session = day_field.session
    layout, seating = room.layout_and_seating(session)
    table = layout.tables_at(1)[0]
    marks = {o.value: 0 for o in table.seats}
    top = next(iter(table.seats))
    marks[top.value] = 30
    DealRecord.objects.create(
        session=session, position=1, table=table.table, deal=1, line={}, marks=marks,
        provenance=Provenance.ARBITER,
    )  # fmt: skip
    best = seating[table.seats[top]].entry
    second = room.session_draw(
        tournament=day_field.tournament,
        positions=3,
        deals_per_position=4,
        placement="best_against_best",
        by=registry.users["arbiter"],
    )
    assert second.number == 2
    assert seating_from_json(second.seating)[1].entry == best  # N at table 1


def test_best_against_best_follows_the_standings_penalties_and_abandons_included(
    registry, day_field
):
    """The order is the day's standings (the closing's): a penalty counts, and an entry
    that abandoned is no longer seated."""
    session = day_field.session
    layout, seating = room.layout_and_seating(session)
    table = layout.tables_at(1)[0]
    top, runner_up = list(table.seats)[:2]
    marks = {o.value: 0 for o in table.seats}
    marks[top.value], marks[runner_up.value] = 30, 20
    marks[list(table.seats)[2].value] = -50
    DealRecord.objects.create(
        session=session, position=1, table=table.table, deal=1, line={}, marks=marks,
        provenance=Provenance.ARBITER,
    )  # fmt: skip
    best, second = seating[table.seats[top]].entry, seating[table.seats[runner_up]].entry
    arbiter = registry.users["arbiter"]
    member = EntryMember.objects.get(tournament=day_field.tournament, entry__number=best)
    penalties.penalty_record(
        tournament=day_field.tournament, member_id=member.pk, kind="slowness",
        reason="Lenteur", session=1, position=1, by=arbiter,
    )  # fmt: skip
    quitter = next(n for n in range(1, 13) if n not in (best, second))
    penalties.abandon_record(
        tournament=day_field.tournament, entry_number=quitter, session=1, position=1,
        agreed=True, by=arbiter,
    )  # fmt: skip
    drawn = room.session_draw(
        tournament=day_field.tournament, positions=2, deals_per_position=4,
        placement="best_against_best", by=arbiter,
    )  # fmt: skip
    holders = seating_from_json(drawn.seating)
    assert holders[1].entry == second  # N at table 1: the best after the penalty
    assert quitter not in {h.entry for h in holders.values()}


def test_where_a_player_sits(day_field):
    seats = room.seats_of(day_field.tournament, 5, 1)
    assert [(s.session, s.position) for s in seats] == [(1, p) for p in range(1, 5)]


@pytest.mark.parametrize("role", RUNNERS)
def test_those_who_run_the_day_act(registry, day_tournament, enter_players, role):
    tournament = day_tournament()
    enter_players(tournament, 12, present=False)
    by = registry.users[role]
    for number in range(1, 13):
        room.entry_presence_set(tournament=tournament, entry_number=number, present=True, by=by)
    room.late_arrival_add(tournament=tournament, members=["Invité"], by=by)
    room.no_shows_withdraw(tournament=tournament, by=by)
    assert room.session_draw(tournament=tournament, positions=4, deals_per_position=4, by=by)


@pytest.mark.parametrize("role", OTHERS)
def test_nobody_else_acts(registry, day_tournament, enter_players, role):
    tournament = day_tournament()
    enter_players(tournament, 12)
    by = user_of(registry, role)
    calls = [
        lambda: room.entry_presence_set(
            tournament=tournament, entry_number=1, present=False, by=by
        ),
        lambda: room.late_arrival_add(tournament=tournament, members=["Invité"], by=by),
        lambda: room.no_shows_withdraw(tournament=tournament, by=by),
        lambda: room.session_draw(tournament=tournament, positions=4, deals_per_position=4, by=by),
    ]
    for call in calls:
        with pytest.raises(PermissionDenied) as refused:
            call()
        assert error_message(refused.value).startswith("Seuls l’arbitre du tournoi")
    assert tournament.day_entries.count() == 12
    assert not tournament.played_sessions.exists()
