"""Submitting a tournament's results: read, check everything in one pass, store one revision.

One pass, top down::

    plain_results_submit      the organiser's managers (permission checked once)
      read_results            pure: JSON, CSV or deal-by-deal score sheets → what could be read
      parsed_results_submit   locked tournament; same hash as the latest revision → nothing stored
        revision_create
          results_check       one pass, nothing written:
            registry_lookup     one query: licence number → player, name, licensed this season,
                                suspended on the tournament's day
            validate            pure: the whole document (what was read), the reader's problems,
                                names against the registry, minimum entries from the rulebook
            declaration_problems  chapter 5: organiser, arbiter
            suspension_warnings   chapter 4: a suspended player is flagged to staff (or
                                  refused, as the season's rulebook says)
          revisions_store     the revision, its rows, the names confirmed

A refused submission raises with every problem located — structure, registry and
rules together, each mistake once — and stores nothing (one transaction).
Submitting the same results again (same canonical hash as the latest revision)
returns the latest revision and stores nothing. A licence number under a name the
registry spells differently is refused unless the submitter confirms it
(``confirmed_licences``): the confirmation is stored with the revision (who, when,
both names).

This is the plain tournament's submission: every caller goes through
:func:`competitions.homologation.results_submit`, which sends a championship stage's
results through the stage's checks first (:mod:`competitions.championships.stage_results`
calls :func:`parse_results` and :func:`parsed_results_submit`). A correction
(:mod:`competitions.tournaments.homologation`) calls :func:`revision_create`; the
preview (:mod:`competitions.tournaments.preview`) calls :func:`results_check`; a bulk
load (:mod:`competitions.tournaments.bulk_load`) calls :func:`results_check`,
:func:`revisions_store` and :func:`results_mark_submitted` for many tournaments at once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Subquery
from django.utils import timezone

from competitions.models import (
    LicenceNameConfirmation,
    ResultEntry,
    ResultPenalty,
    ResultPlayer,
    ResultRevision,
    ResultSession,
    Stage,
    Tournament,
    TournamentStatus,
)
from competitions.rulebooks import rulebook_in_force
from competitions.rules.engine.standings import RankingMode
from competitions.rules.results.canonical import (
    canonical_dict,
    canonical_text,
    text_sha256,
)
from competitions.rules.results.csv_format import read_csv
from competitions.rules.results.document import PositionScore, Reading, ResultsDocument
from competitions.rules.results.json_format import read_json
from competitions.rules.results.licences import LicenceStatus
from competitions.rules.results.score_sheets import parse_score_sheets
from competitions.rules.results.validation import ValidatedResults, validate
from competitions.rules.rulebook import Rulebook, SuspendedPlayerResults, has_tie_break_rules
from competitions.tournaments import access, repeats
from competitions.tournaments.homologation_conditions import declaration_problems
from competitions.tournaments.tournament_rows import tournaments_update
from core.bulk_rows import JsonText, insert_values, reserve_keys
from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from core.text_files import looks_like_workbook
from core.vocabulary import Format, StageKind
from federation.access import Actor, scope_of
from federation.models import Licence, Player, Sanction, SanctionKind
from federation.privacy import hidden_records_withheld
from federation.public_names import public_name

SOURCES = ("json", "csv", "sheets")
SPREADSHEET_SUFFIXES = (".csv", ".txt", ".xlsx", ".xlsm", ".xls", ".ods")
"""Files read by the CSV reader (a workbook's single sheet is read as CSV text)."""


def guessed_source(name: str, content: bytes) -> str:
    """The source of an uploaded file: a CSV file or a spreadsheet workbook (by its name,
    or by its first bytes whatever its name) is ``csv``; a JSON file that carries score
    sheets is ``sheets``, else ``json``."""
    if name.lower().endswith(SPREADSHEET_SUFFIXES) or looks_like_workbook(content):
        return "csv"
    return "sheets" if b'"score_sheets"' in content[:4096] else "json"


@dataclass(frozen=True)
class Submitted:
    """The revision a submission left as the latest: new (``created``) or the same
    results already there, with the warnings of its validation."""

    revision: ResultRevision
    created: bool
    warnings: tuple[Problem, ...]


def plain_results_submit(
    *,
    tournament: Tournament,
    content: bytes | str | dict,
    source: str,
    by,
    confirmed_licences: Collection[int] = (),
) -> Submitted:
    """Submit results for a declared (or refused) tournament that is not a championship
    stage, by its managers (every caller goes through :mod:`competitions.homologation`,
    which knows a stage from a plain tournament).

    ``confirmed_licences``: the licence numbers whose name differs from the registry's
    that the submitter confirms are the right people."""
    if not access.may_manage(scope_of(by), tournament):
        raise PermissionDenied(
            "Only the organiser's managers and the staff above them may submit results."
        )
    reading = read_results(content=content, source=source, tournament=tournament)
    if reading.document is None:
        raise RuleViolation(reading.problems)
    return parsed_results_submit(
        tournament=tournament,
        document=reading.document,
        source=source,
        by=by,
        confirmed_licences=confirmed_licences,
        reading_problems=reading.problems,
    )


def read_results(*, content: bytes | str | dict, source: str, tournament: Tournament) -> Reading:
    """The submitted content read by the reader of its source, as far as it can be.

    Score sheets are read whole or refused, ranked as a championship for a championship
    stage (article 29), their cuts carried as the season's rulebook says."""
    if source == "json":
        return read_json(content)
    if source == "csv":
        return read_csv(content)  # type: ignore[arg-type]  # a dict is refused, located
    if source == "sheets":
        mode = RankingMode.PLAIN if tournament.stage == Stage.ORDINARY else RankingMode.CHAMPIONSHIP
        rulebook = rulebook_in_force(season=tournament.season)[1]
        try:
            return Reading(
                parse_score_sheets(
                    content,
                    format=Format(tournament.format),
                    ranking=mode,
                    rules=rulebook.scoring.rules(),
                    eliminations=rulebook.eliminations,
                )
            )
        except RuleViolation as refused:
            return Reading(None, refused.problems)
    raise RuleViolation.single(
        "source",
        "unknown_source",
        f"Source must be one of {SOURCES}.",
        {"value": source, "sources": ", ".join(SOURCES)},
    )


def parse_results(
    *, content: bytes | str | dict, source: str, tournament: Tournament
) -> ResultsDocument:
    """The submitted content read whole (every problem of its reading raised)."""
    return read_results(content=content, source=source, tournament=tournament).document_or_raise()


@transaction.atomic
def parsed_results_submit(
    *,
    tournament: Tournament,
    document: ResultsDocument,
    source: str,
    by,
    confirmed_licences: Collection[int] = (),
    reading_problems: Sequence[Problem] = (),
) -> Submitted:
    """Submit a parsed document, the submitter's permission checked by the caller.

    ``reading_problems``: those of the reading of ``document`` (then only what could
    be read), refused with every other problem found. Locks the tournament row:
    submission, homologation and correction never interleave."""
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("season", "arbiter")  # the arbiter: the declaration's conditions
        .get(pk=tournament.pk)
    )
    canonical = canonical_dict(document)
    text = canonical_text(canonical)  # hashed, then stored as it is
    sha256 = text_sha256(text)
    latest = tournament.revisions.defer("document").order_by("-number").first()
    if latest is not None and latest.sha256 == sha256 and not reading_problems:
        if tournament.status == TournamentStatus.REFUSED:
            # The same results sent again after a refusal (its reason was not in
            # the document): submitted again for homologation, no new revision.
            _mark_submitted(tournament, by)
        return Submitted(latest, False, tuple(Problem(**w) for w in latest.warnings))
    if tournament.status == TournamentStatus.HOMOLOGATED:
        raise RuleViolation.single(
            "tournament",
            "already_homologated",
            "This tournament is homologated: only federation or committee staff may correct it.",
        )
    _version, rulebook = rulebook_in_force(season=tournament.season)
    submitted = revision_create(
        tournament=tournament,
        document=document,
        sha256=sha256,
        rulebook=rulebook,
        source=source,
        by=by,
        confirmed_licences=confirmed_licences,
        reading_problems=reading_problems,
        canonical=canonical,
        document_text=text,
        number=latest.number + 1 if latest is not None else 1,
    )
    _mark_submitted(tournament, by)
    return submitted


def revision_create(
    *,
    tournament: Tournament,
    document: ResultsDocument,
    sha256: str,
    rulebook: Rulebook,
    source: str,
    by,
    reason: str = "",
    confirmed_licences: Collection[int] = (),
    reading_problems: Sequence[Problem] = (),
    canonical: dict[str, Any] | None = None,
    document_text: str | None = None,
    number: int | None = None,
) -> Submitted:
    """Check ``document`` in one pass (:func:`results_check`) and store it as the
    tournament's next revision, with its rows (the caller holds the tournament lock).
    ``canonical``: ``canonical_dict(document)``, ``document_text``: its JSON text,
    ``number``: the new revision's number, when the caller has them already."""
    checked = results_check(
        tournament=tournament,
        document=document,
        rulebook=rulebook,
        by=by,
        confirmed_licences=confirmed_licences,
        reading_problems=reading_problems,
    )
    revision = _store(
        tournament=tournament,
        validated=checked.validated,
        player_ids=checked.registered.player_ids,
        sha256=sha256,
        source=source,
        by=by,
        reason=reason,
        canonical=canonical,
        document_text=document_text,
        number=number,
    )
    return Submitted(revision, True, checked.validated.warnings)


@dataclass(frozen=True)
class Checked:
    """A document that passed every check, with what the registry says of its players."""

    validated: ValidatedResults
    registered: Registered
    names_shown: Mapping[int, str] = dataclasses.field(default_factory=dict)
    """Licence number → the name shown to the submitter in place of the registry's, for
    the hidden players whose record they may not read (:func:`names_withheld`)."""

    def name_shown(self, number: int) -> str:
        """The registry's name of ``number`` as the submitter may read it."""
        return self.names_shown.get(number) or self.registered.names.get(number, "")


def results_check(
    *,
    tournament: Tournament,
    document: ResultsDocument,
    rulebook: Rulebook,
    by: Actor | None,
    confirmed_licences: Collection[int] = (),
    reading_problems: Sequence[Problem] = (),
    registry: RegistryBatch | None = None,
) -> Checked:
    """Every problem of a submission in one refusal, nothing written: the reader's,
    the registry's (unknown numbers, names that differ and are not confirmed), the
    rules' on everything that was read, and the declaration's conditions (chapter 5).
    A refusal read by ``by`` never names a player whose name ``by`` may not read
    (:func:`names_withheld`).

    ``registry``: the players of a whole batch of documents, read at once (a bulk load);
    by default, this document's are read (:func:`registry_lookup`)."""
    fmt = Format(tournament.format)
    if registry is None:
        registered = registry_lookup(
            document=document, season_id=tournament.season_id, day=tournament.date
        )
    else:
        registered = registry.registered(
            document=document, season_id=tournament.season_id, day=tournament.date
        )
    conditions = declaration_problems(tournament, document, rulebook)
    suspended = suspension_warnings(document, registered.suspended_until)
    if suspended and rulebook.arbitration.suspended_player_results == SuspendedPlayerResults.REFUSE:
        conditions = [*conditions, *(_refusal(warning) for warning in suspended)]
        suspended = []
    shown = names_withheld(registered, by)
    validated = validate(
        document,
        format=fmt,
        licences=registered.statuses,
        planned_sessions=None,
        minimum_entries=rulebook.formats.of(fmt).minimum_entries,
        penalty_schedule=rulebook.arbitration.schedule(),
        registry_names=registered.names,
        names_shown=shown,
        confirmed=frozenset(confirmed_licences),
        more_problems=(*reading_problems, *conditions),
        tie_break_rules=has_tie_break_rules(rulebook, StageKind(tournament.stage)),
        eliminations=rulebook.eliminations,
        repeat_scope=rulebook.arbitration.repeat_scope,
        earlier_offences=repeats.earlier_offences(
            tournament=tournament,
            licence_numbers={p.licence_number for p in document.penalties},
            scope=rulebook.arbitration.repeat_scope,
        ),
    )
    if suspended:
        validated = dataclasses.replace(validated, warnings=(*validated.warnings, *suspended))
    return Checked(validated, registered, shown)


def names_withheld(registered: Registered, by: Actor | None) -> dict[int, str]:
    """Licence number → the public name (:func:`federation.public_names.public_name`) of
    each hidden player of the document whose record ``by`` may not read
    (:func:`federation.privacy.hidden_records_withheld`): what a message to ``by`` says
    in place of the registry's name. One query when nobody in the document is hidden."""
    withheld = hidden_records_withheld(scope_of(by), registered.player_ids.values())
    return {player.licence_number: public_name(player) for player in withheld}


def suspension_warnings(
    document: ResultsDocument, suspended_until: Mapping[int, dt.date]
) -> list[Problem]:
    """A player suspended on the tournament's day (chapter 4: « suspendue de jeu en donnes
    libres (tournois et compétition) ») played: the results are not refused (the
    tournament took place) but flagged to the staff who homologate them."""
    warnings = []
    for i, entry in enumerate(document.entries):
        for j, player in enumerate(entry.players):
            until = suspended_until.get(player.licence_number or 0)
            if until is None:
                continue
            warnings.append(
                Problem(
                    document.locate(f"entries[{i}].players[{j}].licence_number"),
                    "suspended_player_in_results",
                    f"Licence {player.licence_number} (entry {entry.number}) is suspended from "
                    f"play until {until} on the tournament's day.",
                    # Stored with the revision (JSON): the date as text.
                    {
                        "licence": player.licence_number,
                        "entry": entry.number,
                        "until": until.isoformat(),
                    },
                )
            )
    return warnings


def _refusal(warning: Problem) -> Problem:
    """The season refuses results naming a suspended player (rulebook
    ``arbitration.suspended_player_results``): the warning as a refusal."""
    return Problem(
        warning.field,
        "suspended_player_refused",
        f"{warning.message} This season's rulebook refuses results naming a suspended player.",
        warning.params,
    )


@dataclass(frozen=True)
class Registered:
    """What the registry says of a document's licence numbers."""

    player_ids: Mapping[int, int]
    """Licence number → player id, for the numbers of known players."""
    statuses: Mapping[int, LicenceStatus]
    """Every licence number of the document → its status for the tournament's season."""
    names: Mapping[int, str]
    """Licence number → the registry's name (« DUPONT Jean »), for the numbers of known
    players (a player's name is public: the national ranking shows it)."""
    suspended_until: Mapping[int, dt.date] = dataclasses.field(default_factory=dict)
    """Licence number → the last day of the suspension of a player suspended on the
    tournament's day."""


def licence_numbers(document: ResultsDocument) -> set[int]:
    """The licence numbers a document names."""
    return {
        player.licence_number
        for entry in document.entries
        for player in entry.players
        if player.licence_number is not None
    }


def registry_lookup(*, document: ResultsDocument, season_id: int, day: dt.date) -> Registered:
    """The document's players in the registry, in one query: who they are (to link the
    stored rows), whether they hold a licence for the season (to judge them) and whether
    they were suspended on ``day`` (to flag them)."""
    numbers = licence_numbers(document)
    rows = (
        Player.objects.filter(licence_number__in=numbers)
        .annotate(
            licensed=Exists(Licence.objects.filter(player=OuterRef("pk"), season_id=season_id)),
            suspended_until=Subquery(
                Sanction.objects.filter(
                    player=OuterRef("pk"),
                    kind=SanctionKind.SUSPENSION,
                    starts__lte=day,
                    ends__gte=day,
                )
                .values("player")
                .annotate(until=Max("ends"))
                .values("until")
            ),
        )
        .values_list(
            "licence_number", "pk", "licensed", "last_name", "first_name", "suspended_until"
        )
    )
    player_ids: dict[int, int] = {}
    names: dict[int, str] = {}
    suspended_until: dict[int, dt.date] = {}
    statuses = dict.fromkeys(numbers, LicenceStatus.UNKNOWN)
    for number, player_id, licensed, last_name, first_name, until in rows:
        player_ids[number] = player_id
        names[number] = f"{last_name} {first_name}".strip()
        if until is not None:
            suspended_until[number] = until
        statuses[number] = (
            LicenceStatus.LICENSED if licensed else LicenceStatus.NOT_LICENSED_THIS_SEASON
        )
    return Registered(
        player_ids=player_ids, statuses=statuses, names=names, suspended_until=suspended_until
    )


class RegistryBatch:
    """What :func:`registry_lookup` reads, for the documents of a whole batch at once
    (a bulk load): one query for every licence number of the batch (the player, whether
    licensed in each of the batch's seasons, whether ever suspended), the suspensions of
    those ever suspended, then each document's :class:`Registered` computed from them,
    as :func:`registry_lookup` would read it."""

    def __init__(self, numbers: Collection[int], season_ids: Collection[int]) -> None:
        self.numbers = set(numbers)
        seasons = sorted(set(season_ids))
        self.players: dict[int, tuple[int, str]] = {}
        """Licence number → (player id, registry name)."""
        self.licensed: set[tuple[int, int]] = set()
        """(player id, season id) of each licence of the batch's players and seasons."""
        suspended: list[int] = []
        rows = (
            Player.objects.filter(licence_number__in=self.numbers)
            .annotate(
                **{
                    f"licensed_{season}": Exists(
                        Licence.objects.filter(player=OuterRef("pk"), season_id=season)
                    )
                    for season in seasons
                },
                suspended=Exists(
                    Sanction.objects.filter(player=OuterRef("pk"), kind=SanctionKind.SUSPENSION)
                ),
            )
            .values_list(
                "licence_number",
                "pk",
                "last_name",
                "first_name",
                "suspended",
                *(f"licensed_{season}" for season in seasons),
            )
        )
        for number, player_id, last_name, first_name, any_suspension, *licensed in rows:
            self.players[number] = (player_id, f"{last_name} {first_name}".strip())
            self.licensed.update(
                (player_id, season) for season, held in zip(seasons, licensed, strict=True) if held
            )
            if any_suspension:
                suspended.append(player_id)
        self.suspensions: dict[int, list[tuple[dt.date, dt.date | None]]] = {}
        if suspended:  # rare: their suspensions, judged on each tournament's day
            for player_id, starts, ends in Sanction.objects.filter(
                player_id__in=suspended, kind=SanctionKind.SUSPENSION
            ).values_list("player_id", "starts", "ends"):
                self.suspensions.setdefault(player_id, []).append((starts, ends))

    def registered(self, *, document: ResultsDocument, season_id: int, day: dt.date) -> Registered:
        numbers = licence_numbers(document)
        if not numbers <= self.numbers:
            return registry_lookup(document=document, season_id=season_id, day=day)
        player_ids: dict[int, int] = {}
        names: dict[int, str] = {}
        suspended_until: dict[int, dt.date] = {}
        statuses = dict.fromkeys(numbers, LicenceStatus.UNKNOWN)
        for number in numbers:
            known = self.players.get(number)
            if known is None:
                continue
            player_id, name = known
            player_ids[number] = player_id
            names[number] = name
            until = max(
                (
                    ends
                    for starts, ends in self.suspensions.get(player_id, ())
                    if ends is not None and starts <= day <= ends  # as SQL: NULL never matches
                ),
                default=None,
            )
            if until is not None:
                suspended_until[number] = until
            statuses[number] = (
                LicenceStatus.LICENSED
                if (player_id, season_id) in self.licensed
                else LicenceStatus.NOT_LICENSED_THIS_SEASON
            )
        return Registered(
            player_ids=player_ids, statuses=statuses, names=names, suspended_until=suspended_until
        )


def _store(
    *,
    tournament: Tournament,
    validated: ValidatedResults,
    player_ids: Mapping[int, int],
    sha256: str,
    source: str,
    by,
    reason: str,
    canonical: dict[str, Any] | None,
    number: int | None,
    document_text: str | None = None,
) -> ResultRevision:
    """Write a new revision and its rows (the caller holds the tournament lock), through
    :func:`revisions_store` as a bulk load writes them."""
    if number is None:
        last = tournament.revisions.defer("document").order_by("-number").first()
        number = (last.number + 1) if last else 1
    if canonical is None:
        canonical = canonical_dict(validated.document)
    if document_text is None:
        document_text = canonical_text(canonical)
    revision = new_revision(
        tournament=tournament,
        validated=validated,
        sha256=sha256,
        source=source,
        by=by,
        reason=reason,
        canonical=canonical,
        number=number,
    )
    revisions_store([(revision, document_text, validated, player_ids)], by=by)
    return revision


def revisions_store(
    revisions: Sequence[tuple[ResultRevision, str, ValidatedResults, Mapping[int, int]]], *, by
) -> None:
    """Write new revisions (each with its document's canonical JSON text, its checked
    document and its players' ids by licence number) and their rows: the one writer of
    revisions, for a submission, a correction and a bulk load alike."""
    revisions_insert([(revision, text) for revision, text, _validated, _ids in revisions])
    revision_rows_store(
        [(revision, validated, ids) for revision, _text, validated, ids in revisions], by=by
    )


def revisions_insert(revisions: Sequence[tuple[ResultRevision, str]]) -> None:
    """Insert new revisions (each with its document's canonical JSON text), their keys
    set: reserved then ``COPY`` on PostgreSQL, the documents written as the text already
    hashed (no ``INSERT`` to compile, no second encoding: a 300-player document is
    0.3 MB); ``bulk_create`` elsewhere."""
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


def new_revision(
    *,
    tournament: Tournament,
    validated: ValidatedResults,
    sha256: str,
    source: str,
    by,
    reason: str,
    canonical: dict[str, Any],
    number: int,
) -> ResultRevision:
    """The revision row of a checked document, not saved yet."""
    return ResultRevision(
        tournament=tournament,
        number=number,
        document=canonical,
        sha256=sha256,
        source=source,
        reason=reason,
        submitted_by=by,
        warnings=[
            {"field": w.field, "code": w.code, "message": w.message, "params": dict(w.params)}
            for w in validated.warnings
        ],
    )


def revision_rows_store(
    revisions: Sequence[tuple[ResultRevision, ValidatedResults, Mapping[int, int]]], *, by
) -> None:
    """Write the rows of saved revisions (each with its checked document and its players'
    ids by licence number), one statement per table for all of them: sessions, entries,
    players, penalties, name confirmations.

    Plain values, no model instance per row, written by
    :func:`core.bulk_rows.insert_values` (``COPY`` on PostgreSQL, the entries' keys
    reserved first for their players to refer to them; ``bulk_create`` elsewhere)."""
    insert_values(
        ResultSession,
        [
            {
                "revision_id": revision.pk,
                "number": s.number,
                "tables": s.tables,
                "tables_of_three": s.tables_of_three,
                "tables_of_five": s.tables_of_five,
                "deals": s.deals,
            }
            for revision, validated, _ids in revisions
            for s in validated.document.sessions
        ],
    )
    entries = [
        {
            "revision_id": revision.pk,
            "number": e.number,
            "place": e.place,
            "total": e.total,
            "abandoned": e.abandoned,
            "arbiter_accord": e.arbiter_accord,
            "tiebreak": tiebreaks[e.number],
        }
        for revision, validated, _ids in revisions
        for tiebreaks in [
            {entry["number"]: entry["tiebreak"] or {} for entry in revision.document["entries"]}
        ]
        for e in validated.document.entries
    ]
    keys = reserve_keys(ResultEntry, len(entries))
    if keys is not None:
        for entry, key in zip(entries, keys, strict=True):
            entry["id"] = key
        insert_values(ResultEntry, entries)
    else:  # the database gives the keys (SQLite)
        stored = insert_values(ResultEntry, entries) or []
        keys = [entry.pk for entry in stored]
    entry_keys = iter(keys)
    insert_values(
        ResultPlayer,
        [
            {
                "revision_id": revision.pk,
                "entry_id": entry_id,
                "licence_number": p.licence_number,
                "name": p.name,
                "player_id": player_ids.get(p.licence_number) if p.licence_number else None,
                "licensed": p.licence_number in licensed,
                "total": p.total,
                "position_scores": position_scores_json(p.positions),
            }
            for revision, validated, player_ids in revisions
            for licensed in [validated.licensed]
            for e in validated.document.entries
            for entry_id in [next(entry_keys)]
            for p in e.players
        ],
    )
    insert_values(
        ResultPenalty,
        [
            {
                "revision_id": revision.pk,
                "licence_number": p.licence_number,
                "points": p.points,
                "kind": str(p.kind),
                "reason": p.reason,
            }
            for revision, validated, _ids in revisions
            for p in validated.document.penalties
        ],
    )
    insert_values(
        LicenceNameConfirmation,
        [
            {
                "revision_id": revision.pk,
                "licence_number": c.licence_number,
                "name_in_file": c.name_in_file,
                "registry_name": c.registry_name,
                "confirmed_by_id": by.pk if by is not None else None,
            }
            for revision, validated, _ids in revisions
            for c in validated.confirmations
        ],
    )


def position_scores_json(positions: Sequence[PositionScore]) -> JsonText:
    """A player's position scores as the JSON the column holds (a list of
    ``{"session", "position", "table", "score"}``), written without a dict each: thousands
    per 300-player tournament."""
    return JsonText(
        "["
        + ",".join(
            f'{{"session":{s.session},"position":{s.position},"table":{s.table},"score":{s.score}}}'
            for s in positions
        )
        + "]"
    )


def _mark_submitted(tournament: Tournament, by) -> None:
    results_mark_submitted([tournament], by=by)


def results_mark_submitted(tournaments: Sequence[Tournament], *, by) -> None:
    """The tournaments' results submitted, waiting for homologation (their history rows
    written with them)."""
    for tournament in tournaments:
        tournament.status = TournamentStatus.RESULTS_SUBMITTED
        tournament.refusal_reasons = []
    tournaments_update(tournaments, ["status", "refusal_reasons"], by=by)
