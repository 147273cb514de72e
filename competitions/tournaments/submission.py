"""Submitting a tournament's results: parse, validate whole, store one revision.

One pass, top down::

    results_submit            the organiser's managers (permission checked once)
      parse_results           pure: JSON, CSV or deal-by-deal score sheets → ResultsDocument
      parsed_results_submit   locked tournament; same hash as the latest revision → nothing stored
        revision_create
          registry_lookup     one query: licence number → player id, licensed this season
          validate            pure: the whole document, minimum entries from the season's rulebook
          _store              the revision and its rows
        require_conditions    chapter 5, on the stored rows

A refused submission raises with every problem located and stores nothing
(one transaction). Submitting the same results again (same canonical hash as
the latest revision) returns the latest revision and stores nothing.

Callers that check the permission themselves and need the parsed document
first (a championship stage's checks, the upload page) call
:func:`parse_results` and :func:`parsed_results_submit`; a correction
(:mod:`competitions.tournaments.homologation`) calls :func:`revision_create`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef

from competitions.models import (
    ResultEntry,
    ResultPenalty,
    ResultPlayer,
    ResultRevision,
    ResultSession,
    Stage,
    Tournament,
    TournamentStatus,
)
from competitions.rules.engine.standings import RankingMode
from competitions.rules.results.canonical import canonical_dict, results_sha256
from competitions.rules.results.csv_format import parse_csv
from competitions.rules.results.document import ResultsDocument
from competitions.rules.results.json_format import parse_json
from competitions.rules.results.score_sheets import parse_score_sheets
from competitions.rules.results.validation import LicenceStatus, ValidatedResults, validate
from competitions.tournaments import access
from competitions.tournaments.homologation_conditions import require_conditions
from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from core.vocabulary import Format
from federation.access import scope_of
from federation.models import Licence, Player
from rankings.rulebooks import rulebook_in_force
from rankings.rules.rulebook import Rulebook

SOURCES = ("json", "csv", "sheets")


@dataclass(frozen=True)
class Submitted:
    """The revision a submission left as the latest: new (``created``) or the same
    results already there, with the warnings of its validation."""

    revision: ResultRevision
    created: bool
    warnings: tuple[Problem, ...]


def results_submit(
    *, tournament: Tournament, content: bytes | str | dict, source: str, by
) -> Submitted:
    """Submit results for a declared (or refused) tournament, by its managers."""
    if not access.may_manage(scope_of(by), tournament):
        raise PermissionDenied(
            "Only the organiser's managers and the staff above them may submit results."
        )
    document = parse_results(content=content, source=source, tournament=tournament)
    return parsed_results_submit(tournament=tournament, document=document, source=source, by=by)


def parse_results(
    *, content: bytes | str | dict, source: str, tournament: Tournament
) -> ResultsDocument:
    """The submitted content read by the parser of its source (structural problems raised).

    Score sheets are ranked as a championship for a championship stage (article 29)."""
    if source == "json":
        return parse_json(content)
    if source == "csv":
        return parse_csv(content)  # type: ignore[arg-type]  # a dict is refused, located
    if source == "sheets":
        mode = RankingMode.PLAIN if tournament.stage == Stage.ORDINARY else RankingMode.CHAMPIONSHIP
        return parse_score_sheets(content, format=Format(tournament.format), ranking=mode)
    raise RuleViolation.single("source", "unknown_source", f"Source must be one of {SOURCES}.")


@transaction.atomic
def parsed_results_submit(
    *, tournament: Tournament, document: ResultsDocument, source: str, by
) -> Submitted:
    """Submit a parsed document, the submitter's permission checked by the caller.

    Locks the tournament row: submission, homologation and correction never
    interleave."""
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("season")
        .get(pk=tournament.pk)
    )
    sha256 = results_sha256(document)
    latest = tournament.revisions.order_by("-number").first()
    if latest is not None and latest.sha256 == sha256:
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
    )
    # The conditions read the stored rows; a refusal rolls the whole submission back.
    require_conditions(tournament, submitted.revision, rulebook)
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
) -> Submitted:
    """Validate ``document`` whole and store it as the tournament's next revision, with
    its rows (the caller holds the tournament lock)."""
    fmt = Format(tournament.format)
    registered = registry_lookup(document=document, season_id=tournament.season_id)
    validated = validate(
        document,
        format=fmt,
        licences=registered.statuses,
        planned_sessions=None,
        minimum_entries=rulebook.formats.of(fmt).minimum_entries,
    )
    revision = _store(
        tournament=tournament,
        validated=validated,
        player_ids=registered.player_ids,
        sha256=sha256,
        source=source,
        by=by,
        reason=reason,
    )
    return Submitted(revision, True, validated.warnings)


@dataclass(frozen=True)
class Registered:
    """What the registry says of a document's licence numbers."""

    player_ids: Mapping[int, int]
    """Licence number → player id, for the numbers of known players."""
    statuses: Mapping[int, LicenceStatus]
    """Every licence number of the document → its status for the tournament's season."""


def registry_lookup(*, document: ResultsDocument, season_id: int) -> Registered:
    """The document's players in the registry, in one query: who they are (to link the
    stored rows) and whether they hold a licence for the season (to judge them)."""
    numbers = {
        player.licence_number
        for entry in document.entries
        for player in entry.players
        if player.licence_number is not None
    }
    rows = (
        Player.objects.filter(licence_number__in=numbers)
        .annotate(
            licensed=Exists(Licence.objects.filter(player=OuterRef("pk"), season_id=season_id))
        )
        .values_list("licence_number", "pk", "licensed")
    )
    player_ids: dict[int, int] = {}
    statuses = dict.fromkeys(numbers, LicenceStatus.UNKNOWN)
    for number, player_id, licensed in rows:
        player_ids[number] = player_id
        statuses[number] = (
            LicenceStatus.LICENSED if licensed else LicenceStatus.NOT_LICENSED_THIS_SEASON
        )
    return Registered(player_ids=player_ids, statuses=statuses)


def _store(
    *,
    tournament: Tournament,
    validated: ValidatedResults,
    player_ids: Mapping[int, int],
    sha256: str,
    source: str,
    by,
    reason: str,
) -> ResultRevision:
    """Write a new revision and its rows (the caller holds the tournament lock)."""
    document = validated.document
    last = tournament.revisions.order_by("-number").first()
    canonical = canonical_dict(document)
    tiebreaks = {entry["number"]: entry["tiebreak"] or {} for entry in canonical["entries"]}
    revision = ResultRevision.objects.create(
        tournament=tournament,
        number=(last.number + 1) if last else 1,
        document=canonical,
        sha256=sha256,
        source=source,
        reason=reason,
        submitted_by=by,
        warnings=[
            {"field": w.field, "code": w.code, "message": w.message} for w in validated.warnings
        ],
    )
    ResultSession.objects.bulk_create(
        ResultSession(
            revision=revision,
            number=s.number,
            tables=s.tables,
            tables_of_three=s.tables_of_three,
            deals=s.deals,
        )
        for s in document.sessions
    )
    entries = ResultEntry.objects.bulk_create(
        ResultEntry(
            revision=revision,
            number=e.number,
            place=e.place,
            total=e.total,
            abandoned=e.abandoned,
            tiebreak=tiebreaks[e.number],
        )
        for e in document.entries
    )
    licensed = validated.licensed
    ResultPlayer.objects.bulk_create(
        ResultPlayer(
            revision=revision,
            entry=stored,
            licence_number=p.licence_number,
            name=p.name,
            player_id=player_ids.get(p.licence_number) if p.licence_number else None,
            licensed=p.licence_number in licensed,
            total=p.total,
            position_scores=[
                {"session": s.session, "position": s.position, "table": s.table, "score": s.score}
                for s in p.positions
            ],
        )
        for stored, e in zip(entries, document.entries, strict=True)
        for p in e.players
    )
    ResultPenalty.objects.bulk_create(
        ResultPenalty(
            revision=revision,
            licence_number=p.licence_number,
            points=p.points,
            kind=str(p.kind),
            reason=p.reason,
        )
        for p in document.penalties
    )
    return revision


def _mark_submitted(tournament: Tournament, by) -> None:
    tournament.status = TournamentStatus.RESULTS_SUBMITTED
    tournament.refusal_reasons = []
    tournament._history_user = by
    tournament.save(update_fields=["status", "refusal_reasons"])
