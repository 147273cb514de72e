"""What a player reads of their own entries (« Mes inscriptions ») and of the tournaments
they arbitrate (« Mes arbitrages »): typed reads for the player's space, nothing written.

« Mes inscriptions » lists the player's tournament entries (every state) and their
championship stage entries not mirrored into a tournament's entries yet, soonest first,
with the date, the venue and its address, the state and, once a session is drawn, their
table and seat at each position (the drawn session's ``plan`` and ``seating`` read with
``competitions.rules.day.layout``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils import timezone

from competitions.day.entries import member_name, waiting_place
from competitions.models import (
    EntryMember,
    EntryPlayer,
    EntryState,
    EntryStatus,
    PlayedSession,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from competitions.rules.day.layout import layout_from_json, seating_from_json
from federation.access import Actor, scope_of

PAST_DAYS = 60
"""How long a played tournament stays on « Mes inscriptions »."""


@dataclass(frozen=True)
class SeatAt:
    """Where the player sits at one position of a drawn session."""

    session: int
    position: int
    table: int
    seat: str


@dataclass(frozen=True)
class MyEntry:
    tournament: Tournament
    state: str  # entered, waiting, withdrawn (EntryState) or a stage entry's status
    number: int
    entry: TournamentEntry | None  # None: a stage entry not mirrored into the day yet
    partners: list[str] = field(default_factory=list)
    waiting_place: int | None = None
    seats: list[SeatAt] = field(default_factory=list)
    stage: bool = False

    @property
    def withdrawable(self) -> bool:
        return (
            self.entry is not None
            and self.state != EntryState.WITHDRAWN
            and not self.stage
            and not self.seats
            and self.tournament.status == TournamentStatus.DECLARED
            and self.tournament.date >= timezone.localdate()
        )


def _seats(entry: TournamentEntry, order: int, sessions: list[PlayedSession]) -> list[SeatAt]:
    found: list[SeatAt] = []
    for session in sessions:
        seating = seating_from_json(session.seating)
        numbers = [
            n for n, held in seating.items() if held.entry == entry.number and held.member == order
        ]
        if not numbers:
            continue
        layout = layout_from_json(session.plan)
        for position in range(1, len(layout.positions) + 1):
            for number in numbers:
                table = layout.seat_of(number, position)
                if table is None:
                    continue
                seat = next(o for o, n in table.seats.items() if n == number)
                found.append(SeatAt(session.number, position, table.table, seat.value))
    return found


def my_entries(*, by: Actor | None, today: dt.date | None = None) -> list[MyEntry]:
    """The signed-in player's entries from ``PAST_DAYS`` ago on, soonest first (a handful
    of queries whatever their number)."""
    player_id = scope_of(by).player_id
    if player_id is None:
        return []
    since = (today or timezone.localdate()) - dt.timedelta(days=PAST_DAYS)
    members = list(
        EntryMember.objects.filter(player_id=player_id, tournament__date__gte=since)
        .select_related("entry__tournament__organizer_club")
        .order_by("entry__tournament__date", "entry__tournament__start_time", "entry_id")
    )
    entries = [m.entry for m in members]
    others = {
        e.pk: e
        for e in EntryMember.objects.filter(entry__in=entries)
        .exclude(player_id=player_id)
        .select_related("player")
    }
    partners: dict[int, list[str]] = {}
    for other in others.values():
        partners.setdefault(other.entry_id, []).append(member_name(other))
    sessions: dict[int, list[PlayedSession]] = {}
    for session in PlayedSession.objects.filter(
        tournament_id__in={e.tournament_id for e in entries}
    ).order_by("number"):
        sessions.setdefault(session.tournament_id, []).append(session)
    rows = [
        MyEntry(
            tournament=m.entry.tournament,
            state=m.entry.state,
            number=m.entry.number,
            entry=m.entry,
            partners=partners.get(m.entry_id, []),
            waiting_place=waiting_place(m.entry),
            seats=_seats(m.entry, m.order, sessions.get(m.entry.tournament_id, []))
            if m.entry.state == EntryState.ENTERED
            else [],
            stage=m.entry.championship_entry_id is not None,
        )
        for m in members
    ]
    rows += _stage_entries(player_id, since)
    rows.sort(key=lambda r: (r.tournament.date, r.tournament.start_time or dt.time(), r.number))
    return rows


def _stage_entries(player_id: int, since: dt.date) -> list[MyEntry]:
    """The player's championship stage entries not mirrored into the day yet."""
    rows = []
    for held in (
        EntryPlayer.objects.filter(
            player_id=player_id, entry__stage__tournament__date__gte=since, entry__day_entry=None
        )
        .select_related("entry__stage__tournament")
        .order_by("entry__stage__tournament__date")
    ):
        entry = held.entry
        others = [
            f"{p.player.last_name.upper()} {p.player.first_name}"
            for p in entry.players.select_related("player").exclude(player_id=player_id)
        ]
        state = (
            EntryState.WITHDRAWN
            if entry.status in (EntryStatus.WITHDRAWN, EntryStatus.FORFEIT)
            else EntryState.ENTERED
        )
        rows.append(
            MyEntry(
                tournament=entry.stage.tournament,
                state=state,
                number=entry.number,
                entry=None,
                partners=others,
                stage=True,
            )
        )
    return rows


def my_arbitrations(*, by: Actor | None, today: dt.date | None = None) -> QuerySet[Tournament]:
    """The tournaments the signed-in player is the named arbiter of, from ``PAST_DAYS`` ago
    on, soonest first (the hub of each day is linked from them)."""
    player_id = scope_of(by).player_id
    if player_id is None:
        return Tournament.objects.none()
    since = (today or timezone.localdate()) - dt.timedelta(days=PAST_DAYS)
    return (
        Tournament.objects.filter(arbiter_id=player_id, date__gte=since)
        .select_related("season", "organizer_club", "organizer_committee", "organizer_zone")
        .order_by("date", "start_time", "name")
    )
