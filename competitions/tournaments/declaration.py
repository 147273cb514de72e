"""Writes on tournaments: declare, submit results, homologate, refuse, correct.

Each service is one transaction. Permissions are checked here (a service is
the only way to write), against the caller's scope.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction

from competitions.models import DeclaredSession, OrganizerKind, Stage, Tournament
from competitions.rulebooks import rulebook_in_force
from competitions.rules.engine.big_prize import check_big_prize_plan
from competitions.rules.engine.seating import PlacementMethod, check_placement_sequence
from competitions.rules.homologation import (
    PlannedSession,
    arbiter_play_problem,
    check_planned_sessions,
    same_venue_key,
    team_match_problem,
)
from competitions.rules.rulebook import DECLARABLE_EVENT_KINDS, EventKind, Rulebook
from competitions.tournaments import access
from competitions.tournaments.tournament_rows import tournaments_insert
from core.batch_memo import memoized
from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from core.vocabulary import Format
from federation.access import scope_of
from federation.models import ArbiterAccreditation, Club, Committee, Player, Zone
from federation.selectors import season_for_date


@dataclass(frozen=True)
class Declaration:
    """What an organiser declares about a tournament."""

    name: str
    date: dt.date
    venue: str
    format: str
    organizer_kind: str
    organizer_number: int | None
    arbiter_licence_number: int
    arbiter_plays: bool = False
    planned_sessions: int = 1
    stage: str = "ordinary"
    reference: str = ""
    placements: tuple[str, ...] = ()  # the placement method of each position, if announced
    big_prize: str = ""
    """« Tournoi à grosse dotation »: a formula of ``competitions.rules.engine.big_prize``."""
    big_prize_finalists: int | None = None
    event_kind: str = EventKind.FREE_TOURNAMENT.value
    """Chapter 5: a free tournament, a team match (*match par équipes*) or a festival."""
    sessions: tuple[SessionDeclared, ...] = ()
    """Each session's day and place, when declared; none: one day (``date``) at one place
    (``venue``)."""

    # What a player needs before the day, and how the organiser runs the day.
    start_time: dt.time | None = None
    address: str = ""
    contact: str = ""
    entry_fee: Decimal | None = None
    entry_cap: int | None = None
    online_entries: bool = False
    tables_of_five: bool = False
    position_totals: bool = False
    live_page: bool = False


@dataclass(frozen=True)
class SessionDeclared:
    """A session's day and place; a blank venue is the declaration's."""

    date: dt.date
    venue: str = ""


MAX_POSITIONS = 200
MAX_ENTRY_FEE = Decimal("9999.99")
MAX_ENTRY_CAP = 2000


def day_problems(declaration: Declaration) -> list[Problem]:
    """The facts a player reads before the day: a fee from 0 to 9 999,99 €, in cents; a
    cap of at least one entry."""
    problems: list[Problem] = []
    fee = declaration.entry_fee
    if fee is not None and (fee < 0 or fee > MAX_ENTRY_FEE or fee != fee.quantize(Decimal("0.01"))):
        problems.append(
            Problem(
                "entry_fee",
                "entry_fee_invalid",
                f"The entry fee is an amount in euros from 0 to {MAX_ENTRY_FEE}, in cents.",
                {"maximum": "9 999,99"},
            )
        )
    cap = declaration.entry_cap
    if cap is not None and not 1 <= cap <= MAX_ENTRY_CAP:
        problems.append(
            Problem(
                "entry_cap",
                "entry_cap_invalid",
                f"The entry cap is a number of entries from 1 to {MAX_ENTRY_CAP}.",
                {"maximum": MAX_ENTRY_CAP},
            )
        )
    for name, limit in (("address", 300), ("contact", 200)):
        if len(getattr(declaration, name)) > limit:
            problems.append(
                Problem(
                    name,
                    "too_long",
                    f"At most {limit} characters.",
                    {"maximum": limit},
                )
            )
    return problems


def placement_problems(placements: tuple[str, ...], format: str) -> list[Problem]:
    """Chapter 2: each position's placement method (*types de mises en place*, announced at
    the start), and whether the sequence may be played (``check_placement_sequence``)."""
    problems: list[Problem] = []
    if len(placements) > MAX_POSITIONS:
        return [
            Problem(
                "placements",
                "too_many_placements",
                f"At most {MAX_POSITIONS} positions may be announced, not {len(placements)}.",
                {"limit": MAX_POSITIONS, "count": len(placements)},
            )
        ]
    methods = []
    for index, value in enumerate(placements):
        try:
            methods.append(PlacementMethod(value))
        except ValueError:
            choices = ", ".join(PlacementMethod)
            problems.append(
                Problem(
                    f"placements[{index}]",
                    "unknown_placement",
                    f"Position {index + 1}: {value!r} is not a placement method; one of {choices}.",
                    {"position": index + 1, "value": str(value), "choices": choices},
                )
            )
    if problems or not methods:
        return problems
    try:
        fmt = Format(format)
    except ValueError:
        return problems  # the format's own problem is reported by the caller
    try:
        check_placement_sequence(methods, fmt)
    except RuleViolation as refused:
        problems.extend(
            Problem(p.field.replace("methods[", "placements[", 1), p.code, p.message, p.params)
            for p in refused.problems
        )
    return problems


class DeclarationConflict(Exception):
    """The organiser's reference is already used by a different declaration."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        super().__init__(f"reference already used by tournament {tournament.pk}")


def _organizer(declaration: Declaration, problems: list[Problem]):
    kind, number = declaration.organizer_kind, declaration.organizer_number
    zone = committee = club = None
    if kind == OrganizerKind.FEDERATION:
        return zone, committee, club
    if number is None:
        problems.append(
            Problem(
                "organizer_number",
                "required",
                f"A {kind} organiser needs its number.",
                {"kind": kind},
            )
        )
        return zone, committee, club
    model = ORGANIZER_MODELS[kind]
    found = memoized(("organizer", kind, number), lambda: organizer_read(kind, number))
    if found is None:
        problems.append(
            Problem(
                "organizer_number",
                "unknown",
                f"No {kind} numbered {number}.",
                {"kind": kind, "number": number},
            )
        )
    zone, committee, club = (
        (found, None, None)
        if model is Zone
        else (None, found, None)
        if model is Committee
        else (None, None, found)
    )
    return zone, committee, club


ORGANIZER_MODELS: dict[str, type[Zone] | type[Committee] | type[Club]] = {
    OrganizerKind.ZONE: Zone,
    OrganizerKind.COMMITTEE: Committee,
    OrganizerKind.CLUB: Club,
}


def organizer_read(kind: str, number: int) -> Zone | Committee | Club | None:
    """The organiser of ``kind`` numbered ``number`` (a club with its committee and zone)."""
    model = ORGANIZER_MODELS[kind]
    return (
        model.objects.select_related(*(["committee__zone"] if model is Club else []))
        .filter(number=number)
        .first()
    )


def arbiter_read(licence_number: int) -> Player | None:
    return Player.objects.filter(licence_number=licence_number).first()


def arbiter_accredited(player_id: int, season_id: int) -> bool:
    """Whether the player is an official FFT arbiter for the season (chapter 5), read once
    per batch of a bulk load (:mod:`core.batch_memo`)."""
    return memoized(
        ("arbiter_accredited", player_id, season_id),
        lambda: ArbiterAccreditation.objects.filter(
            player_id=player_id, season_id=season_id
        ).exists(),
    )


@transaction.atomic
def tournament_declare(
    *, declaration: Declaration, by, championship_stage: bool = False
) -> tuple[Tournament, bool]:
    """Declare a tournament; returns it and whether it was created.

    Declaring again with the same organiser reference returns the existing
    tournament (a client retrying after a timeout creates nothing twice).
    ``championship_stage``: the tournament a championship stage is created with
    (:func:`competitions.championships.stages.stage_create`, its only caller that
    sets it); any other declaration is an ordinary tournament (:func:`stage_problems`).
    """
    fields = declaration_fields(declaration, by, championship_stage=championship_stage)
    if declaration.reference:
        existing = _same_reference(declaration, fields).select_for_update(of=("self",)).first()
        if existing is not None:
            return _declared_again(existing, fields, declaration)
    tournament = Tournament(**fields, reference=declaration.reference, declared_by=by)
    try:
        # A savepoint: another request declaring the same reference may insert
        # between our read and our insert; the unique constraint refuses ours and
        # theirs is the answer (idempotent under concurrency, never a 500).
        with transaction.atomic():
            tournaments_insert([tournament], by=by)
    except IntegrityError:
        existing = _same_reference(declaration, fields).first() if declaration.reference else None
        if existing is None:
            raise
        return _declared_again(existing, fields, declaration)
    declared_sessions_insert(tournament, declaration)
    return tournament, True


def stage_problems(stage: str, championship_stage: bool) -> list[Problem]:
    """A championship stage's index, cap and qualification come only through a stage of a
    championship (chapter 3, preamble: « Le règlement du championnat régional doit être
    adressé, en début de saison, au responsable de zone pour aval. Les épreuves se
    déroulant sans son aval sont nulles. »): created by ``stage_create`` under the
    championship's rules (the zone's approval is checked on the stage's results). A
    tournament declared by itself is an ordinary tournament, whoever its organiser."""
    if stage == Stage.ORDINARY or championship_stage:
        return []
    return [
        Problem(
            "stage",
            "stage_outside_a_championship",
            f"A tournament declared by itself is an ordinary tournament: a {stage} is a stage "
            "of a championship, created from the championship (under regional rules the zone "
            "approved), which gives its index, cap and qualification.",
            {"stage": str(stage)},
        )
    ]


def declaration_fields(declaration: Declaration, by, *, championship_stage: bool = False) -> dict:
    """Every check of a declaration (one refusal locating every problem, then the
    permission), nothing written: the new tournament's fields. Its reads (season,
    organiser, arbiter, accreditation) are made once per batch of a bulk load.
    ``championship_stage``: as for :func:`tournament_declare`; a declaration repeating the
    reference of a tournament a championship stage plays (same season, organiser, stage) is
    that stage's own declaration again (a results file naming it), which
    :func:`tournament_declare` returns."""
    problems: list[Problem] = []
    season = memoized(
        ("season_for_date", declaration.date), lambda: season_for_date(declaration.date)
    )
    if season is None:
        problems.append(
            Problem(
                "date",
                "no_season",
                f"No federation season contains {declaration.date:%Y-%m-%d}.",
                {"date": f"{declaration.date:%d/%m/%Y}"},
            )
        )
    zone, committee, club = _organizer(declaration, problems)
    if not championship_stage and season is not None and declaration.reference:
        # the stage's own declaration again (a results file naming it by its reference)
        championship_stage = Tournament.objects.filter(
            season=season,
            organizer_kind=declaration.organizer_kind,
            organizer_zone=zone,
            organizer_committee=committee,
            organizer_club=club,
            reference=declaration.reference,
            stage=declaration.stage,
            championship_stage__isnull=False,
        ).exists()
    problems[:0] = stage_problems(declaration.stage, championship_stage)
    arbiter = memoized(
        ("player_by_licence", declaration.arbiter_licence_number),
        lambda: arbiter_read(declaration.arbiter_licence_number),
    )
    if arbiter is None:
        problems.append(
            Problem(
                "arbiter_licence_number",
                "unknown",
                f"No player with licence number {declaration.arbiter_licence_number}.",
                {"number": declaration.arbiter_licence_number},
            )
        )
    elif season is not None and not arbiter_accredited(arbiter.pk, season.pk):
        problems.append(
            Problem(
                "arbiter_licence_number",
                "not_an_arbiter",
                f"Licence {arbiter.licence_number} is not an official FFT arbiter "
                f"for season {season}.",
                {"licence_number": arbiter.licence_number, "season": season.name},
            )
        )
    problems.extend(placement_problems(tuple(declaration.placements), declaration.format))
    problems.extend(day_problems(declaration))
    if declaration.planned_sessions < 1:
        problems.append(
            Problem(
                "planned_sessions",
                "min_value",
                "A tournament has at least one session.",
                {"minimum": 1},
            )
        )
    big_prize = None
    if declaration.big_prize:
        try:
            plan = check_big_prize_plan(
                declaration.big_prize, declaration.big_prize_finalists, format=declaration.format
            )
        except RuleViolation as refused:
            problems += refused.problems
        else:
            big_prize = {"formula": plan.formula.value, "finalists": plan.finalists}
    event_kind = _event_kind(declaration, championship_stage, problems)
    if season is not None and event_kind is not None:
        _rulebook_version, rulebook = rulebook_in_force(season=season)
        problems += event_problems(declaration, event_kind, rulebook)
        problems += session_problems(declaration, event_kind, rulebook, season)
    if problems:
        raise RuleViolation(problems)

    scope = scope_of(by)
    if not access.may_declare(
        scope,
        kind=declaration.organizer_kind,
        zone=zone,
        committee=committee,
        club=club,
        stage=declaration.stage,
    ):
        raise PermissionDenied(
            "You may not declare tournaments for this organiser or at this stage."
        )

    return {
        "season": season,
        "name": declaration.name,
        "date": declaration.date,
        "venue": declaration.venue,
        "format": declaration.format,
        "stage": declaration.stage,
        "organizer_kind": declaration.organizer_kind,
        "organizer_zone": zone,
        "organizer_committee": committee,
        "organizer_club": club,
        "arbiter": arbiter,
        "arbiter_plays": declaration.arbiter_plays,
        "planned_sessions": declaration.planned_sessions,
        "placements": list(declaration.placements),
        "big_prize": big_prize,
        "event_kind": declaration.event_kind,
        "start_time": declaration.start_time,
        "address": declaration.address,
        "contact": declaration.contact,
        "entry_fee": declaration.entry_fee,
        "entry_cap": declaration.entry_cap,
        "online_entries": declaration.online_entries,
        "tables_of_five": declaration.tables_of_five,
        "position_totals": declaration.position_totals,
        "live_page": declaration.live_page,
    }


def _event_kind(
    declaration: Declaration, championship_stage: bool, problems: list[Problem]
) -> EventKind | None:
    """The kind judged: a championship's stage is an official championship (its only kind);
    any other declaration names one of the declarable kinds."""
    choices = ", ".join(DECLARABLE_EVENT_KINDS)
    if declaration.event_kind not in DECLARABLE_EVENT_KINDS:
        problems.append(
            Problem(
                "event_kind",
                "unknown_event_kind",
                f"{declaration.event_kind!r} is not a kind of event; one of {choices}.",
                {"value": str(declaration.event_kind), "choices": choices},
            )
        )
        return None
    if declaration.stage != Stage.ORDINARY and championship_stage:
        if declaration.event_kind != EventKind.FREE_TOURNAMENT:
            problems.append(
                Problem(
                    "event_kind",
                    "event_kind_of_a_stage",
                    "A stage of a championship is an official championship, not a "
                    f"{declaration.event_kind.replace('_', ' ')}.",
                    {"event_kind": declaration.event_kind},
                )
            )
        return EventKind.OFFICIAL_CHAMPIONSHIP
    return EventKind(declaration.event_kind)


def event_problems(
    declaration: Declaration, event_kind: EventKind, rulebook: Rulebook
) -> list[Problem]:
    """Chapter 5 on the kind of event, judged when declared (and again on the results): an
    arbiter announced as playing a team match, a festival or a championship stage they
    direct; a team match in a format that is not a team format."""
    problems: list[Problem] = []
    if declaration.arbiter_plays and (refusal := arbiter_play_problem(event_kind, rulebook)):
        problems.append(refusal)
    try:
        fmt = Format(declaration.format)
    except ValueError:
        return problems  # the format's own problem is reported by the caller
    if refusal := team_match_problem(event_kind, fmt, rulebook):
        problems.append(refusal)
    return problems


def planned_sessions_of(declaration: Declaration) -> tuple[PlannedSession, ...]:
    """The declared sessions, each with its venue (the declaration's when left blank)."""
    return tuple(
        PlannedSession(date=s.date, venue=s.venue.strip() or declaration.venue)
        for s in declaration.sessions
    )


def session_problems(
    declaration: Declaration, event_kind: EventKind, rulebook: Rulebook, season
) -> list[Problem]:
    """The declared sessions: as many as the planned sessions, the first on the
    tournament's date, all in its season, then chapter 5 (one place; one day unless the
    season's rulebook lets the kind of event span days)."""
    sessions = planned_sessions_of(declaration)
    if not sessions:
        return []
    problems: list[Problem] = []
    if len(sessions) != declaration.planned_sessions:
        problems.append(
            Problem(
                "sessions",
                "sessions_count_mismatch",
                f"{len(sessions)} sessions are declared, but the tournament plans "
                f"{declaration.planned_sessions}.",
                {"count": len(sessions), "planned": declaration.planned_sessions},
            )
        )
    if sessions[0].date != declaration.date:
        problems.append(
            Problem(
                "sessions[0].date",
                "first_session_not_on_date",
                f"Session 1 is on {sessions[0].date:%Y-%m-%d}: the tournament's date "
                f"({declaration.date:%Y-%m-%d}) is its first session's.",
                {
                    "date": f"{sessions[0].date:%d/%m/%Y}",
                    "tournament_date": f"{declaration.date:%d/%m/%Y}",
                },
            )
        )
    if same_venue_key(sessions[0].venue) != same_venue_key(declaration.venue):
        problems.append(
            Problem(
                "sessions[0].venue",
                "first_session_not_at_venue",
                f"Session 1 is at {sessions[0].venue!r}: the tournament's venue "
                f"({declaration.venue!r}) is its first session's.",
                {"venue": sessions[0].venue, "tournament_venue": declaration.venue},
            )
        )
    for i, session in enumerate(sessions):
        if not season.start_date <= session.date <= season.end_date:
            problems.append(
                Problem(
                    f"sessions[{i}].date",
                    "session_outside_season",
                    f"Session {i + 1} is on {session.date:%Y-%m-%d}, outside season {season}.",
                    {
                        "session": i + 1,
                        "date": f"{session.date:%d/%m/%Y}",
                        "season": season.name,
                    },
                )
            )
        if len(session.venue) > VENUE_MAX_LENGTH:
            problems.append(
                Problem(
                    f"sessions[{i}].venue",
                    "venue_too_long",
                    f"Session {i + 1}'s venue is longer than {VENUE_MAX_LENGTH} characters.",
                    {"session": i + 1, "limit": VENUE_MAX_LENGTH},
                )
            )
    problems += check_planned_sessions(sessions, event_kind, rulebook)
    return problems


VENUE_MAX_LENGTH = 200
MAX_DECLARED_SESSIONS = 20


def declared_sessions_insert(tournament: Tournament, declaration: Declaration) -> None:
    """The declared sessions' rows of a new tournament: none when none were declared, nor
    for one session (on the tournament's date, at its venue: nothing more to say)."""
    if len(declaration.sessions) <= 1:
        return
    DeclaredSession.objects.bulk_create(
        DeclaredSession(tournament=tournament, number=number, date=s.date, venue=s.venue)
        for number, s in enumerate(planned_sessions_of(declaration), start=1)
    )


def _same_sessions(existing: Tournament, declaration: Declaration) -> bool:
    stored = [(s.date, s.venue) for s in existing.declared_sessions.order_by("number")]
    declared = [(s.date, s.venue) for s in planned_sessions_of(declaration)]
    return stored == (declared if len(declared) > 1 else [])


def _same_reference(declaration: Declaration, fields: dict):
    """The organiser's tournaments of the season with the declaration's reference."""
    return Tournament.objects.filter(
        season=fields["season"],
        organizer_kind=declaration.organizer_kind,
        organizer_zone=fields["organizer_zone"],
        organizer_committee=fields["organizer_committee"],
        organizer_club=fields["organizer_club"],
        reference=declaration.reference,
    )


def _declared_again(
    existing: Tournament, fields: dict, declaration: Declaration
) -> tuple[Tournament, bool]:
    """The tournament already declared with this reference, if the details are the same."""
    if all(getattr(existing, name) == value for name, value in fields.items()) and (
        _same_sessions(existing, declaration)
    ):
        return existing, False
    raise DeclarationConflict(existing)
