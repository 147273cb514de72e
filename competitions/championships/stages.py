"""Creating a championship stage: its tournament declared at the right stage kind, with the
championship's rules (regional stages from the committee's published rules, national
stages the CCN's)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction

from competitions.championships.calendar_checks import calendar_problems
from competitions.championships.preconditions import (
    locked_championship,
    refuse,
    require,
)
from competitions.championships.settings_versions import (
    championship_rules_in_force,
    pure_season,
    regional_rules_in_force,
)
from competitions.models import (
    NATIONAL_STAGE_KINDS,
    REGIONAL_STAGE_KINDS,
    Championship,
    ChampionshipStage,
    ChampionshipStageKind,
    OrganizerKind,
    RegionalChampionship,
    RegionalRulesVersion,
)
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    RegionalStage,
)
from competitions.rules.championships.season_calendar import (
    expected_qualifier_day,
    national_final_season,
)
from competitions.rules.championships.stage_plan import (
    PublishedRegionalRules,
    RegionalStageRequest,
    SeasonInForce,
    match_published_stage,
    plan_sessions,
)
from competitions.tournaments.declaration import (
    Declaration,
    DeclarationConflict,
    SessionDeclared,
    tournament_declare,
)
from core.problems import Problem, RuleViolation
from core.vocabulary import ChampionshipKind, championship_stage
from federation.access import Scope, scope_of
from federation.models import (
    ArbiterAccreditation,
    ArbiterGrade,
    Committee,
)

FINALS = (ChampionshipStageKind.REGIONAL_FINAL, ChampionshipStageKind.NATIONAL_FINAL)
"""Stages whose arbiter must be a regional arbiter at least (article 24, « les finales »)."""


@dataclass(frozen=True)
class StageRequest:
    """A stage to create: its kind, its tournament, the published stage it plays."""

    kind: str
    date: dt.date
    venue: str
    arbiter_licence_number: int
    name: str = ""
    committee: int | None = None
    """Regional stages: the committee whose regional championship it belongs to."""
    planned_sessions: int | None = None
    rules_stage: str = ""
    """Regional stages: the name of the stage in the committee's published rules
    (default: the one published stage of that kind whose dates contain the day)."""
    reference: str = ""
    arbiter_derogation: bool = False
    sessions: tuple[SessionDeclared, ...] = ()
    """Each session's day and venue, when they are not all on ``date`` at ``venue``."""


@transaction.atomic
def stage_create(
    *, championship: Championship, request: StageRequest, by
) -> tuple[ChampionshipStage, bool]:
    """Create a stage: declare its tournament (through ``tournament_declare``, at the right
    stage kind) and attach the championship's rules. Regional stages need the committee's
    published rules; national stages are the CCN's. Returns the stage and whether it was
    created (a repeated ``reference`` returns the existing stage)."""
    championship = locked_championship(championship)
    scope = scope_of(by)
    kind = ChampionshipStageKind(request.kind)
    _version, rules = championship_rules_in_force(
        season=championship.season, kind=championship.kind
    )
    problems: list[Problem] = []
    regional = None
    plan = None
    rules_version = None
    if kind in REGIONAL_STAGE_KINDS:
        regional, rules_version, plan = _regional_stage_plan(
            championship, request, rules, scope, problems
        )
    else:
        require(scope.national, "Only federation staff (CCN) create national stages.")
        problems += _national_stage_problems(championship, kind, request, rules)
    if request.arbiter_derogation and not scope.national:
        problems.append(
            Problem(
                "arbiter_derogation",
                "derogation_reserved",
                "Only federation staff (CCN) grant a derogation to article 24.",
                {},
            )
        )
    if kind in FINALS and not request.arbiter_derogation:
        problems += _arbiter_grade_problems(request)
    sessions = plan_sessions(
        championship_stage(kind), request.planned_sessions or len(request.sessions) or None, rules
    )
    problems += sessions.problems
    unique = kind == ChampionshipStageKind.REGIONAL_FINAL or kind in NATIONAL_STAGE_KINDS
    if unique and not request.reference:
        problems += _stage_exists(championship, kind, regional)
    refuse(problems)

    committee = regional.committee if regional is not None else None
    declaration = Declaration(
        name=request.name or _stage_name(championship, kind, committee),
        date=request.date,
        venue=request.venue,
        format=ChampionshipKind(championship.kind).format.value,
        organizer_kind=OrganizerKind.COMMITTEE if committee else OrganizerKind.FEDERATION,
        organizer_number=committee.number if committee else None,
        arbiter_licence_number=request.arbiter_licence_number,
        arbiter_plays=False,
        planned_sessions=sessions.sessions,
        stage=kind.value,
        reference=request.reference,
        sessions=request.sessions,
    )
    try:
        tournament, created = tournament_declare(
            declaration=declaration, by=by, championship_stage=True
        )
    except DeclarationConflict as conflict:
        raise RuleViolation.single(
            "reference",
            "reference_conflict",
            f"Reference already used by tournament {conflict.tournament.pk} with other details.",
            {"tournament": conflict.tournament.pk},
        ) from None
    if not created:
        existing = ChampionshipStage.objects.filter(tournament=tournament).first()
        if existing is not None and existing.championship_id == championship.pk:
            return existing, False
        raise RuleViolation.single(
            "reference",
            "reference_conflict",
            f"Reference already used by tournament {tournament.pk}, which is not this stage.",
            {"tournament": tournament.pk},
        )
    if unique:
        refuse(_stage_exists(championship, kind, regional))
    stage = ChampionshipStage(
        championship=championship,
        regional=regional,
        kind=kind,
        tournament=tournament,
        rules_version=rules_version,
        rules_stage=plan.name if plan else "",
        arbiter_derogation=request.arbiter_derogation,
        created_by=by,
    )
    stage._history_user = by
    stage.save()
    return stage, True


def _stage_exists(
    championship: Championship, kind: ChampionshipStageKind, regional
) -> list[Problem]:
    found = ChampionshipStage.objects.filter(championship=championship, kind=kind)
    if kind == ChampionshipStageKind.REGIONAL_FINAL:
        found = found.filter(regional=regional)
    if not found.exists():
        return []
    where = f" for committee {regional.committee.number}" if regional is not None else ""
    return [
        Problem(
            "kind",
            "stage_exists",
            f"{championship} already has its {kind.label}{where}.",
            {"championship": str(championship), "stage": kind.label},
        )
    ]


def _stage_name(championship: Championship, kind: ChampionshipStageKind, committee) -> str:
    where = f" – comité {committee.number}" if committee else ""
    return f"{championship.get_kind_display()} {championship.season} – {kind.label}{where}"


def _regional_stage_plan(
    championship: Championship,
    request: StageRequest,
    rules: ChampionshipRules,
    scope: Scope,
    problems: list[Problem],
) -> tuple[RegionalChampionship | None, RegionalRulesVersion | None, RegionalStage | None]:
    """The committee's regional championship, its published rules in force and the published
    stage the request plays (``match_published_stage``); the caller's right to create it."""
    if request.committee is None:
        problems.append(
            Problem("committee", "required", "A regional stage names its committee.", {})
        )
        return None, None, None
    regional = (
        RegionalChampionship.objects.select_related("committee__zone")
        .filter(championship=championship, committee__number=request.committee)
        .first()
    )
    if regional is None:
        committee = Committee.objects.filter(number=request.committee).first()
        if committee is not None:
            require(
                scope.covers_committee(committee),
                "Only the committee's staff (CCR) or the staff above them create its stages.",
            )
        problems.append(
            Problem(
                "committee",
                "no_regional_championship",
                f"Committee {request.committee} has no regional championship in {championship}.",
                {"committee": request.committee, "championship": str(championship)},
            )
        )
        return None, None, None
    require(
        scope.covers_committee(regional.committee),
        "Only the committee's staff (CCR) or the staff above them create its stages.",
    )
    found = regional_rules_in_force(regional)
    if found is None:
        problems.append(
            Problem(
                "committee",
                "no_regional_rules",
                f"Committee {request.committee} has not published its regional rules; its stages "
                "are created from them.",
                {"committee": request.committee},
            )
        )
        return regional, None, None
    version, published = found
    match = match_published_stage(
        RegionalStageRequest(championship_stage(request.kind), request.date, request.rules_stage),
        PublishedRegionalRules(version.version, published),
        SeasonInForce(pure_season(championship.season), str(championship.season), rules),
    )
    problems += match.problems
    return regional, version, match.stage


def _national_stage_problems(
    championship: Championship,
    kind: ChampionshipStageKind,
    request: StageRequest,
    rules: ChampionshipRules,
) -> list[Problem]:
    problems: list[Problem] = []
    if request.committee is not None:
        problems.append(
            Problem(
                "committee",
                "not_regional",
                f"A {kind.label} belongs to no committee.",
                {"stage": kind.label},
            )
        )
    if kind == ChampionshipStageKind.NATIONAL_QUALIFIER:
        if rules.national_qualifier_quota is None:
            return [
                Problem(
                    "kind",
                    "no_national_qualifier",
                    f"The {championship.get_kind_display()} championship has no national "
                    "qualifier.",
                    {"kind": championship.kind},
                )
            ]
        final = (
            ChampionshipStage.objects.filter(
                championship=championship, kind=ChampionshipStageKind.NATIONAL_FINAL
            )
            .select_related("tournament")
            .first()
        )
        problems += calendar_problems(
            championship,
            rules,
            qualifier_day=request.date,
            final_day=final.tournament.date if final else None,
        )
        if final is None:
            final_season = national_final_season(pure_season(championship.season), rules)
            if not final_season.contains(request.date):
                problems.append(
                    Problem(
                        "date",
                        "national_final_outside_season",
                        f"the national qualifier is played in season {final_season.label}; "
                        f"{request.date} is outside it.",
                        {"season": final_season.label, "date": request.date},
                    )
                )
    else:
        qualifier = (
            ChampionshipStage.objects.filter(
                championship=championship, kind=ChampionshipStageKind.NATIONAL_QUALIFIER
            )
            .select_related("tournament")
            .first()
        )
        problems += calendar_problems(
            championship,
            rules,
            final_day=request.date,
            qualifier_day=qualifier.tournament.date if qualifier else None,
        )
        if qualifier is not None and expected_qualifier_day(request.date, rules) != (
            qualifier.tournament.date
        ):
            problems.append(
                Problem(
                    "date",
                    "qualifier_not_day_before_final",
                    f"the national qualifier is on {qualifier.tournament.date}; the final is "
                    "played the day after it.",
                    {"date": qualifier.tournament.date},
                )
            )
    return [
        Problem("date" if p.field.startswith("national") else p.field, p.code, p.message, p.params)
        for p in problems
    ]


def _arbiter_grade_problems(request: StageRequest) -> list[Problem]:
    accreditation = (
        ArbiterAccreditation.objects.filter(
            player__licence_number=request.arbiter_licence_number,
            season__start_date__lte=request.date,
            season__end_date__gte=request.date,
        )
        .only("grade")
        .first()
    )
    if accreditation is None or accreditation.grade == ArbiterGrade.CLUB:
        grade = accreditation.get_grade_display() if accreditation else "no accreditation"
        return [
            Problem(
                "arbiter_licence_number",
                "arbiter_grade_too_low",
                f"Licence {request.arbiter_licence_number} ({grade}): a final is directed by a "
                "regional arbiter at least (article 24), unless the CCN grants a derogation.",
                {"licence": request.arbiter_licence_number, "grade": grade},
            )
        ]
    return []
