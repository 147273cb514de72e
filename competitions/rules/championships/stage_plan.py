"""What the regulation decides when a championship stage is created.

Two decisions, taken before the stage's tournament is declared:

- **its sessions**: a regional final (every regional stage where the minimum field applies
  to all, as for the seniors) is played in at least ``min_sessions`` sessions of at least
  ``min_deals_per_session`` deals (articles 2, 8, 14 and 19), and so is planned by default;
  the national final too; the national qualifier is played in one session (« en une
  séance »); any other stage defaults to one session;
- **the published stage it plays** (regional stages): the committee's « règlement du
  championnat régional » lists its stages (« stades ») with their dates; a stage is created
  from one of them — the one named, or the one of its kind whose dates contain the day —
  and its results are later checked against that stage's table. The published rules must
  still comply with the season's settings in force (they may have changed since).

Pure: the service loads the published rules and the settings, calls these functions and
stores the stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    RegionalRules,
    RegionalStage,
    check_regional_rules,
)
from competitions.rules.championships.seasons import Season
from core.problems import Problem
from core.vocabulary import REGIONAL_STAGE_KINDS, StageKind


@dataclass(frozen=True, slots=True)
class StageSessions:
    """The sessions a stage is declared with, and why the request is refused, if it is."""

    sessions: int
    problems: tuple[Problem, ...] = ()


def plan_sessions(
    kind: StageKind, requested: int | None, rules: ChampionshipRules
) -> StageSessions:
    """The sessions of a stage of ``kind``: ``requested`` when given, else the regulation's
    default; refused below the minimum of a bound stage, or other than one at the national
    qualifier."""
    bound = kind is StageKind.REGIONAL_FINAL or (
        kind in REGIONAL_STAGE_KINDS and rules.min_field_applies_to_every_stage
    )
    if requested is not None:
        sessions = requested
    elif kind is StageKind.NATIONAL_QUALIFIER:
        sessions = 1
    elif bound or kind is StageKind.NATIONAL_FINAL:
        sessions = rules.min_sessions
    else:
        sessions = 1
    problems = []
    if bound and sessions < rules.min_sessions:
        problems.append(
            Problem(
                "planned_sessions",
                "too_few_sessions",
                f"{sessions} session(s) planned; this stage has at least {rules.min_sessions} "
                f"sessions of at least {rules.min_deals_per_session} deals.",
                {
                    "sessions": sessions,
                    "min_sessions": rules.min_sessions,
                    "min_deals": rules.min_deals_per_session,
                },
            )
        )
    if kind is StageKind.NATIONAL_QUALIFIER and sessions != 1:
        problems.append(
            Problem(
                "planned_sessions",
                "qualifier_one_session",
                "The national qualifier is played in one session.",
                {"sessions": sessions},
            )
        )
    return StageSessions(sessions, tuple(problems))


@dataclass(frozen=True, slots=True)
class RegionalStageRequest:
    """A regional stage a committee asks to create, as the regulation sees it."""

    kind: StageKind
    day: date
    rules_stage: str = ""
    """The name of the published stage it plays; empty: the one published stage of its kind
    whose dates contain the day."""


@dataclass(frozen=True, slots=True)
class PublishedRegionalRules:
    """A committee's regional rules as published: which version, and what they say."""

    version: int
    rules: RegionalRules


@dataclass(frozen=True, slots=True)
class SeasonInForce:
    """The championship's season and its settings in force."""

    season: Season
    name: str
    """The season as the registry names it (the messages quote it)."""
    rules: ChampionshipRules


@dataclass(frozen=True, slots=True)
class PublishedStageMatch:
    """The published stage a regional stage plays (``None`` when none fits), and every
    problem of the request."""

    stage: RegionalStage | None
    problems: tuple[Problem, ...] = ()


def match_published_stage(
    request: RegionalStageRequest, published: PublishedRegionalRules, in_force: SeasonInForce
) -> PublishedStageMatch:
    """The stage of the committee's published rules that ``request`` plays.

    Problems, located in the request: the published rules no longer comply with the
    settings in force (``regional_rules.…``, the stage is still matched); no published stage
    by that name (``unknown_stage``) or of that kind (``not_in_published_rules``); the day
    outside the published dates (``outside_published_stage``); several published stages of
    the kind on that day (``ambiguous_stage``, name one); a named stage of another kind
    (``kind_differs_from_published``); the day outside the season (``outside_season``).
    """
    problems = [
        Problem(
            f"regional_rules.{p.field}",
            p.code,
            f"the published rules (version {published.version}) no longer comply: {p.message}",
            p.params,
        )
        for p in check_regional_rules(published.rules, in_force.season, in_force.rules)
    ]
    kind, day, name = request.kind, request.day, request.rules_stage
    candidates = [s for s in published.rules.stages if (s.name == name if name else s.kind is kind)]
    if name and not candidates:
        problems.append(
            Problem(
                "rules_stage",
                "unknown_stage",
                f"The published rules have no stage named {name!r}.",
                {"name": name},
            )
        )
        return PublishedStageMatch(None, tuple(problems))
    stage = None
    if not name:
        dated = [s for s in candidates if s.start <= day <= s.end]
        if len(dated) == 1:
            stage = dated[0]
        elif not candidates:
            problems.append(
                Problem(
                    "kind",
                    "not_in_published_rules",
                    f"The committee's published rules have no {kind} stage.",
                    {"kind": kind},
                )
            )
        elif not dated:
            problems.append(
                Problem(
                    "date",
                    "outside_published_stage",
                    f"{day} is outside the dates of every published {kind} stage ("
                    + ", ".join(f"{s.name!r}: {s.start} – {s.end}" for s in candidates)
                    + ").",
                    {"date": day, "kind": kind},
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
                    {"names": ", ".join(repr(s.name) for s in dated)},
                )
            )
    else:
        stage = candidates[0]
        if stage.kind is not kind:
            problems.append(
                Problem(
                    "kind",
                    "kind_differs_from_published",
                    f"Published stage {stage.name!r} is a {stage.kind}, not a {kind}.",
                    {"name": stage.name, "published_kind": stage.kind, "kind": kind},
                )
            )
        if not stage.start <= day <= stage.end:
            problems.append(
                Problem(
                    "date",
                    "outside_published_stage",
                    f"{day} is outside published stage {stage.name!r} "
                    f"({stage.start} – {stage.end}).",
                    {"date": day, "name": stage.name, "start": stage.start, "end": stage.end},
                )
            )
    if not in_force.season.contains(day):
        problems.append(
            Problem(
                "date",
                "outside_season",
                f"{day} is outside season {in_force.name}.",
                {"date": day, "season": in_force.name},
            )
        )
    return PublishedStageMatch(stage, tuple(problems))
