"""The room on the day: check-in (who is present, late arrivals, no-shows withdrawn) and the
draw of each session (the engine's movement for the field present, its seating, stored as a
:class:`~competitions.models.PlayedSession`).

Every service is keyword-only, one transaction on the tournament's locked row, and asks
itself whether ``by`` runs the day (:func:`competitions.day.access.may_run_day`). Refusals are
:class:`core.errors.PermissionDenied` / :class:`core.errors.Conflict` or a located
:class:`core.problems.RuleViolation`: the engine's own problems when the movement cannot seat
the field (French by their codes, ``core/messages/catalogue/engine.py``; the room's own codes
in ``day_room.py``). Readings of the regulations: ``docs/tournament-day.md``, « La salle ».
"""

from __future__ import annotations

import random
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from competitions.day.access import author, locked, may_run_day
from competitions.models import (
    DealRecord,
    EntryMember,
    EntryState,
    PlayedSession,
    TableTotals,
    Tournament,
    TournamentEntry,
)
from competitions.rulebooks import rulebook_in_force
from competitions.rules.day.layout import (
    Holder,
    SessionLayout,
    layout_from_json,
    layout_of,
    layout_to_json,
    seating_from_json,
    seating_to_json,
)
from competitions.rules.engine.movements.formulas import DealFormula, formula_problems
from competitions.rules.engine.movements.plan import MovementPlan
from competitions.rules.engine.movements.planning import max_positions, plan_movement
from competitions.rules.engine.movements.settings import MovementSettings
from competitions.rules.engine.seating import (
    Entrant,
    Seating,
    best_against_best_seating,
    championship_seating,
    random_seating,
)
from competitions.rules.engine.tables import Orientation
from core.errors import Conflict, PermissionDenied
from core.problems import Problem, RuleViolation
from core.vocabulary import Format
from federation.access import Actor
from federation.models import Player


class Placement(StrEnum):
    """How a session's starting seats are decided (chapter 2, « types de mises en place »;
    chapter 3, article 25 for a championship stage's first session)."""

    RANDOM = "random"
    BEST_AGAINST_BEST = "best_against_best"
    CHAMPIONSHIP = "championship"


DEFAULT_FORMULA = DealFormula(6, 4)
"""« 24 (6 x 4) » (fasc. 571), proposed when the declaration announces no positions."""

MAX_DEALS_PER_POSITION = 12


# --- who may -----------------------------------------------------------------------------


def _require_runner(tournament: Tournament, by: Actor) -> None:
    if not may_run_day(by, tournament):
        raise PermissionDenied(
            "Only the tournament's arbiter and its organiser's managers run the room.",
            code="day_room_not_runner",
        )


# --- check-in ----------------------------------------------------------------------------


def _entry(tournament: Tournament, number: int) -> TournamentEntry:
    entry = (
        TournamentEntry.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, number=number)
        .first()
    )
    if entry is None:
        raise RuleViolation.single(
            "entry", "day_room_no_entry", f"There is no entry no. {number}.", {"number": number}
        )
    return entry


def seated_in_open_session(tournament: Tournament, entry_number: int) -> PlayedSession | None:
    """The unfinished session where entry ``entry_number`` holds a starting number, if any."""
    for session in tournament.played_sessions.filter(finished_at__isnull=True):
        if any(h.entry == entry_number for h in seating_from_json(session.seating).values()):
            return session
    return None


@transaction.atomic
def entry_presence_set(
    *, tournament: Tournament, entry_number: int, present: bool, by: Actor
) -> TournamentEntry:
    """Mark an entry present (checked in now) or absent.

    Refused for an entry on the waiting list or withdrawn (only an entry may be present), and,
    to mark absent, for an entry seated in a session still being played (it abandons instead).
    """
    tournament = locked(tournament)
    _require_runner(tournament, by)
    entry = _entry(tournament, entry_number)
    if present and entry.state != EntryState.ENTERED:
        raise RuleViolation.single(
            "entry",
            "day_room_not_entered",
            f"Entry no. {entry.number} is {entry.state}: only an entry that is entered can be "
            "present.",
            {"number": entry.number, "state": EntryState(entry.state).label},
        )
    if not present and entry.present:
        session = seated_in_open_session(tournament, entry.number)
        if session is not None:
            raise RuleViolation.single(
                "entry",
                "day_room_seated",
                f"Entry no. {entry.number} is seated in session {session.number}, which is "
                "under way: record an abandon instead.",
                {"number": entry.number, "session": session.number},
            )
    if entry.present != present:
        entry.present = present
        entry.checked_in_at = timezone.now() if present else None
        entry.save(update_fields=["present", "checked_in_at"])
    return entry


@transaction.atomic
def late_arrival_add(
    *,
    tournament: Tournament,
    members: Sequence[int | str],
    team_name: str = "",
    by: Actor,
) -> TournamentEntry:
    """Enter and check in an entry at the door: ``members`` in seat order, each a licence
    number (a licensee) or a name (a non-licensee), as many as the format's entry holds.

    Refused (located on ``members[i]``) for an unknown licence number, a licensee already in
    a live entry of the tournament, an empty or overlong name, or the wrong number of players.
    """
    tournament = locked(tournament)
    _require_runner(tournament, by)
    size = Format(tournament.format).team_size
    problems: list[Problem] = []
    if len(members) != size:
        problems.append(
            Problem(
                "members",
                "day_room_member_count",
                f"An entry of this tournament has {size} player(s), not {len(members)}.",
                {"size": size, "given": len(members)},
            )
        )
    players: list[Player | None] = []
    names: list[str] = []
    seen: set[int] = set()
    for index, member in enumerate(members):
        field = f"members[{index}]"
        if isinstance(member, int):
            player = Player.objects.filter(licence_number=member).first()
            if player is None:
                problems.append(
                    Problem(
                        field,
                        "day_room_unknown_licence",
                        f"No licensee has licence number {member}.",
                        {"licence": member},
                    )
                )
            elif (
                player.pk in seen
                or EntryMember.objects.filter(
                    tournament=tournament, player=player, active=True
                ).exists()
            ):
                problems.append(
                    Problem(
                        field,
                        "day_room_already_entered",
                        f"Licensee {member} is already entered in this tournament.",
                        {"licence": member},
                    )
                )
            else:
                seen.add(player.pk)
            players.append(player)
            names.append("")
        else:
            name = " ".join(str(member).split())
            if not name or len(name) > 200:
                problems.append(
                    Problem(
                        field,
                        "day_room_bad_name",
                        "A non-licensee is entered by a name of 1 to 200 characters.",
                        {},
                    )
                )
            players.append(None)
            names.append(name)
    if size > 1 and len(team_name) > 100:
        problems.append(
            Problem(
                "team_name",
                "day_room_team_name_long",
                "A team name has at most 100 characters.",
                {},
            )
        )
    if problems:
        raise RuleViolation(problems)
    number = (tournament.day_entries.aggregate(top=Max("number"))["top"] or 0) + 1
    now = timezone.now()
    entry = TournamentEntry.objects.create(
        tournament=tournament,
        number=number,
        team_name=team_name.strip() if size > 1 else "",
        present=True,
        checked_in_at=now,
        late_arrival=True,
        entered_by=author(by),
        entered_at=now,
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=entry, tournament=tournament, order=order, player=player, name=name)
        for order, (player, name) in enumerate(zip(players, names, strict=True), start=1)
    )
    return entry


@transaction.atomic
def no_shows_withdraw(*, tournament: Tournament, by: Actor) -> list[int]:
    """Withdraw every entry still entered but not present (the no-shows); their players are
    free again. Returns the withdrawn entries' numbers."""
    tournament = locked(tournament)
    _require_runner(tournament, by)
    absent = list(
        tournament.day_entries.select_for_update(of=("self",))
        .filter(state=EntryState.ENTERED, present=False)
        .values_list("pk", "number")
    )
    ids = [pk for pk, _ in absent]
    TournamentEntry.objects.filter(pk__in=ids).update(
        state=EntryState.WITHDRAWN, withdrawn_at=timezone.now()
    )
    EntryMember.objects.filter(entry_id__in=ids).update(active=False)
    return [number for _, number in absent]


# --- the draw ----------------------------------------------------------------------------


def movement_settings(tournament: Tournament) -> MovementSettings:
    """The engine's movement settings for ``tournament``: its season's rulebook choices, and
    tables of 5 when its organiser chose them for an individual tournament."""
    rulebook = rulebook_in_force(season=tournament.season)[1]
    return replace(
        rulebook.movements.settings(),
        tables_of_five=tournament.tables_of_five and tournament.format == Format.INDIVIDUAL,
    )


def present_entries(tournament: Tournament) -> list[TournamentEntry]:
    """The entries present, by number, with their active members."""
    return list(
        tournament.day_entries.filter(state=EntryState.ENTERED, present=True)
        .order_by("number")
        .prefetch_related("members__player")
    )


def _active(entry: TournamentEntry) -> list[EntryMember]:
    return [m for m in entry.members.all() if m.active]


def players_present(tournament: Tournament) -> int:
    return sum(len(_active(e)) for e in present_entries(tournament))


def proposed_formula(tournament: Tournament) -> DealFormula:
    """The positions the declaration announced (one placement per position) of 4 deals, or
    « 24 (6 x 4) »."""
    if tournament.placements:
        return DealFormula(len(tournament.placements), DEFAULT_FORMULA.deals_per_position)
    return DEFAULT_FORMULA


def positions_allowed(tournament: Tournament, players: int) -> int:
    """The most positions the engine plays for ``players`` (0: no movement)."""
    try:
        return max_positions(players, Format(tournament.format), movement_settings(tournament))
    except RuleViolation:
        return 0


def placements_for(tournament: Tournament, session_number: int) -> tuple[Placement, ...]:
    """The placements a session may use: a championship stage's first session follows
    article 25; later sessions of an individual tournament may also seat best against best."""
    stage = getattr(tournament, "championship_stage", None)
    if session_number == 1:
        return (Placement.CHAMPIONSHIP,) if stage is not None else (Placement.RANDOM,)
    if tournament.format == Format.INDIVIDUAL:
        return (Placement.RANDOM, Placement.BEST_AGAINST_BEST)
    return (Placement.RANDOM,)


def _entrant_id(entry: TournamentEntry) -> str:
    return str(entry.number)


def _entrants(tournament: Tournament, entries: list[TournamentEntry]) -> list[Entrant]:
    size = Format(tournament.format).team_size
    entrants = []
    for entry in entries:
        members = _active(entry)
        committee = zone = ""
        championship = entry.championship_entry
        if championship is not None and championship.committee is not None:
            committee = str(championship.committee.pk)
            zone = str(championship.committee.zone_id)
        entrants.append(
            Entrant(
                _entrant_id(entry),
                tuple(f"{entry.number}:{m.order}" for m in members) if size > 1 else (),
                committee=committee,
                zone=zone,
            )
        )
    return entrants


def _holder(player: str) -> Holder:
    entry, _, member = player.partition(":")
    return Holder(int(entry), int(member or 1))


def standings_order(tournament: Tournament, before: int) -> list[int]:
    """Entry numbers, best first, by their marks over the sessions before ``before`` (deals
    and position totals entered); ties by entry number."""
    totals: dict[int, int] = defaultdict(int)
    sessions = tournament.played_sessions.filter(number__lt=before)
    for session in sessions:
        layout = layout_from_json(session.plan)
        seating = seating_from_json(session.seating)
        rows = [(r.position, r.table, r.marks) for r in DealRecord.objects.filter(session=session)]
        rows += [
            (t.position, t.table, t.totals) for t in TableTotals.objects.filter(session=session)
        ]
        for position, table, marks in rows:
            seats = layout.table(position, table).seats
            for seat, points in (marks or {}).items():
                number = seats.get(Orientation(seat))
                if number in seating:
                    totals[seating[number].entry] += int(points)
    return sorted(totals, key=lambda e: (-totals[e], e))


def _champion_entrant(tournament: Tournament, entries: list[TournamentEntry]) -> str | None:
    from competitions.championships.running import champion_of

    stage = tournament.championship_stage
    champion = champion_of(stage)
    if champion is None:
        return None
    for entry in entries:
        licences = frozenset(
            m.player.licence_number for m in _active(entry) if m.player is not None
        )
        if licences == champion:
            return _entrant_id(entry)
    return None


def _seating(
    tournament: Tournament,
    plan: MovementPlan,
    entries: list[TournamentEntry],
    placement: Placement,
    session_number: int,
    rng: random.Random,
) -> Seating:
    entrants = _entrants(tournament, entries)
    if placement is Placement.CHAMPIONSHIP:
        return championship_seating(
            plan, entrants, rng, champion=_champion_entrant(tournament, entries)
        )
    if placement is Placement.BEST_AGAINST_BEST:
        ranked = standings_order(tournament, session_number)
        present = {int(e.id) for e in entrants}
        order = [n for n in ranked if n in present]
        order += sorted(present - set(order))  # those with no mark yet come last
        return best_against_best_seating(plan, [str(n) for n in order])
    return random_seating(plan, entrants, rng)


@dataclass(frozen=True, slots=True)
class DrawRequest:
    """What the arbiter asks of a draw (the draw page's form)."""

    positions: int
    deals_per_position: int
    placement: Placement = Placement.RANDOM
    seed: int | None = None


def scores_exist(session: PlayedSession) -> bool:
    """Has any deal or position total of ``session`` been entered (then it is not redrawn)?"""
    return (
        DealRecord.objects.filter(session=session).exists()
        or TableTotals.objects.filter(session=session).exists()
    )


@transaction.atomic
def session_draw(
    *,
    tournament: Tournament,
    positions: int,
    deals_per_position: int,
    placement: str = Placement.RANDOM,
    seed: int | None = None,
    session_number: int | None = None,
    by: Actor,
) -> PlayedSession:
    """Draw a session from the entries present: the engine's movement for that field with
    the season's settings (tables of 5 when the organiser chose them), ``positions`` ×
    ``deals_per_position`` checked against it, the starting seats by ``placement`` with a
    recorded seed, stored as a played session.

    ``session_number`` None draws the next session; an existing one is drawn again (a redraw),
    refused once any score of it is entered.
    """
    tournament = locked(tournament)
    _require_runner(tournament, by)
    last = tournament.played_sessions.aggregate(top=Max("number"))["top"] or 0
    existing: PlayedSession | None = None
    if session_number is None or session_number == last + 1:
        number = last + 1
    else:
        existing = tournament.played_sessions.filter(number=session_number).first()
        if existing is None:
            raise RuleViolation.single(
                "session",
                "day_room_no_session",
                f"Session {session_number} is not drawn; the next one is {last + 1}.",
                {"session": session_number, "next": last + 1},
            )
        if scores_exist(existing):
            raise Conflict(
                f"Session {existing.number} has scores entered: it can no longer be redrawn.",
                code="day_room_scores_exist",
                params={"session": existing.number},
            )
        number = existing.number
    try:
        chosen = Placement(placement)
    except ValueError:
        chosen = None
    allowed = placements_for(tournament, number)
    if chosen not in allowed:
        raise RuleViolation.single(
            "placement",
            "day_room_placement_not_allowed",
            f"Session {number} cannot use placement {placement!r}.",
            {"session": number, "allowed": ", ".join(_PLACEMENT_WORDS[p] for p in allowed)},
        )
    assert chosen is not None
    entries = present_entries(tournament)
    players = sum(len(_active(e)) for e in entries)
    format = Format(tournament.format)
    settings = movement_settings(tournament)
    if not entries:
        raise RuleViolation.single(
            "entries", "day_room_nobody_present", "Nobody is marked present.", {}
        )
    problems = _deals_problems(deals_per_position) or formula_problems(
        DealFormula(positions, deals_per_position), players, format, settings
    )
    if problems:
        raise RuleViolation(problems)
    plan = plan_movement(players, positions, format, settings)
    seed = secrets.randbits(62) if seed is None else int(seed)
    seating = _seating(tournament, plan, entries, chosen, number, random.Random(seed))
    holders = {a.number: _holder(a.player) for a in seating.assignments}
    fields = {
        "positions": positions,
        "deals_per_position": deals_per_position,
        "placement": chosen.value,
        "seed": seed,
        "plan": layout_to_json(layout_of(plan, deals_per_position)),
        "seating": seating_to_json(holders),
        "drawn_by": author(by),
        "drawn_at": timezone.now(),
    }
    if existing is not None:
        for name, value in fields.items():
            setattr(existing, name, value)
        existing.save()
        return existing
    return PlayedSession.objects.create(tournament=tournament, number=number, **fields)


_PLACEMENT_WORDS = {
    Placement.RANDOM: "tirage au sort",
    Placement.BEST_AGAINST_BEST: "meilleurs contre meilleurs",
    Placement.CHAMPIONSHIP: "placement du championnat (article 25)",
}


def _deals_problems(deals: int) -> list[Problem]:
    if isinstance(deals, int) and 1 <= deals <= MAX_DEALS_PER_POSITION:
        return []
    return [
        Problem(
            "deals_per_position",
            "day_room_deals_range",
            f"A position has 1 to {MAX_DEALS_PER_POSITION} deals.",
            {"max": MAX_DEALS_PER_POSITION},
        )
    ]


# --- reads -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatAt:
    """Where one player sits at one position."""

    session: int
    position: int
    table: int
    seat: Orientation
    table_size: int


def member_names(tournament: Tournament) -> dict[tuple[int, int], str]:
    """Every (entry number, member order) of the tournament's entries → the player's name
    as the room shows it (« NOM Prénom », or the non-licensee's name)."""
    names = {}
    for member in EntryMember.objects.filter(tournament=tournament).select_related(
        "entry", "player"
    ):
        names[(member.entry.number, member.order)] = person_name(member)
    return names


def person_name(member: EntryMember) -> str:
    if member.player is not None:
        return f"{member.player.last_name.upper()} {member.player.first_name}"
    return member.name


def session_of(tournament: Tournament, number: int) -> PlayedSession | None:
    return tournament.played_sessions.filter(number=number).first()


def layout_and_seating(session: PlayedSession) -> tuple[SessionLayout, dict[int, Holder]]:
    return layout_from_json(session.plan), seating_from_json(session.seating)


def seats_of(tournament: Tournament, entry: int, member: int) -> list[SeatAt]:
    """Where member ``member`` of entry ``entry`` sits at each position of each drawn
    session, in order."""
    seats = []
    for session in tournament.played_sessions.order_by("number"):
        layout, seating = layout_and_seating(session)
        numbers = [n for n, h in seating.items() if h == Holder(entry, member)]
        if not numbers:
            continue
        for index in range(1, len(layout.positions) + 1):
            table = layout.seat_of(numbers[0], index)
            if table is None:
                continue
            seat = next(o for o, n in table.seats.items() if n == numbers[0])
            seats.append(SeatAt(session.number, index, table.table, seat, table.size))
    return seats
