"""Every write on the championships: one transaction each, permissions checked inside.

Who may do what (``federation.access.scope_of``):

- federation staff (CCN): create a season's championships, publish their settings, set the
  committees' quotas and the outgoing champion, create the national qualifier and final,
  record the qualifications and register the national final's field, re-check the
  interclubs teams, approve any committee's regional rules;
- committee staff (CCR) and the staff above them: create their committee's regional
  championship, publish its rules, create its stages, enter players, duos and teams;
- zone staff: also approve the regional rules of their zone's committees (« aval »);
- club managers: enter their own club's players, duos and interclubs teams in their
  committee's regional stages (every player of the entry licensed in a club they manage);
- the stage's arbiter (and the staff covering its organiser): draw the first-session
  seating (article 25) and record late arrivals and forfeits (article 26).

Refusals are ``RuleViolation`` (400, every problem located) or ``PermissionDenied`` (403);
nothing is stored unless all is well.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from competitions.championships import selectors
from competitions.championships.facts import RegistryFacts, facts_to_json, players_facts
from competitions.championships.qualification import (
    ChampionshipQualification,
    entry_key,
    outgoing_champion_numbers,
    published_plan,
    qualification_status,
    regional_champions,
)
from competitions.championships.rules_store import (
    championship_rules_in_force,
    pure_season,
    regional_rules_in_force,
    store_championship_rules,
)
from competitions.models import (
    NATIONAL_STAGE_KINDS,
    REGIONAL_STAGE_KINDS,
    Championship,
    ChampionshipEntry,
    ChampionshipKindChoice,
    ChampionshipStage,
    ChampionshipStageKind,
    CommitteeQuota,
    EntryPlayer,
    EntryRight,
    EntryStatus,
    OrganizerKind,
    Qualification,
    QualificationStatus,
    QualificationTarget,
    RegionalChampionship,
    RegionalRulesVersion,
    StagePenalty,
    StageSeating,
    TeamFlag,
    Tournament,
    TournamentStatus,
)
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.eligibility import check_entry
from competitions.rules.championships.qualification import QualificationRight
from competitions.rules.championships.regional_rules import (
    RegionalRules,
    RegionalStage,
    check_regional_rules,
)
from competitions.rules.championships.season_calendar import (
    ChampionshipCalendar,
    check_championship_calendar,
    expected_qualifier_day,
    national_final_season,
)
from competitions.rules.championships.stage_compliance import stage_results_problems
from competitions.rules.championships.team_composition import (
    RegisteredTeam,
    effective_series,
    flag_invalid_teams,
)
from competitions.rules.engine.movements import plan_movement
from competitions.rules.engine.penalties import late_arrival
from competitions.rules.engine.seating import Entrant, championship_seating
from competitions.tournaments import access
from competitions.tournaments.declaration import (
    Declaration,
    DeclarationConflict,
    tournament_declare,
)
from competitions.tournaments.homologation import tournament_homologate
from competitions.tournaments.submission import Submitted, parse_results, results_submit
from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from core.vocabulary import ChampionshipKind, championship_stage
from federation.access import Scope, scope_of
from federation.models import (
    ArbiterAccreditation,
    ArbiterGrade,
    Club,
    Committee,
    Player,
    Season,
)

FINALS = (ChampionshipStageKind.REGIONAL_FINAL, ChampionshipStageKind.NATIONAL_FINAL)
"""Stages whose arbiter must be a regional arbiter at least (article 24, « les finales »)."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise PermissionDenied(message)


def _refuse(problems: Sequence[Problem]) -> None:
    if problems:
        raise RuleViolation(problems)


def _kind(championship: Championship) -> ChampionshipKind:
    return ChampionshipKind(championship.kind)


def _locked_championship(championship: Championship) -> Championship:
    return (
        Championship.objects.select_for_update(of=("self",))
        .select_related("season")
        .get(pk=championship.pk)
    )


# ---------------------------------------------------------------------------------------------
# Championships, their settings, quotas and outgoing champion (CCN)


@transaction.atomic
def championships_create(
    *, season: Season, kinds: Iterable[str] | None = None, by
) -> list[tuple[Championship, bool]]:
    """Create the season's championships (the four by default); existing ones are returned."""
    _require(scope_of(by).national, "Only federation staff (CCN) create championships.")
    kinds = list(kinds) if kinds is not None else list(ChampionshipKindChoice.values)
    unknown = [k for k in kinds if k not in ChampionshipKindChoice.values]
    _refuse(
        [
            Problem(
                f"kinds[{kinds.index(k)}]",
                "unknown_kind",
                f"{k!r} is not a championship; one of {', '.join(ChampionshipKindChoice.values)}.",
            )
            for k in unknown
        ]
    )
    made = []
    for kind in dict.fromkeys(kinds):
        championship, created = Championship.objects.get_or_create(
            season=season, kind=kind, defaults={"created_by": by}
        )
        championship_rules_in_force(season=season, kind=kind)  # version 1 from the regulation
        made.append((championship, created))
    return made


@transaction.atomic
def championship_rules_update(*, championship: Championship, data: dict, note: str = "", by):
    """Publish a new version of the championship's settings for its season (CCN)."""
    _require(scope_of(by).national, "Only federation staff (CCN) set championship rules.")
    return store_championship_rules(
        season=championship.season, kind=championship.kind, data=data, by=by, note=note
    )


@transaction.atomic
def quotas_set(
    *, championship: Championship, quotas: Mapping[int, int], by
) -> list[CommitteeQuota]:
    """Set committees' places at the national final (CCN); committees not named keep theirs."""
    _require(scope_of(by).national, "Only federation staff (CCN) set the quotas.")
    championship = _locked_championship(championship)
    committees = {c.number: c for c in Committee.objects.filter(number__in=list(quotas))}
    problems = []
    for number, places in quotas.items():
        if number not in committees:
            problems.append(
                Problem(f"quotas.{number}", "unknown_committee", f"No committee numbered {number}.")
            )
        if not isinstance(places, int) or isinstance(places, bool) or places < 0:
            problems.append(
                Problem(
                    f"quotas.{number}",
                    "invalid_quota",
                    f"A quota is a number of places of at least 0, got {places!r}.",
                )
            )
    _refuse(problems)
    saved = []
    for number, places in sorted(quotas.items()):
        quota = CommitteeQuota.objects.filter(
            championship=championship, committee=committees[number]
        ).first() or CommitteeQuota(championship=championship, committee=committees[number])
        quota.places = places
        quota.set_by = by
        quota._history_user = by
        quota.save()
        saved.append(quota)
    return saved


@transaction.atomic
def outgoing_champion_set(
    *, championship: Championship, licence_numbers: list[int] | None, note: str = "", by
) -> Championship:
    """Name the outgoing national champion (CCN). ``None``: derive it from the previous
    season's national final; ``[]``: no outgoing champion (article 30 of fascicule 1)."""
    _require(scope_of(by).national, "Only federation staff (CCN) set the outgoing champion.")
    championship = _locked_championship(championship)
    if licence_numbers:
        kind = _kind(championship)
        known = set(
            Player.objects.filter(licence_number__in=licence_numbers).values_list(
                "licence_number", flat=True
            )
        )
        problems = [
            Problem(f"licence_numbers[{i}]", "unknown_player", f"No player with licence {n}.")
            for i, n in enumerate(licence_numbers)
            if n not in known
        ]
        if len(set(licence_numbers)) != kind.team_size:
            problems.append(
                Problem(
                    "licence_numbers",
                    "wrong_team_size",
                    f"A {kind} champion is {kind.team_size} player(s), got "
                    f"{len(set(licence_numbers))}.",
                )
            )
        _refuse(problems)
        licence_numbers = sorted(set(licence_numbers))
    championship.outgoing_champion = licence_numbers
    championship.outgoing_champion_note = note
    championship._history_user = by
    championship.save(update_fields=["outgoing_champion", "outgoing_champion_note"])
    return championship


# ---------------------------------------------------------------------------------------------
# Regional championships and their rules (CCR; the zone approves)


@transaction.atomic
def regional_create(
    *, championship: Championship, committee: Committee, by
) -> tuple[RegionalChampionship, bool]:
    """Open a committee's regional championship (its staff or above); idempotent."""
    _require(
        scope_of(by).covers_committee(committee),
        "Only the committee's staff (CCR) or the staff above them run its regional championship.",
    )
    regional, created = RegionalChampionship.objects.get_or_create(
        championship=championship, committee=committee, defaults={"created_by": by}
    )
    return regional, created


def _regional_rules_from(regional: RegionalChampionship, data: dict) -> RegionalRules:
    """Read published rules, filling or checking the committee and the kind."""
    if not isinstance(data, dict):
        raise RuleViolation.single("rules", "malformed", "The regional rules are a JSON object.")
    committee = str(regional.committee.number)
    kind = regional.championship.kind
    problems = []
    if str(data.get("committee", committee)) != committee:
        problems.append(
            Problem(
                "committee",
                "committee_mismatch",
                f"These rules name committee {data.get('committee')}; they are published for "
                f"committee {committee}.",
            )
        )
    if str(data.get("kind", kind)) != kind:
        problems.append(
            Problem(
                "kind",
                "kind_mismatch",
                f"These rules are for the {data.get('kind')} championship, not {kind}.",
            )
        )
    _refuse(problems)
    return RegionalRules.from_dict({**data, "committee": committee, "kind": kind})


def regional_rules_check(*, regional: RegionalChampionship, data: dict) -> list[Problem]:
    """Every problem of rules a committee would publish (nothing stored)."""
    regional_rules = _regional_rules_from(regional, data)
    championship = regional.championship
    _version, rules = championship_rules_in_force(
        season=championship.season, kind=championship.kind
    )
    problems = check_regional_rules(regional_rules, pure_season(championship.season), rules)
    problems += _calendar_problems(championship, rules, regional_rules=regional_rules)
    return problems


@transaction.atomic
def regional_rules_publish(
    *, regional: RegionalChampionship, data: dict, note: str = "", by
) -> RegionalRulesVersion:
    """Publish a new version of the committee's regional rules, once they comply."""
    regional = (
        RegionalChampionship.objects.select_for_update(of=("self",))
        .select_related("championship__season", "committee__zone")
        .get(pk=regional.pk)
    )
    _require(
        scope_of(by).covers_committee(regional.committee),
        "Only the committee's staff (CCR) or the staff above them publish its regional rules.",
    )
    _refuse(regional_rules_check(regional=regional, data=data))
    regional_rules = _regional_rules_from(regional, data)
    last = regional.rules_versions.order_by("-version").first()
    version = RegionalRulesVersion(
        regional=regional,
        version=(last.version + 1) if last else 1,
        data=regional_rules.to_dict(),
        note=note,
        published_by=by,
    )
    version._history_user = by
    version.save()
    return version


@transaction.atomic
def regional_rules_approve(*, version: RegionalRulesVersion, by) -> RegionalRulesVersion:
    """Record the zone's approval (« aval du responsable de zone ») of published rules."""
    version = (
        RegionalRulesVersion.objects.select_for_update(of=("self",))
        .select_related("regional__committee__zone")
        .get(pk=version.pk)
    )
    scope = scope_of(by)
    committee = version.regional.committee
    _require(
        scope.national or committee.zone_id in scope.zone_ids,
        "Only the staff of the committee's zone (or federation staff) approve regional rules.",
    )
    if version.approved_at is None:
        version.approved_at = timezone.now()
        version.approved_by = by
        version._history_user = by
        version.save(update_fields=["approved_at", "approved_by"])
    return version


def _calendar_problems(
    championship: Championship,
    rules: ChampionshipRules,
    *,
    regional_rules: RegionalRules | None = None,
    final_day: dt.date | None = None,
    qualifier_day: dt.date | None = None,
) -> list[Problem]:
    """Calendar problems of one change: a committee's rules (checked against the national
    dates) or a national stage (checked against every committee's rules)."""
    national = {
        s.kind: s.tournament.date
        for s in ChampionshipStage.objects.filter(
            championship=championship, kind__in=[k.value for k in NATIONAL_STAGE_KINDS]
        ).select_related("tournament")
    }
    final_day = final_day or national.get(ChampionshipStageKind.NATIONAL_FINAL)
    qualifier_day = qualifier_day or national.get(ChampionshipStageKind.NATIONAL_QUALIFIER)
    if regional_rules is not None:
        regionals = (regional_rules,)
    else:
        latest: dict[int, RegionalRulesVersion] = {}
        for version in RegionalRulesVersion.objects.filter(
            regional__championship=championship
        ).order_by("regional_id", "-version"):
            latest.setdefault(version.regional_id, version)
        regionals = tuple(RegionalRules.from_dict(v.data) for v in latest.values())
    calendar = ChampionshipCalendar(
        kind=_kind(championship),
        season=pure_season(championship.season),
        national_final_start=final_day,
        national_final_end=final_day,
        national_qualifier_day=qualifier_day,
        regionals=regionals,
    )
    problems = check_championship_calendar(calendar, rules)
    if regional_rules is not None:  # the rules themselves were checked: keep the dates
        return [
            Problem(p.field.removeprefix("regionals[0]."), p.code, p.message)
            for p in problems
            if p.code == "regional_final_too_late"
        ]
    return [
        p
        for p in problems
        if not p.field.startswith("regionals") or p.code == "regional_final_too_late"
    ]


# ---------------------------------------------------------------------------------------------
# Stages


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


@transaction.atomic
def stage_create(
    *, championship: Championship, request: StageRequest, by
) -> tuple[ChampionshipStage, bool]:
    """Create a stage: declare its tournament (through ``tournament_declare``, at the right
    stage kind) and attach the championship's rules. Regional stages need the committee's
    published rules; national stages are the CCN's. Returns the stage and whether it was
    created (a repeated ``reference`` returns the existing stage)."""
    championship = _locked_championship(championship)
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
        _require(scope.national, "Only federation staff (CCN) create national stages.")
        problems += _national_stage_problems(championship, kind, request, rules)
    if request.arbiter_derogation and not scope.national:
        problems.append(
            Problem(
                "arbiter_derogation",
                "derogation_reserved",
                "Only federation staff (CCN) grant a derogation to article 24.",
            )
        )
    if kind in FINALS and not request.arbiter_derogation:
        problems += _arbiter_grade_problems(request)
    sessions = request.planned_sessions
    bound = kind == ChampionshipStageKind.REGIONAL_FINAL or (
        kind in REGIONAL_STAGE_KINDS and rules.min_field_applies_to_every_stage
    )
    if sessions is None:
        sessions = (
            1
            if kind == ChampionshipStageKind.NATIONAL_QUALIFIER
            else (
                rules.min_sessions if bound or kind == ChampionshipStageKind.NATIONAL_FINAL else 1
            )
        )
    if bound and sessions < rules.min_sessions:
        problems.append(
            Problem(
                "planned_sessions",
                "too_few_sessions",
                f"{sessions} session(s) planned; this stage has at least {rules.min_sessions} "
                f"sessions of at least {rules.min_deals_per_session} deals.",
            )
        )
    if kind == ChampionshipStageKind.NATIONAL_QUALIFIER and sessions != 1:
        problems.append(
            Problem(
                "planned_sessions",
                "qualifier_one_session",
                "The national qualifier is played in one session.",
            )
        )
    unique = kind == ChampionshipStageKind.REGIONAL_FINAL or kind in NATIONAL_STAGE_KINDS
    if unique and not request.reference:
        problems += _stage_exists(championship, kind, regional)
    _refuse(problems)

    committee = regional.committee if regional is not None else None
    declaration = Declaration(
        name=request.name or _stage_name(championship, kind, committee),
        date=request.date,
        venue=request.venue,
        format=_kind(championship).format.value,
        organizer_kind=OrganizerKind.COMMITTEE if committee else OrganizerKind.FEDERATION,
        organizer_number=committee.number if committee else None,
        arbiter_licence_number=request.arbiter_licence_number,
        arbiter_plays=False,
        planned_sessions=sessions,
        stage=kind.value,
        reference=request.reference,
    )
    try:
        tournament, created = tournament_declare(declaration=declaration, by=by)
    except DeclarationConflict as conflict:
        raise RuleViolation.single(
            "reference",
            "reference_conflict",
            f"Reference already used by tournament {conflict.tournament.pk} with other details.",
        ) from None
    if not created:
        existing = ChampionshipStage.objects.filter(tournament=tournament).first()
        if existing is not None and existing.championship_id == championship.pk:
            return existing, False
        raise RuleViolation.single(
            "reference",
            "reference_conflict",
            f"Reference already used by tournament {tournament.pk}, which is not this stage.",
        )
    if unique:
        _refuse(_stage_exists(championship, kind, regional))
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
    return [Problem("kind", "stage_exists", f"{championship} already has its {kind.label}{where}.")]


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
    if request.committee is None:
        problems.append(Problem("committee", "required", "A regional stage names its committee."))
        return None, None, None
    regional = (
        RegionalChampionship.objects.select_related("committee__zone")
        .filter(championship=championship, committee__number=request.committee)
        .first()
    )
    if regional is None:
        committee = Committee.objects.filter(number=request.committee).first()
        if committee is not None:
            _require(
                scope.covers_committee(committee),
                "Only the committee's staff (CCR) or the staff above them create its stages.",
            )
        problems.append(
            Problem(
                "committee",
                "no_regional_championship",
                f"Committee {request.committee} has no regional championship in {championship}.",
            )
        )
        return None, None, None
    _require(
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
            )
        )
        return regional, None, None
    version, published = found
    season = pure_season(championship.season)
    for p in check_regional_rules(published, season, rules):  # the settings may have changed
        problems.append(
            Problem(
                f"regional_rules.{p.field}",
                p.code,
                f"the published rules (version {version.version}) no longer comply: {p.message}",
            )
        )
    kind = championship_stage(request.kind)
    candidates = [
        s
        for s in published.stages
        if (s.name == request.rules_stage if request.rules_stage else s.kind is kind)
    ]
    if request.rules_stage and not candidates:
        problems.append(
            Problem(
                "rules_stage",
                "unknown_stage",
                f"The published rules have no stage named {request.rules_stage!r}.",
            )
        )
        return regional, version, None
    plan = None
    if not request.rules_stage:
        dated = [s for s in candidates if s.start <= request.date <= s.end]
        if len(dated) == 1:
            plan = dated[0]
        elif not candidates:
            problems.append(
                Problem(
                    "kind",
                    "not_in_published_rules",
                    f"The committee's published rules have no {kind} stage.",
                )
            )
        elif not dated:
            problems.append(
                Problem(
                    "date",
                    "outside_published_stage",
                    f"{request.date} is outside the dates of every published {kind} stage ("
                    + ", ".join(f"{s.name!r}: {s.start} – {s.end}" for s in candidates)
                    + ").",
                )
            )
        else:
            problems.append(
                Problem(
                    "rules_stage",
                    "ambiguous_stage",
                    "Several published stages match; name one: "
                    + ", ".join(repr(s.name) for s in dated)
                    + ".",
                )
            )
    else:
        plan = candidates[0]
        if plan.kind is not kind:
            problems.append(
                Problem(
                    "kind",
                    "kind_differs_from_published",
                    f"Published stage {plan.name!r} is a {plan.kind}, not a {kind}.",
                )
            )
        if not plan.start <= request.date <= plan.end:
            problems.append(
                Problem(
                    "date",
                    "outside_published_stage",
                    f"{request.date} is outside published stage {plan.name!r} "
                    f"({plan.start} – {plan.end}).",
                )
            )
    if not season.contains(request.date):
        problems.append(
            Problem(
                "date",
                "outside_season",
                f"{request.date} is outside season {championship.season}.",
            )
        )
    return regional, version, plan


def _national_stage_problems(
    championship: Championship,
    kind: ChampionshipStageKind,
    request: StageRequest,
    rules: ChampionshipRules,
) -> list[Problem]:
    problems: list[Problem] = []
    if request.committee is not None:
        problems.append(
            Problem("committee", "not_regional", f"A {kind.label} belongs to no committee.")
        )
    if kind == ChampionshipStageKind.NATIONAL_QUALIFIER:
        if rules.national_qualifier_quota is None:
            return [
                Problem(
                    "kind",
                    "no_national_qualifier",
                    f"The {championship.get_kind_display()} championship has no national "
                    "qualifier.",
                )
            ]
        final = (
            ChampionshipStage.objects.filter(
                championship=championship, kind=ChampionshipStageKind.NATIONAL_FINAL
            )
            .select_related("tournament")
            .first()
        )
        problems += _calendar_problems(
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
        problems += _calendar_problems(
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
                )
            )
    return [
        Problem("date" if p.field.startswith("national") else p.field, p.code, p.message)
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
            )
        ]
    return []


# ---------------------------------------------------------------------------------------------
# Entries


@dataclass(frozen=True)
class EntryRequest:
    licence_numbers: tuple[int, ...]
    team_name: str = ""


@dataclass(frozen=True)
class EntryMade:
    entry: ChampionshipEntry
    warnings: tuple[Problem, ...] = ()


def _locked_stage(stage: ChampionshipStage) -> ChampionshipStage:
    return (
        ChampionshipStage.objects.select_for_update(of=("self",))
        .select_related(*selectors.STAGE_RELATED)
        .get(pk=stage.pk)
    )


def _stage_not_played(stage: ChampionshipStage) -> list[Problem]:
    if stage.tournament.status != TournamentStatus.DECLARED:
        return [
            Problem(
                "stage",
                "stage_played",
                f"The stage's results are already {stage.tournament.get_status_display()}; its "
                "entries are closed.",
            )
        ]
    return []


def _may_enter(scope: Scope, stage: ChampionshipStage, licences: list) -> bool:
    """May this scope enter these players (their licences this season, or None) here?"""
    if stage.kind in REGIONAL_STAGE_KINDS:
        if scope.covers_committee(stage.regional.committee):
            return True
        return bool(scope.club_ids) and all(
            licence is not None and licence.club_id in scope.club_ids for licence in licences
        )
    if stage.kind == ChampionshipStageKind.NATIONAL_QUALIFIER:
        return scope.national or (
            scope.is_staff
            and all(
                licence is not None and scope.covers_committee(licence.club.committee)
                for licence in licences
            )
        )
    return False


def _named(problem: Problem, prefix: str, players: Mapping[str, Player]) -> Problem:
    """Locate a pure problem in the request and name the player it concerns."""
    field_ = problem.field.replace("entrants", "licence_numbers", 1)
    message = problem.message
    for number, player in players.items():
        if f"licence {number}" in message:
            message = message.replace(
                f"licence {number}",
                f"licence {number} ({player.first_name} {player.last_name.upper()})",
                1,
            )
    return Problem(f"{prefix}.{field_}" if field_ else prefix, problem.code, message)


def _entry_problems(
    stage: ChampionshipStage,
    numbers: Sequence[int],
    facts: RegistryFacts,
    rules: ChampionshipRules,
    prefix: str,
) -> list[Problem]:
    """Why these players cannot enter the stage (eligibility and the committee's own)."""
    problems = []
    for j, n in enumerate(numbers):
        if n not in facts.players:
            problems.append(
                Problem(
                    f"{prefix}.licence_numbers[{j}]",
                    "unknown_player",
                    f"licence {n}: no such player in the federation's registry.",
                )
            )
    if problems:
        return problems
    tournament = stage.tournament
    entrants = [facts.facts[n] for n in numbers]
    found = check_entry(
        _kind(stage.championship),
        championship_stage(stage.kind),
        entrants,
        pure_season(tournament.season),
        rules,
        as_of=tournament.date,
    )
    names = {str(n): facts.players[n] for n in numbers}
    problems = [_named(p, prefix, names) for p in found]
    if stage.kind in REGIONAL_STAGE_KINDS:
        committee = stage.regional.committee.number
        for j, n in enumerate(numbers):
            licence = facts.licences.get(n)
            if licence is not None and licence.club.committee.number != committee:
                problems.append(
                    _named(
                        Problem(
                            f"licence_numbers[{j}].licence",
                            "wrong_committee",
                            f"licence {n}: licensed in committee "
                            f"{licence.club.committee.number} (club {licence.club.number}); the "
                            f"regional championship of committee {committee} is for its own "
                            "licensees.",
                        ),
                        prefix,
                        names,
                    )
                )
    return problems


@transaction.atomic
def entries_register(
    *, stage: ChampionshipStage, requests: Sequence[EntryRequest], by
) -> list[EntryMade]:
    """Enter players, duos or teams in a stage, each checked for eligibility on the stage's
    day; all or nothing: any refusal lists every problem and stores nothing."""
    stage = _locked_stage(stage)
    scope = scope_of(by)
    championship = stage.championship
    _version, rules = championship_rules_in_force(
        season=championship.season, kind=championship.kind
    )
    if stage.kind == ChampionshipStageKind.NATIONAL_FINAL:
        _require(scope.national, "The national final's field is registered by the CCN.")
        raise RuleViolation.single(
            "stage",
            "national_final_by_qualification",
            "The national final's entries are registered from the qualifications "
            "(POST …/national-final/register/).",
        )
    numbers = sorted({n for r in requests for n in r.licence_numbers})
    facts = players_facts(season=stage.tournament.season, licence_numbers=numbers)
    for request in requests:
        _require(
            _may_enter(scope, stage, [facts.licences.get(n) for n in request.licence_numbers]),
            "You may not enter these players in this stage.",
        )
    problems = _stage_not_played(stage)
    if not requests:
        problems.append(Problem("entries", "required", "Enter at least one entry."))
    entered = selectors.entries_by_players(stage)
    already = {n: e for key, e in entered.items() for n in key}
    counts = Counter(n for r in requests for n in set(r.licence_numbers))
    for i, request in enumerate(requests):
        prefix = f"entries[{i}]"
        for j, n in enumerate(request.licence_numbers):
            if n in already:
                problems.append(
                    Problem(
                        f"{prefix}.licence_numbers[{j}]",
                        "already_entered",
                        f"licence {n} is already in entry {already[n].number} of this stage.",
                    )
                )
            elif counts[n] > 1:
                problems.append(
                    Problem(
                        f"{prefix}.licence_numbers[{j}]",
                        "duplicate_player",
                        f"licence {n} appears in several entries of this request.",
                    )
                )
        problems += _entry_problems(stage, list(request.licence_numbers), facts, rules, prefix)
    _refuse(problems)

    warnings_for = _entry_warnings(stage, requests)
    champions = _regional_champions(stage)
    last = stage.entries.order_by("-number").first()
    number = last.number if last else 0
    made = []
    for i, request in enumerate(requests):
        number += 1
        entry = _create_entry(stage, number, request, facts, rules, by)
        if entry_key(request.licence_numbers) in champions:
            entry.right = EntryRight.REGIONAL_CHAMPION
            entry.save(update_fields=["right"])
        made.append(EntryMade(entry, tuple(warnings_for.get(i, ()))))
    return made


def _create_entry(
    stage: ChampionshipStage,
    number: int,
    request: EntryRequest,
    facts: RegistryFacts,
    rules: ChampionshipRules,
    by,
    **fields,
) -> ChampionshipEntry:
    kind = _kind(stage.championship)
    licences = [facts.licences[n] for n in request.licence_numbers]
    club = licences[0].club if kind is ChampionshipKind.INTERCLUBS else None
    series = (
        [effective_series(facts.facts[n], rules) for n in request.licence_numbers]
        if kind is ChampionshipKind.INTERCLUBS
        else []
    )
    entry = ChampionshipEntry(
        stage=stage,
        number=number,
        committee=licences[0].club.committee,
        club=club,
        team_name=request.team_name or (f"{club.name} {number}" if club is not None else ""),
        facts=[facts_to_json(facts.facts[n]) for n in request.licence_numbers],
        series=series,
        entered_by=by,
        **fields,
    )
    entry._history_user = by
    entry.save()
    EntryPlayer.objects.bulk_create(
        EntryPlayer(entry=entry, stage=stage, player=facts.players[n], order=k + 1)
        for k, n in enumerate(request.licence_numbers)
    )
    return entry


def _regional_champions(stage: ChampionshipStage) -> set[str]:
    """Keys of last season's regional champions carried over to this regional final."""
    if stage.kind != ChampionshipStageKind.REGIONAL_FINAL:
        return set()
    committee = str(stage.regional.committee.number)
    return {
        entry_key(q.entry.licence_numbers)
        for q in regional_champions(stage.championship).qualified
        if q.committee == committee
    }


def _entry_warnings(
    stage: ChampionshipStage, requests: Sequence[EntryRequest]
) -> dict[int, list[Problem]]:
    """At the national qualifier: a qualified player who plays it loses the qualification."""
    if stage.kind != ChampionshipStageKind.NATIONAL_QUALIFIER:
        return {}
    status = qualification_status(stage.championship)
    if status.national is None:
        return {}
    holders = {int(n): q for q in status.national.qualified for n in q.entry.licence_numbers}
    warnings: dict[int, list[Problem]] = {}
    for i, request in enumerate(requests):
        for j, n in enumerate(request.licence_numbers):
            q = holders.get(n)
            if q is not None:
                warnings.setdefault(i, []).append(
                    Problem(
                        f"entries[{i}].licence_numbers[{j}]",
                        "loses_qualification",
                        f"licence {n} is qualified for the national final ({q.right}); by "
                        "playing the national qualifier the entry loses that qualification and "
                        "the place is reattributed at the qualifier.",
                    )
                )
    return warnings


@transaction.atomic
def entry_withdraw(*, entry: ChampionshipEntry, by) -> ChampionshipEntry:
    """Withdraw an entry before its stage is played (those who may enter it)."""
    stage = _locked_stage(entry.stage)
    entry = ChampionshipEntry.objects.select_for_update(of=("self",)).get(pk=entry.pk)
    players = list(EntryPlayer.objects.filter(entry=entry, active=True).select_related("player"))
    facts = players_facts(
        season=stage.tournament.season, licence_numbers=[p.player.licence_number for p in players]
    )
    scope = scope_of(by)
    _require(
        _may_enter(scope, stage, [facts.licences.get(p.player.licence_number) for p in players])
        or (stage.kind == ChampionshipStageKind.NATIONAL_FINAL and scope.national),
        "You may not withdraw this entry.",
    )
    _refuse(_stage_not_played(stage))
    _deactivate(entry, EntryStatus.WITHDRAWN, by)
    return entry


def _deactivate(entry: ChampionshipEntry, status: str, by) -> None:
    EntryPlayer.objects.filter(entry=entry, active=True).update(active=False)
    TeamFlag.objects.filter(entry=entry, resolved_at=None).update(resolved_at=timezone.now())
    entry.status = status
    entry._history_user = by
    entry.save(update_fields=["status"])


# ---------------------------------------------------------------------------------------------
# Qualifications and the national final's field (CCN)


@dataclass(frozen=True)
class Recorded:
    status: ChampionshipQualification
    qualifications: list[Qualification]


def qualification_rows(status: ChampionshipQualification) -> list[dict]:
    """The qualifications of a live status as rows (what recording stores)."""
    rows = []
    national = status.national
    if national is not None:
        for q in national.qualified:
            rows.append(_row(status, q, QualificationTarget.NATIONAL_FINAL, "qualified", ""))
        for lost in national.lost:
            rows.append(
                _row(
                    status,
                    lost.qualification,
                    QualificationTarget.NATIONAL_FINAL,
                    QualificationStatus.LOST,
                    lost.message,
                )
            )
    for q in status.carry_over.qualified:
        rows.append(_row(status, q, QualificationTarget.REGIONAL_FINAL, "qualified", ""))
    return rows


def _one_row_per_entry(rows: list[dict]) -> list[dict]:
    """An entry that lost its place by playing the national qualifier and won one back there
    is recorded once, qualified, with the loss in its message."""
    merged: dict[tuple[str, str], dict] = {}
    for row in rows:
        key = (row["target"], row["key"])
        found = merged.get(key)
        if found is None:
            merged[key] = row
        elif row["status"] == QualificationStatus.QUALIFIED:
            merged[key] = {**row, "message": found["message"] or row["message"]}
        else:
            found["message"] = row["message"]
    return list(merged.values())


def _row(status: ChampionshipQualification, q, target: str, state: str, message: str) -> dict:
    right = QualificationRight(q.right)
    if right is QualificationRight.COMMITTEE_QUOTA:
        source = status.regional_finals.get(q.committee)
    elif right in (QualificationRight.NATIONAL_QUALIFIER, QualificationRight.REATTRIBUTED_PLACE):
        source = status.qualifier
    elif right is QualificationRight.REGIONAL_CHAMPION:
        source = status.previous_finals.get(q.committee)
    else:
        source = None
    team = q.entry.team
    return {
        "target": target,
        "key": entry_key(q.entry.licence_numbers),
        "licence_numbers": sorted(int(n) for n in q.entry.licence_numbers),
        "right": str(q.right),
        "status": state,
        "committee": int(q.committee) if q.committee else None,
        "place": q.place,
        "source_stage": source,
        "team": team,
        "message": message,
    }


@transaction.atomic
def qualification_record(*, championship: Championship, by) -> Recorded:
    """Record the qualifications as they stand (CCN). A row no longer computed is kept as
    ``withdrawn``; an interclubs team keeps the snapshot of its first recording."""
    _require(scope_of(by).national, "Only federation staff (CCN) record the qualifications.")
    championship = _locked_championship(championship)
    status = qualification_status(championship)
    rows = _one_row_per_entry(qualification_rows(status))
    existing = {
        (q.target, q.key): q for q in Qualification.objects.filter(championship=championship)
    }
    committees = {
        c.number: c
        for c in Committee.objects.filter(
            number__in=[int(r["committee"]) for r in rows if r["committee"]]
            + [int(r["team"].committee) for r in rows if r["team"]]
        )
    }
    clubs = {
        c.number: c
        for c in Club.objects.filter(number__in=[int(r["team"].club) for r in rows if r["team"]])
    }
    seen = set()
    saved = []
    for row in rows:
        seen.add((row["target"], row["key"]))
        q = existing.get((row["target"], row["key"])) or Qualification(
            championship=championship, target=row["target"], key=row["key"]
        )
        q.licence_numbers = row["licence_numbers"]
        q.right = row["right"]
        q.status = row["status"]
        q.committee = committees.get(row["committee"]) if row["committee"] else None
        q.place = row["place"]
        q.source_stage = row["source_stage"]
        q.message = row["message"]
        team = row["team"]
        if team is not None and q.team_club_id is None:
            q.team_club = clubs.get(int(team.club))
            q.team_committee = committees.get(int(team.committee))
            q.team_series = list(team.series)
            q.team_taken_on = team.taken_on
        q.recorded_by = by
        q._history_user = by
        q.save()
        saved.append(q)
    for key, q in existing.items():
        if key not in seen and q.status != QualificationStatus.WITHDRAWN:
            q.status = QualificationStatus.WITHDRAWN
            q.message = f"No longer qualified on {timezone.localdate():%Y-%m-%d}."
            q.recorded_by = by
            q._history_user = by
            q.save()
            saved.append(q)
    return Recorded(status, saved)


@dataclass(frozen=True)
class FinalField:
    created: list[ChampionshipEntry] = field(default_factory=list)
    withdrawn: list[ChampionshipEntry] = field(default_factory=list)
    refused: list[Problem] = field(default_factory=list)


@transaction.atomic
def national_final_register(*, championship: Championship, by) -> FinalField:
    """Record the qualifications, then enter every qualified entry in the national final,
    each checked on the day of the final (licence of the season then in course). Entries
    whose qualification was lost or withdrawn are withdrawn. Refusals are listed, the
    others entered."""
    _require(scope_of(by).national, "Only federation staff (CCN) register the national final.")
    final = (
        ChampionshipStage.objects.filter(
            championship=championship, kind=ChampionshipStageKind.NATIONAL_FINAL
        )
        .select_related(*selectors.STAGE_RELATED)
        .first()
    )
    if final is None:
        raise RuleViolation.single(
            "stage", "no_national_final", f"{championship} has no national final yet."
        )
    final = _locked_stage(final)
    _refuse(_stage_not_played(final))
    recorded = qualification_record(championship=championship, by=by)
    _version, rules = championship_rules_in_force(
        season=championship.season, kind=championship.kind
    )
    result = FinalField()
    entries = list(final.entries.select_related("qualification"))
    for entry in entries:
        q = entry.qualification
        if entry.status == EntryStatus.ELIGIBLE and (
            q is None or q.status != QualificationStatus.QUALIFIED
        ):
            _deactivate(entry, EntryStatus.WITHDRAWN, by)
            result.withdrawn.append(entry)
    registered = {e.qualification_id for e in entries if e.status == EntryStatus.ELIGIBLE}
    qualified = [
        q
        for q in recorded.qualifications
        if q.target == QualificationTarget.NATIONAL_FINAL
        and q.status == QualificationStatus.QUALIFIED
        and q.pk not in registered
    ]
    facts = players_facts(
        season=final.tournament.season,
        licence_numbers=[n for q in qualified for n in q.licence_numbers],
    )
    active = {n for key in selectors.entries_by_players(final) for n in key}
    number = max((e.number for e in entries), default=0)
    for q in qualified:
        prefix = f"qualified.{q.key}"
        problems = _entry_problems(final, list(q.licence_numbers), facts, rules, prefix)
        problems += [
            Problem(prefix, "already_entered", f"licence {n} is already in the national final.")
            for n in q.licence_numbers
            if n in active
        ]
        if problems:
            result.refused.extend(problems)
            continue
        number += 1
        extra = {"right": q.right, "qualification": q}
        entry = _create_entry(
            final, number, EntryRequest(tuple(q.licence_numbers)), facts, rules, by, **extra
        )
        if q.team_club_id is not None:  # article 16: the team as on its qualification day
            entry.club = q.team_club
            entry.committee = q.team_committee
            entry.series = q.team_series
            entry.save(update_fields=["club", "committee", "series"])
        active |= set(q.licence_numbers)
        result.created.append(entry)
    return result


# ---------------------------------------------------------------------------------------------
# Running a stage: seating (article 25), late arrivals and forfeits (article 26)


def _may_run(scope: Scope, user, stage: ChampionshipStage) -> bool:
    """The stage's arbiter, or the staff covering its organiser."""
    player_id = getattr(user, "player_id", None)
    return (player_id is not None and player_id == stage.tournament.arbiter_id) or (
        access.may_homologate(scope, stage.tournament)
    )


def champion_of(stage: ChampionshipStage) -> frozenset[int] | None:
    """The outgoing champion article 25 seats at table 1: the national champion at the
    national stages, last season's regional champion of the committee at its stages."""
    if stage.kind in NATIONAL_STAGE_KINDS:
        numbers, _final, _problems = outgoing_champion_numbers(stage.championship)
        return frozenset(numbers) if numbers else None
    committee = str(stage.regional.committee.number)
    for q in regional_champions(stage.championship).qualified:
        if q.committee == committee:
            return frozenset(int(n) for n in q.entry.licence_numbers)
    return None


@transaction.atomic
def seating_draw(*, stage: ChampionshipStage, seed: int | None = None, by) -> StageSeating:
    """Draw the first-session seating of a stage (article 25), before it is played."""
    stage = _locked_stage(stage)
    _require(
        _may_run(scope_of(by), by, stage),
        "Only the stage's arbiter or the staff covering its organiser seat the players.",
    )
    problems = _stage_not_played(stage)
    entries = list(selectors.stage_entries(stage))
    flagged = [e for e in entries if e.status == EntryStatus.FLAGGED]
    problems += [
        Problem(
            f"entries[{e.number}]",
            "team_flagged",
            f"team {e.number} ({e.team_name}) is flagged: its composition is no longer valid; "
            "withdraw it or settle the flag before seating.",
        )
        for e in flagged
    ]
    playing = [e for e in entries if e.status == EntryStatus.ELIGIBLE]
    _refuse(problems)
    kind = _kind(stage.championship)
    champion = champion_of(stage)
    entrants = []
    champion_id = None
    for e in playing:
        numbers = tuple(str(p.player.licence_number) for p in e.active_players)
        entrant_id = numbers[0] if kind.team_size == 1 else f"E{e.number}"
        if champion is not None and frozenset(int(n) for n in numbers) == champion:
            champion_id = entrant_id
        entrants.append(
            Entrant(
                entrant_id,
                numbers if kind.team_size > 1 else (),
                committee=str(e.committee.number) if e.committee else "",
                zone=str(e.committee.zone_id) if e.committee else "",
            )
        )
    players = sum(len(e.players) for e in entrants)
    plan = plan_movement(players, 1, kind.format)
    seed = secrets.randbits(62) if seed is None else seed
    seating = championship_seating(plan, entrants, random.Random(seed), champion=champion_id)
    entry_numbers = {
        (str(p.player.licence_number) if kind.team_size == 1 else f"E{e.number}"): e.number
        for e in playing
        for p in e.active_players
    }
    assignments = [
        {
            "number": a.number,
            "table": a.table,
            "orientation": str(a.orientation),
            "licence_number": int(a.player),
            "entry": entry_numbers[a.entrant],
        }
        for a in seating.assignments
    ]
    stored = StageSeating.objects.filter(stage=stage).first() or StageSeating(stage=stage)
    stored.seed = seed
    stored.tables = seating.tables
    stored.champion = champion_id or ""
    stored.assignments = assignments
    stored.drawn_by = by
    stored._history_user = by
    stored.save()
    return stored


@dataclass(frozen=True)
class LateArrivalRequest:
    licence_number: int
    lateness: dt.timedelta
    reason: str
    forfeit: bool = False
    substitute_licence_number: int | None = None


@transaction.atomic
def late_arrival_record(
    *, stage: ChampionshipStage, request: LateArrivalRequest, by
) -> StagePenalty:
    """Record a late arrival (article 26): 100 points per started 5 minutes, or, past 15
    minutes, the forfeit the arbiter may declare, with the planned substitute if any (who
    is checked for eligibility like any entry)."""
    stage = _locked_stage(stage)
    _require(
        _may_run(scope_of(by), by, stage),
        "Only the stage's arbiter or the staff covering its organiser record penalties.",
    )
    problems = _stage_not_played(stage)
    entered = selectors.entries_by_players(stage)
    entry = next((e for key, e in entered.items() if request.licence_number in key), None)
    if entry is None:
        problems.append(
            Problem(
                "licence_number",
                "not_entered",
                f"licence {request.licence_number} is not in an entry of this stage.",
            )
        )
    if not request.reason.strip():
        problems.append(Problem("reason", "required", "A penalty is recorded with its reason."))
    _refuse(problems)
    cost = late_arrival(request.lateness)  # refuses a negative lateness
    if request.substitute_licence_number is not None and not request.forfeit:
        problems.append(
            Problem(
                "substitute_licence_number",
                "substitute_without_forfeit",
                "A substitute plays only for a player declared forfeit.",
            )
        )
    if request.forfeit and not cost.forfeit_allowed:
        problems.append(
            Problem(
                "forfeit",
                "forfeit_not_allowed",
                f"{request.lateness} late: the arbiter may declare a forfeit only after 15 "
                "minutes of lateness (article 26).",
            )
        )
    _refuse(problems)
    player = Player.objects.get(licence_number=request.licence_number)
    substitute = None
    if request.forfeit:
        substitute = _forfeit(stage, entry, player, request.substitute_licence_number, by)
    penalty = StagePenalty(
        stage=stage,
        entry=entry,
        player=player,
        lateness=request.lateness,
        points=0 if request.forfeit else cost.points,
        forfeit=request.forfeit,
        substitute=substitute,
        reason=request.reason.strip(),
        recorded_by=by,
    )
    penalty._history_user = by
    penalty.save()
    return penalty


def _forfeit(
    stage: ChampionshipStage,
    entry: ChampionshipEntry,
    player: Player,
    substitute_number: int | None,
    by,
) -> Player | None:
    """Declare ``player`` forfeit: an individual entry is replaced by the substitute's own
    entry; in a duo or team the substitute takes the player's place (the composition is
    checked again); without a substitute a duo or team is forfeit as a whole."""
    kind = _kind(stage.championship)
    _version, rules = championship_rules_in_force(
        season=stage.championship.season, kind=stage.championship.kind
    )
    current = [p.player.licence_number for p in entry.active_players]
    if substitute_number is None:
        _deactivate(entry, EntryStatus.FORFEIT, by)
        return None
    if kind.team_size == 1:
        numbers = [substitute_number]
    else:
        numbers = [substitute_number if n == player.licence_number else n for n in current]
    facts = players_facts(season=stage.tournament.season, licence_numbers=numbers)
    problems = _entry_problems(stage, numbers, facts, rules, "substitute")
    others = {n for key in selectors.entries_by_players(stage) for n in key}
    if substitute_number in others:
        problems.append(
            Problem(
                "substitute_licence_number",
                "already_entered",
                f"licence {substitute_number} already plays in this stage.",
            )
        )
    _refuse(problems)
    substitute = facts.players[substitute_number]
    if kind.team_size == 1:
        _deactivate(entry, EntryStatus.FORFEIT, by)
        last = stage.entries.order_by("-number").first()
        _create_entry(stage, last.number + 1, EntryRequest((substitute_number,)), facts, rules, by)
        return substitute
    row = EntryPlayer.objects.get(entry=entry, player=player, active=True)
    row.active = False
    row.save(update_fields=["active"])
    EntryPlayer.objects.create(entry=entry, stage=stage, player=substitute, order=row.order)
    entry.facts = [facts_to_json(facts.facts[n]) for n in numbers]
    if kind is ChampionshipKind.INTERCLUBS:
        entry.series = [effective_series(facts.facts[n], rules) for n in numbers]
    entry._history_user = by
    entry.save(update_fields=["facts", "series"])
    return substitute


# ---------------------------------------------------------------------------------------------
# Results of a stage: the championship's checks, then the tournament's own path


def stage_compliance(stage: ChampionshipStage, results) -> list[Problem]:
    """Problems of ``results`` (a ``StageResults``) for this stage."""
    _version, rules = championship_rules_in_force(
        season=stage.championship.season, kind=stage.championship.kind
    )
    return stage_results_problems(
        kind=_kind(stage.championship),
        stage=championship_stage(stage.kind),
        rules=rules,
        results=results,
        entries=selectors.registered_entries([stage.pk]).get(stage.pk, []),
        plan=published_plan(stage),
        penalties=selectors.recorded_penalties([stage.pk]).get(stage.pk, []),
    )


@transaction.atomic
def stage_results_submit(*, stage: ChampionshipStage, content, source: str, by) -> Submitted:
    """Submit a stage's results: the championship's checks (entries, field, sessions,
    deals, published table, recorded penalties), then ``results_submit``."""
    stage = _locked_stage(stage)
    _require(
        access.may_manage(scope_of(by), stage.tournament),
        "Only the organiser's staff may submit a championship stage's results.",
    )
    document = parse_results(
        content=content, source=source, format=stage.tournament.format, championship=True
    )
    _refuse(stage_compliance(stage, selectors.results_of_document(document)))
    return results_submit(tournament=stage.tournament, content=content, source=source, by=by)


@transaction.atomic
def stage_homologate(*, stage: ChampionshipStage, by) -> Tournament:
    """Homologate a stage's latest results once they comply; PCN follow the stage's index
    and cap, or the national final's table."""
    stage = _locked_stage(stage)
    _require(
        access.may_homologate(scope_of(by), stage.tournament),
        "Only federation or committee staff above the organiser may homologate.",
    )
    revision = stage.tournament.revisions.order_by("-number").first()
    if revision is not None:
        results = selectors.results_of_revisions([revision.pk])[revision.pk]
        _refuse(stage_compliance(stage, results))
    return tournament_homologate(tournament=stage.tournament, by=by)


# ---------------------------------------------------------------------------------------------
# Interclubs teams: re-checked after each official ranking


@dataclass(frozen=True)
class Recheck:
    checked: int
    flagged: list[ChampionshipEntry]
    resolved: list[ChampionshipEntry]


@transaction.atomic
def interclubs_teams_recheck(*, season: Season, by=None) -> Recheck:
    """Re-check every interclubs team entered in a stage not yet played (the national final
    excepted: the team keeps its qualification-day series, article 16) against the current
    series; flag the teams whose composition is no longer allowed, clear the flags of those
    valid again, and keep each team's series current. ``by`` None: the background task."""
    if by is not None:
        _require(scope_of(by).national, "Only federation staff (CCN) re-check the teams.")
    entries = list(
        ChampionshipEntry.objects.select_for_update(of=("self",))
        .filter(
            stage__championship__kind=ChampionshipKindChoice.INTERCLUBS,
            stage__tournament__season=season,
            stage__tournament__status=TournamentStatus.DECLARED,
            status__in=[EntryStatus.ELIGIBLE, EntryStatus.FLAGGED],
        )
        .exclude(stage__kind=ChampionshipStageKind.NATIONAL_FINAL)
        .select_related("stage__championship__season")
        .prefetch_related(selectors.active_players())
    )
    numbers = {p.player.licence_number for e in entries for p in e.active_players}
    facts = players_facts(season=season, licence_numbers=numbers).facts
    rules_of: dict[int, ChampionshipRules] = {}
    for e in entries:
        championship = e.stage.championship
        if championship.pk not in rules_of:
            rules_of[championship.pk] = championship_rules_in_force(
                season=championship.season, kind=championship.kind
            )[1]
    open_flags = {
        f.entry_id: f for f in TeamFlag.objects.filter(entry__in=entries, resolved_at=None)
    }
    flagged, resolved = [], []
    now = timezone.now()
    for e in entries:
        rules = rules_of[e.stage.championship_id]
        team = [p.player.licence_number for p in e.active_players]
        current = {
            str(n): (effective_series(facts[n], rules) if n in facts else None) for n in team
        }
        flags = flag_invalid_teams(
            [RegisteredTeam(str(e.pk), tuple(str(n) for n in team))], current, rules
        )
        series = [current[str(n)] for n in team]
        old = open_flags.get(e.pk)
        if flags:
            flag = flags[0]
            if old is not None and old.code == flag.code and old.series == series:
                continue
            if old is not None:
                old.resolved_at = now
                old.save(update_fields=["resolved_at"])
            TeamFlag.objects.create(entry=e, code=flag.code, message=flag.message, series=series)
            e.status = EntryStatus.FLAGGED
            e._history_user = by
            e.save(update_fields=["status"])
            flagged.append(e)
            continue
        if old is not None:
            old.resolved_at = now
            old.save(update_fields=["resolved_at"])
            resolved.append(e)
        if e.status != EntryStatus.ELIGIBLE or e.series != series:
            e.status = EntryStatus.ELIGIBLE
            e.series = series
            e._history_user = by
            e.save(update_fields=["status", "series"])
    return Recheck(len(entries), flagged, resolved)
