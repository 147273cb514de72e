"""Shared fixtures of the tournament day: a declared tournament, its entries (present or
not), and a drawn session.

- ``day_tournament``: club 101's « Open de Lyon » (individual, arbiter 1002), declared
  through the API (``declare_tournament``); ``day_tournament(format="duo",
  tables_of_five=True)`` for another kind.
- ``enter_players(tournament, n, present=True)``: ``n`` entries (players, duos or teams of 4
  by the tournament's format), each of licensed players made for the purpose (licence
  numbers from 30001), numbered 1..n after any existing entry.
- ``draw_session(tournament, positions=4, deals=4, seed=7)``: session 1 (or the next) drawn
  from the entries present: the engine's plan (tables of 5 when the tournament chose them),
  a random seating with ``seed``, stored as ``PlayedSession`` with ``layout_to_json`` and
  ``seating_to_json`` exactly as the room's draw stores it.
- ``day_field``: the whole of it at once: a tournament with 12 players present and session 1
  drawn (4 positions of 4 deals).
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass

import pytest


@dataclass
class DayField:
    """What ``day_field`` built."""

    tournament: object
    entries: list
    session: object


_licences = itertools.count(30001)


@pytest.fixture
def day_tournament(declare_tournament):
    """A factory: the declared « Open de Lyon », in the format and with the options asked."""

    def make(*, format: str = "individual", tables_of_five: bool = False, **fields):
        tournament = declare_tournament()
        tournament.format = format
        tournament.tables_of_five = tables_of_five
        for name, value in fields.items():
            setattr(tournament, name, value)
        tournament.save()
        return tournament

    return make


@pytest.fixture
def day_player(registry):
    """A factory: a new player licensed this season in club ``club`` (default 101)."""
    from federation.models import Licence, Player

    def make(*, last_name: str | None = None, first_name: str = "Camille", club: int = 101):
        number = next(_licences)
        player = Player.objects.create(
            licence_number=number,
            last_name=last_name or f"Joueur{number}",
            first_name=first_name,
            birth_date=dt.date(1970, 1, 1),
        )
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[club])
        return player

    return make


@pytest.fixture
def enter_players(day_player):
    """A factory: ``n`` entries of new licensed players (present by default)."""
    from django.db.models import Max

    from competitions.models import EntryMember, TournamentEntry
    from core.vocabulary import Format

    def enter(tournament, n: int, *, present: bool = True) -> list:
        size = Format(tournament.format).team_size
        start = tournament.day_entries.aggregate(top=Max("number"))["top"] or 0
        entries = []
        for number in range(start + 1, start + n + 1):
            entry = TournamentEntry.objects.create(
                tournament=tournament,
                number=number,
                present=present,
                team_name=f"Équipe {number}" if size > 1 else "",
            )
            for order in range(1, size + 1):
                EntryMember.objects.create(
                    entry=entry, tournament=tournament, order=order, player=day_player()
                )
            entries.append(entry)
        return entries

    return enter


@pytest.fixture
def draw_session(registry):
    """A factory: the next session drawn from the entries present (random seating)."""
    import random

    from competitions.models import EntryState, PlayedSession
    from competitions.rules.day.layout import Holder, layout_of, layout_to_json, seating_to_json
    from competitions.rules.engine.movements.planning import plan_movement
    from competitions.rules.engine.movements.settings import MovementSettings
    from competitions.rules.engine.seating import Entrant, random_seating
    from core.vocabulary import Format

    def draw(tournament, *, positions: int = 4, deals: int = 4, seed: int = 7):
        format = Format(tournament.format)
        entries = list(
            tournament.day_entries.filter(present=True, state=EntryState.ENTERED)
            .order_by("number")
            .prefetch_related("members")
        )
        players = sum(entry.members.filter(active=True).count() for entry in entries)
        plan = plan_movement(
            players, positions, format, MovementSettings(tables_of_five=tournament.tables_of_five)
        )
        entrants = [
            Entrant(
                str(entry.number),
                tuple(f"{entry.number}:{m.order}" for m in entry.members.filter(active=True))
                if format.team_size > 1
                else (),
            )
            for entry in entries
        ]
        seating = random_seating(plan, entrants, random.Random(seed))
        holders = {
            a.number: Holder(int(a.entrant), int(a.player.split(":")[1]) if ":" in a.player else 1)
            for a in seating.assignments
        }
        number = tournament.played_sessions.count() + 1
        return PlayedSession.objects.create(
            tournament=tournament,
            number=number,
            positions=positions,
            deals_per_position=deals,
            placement="random",
            seed=seed,
            plan=layout_to_json(layout_of(plan, deals)),
            seating=seating_to_json(holders),
            drawn_by=registry.users["arbiter"],
        )

    return draw


@pytest.fixture
def day_field(day_tournament, enter_players, draw_session) -> DayField:
    """A tournament with 12 players present and session 1 drawn (4 positions of 4 deals)."""
    tournament = day_tournament()
    entries = enter_players(tournament, 12)
    return DayField(tournament, entries, draw_session(tournament))
