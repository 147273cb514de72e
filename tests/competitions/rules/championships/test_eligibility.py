"""Entry checks: licences, seniors' age, DUO committees, interclubs clubs and series."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.eligibility import age_on, check_entry
from competitions.rules.championships.seasons import Season
from core.vocabulary import ChampionshipKind, StageKind
from tests.competitions.rules.championships.player_facts import make_player

AS_OF = date(2025, 11, 8)
SEASON = Season.starting_in(2025)


def check(kind, entrants, stage=StageKind.REGIONAL_FINAL, as_of=AS_OF, rules=None):
    rules = rules or ChampionshipRules.current(kind)
    return check_entry(kind, stage, entrants, SEASON, rules, as_of)


def codes(problems):
    return [p.code for p in problems]


@pytest.mark.parametrize("kind", list(ChampionshipKind))
def test_a_regular_entry_is_eligible(kind, player):
    entrants = [player(str(i), born=date(1950, 1, 1), series=4) for i in range(kind.team_size)]
    assert check(kind, entrants) == []


def test_unlicensed_player_is_refused_by_licence_number(player):
    (problem,) = check(ChampionshipKind.INDIVIDUAL, [player("123456", club=None)])
    assert problem.field == "entrants[0].licence"
    assert problem.code == "not_licensed"
    assert "licence 123456" in problem.message
    assert "2025-2026" in problem.message


def test_licence_taken_after_the_entry_day_is_refused(player):
    late = player("5", since=AS_OF + timedelta(days=1))
    assert codes(check(ChampionshipKind.INDIVIDUAL, [late])) == ["licence_not_yet_valid"]


def test_national_final_needs_the_licence_on_the_day(player):
    final_day = date(2026, 5, 24)
    late = player("5", since=final_day + timedelta(days=1))
    problems = check(ChampionshipKind.DUO, [late, player("6")], StageKind.NATIONAL_FINAL, final_day)
    (problem,) = problems
    assert problem.code == "licence_not_valid_on_final_day"
    assert problem.field == "entrants[0].licence.since"
    on_the_day = player("5", since=final_day)
    assert (
        check(ChampionshipKind.DUO, [on_the_day, player("6")], StageKind.NATIONAL_FINAL, final_day)
        == []
    )


def test_check_outside_the_season_is_reported(player):
    problems = check(ChampionshipKind.INDIVIDUAL, [player()], as_of=date(2026, 7, 2))
    assert codes(problems) == ["outside_season"]


def test_senior_too_young_is_refused_with_age_on_31_december(player):
    (problem,) = check(ChampionshipKind.SENIORS, [player("123456", born=date(1966, 3, 2))])
    assert problem.code == "too_young"
    assert problem.field == "entrants[0].birth_date"
    assert problem.message == "licence 123456: not 60 on 31 December 2025, 60 required."
    assert "1966" not in problem.message
    assert "59" not in problem.message


@pytest.mark.parametrize(
    ("born", "eligible"),
    [
        (date(1965, 12, 31), True),  # 60 on 31 December 2025 exactly
        (date(1965, 1, 1), True),
        (date(1966, 1, 1), False),  # turns 60 in the next calendar year
        (date(1940, 2, 29), True),
    ],
)
def test_senior_age_counts_on_31_december_of_the_season(player, born, eligible):
    # checked in November, before the 60th birthday for 1965-12-31: still eligible
    problems = check(ChampionshipKind.SENIORS, [player(born=born)])
    assert (problems == []) is eligible


def test_senior_age_uses_the_31_december_inside_the_season_even_when_checked_in_spring(player):
    problems = check(
        ChampionshipKind.SENIORS, [player(born=date(1965, 12, 31))], as_of=date(2026, 4, 1)
    )
    assert problems == []


def test_senior_without_birth_date_is_refused(player):
    assert codes(check(ChampionshipKind.SENIORS, [player(born=None)])) == ["birth_date_unknown"]


def test_duo_from_two_committees_is_refused(player):
    pair = [player("1", committee="R01", club="C01"), player("2", committee="R07", club="C70")]
    (problem,) = check(ChampionshipKind.DUO, pair)
    assert problem.code == "mixed_committees"
    assert "licence 1 in committee R01" in problem.message
    assert "licence 2 in committee R07" in problem.message


def test_duo_from_two_clubs_of_one_committee_and_any_series_is_eligible(player):
    pair = [player("1", club="C01", series=1), player("2", club="C02", series=4)]
    assert check(ChampionshipKind.DUO, pair) == []


def test_interclubs_team_from_two_clubs_is_refused(player):
    team = [player("1"), player("2"), player("3"), player("4", club="C02")]
    assert codes(check(ChampionshipKind.INTERCLUBS, team)) == ["mixed_clubs"]


def test_interclubs_invalid_composition_is_refused(player):
    team = [
        player("1", series=1),
        player("2", series=1),
        player("3", series=2),
        player("4", series=4),
    ]
    (problem,) = check(ChampionshipKind.INTERCLUBS, team)
    assert problem.code == "composition_not_allowed"
    assert problem.field == "entrants"


def test_interclubs_newcomers_count_as_fourth_series(player):
    team = [player("1", series=1), player("2", series=1)] + [
        player(n, previous=False, series=None) for n in ("3", "4")
    ]
    assert check(ChampionshipKind.INTERCLUBS, team) == []


def test_interclubs_national_final_keeps_the_qualification_day_club_and_series(player):
    moved = [
        player("1", series=1),
        player("2", series=1),
        player("3", series=2),
        player("4", club="C09"),
    ]
    final_day = date(2025, 10, 12)
    assert check(ChampionshipKind.INTERCLUBS, moved, StageKind.NATIONAL_FINAL, final_day) == []


def test_interclubs_has_no_national_qualifier(player):
    team = [player(str(i)) for i in range(4)]
    problems = check(ChampionshipKind.INTERCLUBS, team, StageKind.NATIONAL_QUALIFIER)
    assert codes(problems) == ["no_national_qualifier"]


def test_wrong_size_and_duplicate_players_are_reported_together(player):
    problems = check(ChampionshipKind.DUO, [player("1"), player("1"), player("2")])
    assert sorted(codes(problems)) == ["duplicate_player", "duplicate_player", "wrong_team_size"]


def test_every_problem_of_an_entry_is_collected(player):
    team = [
        player("1", club=None),
        player("2", club="C02", series=1),
        player("3", series=1),
        player("4", since=AS_OF + timedelta(days=3)),
    ]
    problems = check(ChampionshipKind.INTERCLUBS, team)
    assert sorted(codes(problems)) == [
        "composition_not_allowed",  # 3×1×1×3 = 9
        "licence_not_yet_valid",
        "mixed_clubs",
        "not_licensed",
    ]


def test_rules_of_another_kind_are_a_programming_error(player):
    with pytest.raises(ValueError, match="rules for duo"):
        check(ChampionshipKind.SENIORS, [player()], rules=ChampionshipRules.current("duo"))


def test_minimum_age_is_a_setting(player):
    rules = ChampionshipRules(ChampionshipKind.SENIORS, minimum_age=55)
    assert check(ChampionshipKind.SENIORS, [player(born=date(1970, 6, 1))], rules=rules) == []


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2025, 12, 31)))
def test_senior_eligible_iff_born_in_1965_or_earlier(born):
    problems = check(ChampionshipKind.SENIORS, [make_player(born=born)])
    assert (problems == []) is (born.year <= 1965)


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2030, 1, 1)), st.integers(0, 100))
def test_age_on_31_december_is_the_difference_of_years(born, years):
    assert age_on(born, date(born.year + years, 12, 31)) == years
    if (born.month, born.day) != (1, 1):
        assert age_on(born, date(born.year + years, 1, 1)) == years - 1
