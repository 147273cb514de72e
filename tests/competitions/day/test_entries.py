"""The entries before the day (competitions/day/entries.py): a licensee enters themself
online, the organiser anyone; the cap and its waiting list, a freed place given to the
first of the list (and told by e-mail to those who chose it); withdrawals, the fee; every
refusal located on its field; every operation tried inside and outside the caller's scope."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from competitions.day import entries
from competitions.day.entries import EntriesSettings, EntryRequest
from competitions.models import (
    EntryMember,
    EntryState,
    OrganizerKind,
    PlayedSession,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from core.errors import Conflict, NotFound, PermissionDenied
from core.messages import problem_message
from core.problems import RuleViolation
from federation.models import (
    Club,
    Licence,
    NotificationSent,
    NotificationSubscription,
    Player,
    Role,
    RoleAssignment,
    Sanction,
    SanctionKind,
    User,
)

DAY = dt.date(2026, 12, 5)


@pytest.fixture
def open_tournament(registry):
    """Club 101's tournament of 5 December 2026, online entries open, no cap."""

    def make(**fields) -> Tournament:
        values = {
            "season": registry.season,
            "name": "Open de Lyon",
            "date": DAY,
            "venue": "Lyon",
            "format": "individual",
            "organizer_kind": OrganizerKind.CLUB,
            "organizer_club": registry.clubs[101],
            "arbiter": registry.players[1002],
            "online_entries": True,
            **fields,
        }
        return Tournament.objects.create(**values)

    return make


@pytest.fixture
def outsiders(registry):
    """A manager of club 201 (another committee) and the account of player 2001."""
    manager = User.objects.create_user("manager201", password="x")
    RoleAssignment.objects.create(user=manager, role=Role.CLUB_MANAGER, club=registry.clubs[201])
    player = User.objects.create_user("player2001", password="x", player=registry.players[2001])
    return {"manager201": manager, "player2001": player}


def me(registry, n: int) -> EntryRequest:
    return EntryRequest(licence_numbers=(n,))


def codes(refusal: RuleViolation) -> dict[str, str]:
    return {p.field: p.code for p in refusal.problems}


# --- a licensee enters themself -----------------------------------------------------------


def test_a_licensee_enters_themself_online(registry, open_tournament):
    tournament = open_tournament()
    entry = entries.entry_enter(
        tournament=tournament, request=me(registry, 1001), by=registry.users["player"]
    )
    assert (entry.number, entry.state, entry.entered_by) == (
        1,
        EntryState.ENTERED,
        registry.users["player"],
    )
    assert [m.player_id for m in entry.members.all()] == [registry.players[1001].pk]
    assert entries.player_live_entry(tournament, registry.players[1001].pk) == entry


def test_entering_twice_is_refused_on_the_licence(registry, open_tournament):
    tournament = open_tournament()
    player = registry.users["player"]
    entries.entry_enter(tournament=tournament, request=me(registry, 1001), by=player)
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(tournament=tournament, request=me(registry, 1001), by=player)
    assert codes(refused.value) == {"licence_numbers[0]": "day_entry_already_entered"}
    assert "déjà dans l’inscription n° 1" in problem_message(refused.value.problems[0])


def test_a_player_enters_only_themself_and_only_when_entries_are_online(registry, open_tournament):
    player = registry.users["player"]
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(tournament=open_tournament(), request=me(registry, 1003), by=player)
    assert codes(refused.value) == {"licence_numbers": "day_entry_only_yourself"}
    closed = open_tournament(name="Sur place", online_entries=False)
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(tournament=closed, request=me(registry, 1001), by=player)
    assert codes(refused.value) == {"tournament": "day_entries_not_online"}
    assert "ne prend pas les inscriptions en ligne" in problem_message(refused.value.problems[0])
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=open_tournament(name="Noms"),
            request=EntryRequest(licence_numbers=(1001,), names=("Jean Sans-Licence",)),
            by=player,
        )
    assert codes(refused.value)["names"] == "day_entry_names_by_organiser"


def test_a_player_without_a_licence_for_the_season_is_refused(registry, open_tournament):
    player = Player.objects.create(licence_number=3001, last_name="Ancien", first_name="Paul")
    Licence.objects.create(player=player, season=registry.previous, club=registry.clubs[101])
    user = User.objects.create_user("ancien", password="x", player=player)
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(tournament=open_tournament(), request=me(registry, 3001), by=user)
    assert codes(refused.value) == {"licence_numbers[0]": "day_entry_not_licensed"}
    assert "aucun joueur licencié pour la saison 2026-2027" in problem_message(
        refused.value.problems[0]
    )


def test_an_account_without_a_licence_cannot_enter_online(registry, open_tournament):
    nobody = User.objects.create_user("nobody", password="x")
    with pytest.raises(PermissionDenied) as refused:
        entries.entry_enter(tournament=open_tournament(), request=me(registry, 1001), by=nobody)
    assert refused.value.code == "day_entry_need_licence"
    with pytest.raises(PermissionDenied):
        entries.entry_enter(tournament=open_tournament(), request=me(registry, 1001), by=None)


def test_a_suspended_player_is_refused_without_the_reason(registry, open_tournament):
    Sanction.objects.create(
        player=registry.players[1001],
        kind=SanctionKind.SUSPENSION,
        starts=DAY - dt.timedelta(days=30),
        ends=DAY + dt.timedelta(days=30),
        reason="Secret",
    )
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=open_tournament(), request=me(registry, 1001), by=registry.users["player"]
        )
    assert codes(refused.value) == {"licence_numbers[0]": "day_entry_suspended"}
    assert "Secret" not in problem_message(refused.value.problems[0])


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"date": dt.date(2026, 11, 1)}, "day_entries_closed"),
        ({"status": TournamentStatus.RESULTS_SUBMITTED}, "day_entries_closed"),
    ],
)
def test_entries_close_after_the_day_or_the_results(registry, open_tournament, fields, code):
    tournament = open_tournament(**fields)
    for by in (registry.users["player"], registry.users["club_manager"]):
        with pytest.raises(RuleViolation) as refused:
            entries.entry_enter(tournament=tournament, request=me(registry, 1001), by=by)
        assert codes(refused.value) == {"tournament": code}


# --- DUO and teams -----------------------------------------------------------------------


def test_a_duo_player_names_their_partner_by_licence(registry, open_tournament):
    tournament = open_tournament(format="duo")
    player = registry.users["player"]
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(tournament=tournament, request=me(registry, 1001), by=player)
    assert codes(refused.value) == {"licence_numbers": "day_entry_size"}
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=tournament, request=EntryRequest(licence_numbers=(1001, 9999)), by=player
        )
    assert codes(refused.value) == {"licence_numbers[1]": "day_entry_not_licensed"}
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=tournament, request=EntryRequest(licence_numbers=(1001, 1001)), by=player
        )
    assert set(codes(refused.value).values()) == {"day_entry_duplicate"}
    entry = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001, 2002), team_name="Les Bouts"),
        by=player,
    )
    assert [m.player.licence_number for m in entry.members.order_by("order")] == [1001, 2002]
    assert entry.team_name == "Les Bouts"
    # the partner is now entered: entering them again is refused on their licence
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=tournament,
            request=EntryRequest(licence_numbers=(1003, 2002)),
            by=registry.users["club_manager"],
        )
    assert codes(refused.value) == {"licence_numbers[1]": "day_entry_already_entered"}


def test_the_organiser_enters_a_team_with_a_non_licensee_by_name(registry, open_tournament):
    tournament = open_tournament(format="team4", online_entries=False)
    entry = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001, 1003, 2001), names=("Jean Passant",)),
        by=registry.users["club_manager"],
    )
    members = list(entry.members.order_by("order"))
    assert [m.name for m in members] == ["", "", "", "Jean Passant"]
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=tournament,
            request=EntryRequest(names=("", "B", "C", "D")),
            by=registry.users["club_manager"],
        )
    assert codes(refused.value) == {"names[0]": "day_entry_name_invalid"}


# --- the cap and the waiting list ---------------------------------------------------------


def test_the_cap_sends_the_next_entries_to_the_waiting_list_only_if_accepted(
    registry, open_tournament
):
    tournament = open_tournament(entry_cap=1)
    manager = registry.users["club_manager"]
    entries.entry_enter(tournament=tournament, request=me(registry, 1003), by=manager)
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=tournament, request=me(registry, 1001), by=registry.users["player"]
        )
    assert codes(refused.value) == {"waiting_list": "day_entry_full"}
    assert "complet (1 inscriptions)" in problem_message(refused.value.problems[0])
    waiting = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001,), waiting_list=True),
        by=registry.users["player"],
    )
    assert waiting.state == EntryState.WAITING
    second = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(2001,), waiting_list=True),
        by=manager,
    )
    assert (entries.waiting_place(waiting), entries.waiting_place(second)) == (1, 2)
    assert entries.entry_counts(tournament).entered == 1


def test_a_freed_place_goes_to_the_first_waiting_who_is_told_if_they_chose_it(
    registry, open_tournament, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://tournois.fftarot.example"
    tournament = open_tournament(entry_cap=1)
    manager = registry.users["club_manager"]
    player = registry.users["player"]
    player.email = "elise@example.org"
    player.save()
    NotificationSubscription.objects.create(user=player, kind="entry_place_freed", enabled=True)
    first = entries.entry_enter(tournament=tournament, request=me(registry, 1003), by=manager)
    waiting = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001,), waiting_list=True),
        by=player,
    )
    entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(2001,), waiting_list=True),
        by=manager,
    )
    with django_capture_on_commit_callbacks(execute=True):
        promoted = entries.entry_withdraw(entry=first, by=manager)
    assert promoted == waiting
    waiting.refresh_from_db()
    first.refresh_from_db()
    assert waiting.state == EntryState.ENTERED
    assert first.state == EntryState.WITHDRAWN
    assert first.withdrawn_at is not None
    assert not EntryMember.objects.filter(entry=first, active=True).exists()
    assert [m.to for m in mail.outbox] == [["elise@example.org"]]
    message = mail.outbox[0]
    assert "Open de Lyon" in message.subject
    assert "https://tournois.fftarot.example/compte/inscriptions/" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # withdrawing a waiting entry frees no place: nobody is promoted, nobody told
    mail.outbox.clear()
    third = TournamentEntry.objects.get(tournament=tournament, state=EntryState.WAITING)
    with django_capture_on_commit_callbacks(execute=True):
        assert entries.entry_withdraw(entry=third, by=manager) is None
    assert mail.outbox == []


def test_a_raised_cap_gives_the_places_to_the_waiting_list_in_order(registry, open_tournament):
    tournament = open_tournament(entry_cap=1)
    manager = registry.users["club_manager"]
    for n in (1001, 1003, 2001):
        entries.entry_enter(
            tournament=tournament,
            request=EntryRequest(licence_numbers=(n,), waiting_list=True),
            by=manager,
        )
    entries.entries_settings_set(
        tournament=tournament, settings=EntriesSettings(True, 2), by=manager
    )
    states = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list("number", "state")
    )
    assert states == {1: "entered", 2: "entered", 3: "waiting"}
    with pytest.raises(RuleViolation) as refused:
        entries.entries_settings_set(
            tournament=tournament, settings=EntriesSettings(True, 0), by=manager
        )
    assert codes(refused.value) == {"entry_cap": "entry_cap_invalid"}


# --- withdrawals and the fee -------------------------------------------------------------


def test_a_player_withdraws_their_entry_before_the_draw_only(registry, open_tournament):
    tournament = open_tournament()
    player = registry.users["player"]
    entry = entries.entry_enter(tournament=tournament, request=me(registry, 1001), by=player)
    PlayedSession.objects.create(
        tournament=tournament,
        number=1,
        positions=1,
        deals_per_position=4,
        placement="random",
        seed=1,
        plan={},
        seating={},
    )
    with pytest.raises(RuleViolation) as refused:
        entries.entry_withdraw(entry=entry, by=player)
    assert codes(refused.value) == {"entry": "day_withdraw_too_late"}
    # the arbiter withdraws them (a no-show)
    entries.entry_withdraw(entry=entry, by=registry.users["arbiter"])
    with pytest.raises(Conflict):
        entries.entry_withdraw(entry=entry, by=registry.users["arbiter"])
    # withdrawn, the player may enter again
    again = entries.entry_enter(
        tournament=tournament, request=me(registry, 1001), by=registry.users["club_manager"]
    )
    assert again.number == 2


def test_the_fee_is_marked_paid_and_counted(registry, open_tournament):
    tournament = open_tournament(entry_fee="12.50")
    manager = registry.users["club_manager"]
    entry = entries.entry_enter(tournament=tournament, request=me(registry, 1001), by=manager)
    entries.entry_fee_paid_set(entry=entry, paid=True, by=manager)
    assert entries.entry_counts(tournament).fee_paid == 1
    entries.entry_fee_paid_set(entry=entry, paid=False, by=manager)
    assert entries.entry_counts(tournament).fee_paid == 0


def test_convocations_go_once_to_the_entered_players_who_chose_them(
    registry, open_tournament, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://tournois.fftarot.example"
    tournament = open_tournament(
        start_time=dt.time(14, 0), address="12 rue Tronchet, Lyon", entry_fee="10"
    )
    manager = registry.users["club_manager"]
    player = registry.users["player"]
    player.email = "elise@example.org"
    player.save()
    NotificationSubscription.objects.create(user=player, kind="entry_convocation", enabled=True)
    arbiter = registry.users["arbiter"]
    arbiter.email = "jerome@example.org"
    arbiter.save()  # entered, but did not choose the convocation
    for n in (1001, 1002):
        entries.entry_enter(tournament=tournament, request=me(registry, n), by=manager)
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            assert entries.convocations_send(tournament=tournament, by=manager) == 2
    assert [m.to for m in mail.outbox] == [["elise@example.org"]]
    body = mail.outbox[0].body
    assert "14:00" in body
    assert "12 rue Tronchet, Lyon" in body
    assert "10 €" in body
    assert NotificationSent.objects.filter(kind="entry_convocation").count() == 1
    assert not TournamentEntry.objects.filter(convocation_sent_at=None).exists()


# --- scope: every operation inside and outside ---------------------------------------------

RUNNERS = ["club_manager", "committee_staff", "zone_staff", "federation_staff", "arbiter"]


def _operations(registry, tournament, entry):
    return {
        "enter": lambda by: entries.entry_enter(
            tournament=tournament,
            request=EntryRequest(names=("Jean Passant",)),
            by=by,
        ),
        "fee": lambda by: entries.entry_fee_paid_set(entry=entry, paid=True, by=by),
        "settings": lambda by: entries.entries_settings_set(
            tournament=tournament, settings=EntriesSettings(False, 40), by=by
        ),
        "convocations": lambda by: entries.convocations_send(tournament=tournament, by=by),
        "mirror": lambda by: entries.stage_entries_mirror(tournament=tournament, by=by),
        "entry_of": lambda by: entries.entry_of(tournament=tournament, entry_id=entry.pk, by=by),
        "withdraw": lambda by: entries.entry_withdraw(entry=entry, by=by),
    }


@pytest.mark.parametrize("role", RUNNERS)
@pytest.mark.parametrize(
    "operation", ["enter", "fee", "settings", "convocations", "mirror", "entry_of", "withdraw"]
)
def test_those_who_run_the_day_do_every_operation(registry, open_tournament, role, operation):
    tournament = open_tournament()
    entry = entries.entry_enter(
        tournament=tournament, request=me(registry, 1003), by=registry.users["club_manager"]
    )
    _operations(registry, tournament, entry)[operation](registry.users[role])


@pytest.mark.parametrize("who", ["manager201", "player2001", "player", "anonymous"])
@pytest.mark.parametrize(
    "operation", ["enter", "fee", "settings", "convocations", "mirror", "entry_of", "withdraw"]
)
def test_anyone_else_is_told_nothing_exists(registry, open_tournament, outsiders, who, operation):
    tournament = open_tournament()
    entry = entries.entry_enter(
        tournament=tournament, request=me(registry, 1003), by=registry.users["club_manager"]
    )
    by = outsiders.get(who) or registry.users[who]
    with pytest.raises((NotFound, PermissionDenied, RuleViolation)) as refused:
        _operations(registry, tournament, entry)[operation](by)
    if operation == "enter":  # a name is the organiser's; a stranger holds no licence here
        assert isinstance(refused.value, PermissionDenied | RuleViolation)
    else:
        assert isinstance(refused.value, NotFound), refused.value
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 1
    entry.refresh_from_db()
    assert (entry.state, entry.fee_paid) == (EntryState.ENTERED, False)


def test_a_player_acts_on_their_own_entry_only(registry, open_tournament, outsiders):
    tournament = open_tournament()
    mine = entries.entry_enter(
        tournament=tournament, request=me(registry, 1001), by=registry.users["player"]
    )
    theirs = entries.entry_enter(
        tournament=tournament, request=me(registry, 2001), by=outsiders["player2001"]
    )
    player = registry.users["player"]
    assert entries.entry_of(tournament=tournament, entry_id=mine.pk, by=player) == mine
    with pytest.raises(NotFound):
        entries.entry_of(tournament=tournament, entry_id=theirs.pk, by=player)
    with pytest.raises(NotFound):
        entries.entry_withdraw(entry=theirs, by=player)
    with pytest.raises(NotFound):
        entries.entry_fee_paid_set(entry=mine, paid=True, by=player)
    entries.entry_withdraw(entry=mine, by=player)


def test_a_club_manager_runs_only_their_clubs_tournaments(registry, open_tournament, outsiders):
    theirs = open_tournament(organizer_club=registry.clubs[201], name="Rennes")
    with pytest.raises(PermissionDenied):  # no licence, not the organiser: no entry
        entries.entry_enter(
            tournament=theirs,
            request=EntryRequest(names=("X",)),
            by=registry.users["club_manager"],
        )
    entries.entry_enter(
        tournament=theirs, request=EntryRequest(names=("X",)), by=outsiders["manager201"]
    )
    assert Club.objects.count() == 3
