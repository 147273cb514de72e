"""Two licensees entering at once for the last place of a capped tournament, on PostgreSQL
with real threads and their own connections: the tournament's row lock serves them one
after the other, so one is entered and the other is told the tournament is full (or put
on the waiting list when they accepted it) — never two entries in one place. And the
place freed, told through the outbox and a real worker."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection, connections

from competitions.day import entries
from competitions.day.entries import EntryRequest
from competitions.models import EntryState, OrganizerKind, Tournament, TournamentEntry
from core.problems import RuleViolation
from federation.models import User

pytestmark = pytest.mark.django_db(transaction=True)


def _race(registry, *, waiting_list: bool) -> tuple[list, list]:
    if connection.vendor != "postgresql":
        pytest.fail("This test needs PostgreSQL: run the suite with DATABASE_URL=postgres://…")
    tournament = Tournament.objects.create(
        season=registry.season, name="Dernière place", date=dt.date(2026, 12, 5), venue="Lyon",
        format="individual", organizer_kind=OrganizerKind.CLUB,
        organizer_club=registry.clubs[101], arbiter=registry.players[1002],
        online_entries=True, entry_cap=2,
    )  # fmt: skip
    entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1003,)),
        by=registry.users["club_manager"],
    )
    racers = [
        (registry.users["player"], 1001),
        (User.objects.create_user("p2001", password="x", player=registry.players[2001]), 2001),
    ]
    start = threading.Barrier(len(racers))
    made: list = []
    refused: list = []
    errors: list[BaseException] = []

    def enter(user, number):
        try:
            start.wait(30)
            made.append(
                entries.entry_enter(
                    tournament=tournament,
                    request=EntryRequest(licence_numbers=(number,), waiting_list=waiting_list),
                    by=user,
                )
            )
        except RuleViolation as refusal:
            refused.append(refusal)
        except BaseException as exc:  # reported to the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=enter, args=racer) for racer in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return made, refused


def test_two_entries_racing_for_the_last_place_cannot_both_get_it(registry):
    made, refused = _race(registry, waiting_list=False)
    assert len(made) == 1
    assert made[0].state == EntryState.ENTERED
    assert [p.code for r in refused for p in r.problems] == ["day_entry_full"]
    assert TournamentEntry.objects.filter(state=EntryState.ENTERED).count() == 2


def test_the_loser_of_the_race_who_accepted_it_goes_to_the_waiting_list(registry):
    made, refused = _race(registry, waiting_list=True)
    assert not refused
    assert sorted(e.state for e in made) == [EntryState.ENTERED, EntryState.WAITING]
    assert sorted(TournamentEntry.objects.values_list("number", flat=True)) == [1, 2, 3]


def test_the_place_freed_notice_is_sent_by_a_real_worker_once(
    registry, celery_worker_process, wait_for
):
    """Through the outbox and Redis: the worker finds the task by its name, on the e-mail
    queue, and records the notice sent once (its e-mail goes to the worker's own backend)."""
    from federation.models import NotificationSent, NotificationSubscription

    player = registry.users["player"]
    player.email = "elise@example.org"
    player.save()
    NotificationSubscription.objects.create(user=player, kind="entry_place_freed", enabled=True)
    tournament = Tournament.objects.create(
        season=registry.season, name="Complet", date=dt.date(2026, 12, 5), venue="Lyon",
        format="individual", organizer_kind=OrganizerKind.CLUB,
        organizer_club=registry.clubs[101], arbiter=registry.players[1002],
        online_entries=True, entry_cap=1,
    )  # fmt: skip
    manager = registry.users["club_manager"]
    first = entries.entry_enter(
        tournament=tournament, request=EntryRequest(licence_numbers=(1003,)), by=manager
    )
    waiting = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001,), waiting_list=True),
        by=player,
    )
    assert entries.entry_withdraw(entry=first, by=manager) == waiting
    sent = wait_for(
        lambda: NotificationSent.objects.filter(
            kind="entry_place_freed", subject_key=f"entry:{waiting.pk}", user=player
        ).exists()
    )
    assert sent
