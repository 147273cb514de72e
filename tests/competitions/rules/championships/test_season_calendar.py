"""The four championships of a season and their national dates."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    FieldBracket,
    RegionalRules,
    RegionalStage,
    SessionPlan,
)
from competitions.rules.championships.season_calendar import (
    ChampionshipCalendar,
    check_championship_calendar,
    check_season_calendars,
    expected_qualifier_day,
)
from competitions.rules.championships.seasons import Season
from core.vocabulary import ChampionshipKind, StageKind

SEASON = Season.starting_in(2025)
RULES = {k: ChampionshipRules.current(k) for k in ChampionshipKind}
PLAN = (SessionPlan(20), SessionPlan(20))


def regional(kind, committee="R01", final_day=date(2026, 3, 7)) -> RegionalRules:
    minimum = RULES[kind].regional_final_min_field
    stage = RegionalStage(
        "Finale",
        StageKind.REGIONAL_FINAL,
        final_day,
        final_day,
        (FieldBracket(minimum, None, PLAN),),
    )
    return RegionalRules(committee, kind, (stage,))


CALENDARS = {
    ChampionshipKind.INDIVIDUAL: ChampionshipCalendar(
        ChampionshipKind.INDIVIDUAL,
        SEASON,
        date(2026, 5, 16),
        date(2026, 5, 17),
        date(2026, 5, 15),
        (regional(ChampionshipKind.INDIVIDUAL),),
    ),
    ChampionshipKind.DUO: ChampionshipCalendar(
        ChampionshipKind.DUO,
        SEASON,
        date(2026, 2, 14),
        date(2026, 2, 15),
        date(2026, 2, 13),
        (regional(ChampionshipKind.DUO, final_day=date(2025, 12, 13)),),
    ),
    ChampionshipKind.INTERCLUBS: ChampionshipCalendar(
        ChampionshipKind.INTERCLUBS,
        SEASON,
        date(2026, 10, 10),
        date(2026, 10, 11),
        None,
        (regional(ChampionshipKind.INTERCLUBS, final_day=date(2026, 6, 20)),),
    ),
    ChampionshipKind.SENIORS: ChampionshipCalendar(
        ChampionshipKind.SENIORS,
        SEASON,
        date(2026, 4, 9),
        date(2026, 4, 10),
        date(2026, 4, 8),
        (regional(ChampionshipKind.SENIORS),),
    ),
}


def check(kind, **changes):
    return check_championship_calendar(replace(CALENDARS[kind], **changes), RULES[kind])


def codes(problems):
    return sorted(p.code for p in problems)


def test_a_season_with_its_four_championships_passes():
    assert check_season_calendars(SEASON, list(CALENDARS.values()), RULES) == []


def test_missing_and_duplicate_championships_are_reported():
    calendars = [CALENDARS[ChampionshipKind.DUO], CALENDARS[ChampionshipKind.DUO]]
    problems = check_season_calendars(SEASON, calendars, RULES)
    assert codes(problems) == ["duplicate_championship"] * 2 + ["missing_championship"] * 3


def test_national_qualifier_is_the_day_before_the_final():
    assert expected_qualifier_day(date(2026, 5, 16), RULES[ChampionshipKind.INDIVIDUAL]) == date(
        2026, 5, 15
    )
    assert expected_qualifier_day(date(2026, 5, 16), RULES[ChampionshipKind.INTERCLUBS]) is None
    (problem,) = check(ChampionshipKind.INDIVIDUAL, national_qualifier_day=date(2026, 5, 14))
    assert (problem.field, problem.code) == (
        "national_qualifier_day",
        "qualifier_not_day_before_final",
    )


def test_interclubs_final_is_played_next_season_without_qualifier():
    problems = check(
        ChampionshipKind.INTERCLUBS,
        national_final_start=date(2026, 6, 27),
        national_final_end=date(2026, 6, 28),
        national_qualifier_day=date(2026, 6, 26),
    )
    assert codes(problems) == [
        "national_final_outside_season",
        "national_final_outside_season",
        "no_national_qualifier",
    ]


def test_individual_final_outside_the_season_is_refused():
    problems = check(
        ChampionshipKind.INDIVIDUAL,
        national_final_start=date(2026, 7, 4),
        national_final_end=date(2026, 7, 5),
        national_qualifier_day=date(2026, 7, 3),
    )
    assert codes(problems) == ["national_final_outside_season"] * 2


def test_regional_final_after_the_national_stage_is_refused():
    late = regional(ChampionshipKind.INDIVIDUAL, final_day=date(2026, 5, 15))
    (problem,) = check(ChampionshipKind.INDIVIDUAL, regionals=(late,))
    assert (problem.field, problem.code) == (
        "regionals[0].stages[0].end",
        "regional_final_too_late",
    )


def test_committee_problems_are_located_under_the_calendar():
    broken = regional(ChampionshipKind.DUO, final_day=date(2026, 1, 10))
    twice = (broken, regional(ChampionshipKind.DUO, final_day=date(2025, 12, 13)))
    problems = check(ChampionshipKind.DUO, regionals=twice)
    assert [(p.field, p.code) for p in problems] == [
        ("regionals[0].committee", "duplicate_committee"),
        ("regionals[0].stages[0].end", "after_window"),
        ("regionals[1].committee", "duplicate_committee"),
    ]


def test_rules_filed_under_the_wrong_championship_are_refused():
    problems = check(ChampionshipKind.SENIORS, regionals=(regional(ChampionshipKind.INDIVIDUAL),))
    assert codes(problems) == ["wrong_kind"]


def test_undecided_dates_are_not_problems():
    calendar = ChampionshipCalendar(ChampionshipKind.SENIORS, SEASON)
    assert check_championship_calendar(calendar, RULES[ChampionshipKind.SENIORS]) == []
