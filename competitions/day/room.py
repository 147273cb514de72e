"""The room on the day: check-in (who is present, late arrivals, no-shows withdrawn) and the
draw of each session (the engine's movement for the field present, its seating, stored as a
:class:`~competitions.models.PlayedSession`), and in a championship stage whose committee's
table eliminates, the draw after each cut for the entries kept (:func:`phase_draw` for the
rest of a session after a cut between positions).

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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from competitions.day import closing, scoring
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
    MOVEMENT_FROM,
    Holder,
    SessionLayout,
    layout_from_json,
    layout_of,
    layout_to_json,
    seating_from_json,
    seating_to_json,
    single_position_plan,
    with_phase,
)
from competitions.rules.day.results_document import Cut, DayResults
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


def session_entries(tournament: Tournament, day: DayResults, number: int) -> list[TournamentEntry]:
    """The entries session ``number`` seats: those present and, from session 2 on, still
    in (neither eliminated by a cut before it nor abandoned: :func:`closing.entries_still_in`)."""
    entries = present_entries(tournament)
    if number > 1:
        still = closing.entries_still_in(tournament, day, (number, 1))
        entries = [e for e in entries if e.number in still]
    return entries


def players_present(tournament: Tournament) -> int:
    """The players the next session seats."""
    day = closing.day_results(tournament=tournament)
    number = max((s.number for s in day.sessions), default=0) + 1
    return sum(len(_active(e)) for e in session_entries(tournament, day, number))


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


def standings_order(tournament: Tournament) -> list[int]:
    """Entry numbers, best first, as the day's standings rank them now (the closing's:
    penalties, abandons and cuts count as they do there)."""
    view = closing.standings_view(tournament, closing.day_results(tournament=tournament), None)
    return [line.entry for line in view.standings.lines]


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
        ranked = standings_order(tournament)
        present = {int(e.id) for e in entrants}
        order = [n for n in ranked if n in present]
        order += sorted(present - set(order))  # those not in the standings come last
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
    if not entries:
        raise RuleViolation.single(
            "entries", "day_room_nobody_present", "Nobody is marked present.", {}
        )
    day = closing.day_results(tournament=tournament)
    cuts = _cuts(tournament, day, len(entries))
    if number > 1:
        _require_phase_over(tournament, by, day, cuts, number)
        entries = session_entries(tournament, day, number)
    _require_positions_to_cut(cuts, number, 0, positions)
    layout, holders, seed = _draw(
        tournament, entries, positions, deals_per_position, chosen, number, seed
    )
    fields = {
        "positions": positions,
        "deals_per_position": deals_per_position,
        "placement": chosen.value,
        "seed": seed,
        "plan": layout_to_json(layout),
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


def _draw(
    tournament: Tournament,
    entries: list[TournamentEntry],
    positions: int,
    deals_per_position: int,
    placement: Placement,
    number: int,
    seed: int | None,
) -> tuple[SessionLayout, dict[int, Holder], int]:
    """The movement for ``entries``, checked, and its seating by ``placement``: the layout,
    who holds each starting number, and the seed drawn with."""
    players = sum(len(_active(e)) for e in entries)
    format = Format(tournament.format)
    settings = movement_settings(tournament)
    single = (
        single_position_plan(players)
        if positions == 1 and players < MOVEMENT_FROM and format is Format.INDIVIDUAL
        else None
    )
    problems = _deals_problems(deals_per_position) or (
        []
        if single is not None
        else formula_problems(DealFormula(positions, deals_per_position), players, format, settings)
    )
    if problems:
        raise RuleViolation(problems)
    plan = single or plan_movement(players, positions, format, settings)
    seed = secrets.randbits(62) if seed is None else int(seed)
    seating = _seating(tournament, plan, entries, placement, number, random.Random(seed))
    holders = {a.number: _holder(a.player) for a in seating.assignments}
    return layout_of(plan, deals_per_position), holders, seed


# --- cuts: who plays on -------------------------------------------------------------------


def _cuts(tournament: Tournament, day: DayResults, present: int) -> tuple[Cut, ...]:
    """The stage's cuts (the committee's table for the field at the first session: the
    entries present while it is not drawn)."""
    if not day.sessions:
        return closing.stage_cuts(tournament, present)
    return closing.day_cuts(tournament, day)


def position_complete(tournament: Tournament, by: Actor, session: int, position: int) -> bool:
    """Has every table of ``position`` of ``session`` entered all its deals (or its
    position totals)? What the score entry's grid says."""
    for found in scoring.scores_grid(by=by, tournament=tournament):
        if found.session.number == session:
            if not 1 <= position <= len(found.positions):
                return False
            return all(cell.complete for cell in found.positions[position - 1])
    return False


def _require_cut_reached(tournament: Tournament, by: Actor, session: int, position: int) -> None:
    if not position_complete(tournament, by, session, position):
        raise RuleViolation.single(
            "after_position",
            "day_room_cut_position_incomplete",
            f"Position {position} of session {session} is not complete: who plays on past "
            "the cut is decided once every table has entered it.",
            {"session": session, "position": position},
        )


def _require_phase_over(
    tournament: Tournament,
    by: Actor,
    day: DayResults,
    cuts: Sequence[Cut],
    number: int,
) -> None:
    """Before drawing session ``number``: every phase of the session before it is drawn,
    and, with a cut before it, that session's last position is complete."""
    previous = next((s for s in day.sessions if s.number == number - 1), None)
    if previous is None:
        return
    drawn = len(previous.layout.positions)
    if any(c.session == previous.number and c.after_position >= drawn for c in cuts):
        raise RuleViolation.single(
            "session",
            "day_room_phase_not_drawn",
            f"Session {previous.number} has a cut after position {drawn}: draw the rest of "
            "it first.",
            {"session": previous.number, "position": drawn},
        )
    if any(c.starts == (number, 1) for c in cuts):
        _require_cut_reached(tournament, by, previous.number, drawn)


def _require_positions_to_cut(
    cuts: Sequence[Cut], session: int, after_position: int, positions: int
) -> None:
    """A phase is drawn up to the session's next cut (the committee's table)."""
    following = [
        c.after_position for c in cuts if c.session == session and c.after_position > after_position
    ]
    if following and positions != min(following) - after_position:
        raise RuleViolation.single(
            "positions",
            "day_room_positions_to_cut",
            f"Session {session} has a cut after position {min(following)}: draw "
            f"{min(following) - after_position} positions.",
            {
                "session": session,
                "position": min(following),
                "positions": min(following) - after_position,
            },
        )


@dataclass(frozen=True, slots=True)
class PendingCut:
    """A cut between two positions of a drawn session whose rest is not drawn yet."""

    session: int
    after_position: int
    entries: int | None
    divisor: int
    positions: int | None
    """The positions to draw up to the session's next cut (None: the arbiter chooses)."""
    ready: bool
    """The position before the cut is complete: the rest may be drawn."""


def pending_cuts(*, tournament: Tournament, by: Actor) -> list[PendingCut]:
    """The cuts between positions whose phase can be drawn now or next (the draw page), for
    those who see the day."""
    closing.require_reader(tournament, by)
    day = closing.day_results(tournament=tournament)
    cuts = closing.day_cuts(tournament, day)
    pending = []
    for session in day.sessions:
        drawn = len(session.layout.positions)
        for cut in cuts:
            if cut.session != session.number or cut.after_position != drawn:
                continue
            following = [
                c.after_position
                for c in cuts
                if c.session == session.number and c.after_position > drawn
            ]
            pending.append(
                PendingCut(
                    session.number,
                    drawn,
                    cut.entries,
                    cut.divisor,
                    min(following) - drawn if following else None,
                    position_complete(tournament, by, session.number, drawn),
                )
            )
    return pending


@dataclass(frozen=True, slots=True)
class PhaseField:
    """Who plays on past a cut, and who was eliminated there (the draw and room pages)."""

    session: int
    after_position: int
    playing: tuple[int, ...]
    eliminated: tuple[int, ...]


def phase_fields(*, tournament: Tournament, by: Actor) -> list[PhaseField]:
    """For every cut whose phase is drawn: who plays on and who was eliminated there, by
    entry number, for those who see the day."""
    closing.require_reader(tournament, by)
    day = closing.day_results(tournament=tournament)
    cuts = closing.day_cuts(tournament, day)
    drawn = {(s.number, p + 1) for s in day.sessions for p in range(len(s.layout.positions))}
    fields = []
    for cut in sorted(cuts, key=lambda c: c.starts):
        if cut.starts not in drawn:
            continue
        previous = max((r for r in drawn if r < cut.starts), default=(1, 1))
        before = closing.entries_still_in(tournament, day, previous)
        still = closing.entries_still_in(tournament, day, cut.starts)
        out = sorted(
            n for n in before - still if (e := day.entry(n)) is not None and e.plays(*cut.starts)
        )
        fields.append(PhaseField(cut.session, cut.after_position, tuple(sorted(still)), tuple(out)))
    return fields


@transaction.atomic
def phase_draw(
    *,
    tournament: Tournament,
    session_number: int,
    after_position: int,
    positions: int,
    placement: str = Placement.RANDOM,
    seed: int | None = None,
    by: Actor,
) -> PlayedSession:
    """Draw the rest of session ``session_number`` after its cut after ``after_position``
    (the committee's table): once that position is complete, the entries that play on (the
    standings at the cut decide: :func:`closing.entries_still_in`) are seated on a movement
    of their own for ``positions`` positions (up to the session's next cut), appended to the
    session's layout with starting numbers of their own (after the session's), so that the
    score entry, the table cards and « mes places » read the session as before. Drawn again
    while nothing is entered past the cut."""
    tournament = locked(tournament)
    _require_runner(tournament, by)
    session = tournament.played_sessions.select_for_update().filter(number=session_number).first()
    if session is None:
        raise RuleViolation.single(
            "session",
            "day_room_session_not_drawn",
            f"Session {session_number} is not drawn.",
            {"session": session_number},
        )
    day = closing.day_results(tournament=tournament)
    cuts = closing.day_cuts(tournament, day)
    cut = next(
        (c for c in cuts if c.session == session_number and c.after_position == after_position),
        None,
    )
    if cut is None or after_position < 1:
        raise RuleViolation.single(
            "after_position",
            "day_room_no_cut",
            f"The committee's table has no cut after position {after_position} of session "
            f"{session_number}.",
            {"session": session_number, "position": after_position},
        )
    layout, seating = layout_and_seating(session)
    if DealRecord.objects.filter(session=session, position__gt=after_position).exists() or (
        TableTotals.objects.filter(session=session, position__gt=after_position).exists()
    ):
        raise Conflict(
            f"Scores are entered past the cut after position {after_position}: the rest of "
            "the session can no longer be redrawn.",
            code="day_room_phase_scores_exist",
            params={"session": session_number, "position": after_position},
        )
    _require_cut_reached(tournament, by, session_number, after_position)
    try:
        chosen = Placement(placement)
    except ValueError:
        chosen = None
    allowed = placements_for(tournament, max(2, session_number))
    if chosen not in allowed:
        raise RuleViolation.single(
            "placement",
            "day_room_placement_not_allowed",
            f"Session {session_number} cannot use placement {placement!r}.",
            {
                "session": session_number,
                "allowed": ", ".join(_PLACEMENT_WORDS[p] for p in allowed),
            },
        )
    assert chosen is not None
    _require_positions_to_cut(cuts, session_number, after_position, positions)
    still = closing.entries_still_in(tournament, day, cut.starts)
    entries = [e for e in present_entries(tournament) if e.number in still]
    if not entries:
        raise RuleViolation.single(
            "entries", "day_room_nobody_present", "Nobody is marked present.", {}
        )
    phase, holders, seed = _draw(
        tournament, entries, positions, session.deals_per_position, chosen, session_number, seed
    )
    layout, seating = with_phase(layout, seating, after_position, phase, holders)
    plan = layout_to_json(layout)
    phases = [p for p in session.plan.get("phases", []) if p["after_position"] < after_position]
    plan["phases"] = [
        *phases,
        {"after_position": after_position, "placement": chosen.value, "seed": seed},
    ]
    session.plan = plan
    session.seating = seating_to_json(seating)
    session.positions = after_position + positions
    session.save(update_fields=["plan", "seating", "positions"])
    return session


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
        # After a cut between positions a player holds a starting number per phase.
        for index in range(1, len(layout.positions) + 1):
            for number in numbers:
                table = layout.seat_of(number, index)
                if table is not None:
                    seat = next(o for o, n in table.seats.items() if n == number)
                    seats.append(SeatAt(session.number, index, table.table, seat, table.size))
    return seats
