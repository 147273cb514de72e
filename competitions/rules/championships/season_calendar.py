"""A season's four championships: regional championships, national qualifier and final.

Chapter 3: « Le championnat se déroule en deux étapes : championnat régional dans chaque
comité ou au qualificatif national ; finale nationale. » The national qualifier is held
« le jour précédant la finale nationale » at the same place (articles 4, 10, 21); the
interclubs have none, and their national final « se joue sur la saison d'après »
(article 16). The national final's PCN/PP table is chapter 5's and is applied by
``competitions.rules.pcn``, not here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import RegionalRules, check_regional_rules
from competitions.rules.championships.seasons import Season
from core.problems import Problem
from core.vocabulary import ChampionshipKind, StageKind


@dataclass(frozen=True, slots=True)
class ChampionshipCalendar:
    """One championship of one season; dates left ``None`` are not fixed yet."""

    kind: ChampionshipKind
    season: Season
    """The season of the regional championships."""
    national_final_start: date | None = None
    national_final_end: date | None = None
    national_qualifier_day: date | None = None
    regionals: tuple[RegionalRules, ...] = ()
    """One per committee."""


def expected_qualifier_day(final_start: date, rules: ChampionshipRules) -> date | None:
    """The day of the national qualifier for a final starting on ``final_start``."""
    if rules.national_qualifier_quota is None:
        return None
    return final_start - timedelta(days=rules.national_qualifier_days_before_final)


def national_final_season(season: Season, rules: ChampionshipRules) -> Season:
    """The season the national final is played in (the next one for the interclubs)."""
    return season.following() if rules.national_final_next_season else season


def check_championship_calendar(
    calendar: ChampionshipCalendar, rules: ChampionshipRules
) -> list[Problem]:
    """Every way the calendar breaks chapter 3, with the committees' regional rules."""
    if calendar.kind != rules.kind:
        raise ValueError(f"rules for {rules.kind} given to check a {calendar.kind} calendar")
    problems = _national_date_problems(calendar, rules)
    committees = Counter(r.committee for r in calendar.regionals)
    national_start = calendar.national_qualifier_day or calendar.national_final_start
    for i, regional in enumerate(calendar.regionals):
        where = f"regionals[{i}]"
        if regional.kind != calendar.kind:
            problems.append(
                Problem(
                    f"{where}.kind",
                    "wrong_kind",
                    f"committee {regional.committee}: {regional.kind} rules filed under the "
                    f"{calendar.kind} championship.",
                    {
                        "committee": regional.committee,
                        "kind": regional.kind,
                        "championship": calendar.kind,
                    },
                )
            )
            continue
        if committees[regional.committee] > 1:
            problems.append(
                Problem(
                    f"{where}.committee",
                    "duplicate_committee",
                    f"committee {regional.committee} publishes {committees[regional.committee]} "
                    "sets of rules for one championship.",
                    {"committee": regional.committee, "count": committees[regional.committee]},
                )
            )
        problems += [
            Problem(f"{where}.{p.field}", p.code, p.message, p.params)
            for p in check_regional_rules(regional, calendar.season, rules)
        ]
        for j, stage in enumerate(regional.stages):
            if (
                stage.kind is StageKind.REGIONAL_FINAL
                and national_start is not None
                and stage.end >= national_start
            ):
                problems.append(
                    Problem(
                        f"{where}.stages[{j}].end",
                        "regional_final_too_late",
                        f"committee {regional.committee}: the regional final ends on "
                        f"{stage.end}, not before the national stage on {national_start}.",
                        {
                            "committee": regional.committee,
                            "end": stage.end,
                            "national_start": national_start,
                        },
                    )
                )
    return problems


def _national_date_problems(
    calendar: ChampionshipCalendar, rules: ChampionshipRules
) -> list[Problem]:
    problems: list[Problem] = []
    final_season = national_final_season(calendar.season, rules)
    start, end = calendar.national_final_start, calendar.national_final_end
    for name, day in (("national_final_start", start), ("national_final_end", end)):
        if day is not None and not final_season.contains(day):
            problems.append(
                Problem(
                    name,
                    "national_final_outside_season",
                    f"the {calendar.kind} national final is played in season "
                    f"{final_season.label}; {day} is outside it.",
                    {"kind": calendar.kind, "season": final_season.label, "date": day},
                )
            )
    if start is not None and end is not None and end < start:
        problems.append(
            Problem(
                "national_final_end",
                "ends_before_start",
                f"the national final ends on {end}, before it starts on {start}.",
                {"start": start, "end": end},
            )
        )
    qualifier = calendar.national_qualifier_day
    if qualifier is not None and rules.national_qualifier_quota is None:
        problems.append(
            Problem(
                "national_qualifier_day",
                "no_national_qualifier",
                f"the {calendar.kind} championship has no national qualifier.",
                {"kind": calendar.kind},
            )
        )
    elif qualifier is not None and start is not None:
        expected = expected_qualifier_day(start, rules)
        if qualifier != expected:
            problems.append(
                Problem(
                    "national_qualifier_day",
                    "qualifier_not_day_before_final",
                    f"the national qualifier is on {qualifier}; it is held the day before "
                    f"the national final, {expected}.",
                    {"date": qualifier, "expected": expected},
                )
            )
    return problems


def check_season_calendars(
    season: Season,
    calendars: Sequence[ChampionshipCalendar],
    rules: Mapping[ChampionshipKind, ChampionshipRules],
) -> list[Problem]:
    """The four championships of a season, each once, each checked."""
    problems: list[Problem] = []
    kinds = Counter(c.kind for c in calendars)
    for kind in ChampionshipKind:
        if kinds[kind] == 0:
            problems.append(
                Problem(
                    "calendars",
                    "missing_championship",
                    f"season {season.label} has no {kind} championship.",
                    {"season": season.label, "kind": kind},
                )
            )
    for i, calendar in enumerate(calendars):
        where = f"calendars[{i}]"
        if kinds[calendar.kind] > 1:
            problems.append(
                Problem(
                    f"{where}.kind",
                    "duplicate_championship",
                    f"season {season.label} has {kinds[calendar.kind]} {calendar.kind} "
                    "championships.",
                    {"season": season.label, "count": kinds[calendar.kind], "kind": calendar.kind},
                )
            )
        if calendar.season != season:
            problems.append(
                Problem(
                    f"{where}.season",
                    "season_mismatch",
                    f"the {calendar.kind} calendar is for season {calendar.season.label}, "
                    f"not {season.label}.",
                    {
                        "kind": calendar.kind,
                        "season": season.label,
                        "calendar_season": calendar.season.label,
                    },
                )
            )
        problems += [
            Problem(f"{where}.{p.field}", p.code, p.message, p.params)
            for p in check_championship_calendar(calendar, rules[calendar.kind])
        ]
    return problems
