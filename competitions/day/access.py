"""Who runs a tournament's day and who sees it.

- **Runs it** (check-in, draw, scores, corrections, penalties, the end): the arbiter named on
  the tournament, while accredited for its season, and whoever may manage the tournament (its
  organiser's managers and the staff above them: ``competitions.tournaments.access``).
- **Sees it** (every page of the day, read only): also the staff whose scope covers the
  organiser (committee, zone, federation).
- Anyone else gets a 404 on the day's pages, as for a tournament outside their reach: a
  refusal never reveals that the tournament exists.

A table at a position is reached without an account through its QR code: a signed token
scoped to that table and that position (``scoring``'s table tokens).
"""

from __future__ import annotations

from competitions.models import Tournament
from competitions.tournaments import access
from competitions.tournaments.declaration import arbiter_accredited
from federation.access import Actor, scope_of
from federation.models import User


def is_day_arbiter(user: Actor | None, tournament: Tournament) -> bool:
    """Is ``user`` the tournament's arbiter, accredited for its season?"""
    if user is None or not user.is_authenticated or user.player_id is None:
        return False
    return user.player_id == tournament.arbiter_id and arbiter_accredited(
        tournament.arbiter_id, tournament.season_id
    )


def may_run_day(user: Actor | None, tournament: Tournament) -> bool:
    """May ``user`` run the day (enter, correct, draw, penalise, close)?"""
    return is_day_arbiter(user, tournament) or access.may_manage(scope_of(user), tournament)


def may_see_day(user: Actor | None, tournament: Tournament) -> bool:
    """May ``user`` read the day's pages (the runners, and the staff above the organiser)?"""
    return may_run_day(user, tournament) or access.may_homologate(scope_of(user), tournament)


def locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked until the transaction ends. Every write of the day that
    counts or numbers something of the tournament (its entries against the cap, its sessions,
    the rank of a repeated penalty) takes it first, before any row of the day, so that two
    writers meet on it in one order."""
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("season", "organizer_club__committee", "organizer_committee")
        .get(pk=tournament.pk)
    )


def author(by: Actor | None) -> User | None:
    """The user to record as the author of a write (None for a caller without an account)."""
    return by if isinstance(by, User) else None
