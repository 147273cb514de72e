"""Past tournaments loaded many at a time: the checks of the services, the writes batched.

:func:`lines_load` takes the lines of one transaction of ``manage.py load_results``
(declaration, results document, ``homologate``) and runs, for each line, every check the
API's services run, in their order — the declaration's (:func:`declaration_fields`: the
document, the season, the organiser, the arbiter, the placements, the permission), the
submission's (:func:`read_results`, :func:`results_check`: the registry, the rules, the
declaration's conditions, repeats, suspensions; the permission) and the homologation's
(:func:`require_conditions` on the stored revision, the permission) — and writes what
they would write: the same rows, the same history rows (declared, submitted,
homologated: who, when, each state), the same allocations, the ranking update of the
affected players deferred to the end of the load as before, nobody e-mailed. What
differs is how the rows are written: the new tournaments of a run of lines go in with
one statement, their revisions with one, each table of their results with one (``COPY``
on PostgreSQL), their allocations with one, each change of status with one; the reads
that do not change during a load (a season's rulebook, the season of a date, the
organisers, arbiters and their accreditations, the clubs' affiliations, the players of
the registry) are read once for the lines of a transaction (:mod:`core.batch_memo`).

A step refused is reported for its line with its problems and the others go on, as
before: nothing is written for a step until its checks have passed, so a refusal needs
no savepoint (a line whose results are refused keeps its declaration; a line whose
homologation is refused keeps its results). A line that meets a tournament already
stored (its organiser's reference: a file loaded again, or the same reference twice)
goes through the services one by one (:meth:`Loader.one_by_one`), after the lines
before it are written: re-running a file changes nothing. A line whose penalties count
repeats over the season (``repeat_scope``) starts a new run, the lines before it written
first, so that its earlier offences are read as they are one by one. A run whose new
tournaments meet a reference declared meanwhile (the unique constraint) goes through
the services one by one. Any other error stops the load: its transaction is lost, as
before (run the file again).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from competitions.api.tournament_serializers import DeclarationIn
from competitions.championships.titles import stage_titles_record
from competitions.models import Allocation, ResultRevision, Tournament, TournamentStatus
from competitions.rulebooks import rulebook_in_force
from competitions.rules.engine.penalties import RepeatScope
from competitions.rules.results.canonical import canonical_dict, canonical_text, text_sha256
from competitions.tournaments import access
from competitions.tournaments.declaration import (
    ORGANIZER_MODELS,
    Declaration,
    DeclarationConflict,
    declaration_fields,
    organizer_read,
)
from competitions.tournaments.homologation import (
    allocation_values,
    refresh_totals_on_commit,
    tell_organiser_on_commit,
)
from competitions.tournaments.homologation_conditions import require_conditions, stored_revisions
from competitions.tournaments.notifications import Decision
from competitions.tournaments.submission import (
    Checked,
    RegistryBatch,
    new_revision,
    read_results,
    results_check,
    revision_rows_store,
)
from core import batch_memo
from core.api_errors import flatten
from core.bulk_rows import JsonText, insert_rows, insert_values, reserve_keys
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
    document_text: str = ""
    history: list[Any] = field(default_factory=list)
    """The tournament's history rows, written with the run's."""


@dataclass
class LineResult:
    number: int
    outcome: Outcome | None = None
    """``None``: refused (``problems``)."""
    problems: list[str] = field(default_factory=list)


def lines_load(
    lines: Iterable[tuple[int, str]], *, by, one: Callable[[dict[str, Any], Any], Outcome]
) -> list[LineResult]:
    """Load ``lines`` (numbered) in the caller's transaction; each line's result, in order.

    ``one``: the one-by-one load of a line through the services (``load_results``'
    ``load_one``), for the lines that meet a stored tournament."""
    return Loader(by, one).load(lines)


class Loader:
    def __init__(self, by, one: Callable[[dict[str, Any], Any], Outcome]) -> None:
        self.by = by
        self.one = one
        self.results: dict[int, LineResult] = {}

    def load(self, lines: Iterable[tuple[int, str]]) -> list[LineResult]:
        parsed: list[Line] = []
        for number, text in lines:
            if not text.strip():
                continue
            try:
                item = _json(text)
                serializer = DeclarationIn(data=item["declaration"])  # as the API parses it
                if not serializer.is_valid():
                    raise RuleViolation(list(flatten(serializer.errors, "declaration")))
                parsed.append(Line(number, item, serializer.to_declaration()))
            except REFUSALS as error:
                self.refused(number, error)
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
            if key is not None and key in known:  # a stored tournament: the services' path
                self.write(run)
                run = []
                self.one_by_one(line)
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
        detail = getattr(error, "problems", None) or [str(error)]
        self.results[number] = LineResult(number, None, [str(p) for p in detail])

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
        insert_rows(Tournament.history.model, [row for line in run for row in line.history])
        for line in run:
            if line.number not in self.results:
                self.results[line.number] = LineResult(line.number, line.outcome)

    def declare(self, run: list[Line]) -> list[Line]:
        tournaments = []
        for line in run:
            tournament = Tournament(
                **line.fields, reference=line.declaration.reference, declared_by=self.by
            )
            line.tournament = tournament
            tournaments.append(tournament)
        Tournament.objects.bulk_create(tournaments)  # keys returned: the results refer to them
        now = timezone.now()
        batch_memo.preload({("championship_stage_of", t.pk): None for t in tournaments})
        for line, tournament in zip(run, tournaments, strict=True):
            line.history = [_history(tournament, "+", self.by, now)]
            line.outcome.append("declared")
        return run

    def submit(self, lines: list[Line]) -> list[Line]:
        """Every check of ``results_submit`` for each line, then the revisions of those
        that passed, with their rows, one statement per table."""
        scope = scope_of(self.by)
        registry = RegistryBatch(
            {number for line in lines for number in _numbers(line)},
            {line.fields["season"].pk for line in lines},
        )
        passed: list[Line] = []
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
                line.document_text = canonical_text(canonical)  # hashed, then stored as is
                sha256 = text_sha256(line.document_text)
                _version, rulebook = rulebook_in_force(season=tournament.season)
                checked = results_check(
                    tournament=tournament,
                    document=document,
                    rulebook=rulebook,
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
            passed.append(line)
        if not passed:
            return passed
        revisions_insert([(line.revision, line.document_text) for line in passed])  # type: ignore[misc]
        revision_rows_store(
            [
                (line.revision, line.checked.validated, line.checked.registered.player_ids)  # type: ignore[misc, union-attr]
                for line in passed
            ],
            by=self.by,
        )
        Tournament.objects.filter(pk__in=[line.tournament.pk for line in passed]).update(  # type: ignore[union-attr]
            status=TournamentStatus.RESULTS_SUBMITTED, refusal_reasons=[]
        )
        now = timezone.now()
        for line in passed:
            tournament = line.tournament
            assert tournament is not None
            tournament.status = TournamentStatus.RESULTS_SUBMITTED
            tournament.refusal_reasons = []
            line.history.append(_history(tournament, "~", self.by, now))
            line.outcome.append("submitted")
        return passed

    def homologate(self, lines: list[Line]) -> list[Line]:
        """Every check of ``tournament_homologate`` for each line, on its stored revision
        (read back, three queries for all), then the allocations of those that passed."""
        if not lines:
            return lines
        scope = scope_of(self.by)
        stored = stored_revisions([line.revision.pk for line in lines])  # type: ignore[union-attr]
        passed: list[Line] = []
        allocations: list[dict[str, Any]] = []
        affected: dict[int, set[int]] = {}
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
                require_conditions(tournament, revision, rulebook, stored[revision.pk])
                rows = allocation_values(
                    tournament, revision, version, rulebook, stored[revision.pk]
                )
            except REFUSALS as error:
                self.refused(line.number, error)
                continue
            allocations += rows
            # A tournament declared in this transaction had no allocations before.
            affected[tournament.pk] = {row["player_id"] for row in rows}
            passed.append(line)
        if not passed:
            return passed
        insert_values(Allocation, allocations)  # COPY on PostgreSQL: nothing refers to them here
        now = timezone.now()
        for line in passed:
            tournament = line.tournament
            assert tournament is not None
            tournament.status = TournamentStatus.HOMOLOGATED
            tournament.homologated_revision = line.revision
            tournament.refusal_reasons = []
            tournament.homologated_at = now  # the first homologation: the ranking's date
        # One statement: each tournament's homologated revision is its only one.
        Tournament.objects.filter(pk__in=[line.tournament.pk for line in passed]).update(  # type: ignore[union-attr]
            status=TournamentStatus.HOMOLOGATED,
            homologated_revision=Subquery(
                ResultRevision.objects.filter(
                    tournament=OuterRef("pk"),
                    pk__in=[line.revision.pk for line in passed],  # type: ignore[union-attr]
                ).values("pk")[:1]
            ),
            refusal_reasons=[],
            homologated_at=now,
        )
        for line in passed:
            tournament = line.tournament
            assert tournament is not None
            assert line.revision is not None
            line.history.append(_history(tournament, "~", self.by, now))
            stage_titles_record(tournament=tournament, by=self.by)
            refresh_totals_on_commit(tournament, affected[tournament.pk])
            tell_organiser_on_commit(
                tournament, Decision.HOMOLOGATED, self.by, revision=line.revision.number
            )
            line.outcome.append("homologated")
        return passed


def revisions_insert(revisions: list[tuple[ResultRevision, str]]) -> None:
    """Insert new revisions (each with its document's canonical JSON text), their keys
    set: reserved then ``COPY`` on PostgreSQL, the documents written as the text already
    hashed (no ``INSERT`` to compile, no second encoding); ``bulk_create`` elsewhere."""
    keys = reserve_keys(ResultRevision, len(revisions))
    if keys is None:
        ResultRevision.objects.bulk_create([revision for revision, _text in revisions])
        return
    now = timezone.now()
    fields = ResultRevision._meta.concrete_fields
    rows = []
    for (revision, text), key in zip(revisions, keys, strict=True):
        revision.pk = key
        revision.submitted_at = now  # auto_now_add, as an insert sets it
        rows.append({f.attname: getattr(revision, f.attname) for f in fields})
        rows[-1]["document"] = JsonText(text)
    insert_values(ResultRevision, rows)


def _json(text: str) -> dict[str, Any]:
    """The line decoded (not an object: refused by its first use, as one by one)."""
    return cast(dict[str, Any], json.loads(text))


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


def _history(tournament: Tournament, kind: str, by, when: dt.datetime):
    """The history row simple_history writes when the tournament is saved (``+``: created,
    ``~``: changed), as it is now."""
    model = Tournament.history.model
    return model(
        history_date=when,
        history_type=kind,
        history_user=by,
        history_change_reason=None,
        **{f.attname: getattr(tournament, f.attname) for f in model.tracked_fields},
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
