"""The homologation conditions of chapter 5, judged on a tournament's
declaration and its results: on the submitted document, with every other
problem of the submission (one pass), and again on the stored revision at
homologation, under the rulebook then in force."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from competitions.models import (
    OrganizerKind,
    ResultEntry,
    ResultPlayer,
    ResultRevision,
    ResultSession,
    Stage,
    Tournament,
)
from competitions.rules.homologation import TournamentFacts, check_homologation, same_venue_key
from competitions.rules.results.document import ResultsDocument
from competitions.rules.rulebook import EventKind, Organizer, Rulebook
from competitions.tournaments.declaration import arbiter_accredited
from core.batch_memo import memoized
from core.problems import Problem, RuleViolation
from core.vocabulary import Format
from federation.models import ClubAffiliation


@dataclass(frozen=True)
class StoredRevision:
    """What homologation reads of a stored revision, in three queries of plain values:
    what its conditions (chapter 5) and its allocation need, read once for both."""

    entries: list[tuple[int, int, int]]
    """(pk, number, place) of each entry, by place then number."""
    sessions: list[tuple[int, int]]
    """(tables, tables of three) of each session, by number."""
    players: list[tuple[int, int | None, bool, int | None]]
    """(entry pk, player pk, licensed, licence number) of each player, by licence number."""


def stored_revision(revision: ResultRevision) -> StoredRevision:
    return StoredRevision(
        entries=list(revision.entries.values_list("pk", "number", "place")),
        sessions=list(
            revision.sessions.order_by("number").values_list("tables", "tables_of_three")
        ),
        players=list(
            ResultPlayer.objects.filter(revision=revision)
            .order_by("licence_number")
            .values_list("entry_id", "player_id", "licensed", "licence_number")
        ),
    )


def stored_revisions(revision_ids: Collection[int]) -> dict[int, StoredRevision]:
    """:func:`stored_revision` of many revisions, in the same three queries for all (a
    bulk load): by revision id, each list in the same order."""
    found = {pk: StoredRevision(entries=[], sessions=[], players=[]) for pk in revision_ids}
    for revision_id, *entry in ResultEntry.objects.filter(revision_id__in=found).values_list(
        "revision_id", "pk", "number", "place"
    ):  # the model's order: revision, place, number
        found[revision_id].entries.append(tuple(entry))  # type: ignore[arg-type]
    for revision_id, *session in (
        ResultSession.objects.filter(revision_id__in=found)
        .order_by("revision_id", "number")
        .values_list("revision_id", "tables", "tables_of_three")
    ):
        found[revision_id].sessions.append(tuple(session))  # type: ignore[arg-type]
    for revision_id, *player in (
        ResultPlayer.objects.filter(revision_id__in=found)
        .order_by("revision_id", "licence_number")
        .values_list("revision_id", "entry_id", "player_id", "licensed", "licence_number")
    ):
        found[revision_id].players.append(tuple(player))  # type: ignore[arg-type]
    return found


def homologation_facts(
    tournament: Tournament, revision: ResultRevision, stored: StoredRevision | None = None
) -> TournamentFacts:
    """The facts chapter 5 judges, read from the declaration and the stored revision
    (``stored``: the revision's rows, when the caller has read them already)."""
    arbiter = tournament.arbiter.licence_number
    if stored is None:
        arbiter_played = ResultPlayer.objects.filter(
            revision=revision, licence_number=arbiter
        ).exists()
        first = revision.sessions.order_by("number").first()
        first_session = None if first is None else (first.tables, first.tables_of_three)
        entries = revision.entries.count()
    else:
        arbiter_played = any(licence == arbiter for *_, licence in stored.players)
        first_session = stored.sessions[0] if stored.sessions else None
        entries = len(stored.entries)
    return planned_facts(
        tournament, arbiter_played=arbiter_played, entries=entries, first_session=first_session
    )


def document_facts(tournament: Tournament, document: ResultsDocument) -> TournamentFacts:
    """The same facts, read from the declaration and a document not stored yet."""
    arbiter = tournament.arbiter.licence_number
    first = min(document.sessions, key=lambda s: s.number, default=None)
    return planned_facts(
        tournament,
        arbiter_played=any(
            player.licence_number == arbiter
            for entry in document.entries
            for player in entry.players
        ),
        entries=len(document.entries),
        first_session=None if first is None else (first.tables, first.tables_of_three),
    )


def planned_facts(
    tournament: Tournament,
    *,
    arbiter_played: bool,
    entries: int,
    first_session: tuple[int, int] | None,
) -> TournamentFacts:
    """The facts chapter 5 judges from the declaration and the figures given: stored
    results, a document not stored yet, or a plan (the dry-run check)."""
    if tournament.organizer_kind == OrganizerKind.CLUB:
        # A club-organised tournament has its club (a database constraint); the stubs
        # see the nullable column.
        affiliated = club_affiliated(tournament.organizer_club_id, tournament.season_id)  # type: ignore[arg-type]
        organizer = Organizer.AFFILIATED_CLUB if affiliated else Organizer.UNAFFILIATED_CLUB
    else:
        organizers: dict[str, Organizer] = {
            OrganizerKind.FEDERATION: Organizer.FFT,
            OrganizerKind.ZONE: Organizer.ZONE,
            OrganizerKind.COMMITTEE: Organizer.REGIONAL_COMMITTEE,
        }
        organizer = organizers[tournament.organizer_kind]
    tables, of_three = first_session or (0, 0)
    days, venues = declared_days_and_venues(tournament)
    return TournamentFacts(
        organizer=organizer,
        format=Format(tournament.format),
        event_kind=event_kind_of(tournament),
        arbiter_is_official=arbiter_accredited(tournament.arbiter_id, tournament.season_id),
        arbiter_plays=tournament.arbiter_plays or arbiter_played,
        single_venue=venues <= 1,
        # each declared session has one date: all its tables play it together
        simultaneous=True,
        days=days,
        entries=entries,
        # A table of 5 where one player sits out each deal (le mort, fasc. 459) plays the
        # 4-player game: a table of 4 here; only the 5-player game is not homologable, and
        # the results refuse it in a tournament (docs/engine-scoring.md, reading 12).
        table_sizes=(3,) * of_three + (4,) * (tables - of_three),
    )


def event_kind_of(tournament: Tournament) -> EventKind:
    """The kind of event chapter 5 judges: a championship's stage is an official
    championship; any other tournament is the kind declared."""
    if tournament.stage != Stage.ORDINARY:
        return EventKind.OFFICIAL_CHAMPIONSHIP
    return EventKind(tournament.event_kind)


def declared_days_and_venues(tournament: Tournament) -> tuple[int, int]:
    """How many days and places the declared sessions span: (1, 1) for a tournament
    without declared sessions or of one session (its date and venue), without a query."""
    if tournament.planned_sessions <= 1:
        return 1, 1
    sessions = list(tournament.declared_sessions.values_list("date", "venue"))
    if not sessions:
        return 1, 1
    return (
        len({day for day, _venue in sessions}),
        len({same_venue_key(venue) for _day, venue in sessions}),
    )


def club_affiliated(club_id: int, season_id: int) -> bool:
    """Whether the club is affiliated for the season, read once per batch of a bulk load
    (:mod:`core.batch_memo`)."""
    return memoized(
        ("club_affiliated", club_id, season_id),
        lambda: ClubAffiliation.objects.filter(club_id=club_id, season_id=season_id).exists(),
    )


DOCUMENT_CHECKS = frozenset({"below_minimum_participation", "table_size_not_homologable"})
"""Conditions the results' own validation already judges (minimum participation, no
table of 5): reported once, by the validation, when the document is checked whole."""


def declaration_problems(
    tournament: Tournament, document: ResultsDocument, rulebook: Rulebook
) -> list[Problem]:
    """The unmet conditions that belong to the declaration (organiser, arbiter), for a
    document being submitted; its own figures are the validation's to judge."""
    first = min(document.sessions, key=lambda s: s.number, default=None)
    if first is None or not 0 <= first.tables_of_three <= first.tables or first.tables < 1:
        return []  # no table to judge: the validation reports the sessions' problems
    problems = check_homologation(document_facts(tournament, document), rulebook)
    return [p for p in problems if p.code not in DOCUMENT_CHECKS]


def require_conditions(
    tournament: Tournament,
    revision: ResultRevision,
    rulebook: Rulebook,
    stored: StoredRevision | None = None,
    *,
    more_problems: Sequence[Problem] = (),
) -> None:
    """Raise RuleViolation listing every unmet homologation condition, with
    ``more_problems`` (a championship stage's: void for want of the zone's approval of
    its regional rules)."""
    problems = check_homologation(homologation_facts(tournament, revision, stored), rulebook)
    problems += more_problems
    if problems:
        raise RuleViolation(problems)
