"""The homologation of a tournament's results, one door for each write, whatever the
tournament: submit results, homologate them, refuse them, correct them (and read what a
submission or a homologation would give: the preview, the staff's review).

Each function decides once whether the tournament is a championship stage: a stage's
results go through the stage's checks (:mod:`competitions.championships.stage_results`:
the championship's entries, field, sessions, deals, published table and penalties, the
zone's approval of the regional rules, then the stage's titles), any other tournament's
through the plain tournament's services (:mod:`competitions.tournaments.submission`,
:mod:`competitions.tournaments.homologation`). Every path calls these: the API, the
results pages, the staff desk (one tournament or several), the championships desk, the
admin actions, ``manage.py load_results`` and the demo, so that each refuses what the
others refuse. Each is one transaction and refuses with the project's own errors
(:class:`core.problems.RuleViolation`, :mod:`core.errors`), nothing written.

A tournament whose ``stage`` is a championship stage kind but that no championship stage
plays (a row declared before declarations were limited to ordinary tournaments, or written
by hand) is refused here, whatever the path: the index, cap and qualification of a stage
come only through a stage of a championship (chapter 3, preamble, « Les épreuves se
déroulant sans son aval sont nulles »); see :func:`stray_stage_problems`.

A homologation or a correction also brings the tournament's suspension proposals in step
with the results (:mod:`competitions.tournaments.suspension_proposals`: an abandon without
the arbiter's accord is proposed to federation staff as a 12-month suspension).

Nothing below this module imports it: the plain tournament's services know nothing of
championships, and the championships' stage path calls the plain services.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import transaction

from competitions.championships.stage_results import (
    document_compliance,
    stage_conditions,
    stage_homologate,
    stage_of,
    stage_results_correct,
    stage_results_refuse,
    stage_results_submit,
)
from competitions.models import ChampionshipStage, ResultRevision, Stage, Tournament
from competitions.rules.results.document import ResultsDocument
from competitions.tournaments import preview, review
from competitions.tournaments.homologation import (
    plain_tournament_correct,
    plain_tournament_homologate,
    plain_tournament_refuse,
)
from competitions.tournaments.preview import Preview
from competitions.tournaments.submission import Submitted, plain_results_submit
from competitions.tournaments.suspension_proposals import suspension_proposals_sync
from core.problems import Problem, RuleViolation
from federation.access import Actor


def stray_stage_problems(tournament: Tournament, stage: ChampionshipStage | None) -> list[Problem]:
    """A tournament declared at a championship stage kind that no championship stage plays:
    never homologated (nor its results taken) as a stage."""
    if stage is not None or tournament.stage == Stage.ORDINARY:
        return []
    return [
        Problem(
            "stage",
            "stage_without_championship",
            f"Tournament {tournament.pk} is declared as a {tournament.stage} but is no stage "
            "of a championship: a stage's index, cap and qualification come only from a "
            "championship's stage, held under regional rules the zone approved.",
            {"tournament": tournament.pk, "stage": str(tournament.stage)},
        )
    ]


def _refuse_stray_stage(tournament: Tournament, stage: ChampionshipStage | None) -> None:
    if problems := stray_stage_problems(tournament, stage):
        raise RuleViolation(problems)


@transaction.atomic
def results_submit(
    *,
    tournament: Tournament,
    content: bytes | str | dict,
    source: str,
    by: Actor,
    confirmed_licences: Collection[int] = (),
) -> Submitted:
    """Submit a tournament's results (its organiser's managers): a championship stage's
    after the stage's checks."""
    stage = stage_of(tournament)
    _refuse_stray_stage(tournament, stage)
    if stage is not None:
        return stage_results_submit(
            stage=stage,
            content=content,
            source=source,
            by=by,
            confirmed_licences=confirmed_licences,
        )
    return plain_results_submit(
        tournament=tournament,
        content=content,
        source=source,
        by=by,
        confirmed_licences=confirmed_licences,
    )


@transaction.atomic
def tournament_homologate(
    *, tournament: Tournament, by: Actor, revision: int | None = None
) -> Tournament:
    """Homologate the latest revision (staff above the organiser): every licensed player
    receives their PCN and PP. ``revision``: the number of the revision the staff member
    reviewed; a newer one submitted since is a ``StaleRevision`` (409), nothing written."""
    stage = stage_of(tournament)
    if stage is not None:
        done = stage_homologate(stage=stage, by=by, revision=revision)
    else:
        done = plain_tournament_homologate(
            tournament=tournament,
            by=by,
            revision=revision,
            more_problems=stray_stage_problems(tournament, stage),
        )
    suspension_proposals_sync(tournament=done)
    return done


@transaction.atomic
def tournament_refuse(*, tournament: Tournament, reasons: list[str], by: Actor) -> Tournament:
    """Refuse homologation with reasons (staff above the organiser); the organiser may
    submit again."""
    stage = stage_of(tournament)
    if stage is not None:
        return stage_results_refuse(stage=stage, reasons=reasons, by=by)
    return plain_tournament_refuse(tournament=tournament, reasons=reasons, by=by)


@transaction.atomic
def tournament_correct(
    *,
    tournament: Tournament,
    content: bytes | str | dict,
    source: str,
    reason: str,
    by: Actor,
    confirmed_licences: Collection[int] = (),
) -> Submitted:
    """Correct a homologated tournament (staff above the organiser): a new revision, new
    allocations, the previous ones kept (not current); a championship stage's new results
    after the stage's checks. Same results again: nothing changes."""
    stage = stage_of(tournament)
    _refuse_stray_stage(tournament, stage)
    if stage is not None:
        corrected = stage_results_correct(
            stage=stage,
            content=content,
            source=source,
            reason=reason,
            by=by,
            confirmed_licences=confirmed_licences,
        )
    else:
        corrected = plain_tournament_correct(
            tournament=tournament,
            content=content,
            source=source,
            reason=reason,
            by=by,
            confirmed_licences=confirmed_licences,
        )
    suspension_proposals_sync(tournament=tournament)
    return corrected


def content_preview(
    *,
    tournament: Tournament,
    content: bytes | str | dict,
    source: str,
    by: Actor,
    confirmed_licences: Collection[int] = (),
) -> Preview:
    """What submitting ``content`` would give (nothing stored), refused as
    :func:`results_submit` would refuse it."""
    stage = stage_of(tournament)
    stray = stray_stage_problems(tournament, stage)

    def stage_problems(document: ResultsDocument) -> list[Problem]:
        return stray if stage is None else document_compliance(stage, document)

    return preview.content_preview(
        tournament=tournament,
        content=content,
        source=source,
        by=by,
        confirmed_licences=confirmed_licences,
        more_problems=stage_problems,
    )


def results_preview(
    *,
    tournament: Tournament,
    document: ResultsDocument,
    by: Actor,
    confirmed_licences: Collection[int] = (),
) -> Preview:
    """:func:`content_preview` of a document already read (the typed results form)."""
    preview.preview_allowed(tournament=tournament, by=by)
    stage = stage_of(tournament)
    return preview.results_preview(
        tournament=tournament,
        document=document,
        by=by,
        confirmed_licences=confirmed_licences,
        reading_problems=(
            stray_stage_problems(tournament, stage)
            if stage is None
            else document_compliance(stage, document)
        ),
    )


def revision_review(*, tournament: Tournament, revision: ResultRevision) -> review.Review:
    """A revision as staff review it before homologating it, with every condition that
    would refuse it (a championship stage's too); writes nothing."""
    stage = stage_of(tournament)
    if stage is None:
        stray = stray_stage_problems(tournament, stage)
        return review.revision_review(tournament, revision, more_conditions=lambda _book: stray)
    return review.revision_review(
        tournament,
        revision,
        more_conditions=lambda rulebook: stage_conditions(stage, revision, rulebook),
    )
