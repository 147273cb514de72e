"""Results of a championship stage: the championship's checks first, then the
tournament's own submission and homologation."""

from __future__ import annotations

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
from competitions.models import (
    ChampionshipStage,
    Tournament,
)
from competitions.rules.championships.stage_compliance import stage_results_problems
from competitions.tournaments import access
from competitions.tournaments.homologation import checked_tournament_homologate, require_reviewed
from competitions.tournaments.submission import (
    Submitted,
    parse_results,
    parsed_results_submit,
    results_submit,
)
from core.problems import Problem
from core.vocabulary import ChampionshipKind, championship_stage
from federation.access import scope_of


def stage_compliance(stage: ChampionshipStage, results) -> list[Problem]:
    """Problems of ``results`` (a ``StageResults``) for this stage."""
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


@transaction.atomic
def stage_results_submit(
    *, stage: ChampionshipStage, content, source: str, by, confirmed_licences=()
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
    refuse(stage_compliance(stage, selectors.results_of_document(document)))
    return parsed_results_submit(
        tournament=stage.tournament,
        document=document,
        source=source,
        by=by,
        confirmed_licences=confirmed_licences,
    )


def results_submit_checked(
    *, tournament: Tournament, content, source: str, by, confirmed_licences=()
) -> Submitted:
    """A tournament's results from a page or the API: a championship stage's through
    :func:`stage_results_submit` (its checks first), any other through the tournament's
    submission."""
    stage = ChampionshipStage.objects.filter(tournament=tournament).first()
    if stage is not None:
        return stage_results_submit(
            stage=stage,
            content=content,
            source=source,
            by=by,
            confirmed_licences=confirmed_licences,
        )
    return results_submit(
        tournament=tournament,
        content=content,
        source=source,
        by=by,
        confirmed_licences=confirmed_licences,
    )


@transaction.atomic
def stage_homologate(*, stage: ChampionshipStage, by, revision: int | None = None) -> Tournament:
    """Homologate a stage's latest results once they comply; PCN follow the stage's index
    and cap, or the national final's table. ``revision``: the one the staff member
    reviewed (see ``tournament_homologate``)."""
    stage = locked_stage(stage)
    require(
        access.may_homologate(scope_of(by), stage.tournament),
        "Only federation or committee staff above the organiser may homologate.",
    )
    latest = stage.tournament.revisions.order_by("-number").first()
    require_reviewed(latest, revision)  # before the compliance of a revision not reviewed
    if latest is not None:
        results = selectors.results_of_revisions([latest.pk])[latest.pk]
        refuse(stage_compliance(stage, results))
    return checked_tournament_homologate(tournament=stage.tournament, by=by, revision=revision)
