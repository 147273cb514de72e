"""Results of a championship stage: the championship's checks first, then the
tournament's own submission, homologation, refusal or correction, then the stage's titles.

The stage's checks are those of its championship (entries, field, sessions, deals,
published table, recorded penalties: :func:`stage_compliance`) and the zone's approval
of the committee's regional rules (:mod:`competitions.championships.zone_approval`),
refused with the homologation conditions of chapter 5. Callers go through
:mod:`competitions.homologation`, which sends a championship stage's results here and any
other tournament's to :mod:`competitions.tournaments`.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import transaction

from competitions.championships import selectors
from competitions.championships.preconditions import (
    locked_stage,
    refuse,
    require,
)
from competitions.championships.qualification_status import (
    published_plan,
)
from competitions.championships.settings_versions import (
    championship_rules_in_force,
)
from competitions.championships.titles import stage_titles_record
from competitions.championships.zone_approval import void_stage_problem
from competitions.models import ChampionshipStage, ResultRevision, Tournament
from competitions.rulebooks import rulebook_in_force
from competitions.rules.championships.stage_compliance import StageResults, stage_results_problems
from competitions.rules.results.document import ResultsDocument
from competitions.rules.rulebook import Rulebook
from competitions.tournaments import access
from competitions.tournaments.homologation import (
    parsed_tournament_correct,
    plain_tournament_homologate,
    plain_tournament_refuse,
    require_reviewed,
)
from competitions.tournaments.submission import (
    Submitted,
    parse_results,
    parsed_results_submit,
)
from core.problems import Problem
from core.vocabulary import ChampionshipKind, championship_stage
from federation.access import Actor, scope_of

HOMOLOGATORS_ONLY = "Only federation or committee staff above the organiser may homologate."


def stage_compliance(stage: ChampionshipStage, results: StageResults) -> list[Problem]:
    """Problems of ``results`` for this stage."""
    _version, rules = championship_rules_in_force(
        season=stage.championship.season, kind=stage.championship.kind
    )
    return stage_results_problems(
        kind=ChampionshipKind(stage.championship.kind),
        stage=championship_stage(stage.kind),
        rules=rules,
        results=results,
        entries=selectors.registered_entries([stage.pk]).get(stage.pk, []),
        plan=published_plan(stage),
        penalties=selectors.recorded_penalties([stage.pk]).get(stage.pk, []),
    )


def document_compliance(stage: ChampionshipStage, document: ResultsDocument) -> list[Problem]:
    """Problems of a results document not stored yet for this stage (a preview)."""
    return stage_compliance(stage, selectors.results_of_document(document))


def stage_of(tournament: Tournament) -> ChampionshipStage | None:
    """The championship stage played as ``tournament``, if it is one."""
    return (
        ChampionshipStage.objects.filter(tournament_id=tournament.pk)
        .select_related(*selectors.STAGE_RELATED)
        .first()
    )


def _void_problems(stage: ChampionshipStage, rulebook: Rulebook | None = None) -> list[Problem]:
    """The stage void for want of the zone's approval, under the season's rulebook."""
    if rulebook is None:
        _version, rulebook = rulebook_in_force(season=stage.tournament.season)
    problem = void_stage_problem(stage, rulebook)
    return [] if problem is None else [problem]


def stage_conditions(
    stage: ChampionshipStage, revision: ResultRevision, rulebook: Rulebook
) -> list[Problem]:
    """What refuses the homologation of a stored revision of the stage besides chapter 5:
    the championship's checks and the stage void for want of the zone's approval (what
    staff read before they homologate it)."""
    results = selectors.results_of_revisions([revision.pk])[revision.pk]
    return [*stage_compliance(stage, results), *_void_problems(stage, rulebook)]


@transaction.atomic
def stage_results_submit(
    *, stage: ChampionshipStage, content, source: str, by: Actor, confirmed_licences=()
) -> Submitted:
    """Submit a stage's results: the championship's checks (entries, field, sessions,
    deals, published table, recorded penalties) on the parsed document, then the same
    document through the tournament's submission (permission checked here, once)."""
    stage = locked_stage(stage)
    require(
        access.may_manage(scope_of(by), stage.tournament),
        "Only the organiser's staff may submit a championship stage's results.",
    )
    document = parse_results(content=content, source=source, tournament=stage.tournament)
    refuse(document_compliance(stage, document))
    return parsed_results_submit(
        tournament=stage.tournament,
        document=document,
        source=source,
        by=by,
        confirmed_licences=confirmed_licences,
    )


@transaction.atomic
def stage_homologate(
    *, stage: ChampionshipStage, by: Actor, revision: int | None = None
) -> Tournament:
    """Homologate a stage's latest results once they comply and the stage is not void;
    PCN follow the stage's index and cap, or the national final's table; the stage's
    titles follow its places. ``revision``: the one the staff member reviewed (a newer
    one is a ``StaleRevision``)."""
    stage = locked_stage(stage)
    require(access.may_homologate(scope_of(by), stage.tournament), HOMOLOGATORS_ONLY)
    latest = stage.tournament.revisions.order_by("-number").first()
    require_reviewed(latest, revision)  # before the compliance of a revision not reviewed
    if latest is not None:
        results = selectors.results_of_revisions([latest.pk])[latest.pk]
        refuse(stage_compliance(stage, results))
    tournament = plain_tournament_homologate(
        tournament=stage.tournament, by=by, revision=revision, more_problems=_void_problems(stage)
    )
    stage_titles_record(tournament=tournament, by=by)
    return tournament


@transaction.atomic
def stage_results_refuse(*, stage: ChampionshipStage, reasons: list[str], by: Actor) -> Tournament:
    """Refuse a stage's results, with reasons; its organiser may submit again."""
    stage = locked_stage(stage)
    require(access.may_homologate(scope_of(by), stage.tournament), HOMOLOGATORS_ONLY)
    return plain_tournament_refuse(tournament=stage.tournament, reasons=reasons, by=by)


@transaction.atomic
def stage_results_correct(
    *,
    stage: ChampionshipStage,
    content,
    source: str,
    reason: str,
    by: Actor,
    confirmed_licences: Collection[int] = (),
) -> Submitted:
    """Correct a homologated stage: the championship's checks on the new results, then
    the tournament's correction (the stage not void), then the titles of its new places."""
    stage = locked_stage(stage)
    require(access.may_homologate(scope_of(by), stage.tournament), HOMOLOGATORS_ONLY)
    document = parse_results(content=content, source=source, tournament=stage.tournament)
    refuse(document_compliance(stage, document))
    corrected = parsed_tournament_correct(
        tournament=stage.tournament,
        document=document,
        source=source,
        reason=reason,
        by=by,
        confirmed_licences=confirmed_licences,
        more_problems=_void_problems(stage),
    )
    if corrected.created:
        stage_titles_record(tournament=corrected.revision.tournament, by=by)
    return corrected
