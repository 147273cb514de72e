"""Submitting a tournament's results: parse, validate whole, store one revision.

A submission is parsed (JSON, CSV or deal-by-deal score sheets), validated
against the registry (licences of the tournament's season) and the season's
rulebook, and stored in one transaction as a new revision with its rows; or
refused with every problem located and nothing stored. Submitting the same
results again (same canonical hash as the latest revision) returns the
latest revision and stores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

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

SOURCES = ("json", "csv", "sheets")


@dataclass(frozen=True)
class Submitted:
    revision: ResultRevision
    created: bool
    warnings: tuple[Problem, ...]


def parse_results(
    *, content: bytes | str | dict, source: str, format: str, championship: bool = False
) -> ResultsDocument:
    if source == "json":
        return parse_json(content)
    if source == "csv":
        return parse_csv(content)
    if source == "sheets":
        mode = RankingMode.CHAMPIONSHIP if championship else RankingMode.PLAIN
        return parse_score_sheets(content, format=Format(format), ranking=mode)
    raise RuleViolation.single("source", "unknown_source", f"Source must be one of {SOURCES}.")


def licence_statuses(document: ResultsDocument, tournament: Tournament) -> dict[int, LicenceStatus]:
    numbers = {
        player.licence_number
        for entry in document.entries
        for player in entry.players
        if player.licence_number is not None
    }
    known = set(
        Player.objects.filter(licence_number__in=numbers).values_list("licence_number", flat=True)
    )
    licensed = set(
        Licence.objects.filter(
            season_id=tournament.season_id, player__licence_number__in=numbers
        ).values_list("player__licence_number", flat=True)
    )
    return {
        number: LicenceStatus.LICENSED
        if number in licensed
        else LicenceStatus.NOT_LICENSED_THIS_SEASON
        if number in known
        else LicenceStatus.UNKNOWN
        for number in numbers
    }


def validate_for(tournament: Tournament, document: ResultsDocument) -> ValidatedResults:
    _version, rulebook = rulebook_in_force(season=tournament.season)
    fmt = Format(tournament.format)
    return validate(
        document,
        format=fmt,
        licences=licence_statuses(document, tournament),
        planned_sessions=None,
        minimum_entries=rulebook.formats.of(fmt).minimum_entries,
    )


def store_revision(
    *,
    tournament: Tournament,
    validated: ValidatedResults,
    sha256: str,
    source: str,
    by,
    reason: str = "",
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
    known = dict(
        Player.objects.filter(
            licence_number__in=[
                p.licence_number for e in document.entries for p in e.players if p.licence_number
            ]
        ).values_list("licence_number", "pk")
    )
    ResultPlayer.objects.bulk_create(
        ResultPlayer(
            revision=revision,
            entry=stored,
            licence_number=p.licence_number,
            name=p.name,
            player_id=known.get(p.licence_number),
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


@transaction.atomic
def results_submit(
    *, tournament: Tournament, content: bytes | str | dict, source: str, by
) -> Submitted:
    """Submit results for a declared (or refused) tournament, by its managers."""
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("season")
        .get(pk=tournament.pk)
    )
    if not access.may_manage(scope_of(by), tournament):
        raise PermissionDenied(
            "Only the organiser's managers and the staff above them may submit results."
        )
    document = parse_results(
        content=content,
        source=source,
        format=tournament.format,
        championship=tournament.stage != Stage.ORDINARY,
    )
    sha256 = results_sha256(document)
    latest = tournament.revisions.order_by("-number").first()
    if latest is not None and latest.sha256 == sha256:
        if tournament.status == TournamentStatus.REFUSED:
            # The same results sent again after a refusal (its reason was not in
            # the document): submitted again for homologation, no new revision.
            _mark_submitted(tournament, by)
        warnings = tuple(Problem(**w) for w in latest.warnings)
        return Submitted(latest, False, warnings)
    if tournament.status == TournamentStatus.HOMOLOGATED:
        raise RuleViolation.single(
            "tournament",
            "already_homologated",
            "This tournament is homologated: only federation or committee staff may correct it.",
        )
    validated = validate_for(tournament, document)
    revision = store_revision(
        tournament=tournament, validated=validated, sha256=sha256, source=source, by=by
    )
    # The conditions read the stored rows; a refusal rolls the whole submission back.
    require_conditions(tournament, revision, rulebook_in_force(season=tournament.season)[1])
    _mark_submitted(tournament, by)
    return Submitted(revision, True, validated.warnings)


def _mark_submitted(tournament: Tournament, by) -> None:
    tournament.status = TournamentStatus.RESULTS_SUBMITTED
    tournament.refusal_reasons = []
    tournament._history_user = by
    tournament.save(update_fields=["status", "refusal_reasons"])
