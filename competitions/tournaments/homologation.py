"""Homologation of a plain tournament (one that is not a championship stage): staff turn
a submitted ranking into PCN and PP, refuse it with reasons, or correct a homologated
tournament with a new revision.

Every caller goes through :mod:`competitions.homologation`, which knows a championship
stage from a plain tournament: a stage's homologation
(:mod:`competitions.championships.stage_results`) runs the stage's checks, then these
services with the stage's own conditions (``more_problems``), then records its titles.

Allocations are computed by the pure rules (``competitions.rules.pcn``) from the
revision's places and sessions, under the season's rulebook in force; the
version used is stored with each allocation. A correction keeps the previous
revision and its allocations (no longer current) and replaces them in the
same transaction. The affected players' season totals are refreshed by a
Celery task sent once the transaction has committed. What a homologation writes is
written by :func:`homologations_record`, for one tournament or for the new tournaments
of a bulk load (:mod:`competitions.tournaments.bulk_load`) alike.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from competitions.models import (
    Allocation,
    ResultRevision,
    RulebookVersion,
    Tournament,
    TournamentStatus,
)
from competitions.rulebooks import rulebook_in_force
from competitions.rules.pcn.allocation import EntryAward, RankedEntry, allocate, without_entries
from competitions.rules.pcn.national_finals import allocate_national_final
from competitions.rules.results.canonical import results_sha256
from competitions.rules.results.document import ResultsDocument
from competitions.rules.results.json_format import parse_json
from competitions.rules.results.validation import ties_survive
from competitions.rules.rulebook import (
    NationalFinal,
    Rulebook,
    UnlicensedPlaces,
    has_tie_break_rules,
)
from competitions.tournaments import access
from competitions.tournaments.homologation_conditions import (
    StoredRevision,
    require_conditions,
    stored_revision,
)
from competitions.tournaments.notifications import Decision
from competitions.tournaments.submission import Submitted, parse_results, revision_create
from competitions.tournaments.tournament_rows import tournaments_update
from core.bulk_rows import insert_values
from core.errors import Conflict, PermissionDenied
from core.problems import Problem, RuleViolation
from core.tasks import send_on_commit
from core.vocabulary import Format, StageKind
from federation.access import scope_of
from federation.player_locks import players_current


def _locked(tournament: Tournament, by) -> Tournament:
    tournament = _lock(tournament)
    if not access.may_homologate(scope_of(by), tournament):
        raise PermissionDenied(
            "Only federation or committee staff above the organiser may do this."
        )
    return tournament


def _lock(tournament: Tournament) -> Tournament:
    """The tournament's row, locked until the transaction ends (its writers meet here)."""
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related(
            "season", "arbiter", "organizer_club", "organizer_committee__zone", "organizer_zone"
        )
        .get(pk=tournament.pk)
    )


def national_final_kind(tournament: Tournament) -> NationalFinal:
    """The fixed table of a national final: the seniors' for the seniors championship's
    stage, else the one of the tournament's format (the interclubs play ``team4``)."""
    stage = getattr(tournament, "championship_stage", None)  # None: not a championship stage
    if stage is not None and stage.championship.kind == "seniors":
        return NationalFinal.SENIORS
    return NationalFinal(tournament.format)


def entry_awards(
    tournament: Tournament,
    *,
    places: Sequence[tuple[int, int]],
    tables: list[int],
    tiebreak_given: bool,
    rulebook: Rulebook,
    unlicensed: Collection[int] = (),
) -> dict[str, EntryAward]:
    """Each entry's PCN and PP (by entry number, as text) from its place: the scale of
    the tournament's format, tables and stage, or a national final's fixed table.

    ``unlicensed``: the entries without a licensed player; when the season's rulebook
    passes their points to the next entries, they are allocated without them."""
    ranking = [RankedEntry(entry_id=str(number), place=place) for number, place in places]
    passed = (
        {str(n) for n in unlicensed}
        if rulebook.awards.unlicensed_places is UnlicensedPlaces.PASS_TO_NEXT
        else set()
    )
    if passed and len(passed) < len(ranking):
        full = ranking
        ranking = without_entries(full, passed)
        left_out = {
            e.entry_id: EntryAward(e.entry_id, e.place, 0, 0, False, 1)
            for e in full
            if e.entry_id in passed
        }
        return left_out | _awards(tournament, ranking, tables, tiebreak_given, rulebook, len(full))
    return _awards(tournament, ranking, tables, tiebreak_given, rulebook, None)


def _awards(
    tournament: Tournament,
    ranking: list[RankedEntry],
    tables: list[int],
    tiebreak_given: bool,
    rulebook: Rulebook,
    entries: int | None,
) -> dict[str, EntryAward]:
    stage = StageKind(tournament.stage)
    # ``tiebreak_given``: the shared places are ties the rules leave shared (article 29
    # did not separate them): then, in a competition with its own tie-breaks, they share.
    if stage is StageKind.NATIONAL_FINAL:
        result = allocate_national_final(
            ranking, national_final_kind(tournament), rulebook, ties_after_tie_break=tiebreak_given
        )
    else:
        result = allocate(
            ranking,
            Format(tournament.format),
            tables,
            stage,
            rulebook,
            entries=entries,
            ties_after_tie_break=tiebreak_given,
        )
    return {award.entry_id: award for award in result.awards}


def shared_places_survive(tournament: Tournament, document: Any, rulebook: Rulebook) -> bool:
    """Whether the places the stored document shares are ties the rules leave shared
    (article 29 did not separate them, or the season shares eliminated entries): only then
    does a competition with tie-break rules share their points. A revision stored before
    article 29 was checked on submission may share a tie that article 29 breaks: then the
    allocation refuses it (``tie_not_broken``) and the results must be resubmitted."""
    return ties_survive(
        parse_json(document),
        format=Format(tournament.format),
        tie_break_rules=has_tie_break_rules(rulebook, StageKind(tournament.stage)),
        eliminations=rulebook.eliminations,
    )


def compute_allocations(
    tournament: Tournament,
    revision: ResultRevision,
    version: RulebookVersion,
    rulebook: Rulebook,
    stored: StoredRevision | None = None,
) -> list[Allocation]:
    """The allocation rows of a revision: one per licensed player of a paid entry
    (:func:`allocation_values` as unsaved instances)."""
    return [
        Allocation(**row)
        for row in allocation_values(tournament, revision, version, rulebook, stored)
    ]


def allocation_values(
    tournament: Tournament,
    revision: ResultRevision,
    version: RulebookVersion,
    rulebook: Rulebook,
    stored: StoredRevision | None = None,
) -> list[dict[str, Any]]:
    """The allocation rows of a revision as plain values by attribute name, for
    :func:`core.bulk_rows.insert_values`: one per licensed player of a paid entry.

    Reads only the columns the allocation needs (``stored``, plain values: no model
    instances, no position scores decoded), and reads the stored document again only
    when its shared places can matter (:func:`ties_matter`)."""
    if stored is None:
        stored = stored_revision(revision)
    paid_players: dict[int, list[int]] = {}
    for entry_id, player_id, licensed, _licence in stored.players:
        if licensed and player_id is not None:
            paid_players.setdefault(entry_id, []).append(player_id)
    places = [(number, place) for _pk, number, place in stored.entries]
    awards = entry_awards(
        tournament,
        places=places,
        tables=[tables for tables, _of_three in stored.sessions],
        tiebreak_given=ties_matter(tournament, places, rulebook)
        and shared_places_survive(tournament, revision.document, rulebook),
        rulebook=rulebook,
        unlicensed=[number for pk, number, _place in stored.entries if pk not in paid_players],
    )
    return [
        {
            "season_id": tournament.season_id,
            "tournament_id": tournament.pk,
            "revision_id": revision.pk,
            "rulebook_id": version.pk,
            "player_id": player_id,
            "place": place,
            "pcn": awards[str(number)].pcn_per_player,
            "pp": awards[str(number)].pp_per_player,
            "current": True,
        }
        for pk, number, place in stored.entries
        for player_id in paid_players.get(pk, ())
    ]


def ties_matter(
    tournament: Tournament, places: Sequence[tuple[int, int]], rulebook: Rulebook
) -> bool:
    """Whether the allocation depends on :func:`shared_places_survive`: only when the
    stage has its own tie-break rules (otherwise every tie is shared) and some place is
    shared (otherwise there is no tie to judge). Saves reading the stored document again
    (a 300-player document: about 40 ms) for every other tournament."""
    shared = len({place for _number, place in places}) < len(places)
    return shared and has_tie_break_rules(rulebook, StageKind(tournament.stage))


@dataclass(frozen=True)
class Homologation:
    """A revision whose homologation conditions are met, with the allocation rows it
    gives (:func:`allocation_values`): what :func:`homologations_record` writes."""

    tournament: Tournament
    revision: ResultRevision
    allocations: list[dict[str, Any]]


def homologation_checked(
    tournament: Tournament,
    revision: ResultRevision,
    version: RulebookVersion,
    rulebook: Rulebook,
    stored: StoredRevision | None = None,
    *,
    more_problems: Sequence[Problem] = (),
) -> Homologation:
    """Every homologation condition of the stored revision checked (``more_problems``
    refused with them), then its allocation rows; nothing written."""
    if stored is None:
        stored = stored_revision(revision)  # read once for the conditions and the allocation
    require_conditions(tournament, revision, rulebook, stored, more_problems=more_problems)
    return Homologation(
        tournament, revision, allocation_values(tournament, revision, version, rulebook, stored)
    )


def allocations_replace(homologations: Sequence[Homologation]) -> dict[int, set[int]]:
    """Replace each tournament's current allocations by its revision's (one statement for
    all the new rows); return, by tournament, the players whose totals change.

    The players named (new rows and current ones) are share-locked first, in id order
    (:func:`federation.player_locks.players_current`): a merge of one of them waits for
    this transaction, or has committed and the rows go to the kept record. The results
    were read before the lock; a merge committed since moved their lines, not the ids
    read, so each row's player is the record that holds it now, never a retired one."""
    current = Allocation.objects.filter(
        tournament_id__in=[h.tournament.pk for h in homologations], current=True
    )
    named = set(current.values_list("player_id", flat=True))
    named.update(row["player_id"] for h in homologations for row in h.allocations)
    record = players_current(named)  # before any allocation row is written or locked
    previous: dict[int, set[int]] = {}
    for tournament_id, player_id in current.values_list("tournament_id", "player_id"):
        previous.setdefault(tournament_id, set()).add(player_id)
    if previous:  # a correction, or homologated again after a refusal
        current.update(current=False)
    for h in homologations:
        for row in h.allocations:
            row["player_id"] = record.get(row["player_id"], row["player_id"])
        _require_one_line_per_player(h)
    # COPY on PostgreSQL: nothing refers to them here
    insert_values(Allocation, [row for h in homologations for row in h.allocations])
    return {
        h.tournament.pk: previous.get(h.tournament.pk, set())
        | {row["player_id"] for row in h.allocations}
        for h in homologations
    }


def _require_one_line_per_player(h: Homologation) -> None:
    """Refuse results in which two lines now name one player: two records merged after
    the results were submitted (each line's record was retired into the same one)."""
    players = [row["player_id"] for row in h.allocations]
    if len(set(players)) < len(players):
        raise RuleViolation.single(
            "results",
            "merged_records_in_results",
            f"Two lines of the results of {h.tournament.name} name one player, whose "
            "records were merged since: correct the results.",
            {"tournament": h.tournament.name},
        )


def homologations_record(homologations: Sequence[Homologation], *, by) -> None:
    """Write what homologating writes, for each checked revision: its allocations in
    place of the tournament's current ones, the tournament homologated (with its history
    row), the affected players' totals refreshed and the organiser told once committed."""
    if not homologations:
        return
    affected = allocations_replace(homologations)
    now = timezone.now()
    for h in homologations:
        h.tournament.status = TournamentStatus.HOMOLOGATED
        h.tournament.homologated_revision = h.revision
        h.tournament.refusal_reasons = []
        if h.tournament.homologated_at is None:  # the first homologation: the ranking's date
            h.tournament.homologated_at = now
    tournaments_update(
        [h.tournament for h in homologations],
        ["status", "homologated_revision", "refusal_reasons", "homologated_at"],
        by=by,
    )
    for h in homologations:
        refresh_totals_on_commit(h.tournament, affected[h.tournament.pk])
        tell_organiser_on_commit(h.tournament, Decision.HOMOLOGATED, by, revision=h.revision.number)


_deferred_updates: ContextVar[dict[int, set[int]] | None] = ContextVar(
    "deferred_ranking_updates", default=None
)


@contextmanager
def ranking_updates_deferred() -> Iterator[dict[int, set[int]]]:
    """Within this block, homologations collect the players whose totals change
    (``{season_id: player_ids}``) instead of queuing one ranking update each;
    the caller queues them once at the end (bulk loads of past seasons)."""
    updates: dict[int, set[int]] = {}
    token = _deferred_updates.set(updates)
    try:
        yield updates
    finally:
        _deferred_updates.reset(token)


def refresh_totals_on_commit(tournament: Tournament, player_ids: set[int]) -> None:
    season_id, ids = tournament.season_id, sorted(player_ids)
    pending = _deferred_updates.get()
    if pending is not None:
        transaction.on_commit(lambda: pending.setdefault(season_id, set()).update(ids))
        return
    send_on_commit("rankings.refresh_season_totals", season_id, ids)


def tell_organiser_on_commit(
    tournament: Tournament, decision: Decision, by, **details: Any
) -> None:
    """E-mail the organiser once the transaction has committed (a bulk load of past
    results, with its ranking updates deferred, tells nobody)."""
    if _deferred_updates.get() is not None:
        return
    send_on_commit(
        "competitions.email_tournament_decision",
        tournament.pk,
        decision.value,
        by_id=by.pk,
        **details,
    )
    if decision != Decision.REFUSED:  # the players who chose it: their result (player_notices)
        send_on_commit(
            "competitions.email_tournament_players",
            tournament.pk,
            tournament.homologated_revision_id,
        )


class StaleRevision(Conflict):
    """The revision the staff member reviewed is no longer the latest one."""

    code = "stale_revision"


def require_reviewed(latest: ResultRevision | None, reviewed: int | None) -> None:
    """Refuse (409 ``stale_revision``) when the caller names the revision they reviewed
    and it is not the latest one: a newer revision was submitted in between. ``None``:
    the caller named none (homologate whatever is latest, as before)."""
    if reviewed is None or latest is None or latest.number == reviewed:
        return
    raise StaleRevision(
        f"Revision {reviewed} was reviewed but the latest revision is {latest.number}: "
        f"review revision {latest.number} before homologating.",
        params={"reviewed": reviewed, "latest": latest.number},
    )


@transaction.atomic
def plain_tournament_homologate(
    *,
    tournament: Tournament,
    by,
    revision: int | None = None,
    more_problems: Sequence[Problem] = (),
) -> Tournament:
    """Homologate the latest revision: store every licensed player's PCN and PP.

    ``revision``: the number of the revision the staff member reviewed; a newer one
    submitted since makes it a :class:`StaleRevision` (nothing written).
    ``more_problems``: a championship stage's own conditions, refused with the others."""
    tournament = _locked(tournament, by)
    if tournament.status != TournamentStatus.RESULTS_SUBMITTED:
        raise RuleViolation.single(
            "status",
            "not_submitted",
            f"Only submitted results can be homologated (status: {tournament.status}).",
            {"status": tournament.get_status_display()},
        )
    # The document is read again only if its shared places matter (``ties_matter``).
    latest = tournament.revisions.defer("document").order_by("-number").first()
    require_reviewed(latest, revision)
    assert latest is not None  # submitted results always have a revision
    version, rulebook = rulebook_in_force(season=tournament.season)
    homologations_record(
        [homologation_checked(tournament, latest, version, rulebook, more_problems=more_problems)],
        by=by,
    )
    return tournament


@transaction.atomic
def plain_tournament_refuse(*, tournament: Tournament, reasons: list[str], by) -> Tournament:
    """Refuse homologation, with reasons; the organiser may submit again."""
    tournament = _locked(tournament, by)
    if tournament.status != TournamentStatus.RESULTS_SUBMITTED:
        raise RuleViolation.single(
            "status",
            "not_submitted",
            f"Only submitted results can be refused (status: {tournament.status}).",
            {"status": tournament.get_status_display()},
        )
    reasons = [r.strip() for r in reasons if r and r.strip()]
    if not reasons:
        raise RuleViolation.single(
            "reasons", "required", "A refusal states at least one reason.", {}
        )
    tournament.status = TournamentStatus.REFUSED
    tournament.refusal_reasons = reasons
    tournaments_update([tournament], ["status", "refusal_reasons"], by=by)
    tell_organiser_on_commit(tournament, Decision.REFUSED, by, reasons=reasons)
    return tournament


@transaction.atomic
def plain_tournament_correct(
    *, tournament: Tournament, content, source: str, reason: str, by, confirmed_licences=()
) -> Submitted:
    """Correct a homologated tournament: a new revision, new allocations, the
    previous ones kept (not current). Same results again: nothing changes."""
    tournament = _locked(tournament, by)
    _require_correctable(tournament, reason)
    return _correct(
        tournament,
        parse_results(content=content, source=source, tournament=tournament),
        source=source,
        reason=reason,
        by=by,
        confirmed_licences=confirmed_licences,
        more_problems=(),
    )


@transaction.atomic
def parsed_tournament_correct(
    *,
    tournament: Tournament,
    document: ResultsDocument,
    source: str,
    reason: str,
    by,
    confirmed_licences=(),
    more_problems: Sequence[Problem] = (),
) -> Submitted:
    """:func:`plain_tournament_correct` of a parsed document (a championship stage's,
    checked by the stage first); ``more_problems``: the stage's own conditions."""
    tournament = _locked(tournament, by)
    _require_correctable(tournament, reason)
    return _correct(
        tournament,
        document,
        source=source,
        reason=reason,
        by=by,
        confirmed_licences=confirmed_licences,
        more_problems=more_problems,
    )


def _require_correctable(tournament: Tournament, reason: str) -> None:
    if tournament.status != TournamentStatus.HOMOLOGATED:
        raise RuleViolation.single(
            "status",
            "not_homologated",
            "Only a homologated tournament is corrected; resubmit instead.",
            {},
        )
    if not reason.strip():
        raise RuleViolation.single("reason", "required", "A correction states its reason.", {})


def _correct(
    tournament: Tournament,
    document: ResultsDocument,
    *,
    source: str,
    reason: str,
    by,
    confirmed_licences,
    more_problems: Sequence[Problem],
) -> Submitted:
    """Correct the locked, homologated ``tournament`` with ``document``."""
    sha256 = results_sha256(document)
    current = tournament.homologated_revision
    assert current is not None  # a homologated tournament has its homologated revision
    if current.sha256 == sha256:
        return Submitted(current, False, tuple(Problem(**w) for w in current.warnings))
    version, rulebook = rulebook_in_force(season=tournament.season)
    submitted = revision_create(
        tournament=tournament,
        document=document,
        sha256=sha256,
        rulebook=rulebook,
        source=source,
        by=by,
        reason=reason.strip(),
        confirmed_licences=confirmed_licences,
    )
    revision = submitted.revision
    homologation = homologation_checked(
        tournament, revision, version, rulebook, more_problems=more_problems
    )
    affected = allocations_replace([homologation])[tournament.pk]
    tournament.homologated_revision = revision
    tournaments_update([tournament], ["homologated_revision"], by=by, reason=reason.strip()[:100])
    refresh_totals_on_commit(tournament, affected)
    tell_organiser_on_commit(
        tournament,
        Decision.CORRECTED,
        by,
        revision=revision.number,
        reasons=[reason.strip()],
    )
    return submitted
