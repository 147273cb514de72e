"""Past tournaments loaded many at a time: the checks of the services, their writes batched.

:func:`lines_load` takes the lines of one transaction of ``manage.py load_results``
(a line number, the line's object and its declaration, read by the command) and runs,
for each line, every check the services run, in their order — the declaration's
(:func:`declaration_fields`: the document, the season, the organiser, the arbiter, the
placements, the permission), the submission's (:func:`read_results`,
:func:`results_check`: the registry, the rules, the declaration's conditions, repeats,
suspensions; the permission) and the homologation's (:func:`homologation_checked`: the
conditions on the stored revision; the permission) — then writes through the services'
own writers, each called once for the lines of a run: :func:`tournaments_insert`,
:func:`revisions_store` and :func:`results_mark_submitted`, :func:`homologations_record`.
The rows are those the services write one tournament at a time, with their history rows
(declared, submitted, homologated: who, when, each state) and allocations; the ranking
update of the affected players is deferred to the end of the load, nobody is e-mailed.
The reads that do not change during a load (a season's rulebook, the season of a date,
the organisers, arbiters and their accreditations, the clubs' affiliations, the players
of the registry) are read once for the lines of a transaction (:mod:`core.batch_memo`).

The tournaments written here are new (declared by the line): none is a championship
stage, whose results go through the stage's checks. A line that meets a tournament
already stored (its organiser's reference: a file loaded again, or the same reference
twice) goes through the services one by one (:meth:`Loader.one_by_one`: the command's
``load_one``, through :mod:`competitions.homologation`), after the lines before it are
written: re-running a file changes nothing.

A step refused is reported for its line with its problems and the others go on, as
one by one: nothing is written for a step until its checks have passed, so a refusal
needs no savepoint (a line whose results are refused keeps its declaration; a line
whose homologation is refused keeps its results). A line whose penalties count repeats
over the season (``repeat_scope``) starts a new run, the lines before it written first,
so that its earlier offences are read as they are one by one. A run whose new
tournaments meet a reference declared meanwhile (the unique constraint) goes through
the services one by one. Any other error stops the load: its transaction is lost (run
the file again).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from competitions.models import ResultRevision, Tournament
from competitions.rulebooks import rulebook_in_force
from competitions.rules.engine.penalties import RepeatScope
from competitions.rules.results.canonical import canonical_dict, canonical_text, text_sha256
from competitions.rules.results.validation import ValidatedResults
from competitions.tournaments import access
from competitions.tournaments.declaration import (
    ORGANIZER_MODELS,
    Declaration,
    DeclarationConflict,
    declaration_fields,
    organizer_read,
)
from competitions.tournaments.homologation import (
    Homologation,
    homologation_checked,
    homologations_record,
)
from competitions.tournaments.homologation_conditions import stored_revisions
from competitions.tournaments.submission import (
    Checked,
    RegistryBatch,
    new_revision,
    read_results,
    results_check,
    results_mark_submitted,
    revisions_store,
)
from competitions.tournaments.suspension_proposals import suspension_proposals_sync
from competitions.tournaments.tournament_rows import tournaments_insert
from core import batch_memo
from core.errors import PermissionDenied
from core.problems import RuleViolation
from federation.access import scope_of
from federation.models import ArbiterAccreditation, ClubAffiliation, Player, Season

REFUSALS = (RuleViolation, DeclarationConflict, ValueError, KeyError, TypeError)
"""What refuses one line (reported, the others go on); anything else stops the load."""

Outcome = list[str]
"""What was done for a line: ``declared``, ``submitted``, ``homologated`` or ``unchanged``."""


@dataclass
class Line:
    """One line of the file on its way through the three steps."""

    number: int
    item: dict[str, Any]
    declaration: Declaration
    fields: dict[str, Any] = field(default_factory=dict)
    tournament: Tournament | None = None
    checked: Checked | None = None
    revision: ResultRevision | None = None
    outcome: Outcome = field(default_factory=list)


@dataclass
class LineResult:
    number: int
    outcome: Outcome | None = None
    """``None``: refused (``problems``)."""
    problems: list[str] = field(default_factory=list)


def line_refused(number: int, error: Exception) -> LineResult:
    """A line refused, with its problems (or the error's text)."""
    detail = getattr(error, "problems", None) or [str(error)]
    return LineResult(number, None, [str(p) for p in detail])


def lines_load(
    lines: Iterable[tuple[int, dict[str, Any], Declaration]],
    *,
    by,
    one: Callable[[dict[str, Any], Any], Outcome],
) -> list[LineResult]:
    """Load ``lines`` (each its number, its object and its declaration) in the caller's
    transaction; each line's result, in order.

    ``one``: the one-by-one load of a line through the services (``load_results``'
    ``load_one``), for the lines that meet a stored tournament."""
    return Loader(by, one).load(lines)


class Loader:
    def __init__(self, by, one: Callable[[dict[str, Any], Any], Outcome]) -> None:
        self.by = by
        self.one = one
        self.results: dict[int, LineResult] = {}

    def load(self, lines: Iterable[tuple[int, dict[str, Any], Declaration]]) -> list[LineResult]:
        parsed = [Line(number, item, declaration) for number, item, declaration in lines]
        self.preload(parsed)
        known = self.stored_references(parsed)
        run: list[Line] = []
        for line in parsed:
            try:
                line.fields = declaration_fields(line.declaration, self.by)
            except REFUSALS as error:
                self.refused(line.number, error)
                continue
            key = _reference_key(line.declaration, line.fields)
            if (key is not None and key in known) or line.declaration.sessions:
                # a stored tournament, or one with declared sessions: the services' path
                self.write(run)
                run = []
                self.one_by_one(line)
                if key is not None:
                    known.add(key)
                continue
            if key is not None:
                known.add(key)
            if self.counts_earlier_offences(line):
                self.write(run)  # its repeats are read from the lines before it, written
                run = []
            run.append(line)
        self.write(run)
        return [self.results[number] for number in sorted(self.results)]

    # Reads shared by the lines

    def preload(self, lines: list[Line]) -> None:
        """One query per kind for the lines' declarations (:mod:`core.batch_memo`)."""
        if not batch_memo.active() or not lines:
            return
        declarations = [line.declaration for line in lines]
        seasons = list(Season.objects.all())  # the model's order, as season_for_date
        dates = {d.date for d in declarations}
        batch_memo.preload(
            {
                ("season_for_date", day): next(
                    (s for s in seasons if s.start_date <= day <= s.end_date), None
                )
                for day in dates
            }
            if all(isinstance(day, dt.date) for day in dates)
            else {}
        )
        for kind, model in ORGANIZER_MODELS.items():
            numbers = {
                d.organizer_number
                for d in declarations
                if d.organizer_kind == kind and d.organizer_number is not None
            }
            if not numbers:
                continue
            rows = model.objects.select_related(
                *(["committee__zone"] if kind == "club" else [])
            ).filter(number__in=numbers)
            found = {row.number: row for row in rows}
            batch_memo.preload({("organizer", kind, n): found.get(n) for n in numbers})
        arbiters = {d.arbiter_licence_number for d in declarations}
        players = {p.licence_number: p for p in Player.objects.filter(licence_number__in=arbiters)}
        batch_memo.preload({("player_by_licence", n): players.get(n) for n in arbiters})
        season_ids = {s.pk for s in seasons}
        accredited = set(
            ArbiterAccreditation.objects.filter(
                player__in=players.values(), season_id__in=season_ids
            ).values_list("player_id", "season_id")
        )
        batch_memo.preload(
            {
                ("arbiter_accredited", p.pk, season): (p.pk, season) in accredited
                for p in players.values()
                for season in season_ids
            }
        )
        clubs = {club for d in declarations if (club := _club_id(d)) is not None}
        if clubs:
            affiliated = set(
                ClubAffiliation.objects.filter(
                    club_id__in=clubs, season_id__in=season_ids
                ).values_list("club_id", "season_id")
            )
            batch_memo.preload(
                {
                    ("club_affiliated", club, season): (club, season) in affiliated
                    for club in clubs
                    for season in season_ids
                }
            )

    def stored_references(self, lines: list[Line]) -> set[tuple[Any, ...]]:
        """The organisers' references of the lines already stored (one query)."""
        references = {line.declaration.reference for line in lines if line.declaration.reference}
        if not references:
            return set()
        return set(
            Tournament.objects.filter(reference__in=references).values_list(
                "season_id",
                "organizer_kind",
                "organizer_zone_id",
                "organizer_committee_id",
                "organizer_club_id",
                "reference",
            )
        )

    def counts_earlier_offences(self, line: Line) -> bool:
        """Whether the line's penalties are judged with the season's earlier offences."""
        results = line.item.get("results")
        if not isinstance(results, dict) or not results.get("penalties"):
            return False
        season = line.fields["season"]
        return rulebook_in_force(season=season)[1].arbitration.repeat_scope is (
            RepeatScope.SAME_FAULT_SAME_SEASON
        )

    # Results of the lines

    def refused(self, number: int, error: Exception) -> None:
        self.results[number] = line_refused(number, error)

    def one_by_one(self, line: Line) -> None:
        """The line through the services, each step its own savepoint (as before)."""
        try:
            self.results[line.number] = LineResult(line.number, self.one(line.item, self.by))
        except REFUSALS as error:
            self.refused(line.number, error)

    # The writes of a run of new tournaments

    def write(self, run: list[Line]) -> None:
        if not run:
            return
        try:
            with transaction.atomic():  # one savepoint: a reference declared meanwhile
                declared = self.declare(run)
        except IntegrityError:
            for line in run:  # the services' path, which answers with the stored one
                self.one_by_one(line)
            return
        submitted = self.submit(declared)
        self.homologate([line for line in submitted if line.item.get("homologate")])
        for line in run:
            if line.number not in self.results:
                self.results[line.number] = LineResult(line.number, line.outcome)

    def declare(self, run: list[Line]) -> list[Line]:
        tournaments = []
        for line in run:
            line.tournament = Tournament(
                **line.fields, reference=line.declaration.reference, declared_by=self.by
            )
            tournaments.append(line.tournament)
        tournaments_insert(tournaments, by=self.by)  # their keys set: the results refer to them
        for line in run:
            line.outcome.append("declared")
        return run

    def submit(self, lines: list[Line]) -> list[Line]:
        """Every check of the submission for each line, then the revisions of those that
        passed, with their rows, one statement per table (:func:`revisions_store`)."""
        scope = scope_of(self.by)
        registry = RegistryBatch(
            {number for line in lines for number in _numbers(line)},
            {line.fields["season"].pk for line in lines},
        )
        passed: list[Line] = []
        revisions: list[tuple[ResultRevision, str, ValidatedResults, Mapping[int, int]]] = []
        tournaments: list[Tournament] = []
        for line in lines:
            tournament = line.tournament
            assert tournament is not None
            if not access.may_manage(scope, tournament):
                raise PermissionDenied(
                    "Only the organiser's managers and the staff above them may submit results."
                )
            try:
                reading = read_results(
                    content=line.item["results"], source="json", tournament=tournament
                )
                if reading.document is None:
                    raise RuleViolation(reading.problems)
                document = reading.document
                canonical = canonical_dict(document)
                text = canonical_text(canonical)  # hashed, then stored as is
                sha256 = text_sha256(text)
                _version, rulebook = rulebook_in_force(season=tournament.season)
                checked = results_check(
                    tournament=tournament,
                    document=document,
                    rulebook=rulebook,
                    by=self.by,
                    reading_problems=reading.problems,
                    registry=registry,
                )
            except REFUSALS as error:
                self.refused(line.number, error)
                continue
            line.checked = checked
            line.revision = new_revision(
                tournament=tournament,
                validated=checked.validated,
                sha256=sha256,
                source="json",
                by=self.by,
                reason="",
                canonical=canonical,
                number=1,
            )
            revisions.append(
                (line.revision, text, checked.validated, checked.registered.player_ids)
            )
            tournaments.append(tournament)
            passed.append(line)
        if not passed:
            return passed
        revisions_store(revisions, by=self.by)
        results_mark_submitted(tournaments, by=self.by)
        for line in passed:
            line.outcome.append("submitted")
        return passed

    def homologate(self, lines: list[Line]) -> list[Line]:
        """Every check of the homologation for each line, on its stored revision (read
        back, three queries for all), then what homologating writes, for those that
        passed at once (:func:`homologations_record`)."""
        if not lines:
            return lines
        scope = scope_of(self.by)
        stored = stored_revisions([line.revision.pk for line in lines])  # type: ignore[union-attr]
        passed: list[Line] = []
        checked: list[Homologation] = []
        for line in lines:
            tournament, revision = line.tournament, line.revision
            assert tournament is not None
            assert revision is not None
            if not access.may_homologate(scope, tournament):
                raise PermissionDenied(
                    "Only federation or committee staff above the organiser may do this."
                )
            version, rulebook = rulebook_in_force(season=tournament.season)
            try:
                homologation = homologation_checked(
                    tournament, revision, version, rulebook, stored[revision.pk]
                )
            except REFUSALS as error:
                self.refused(line.number, error)
                continue
            checked.append(homologation)
            passed.append(line)
        homologations_record(checked, by=self.by)
        for line in passed:
            line.outcome.append("homologated")
            if _abandon_without_accord(line.revision):  # as the homologation door does
                suspension_proposals_sync(tournament=line.tournament)  # type: ignore[arg-type]
        return passed


def _abandon_without_accord(revision: ResultRevision | None) -> bool:
    """The revision's results record an abandon without the arbiter's accord (read from its
    canonical document, so that a batch without any costs no query)."""
    entries = [] if revision is None else revision.document.get("entries", [])
    return any(e.get("abandoned") and e.get("arbiter_accord") is False for e in entries)


def _numbers(line: Line) -> set[int]:
    """The licence numbers of the line's results, as far as they can be read (for the
    registry read of the batch; the reader judges them)."""
    numbers: set[int] = set()
    results = line.item.get("results")
    if not isinstance(results, dict):
        return numbers
    for entry in results.get("entries") or ():
        for player in (entry.get("players") or ()) if isinstance(entry, dict) else ():
            number = player.get("licence_number") if isinstance(player, dict) else None
            if isinstance(number, int) and not isinstance(number, bool):
                numbers.add(number)
    return numbers


def _reference_key(declaration: Declaration, fields: dict[str, Any]) -> tuple[Any, ...] | None:
    if not declaration.reference:
        return None

    def pk(value: Any) -> int | None:
        return None if value is None else value.pk

    return (
        fields["season"].pk,
        declaration.organizer_kind,
        pk(fields["organizer_zone"]),
        pk(fields["organizer_committee"]),
        pk(fields["organizer_club"]),
        declaration.reference,
    )


def _club_id(declaration: Declaration) -> int | None:
    """The key of the declaration's organising club, as preloaded (else None)."""
    if declaration.organizer_kind != "club" or declaration.organizer_number is None:
        return None
    number = declaration.organizer_number
    club = batch_memo.memoized(
        ("organizer", "club", number), lambda: organizer_read("club", number)
    )
    return None if club is None else club.pk
