"""The championship calendar checked for one change: a committee's rules against the
national dates, or a national stage against every committee's published rules."""

from __future__ import annotations

import datetime as dt

from competitions.championships.settings_versions import (
    pure_season,
)
from competitions.models import (
    NATIONAL_STAGE_KINDS,
    Championship,
    ChampionshipStage,
    ChampionshipStageKind,
    RegionalRulesVersion,
)
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    RegionalRules,
)
from competitions.rules.championships.season_calendar import (
    ChampionshipCalendar,
    check_championship_calendar,
)
from core.problems import Problem
from core.vocabulary import ChampionshipKind


def calendar_problems(
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
    regionals: tuple[RegionalRules, ...]
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
        kind=ChampionshipKind(championship.kind),
        season=pure_season(championship.season),
        national_final_start=final_day,
        national_final_end=final_day,
        national_qualifier_day=qualifier_day,
        regionals=regionals,
    )
    problems = check_championship_calendar(calendar, rules)
    if regional_rules is not None:  # the rules themselves were checked: keep the dates
        return [
            Problem(p.field.removeprefix("regionals[0]."), p.code, p.message, p.params)
            for p in problems
            if p.code == "regional_final_too_late"
        ]
    return [
        p
        for p in problems
        if not p.field.startswith("regionals") or p.code == "regional_final_too_late"
    ]
