"""A committee's published regional rules, checked against chapter 3."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    FieldBracket,
    PositionCut,
    RegionalRules,
    RegionalStage,
    SessionPlan,
    check_regional_rules,
)
from competitions.rules.championships.seasons import Season
from core.problems import RuleViolation
from core.vocabulary import ChampionshipKind, StageKind

SEASON = Season.starting_in(2025)

# A plan in the spirit of article 3: 20 to 39 players present, two sessions of 24 deals,
# the best 16 play the second session with points halved (4 of 20 = 20% eliminated).
SMALL = FieldBracket(20, 39, (SessionPlan(24), SessionPlan(24, entries=16, points_divisor=2)))
LARGE = FieldBracket(
    40,
    None,
    (
        SessionPlan(24),
        SessionPlan(
            24,
            entries=28,
            points_divisor=1.5,
            position_cuts=(PositionCut(after_position=3, entries=16, points_divisor=2),),
        ),
        SessionPlan(20, entries=8),
    ),
)


def final(**changes) -> RegionalStage:
    stage = RegionalStage(
        "Finale régionale",
        StageKind.REGIONAL_FINAL,
        date(2026, 3, 7),
        date(2026, 3, 8),
        (SMALL, LARGE),
    )
    return replace(stage, **changes)


def regional(kind=ChampionshipKind.INDIVIDUAL, *stages: RegionalStage) -> RegionalRules:
    return RegionalRules("R01", kind, stages or (final(),))


def check(regional_rules: RegionalRules):
    return check_regional_rules(
        regional_rules, SEASON, ChampionshipRules.current(regional_rules.kind)
    )


def codes(problems):
    return sorted(p.code for p in problems)


def test_compliant_rules_pass():
    semi = RegionalStage(
        "Demi-finale", StageKind.REGIONAL_SEMI_FINAL, date(2026, 2, 1), date(2026, 2, 1)
    )
    assert check(regional(ChampionshipKind.INDIVIDUAL, semi, final())) == []


@pytest.mark.parametrize(
    ("kind", "minimum"),
    [
        (ChampionshipKind.INDIVIDUAL, 20),
        (ChampionshipKind.SENIORS, 20),
        (ChampionshipKind.DUO, 10),
        (ChampionshipKind.INTERCLUBS, 5),
    ],
)
def test_minimum_field_of_the_regional_final(kind, minimum):
    stage = final(
        start=date(2025, 11, 8),
        end=date(2025, 11, 8),
        brackets=(FieldBracket(minimum, None, (SessionPlan(20), SessionPlan(20))),),
    )
    assert check(regional(kind, stage)) == []
    below = replace(stage, brackets=(FieldBracket(minimum - 1, None, stage.brackets[0].sessions),))
    (problem,) = check(regional(kind, below))
    assert problem.code == "field_below_minimum"
    assert problem.field == "stages[0].brackets[0].min_entries"


def test_one_session_and_short_sessions_are_refused():
    stage = final(brackets=(FieldBracket(20, None, (SessionPlan(19),)),))
    problems = check(regional(ChampionshipKind.INDIVIDUAL, stage))
    assert codes(problems) == ["too_few_deals", "too_few_sessions"]
    assert {p.field for p in problems} == {
        "stages[0].brackets[0].sessions",
        "stages[0].brackets[0].sessions[0].deals",
    }


def test_earlier_stages_are_free_for_individual_but_not_for_seniors():
    # Article 2 constrains the regional final only; article 19 every seniors qualifier.
    stage = RegionalStage(
        "Qualificatif départemental",
        StageKind.REGIONAL_STAGE,
        date(2025, 10, 4),
        date(2025, 10, 4),
        (FieldBracket(8, None, (SessionPlan(15),)),),
    )
    assert check(regional(ChampionshipKind.INDIVIDUAL, stage, final())) == []
    assert codes(check(regional(ChampionshipKind.SENIORS, stage, final()))) == [
        "field_below_minimum",
        "too_few_deals",
        "too_few_sessions",
    ]


def test_seniors_stage_without_table_is_refused():
    stage = RegionalStage(
        "Challenge 1", StageKind.REGIONAL_STAGE, date(2025, 10, 4), date(2025, 10, 4)
    )
    assert codes(check(regional(ChampionshipKind.SENIORS, stage, final()))) == ["missing_table"]


def test_division_by_more_than_two_is_refused():
    bracket = FieldBracket(20, 39, (SessionPlan(24), SessionPlan(24, entries=10, points_divisor=3)))
    (problem,) = check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,))))
    assert problem.code == "division_too_large"
    assert problem.field == "stages[0].brackets[0].sessions[1].points_divisor"


def test_division_without_eliminating_twenty_percent_is_refused():
    # 20 to 39 present, 17 kept: only 3 of 20 (15%) eliminated in the smallest field.
    bracket = FieldBracket(20, 39, (SessionPlan(24), SessionPlan(24, entries=17, points_divisor=2)))
    (problem,) = check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,))))
    assert problem.code == "too_few_eliminated"
    assert "3 of 20 entries (15%)" in problem.message


def test_division_with_everyone_kept_is_refused():
    bracket = FieldBracket(20, 39, (SessionPlan(24), SessionPlan(24, points_divisor=2)))
    assert codes(check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,))))) == [
        "too_few_eliminated"
    ]


def test_elimination_without_division_is_free():
    bracket = FieldBracket(20, 39, (SessionPlan(24), SessionPlan(24, entries=19)))
    assert check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,)))) == []


def test_division_at_a_position_is_checked_like_one_between_sessions():
    cut = PositionCut(after_position=2, entries=12, points_divisor=2)  # 12 of 16 kept: 25%
    bracket = FieldBracket(
        20,
        39,
        (SessionPlan(24), SessionPlan(24, entries=16, points_divisor=2, position_cuts=(cut,))),
    )
    assert check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,)))) == []
    bad = replace(cut, entries=14)  # 2 of 16: 12.5%
    bracket = replace(
        bracket, sessions=(SessionPlan(24), replace(bracket.sessions[1], position_cuts=(bad,)))
    )
    (problem,) = check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,))))
    assert problem.field == "stages[0].brackets[0].sessions[1].position_cuts[0].points_divisor"
    assert problem.code == "too_few_eliminated"


def test_field_cannot_grow_and_positions_must_follow():
    cuts = (PositionCut(3, 12), PositionCut(2, 8))
    bracket = FieldBracket(
        20, 39, (SessionPlan(24), SessionPlan(24, entries=24, position_cuts=cuts))
    )
    assert codes(check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,))))) == [
        "field_exceeds_previous",
        "position_order",
    ]


def test_first_session_cannot_divide_points():
    bracket = FieldBracket(20, 39, (SessionPlan(24, points_divisor=2), SessionPlan(24)))
    assert codes(check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,))))) == [
        "nothing_to_divide"
    ]


def test_overlapping_and_gapped_rows_are_refused():
    a = FieldBracket(20, 30, SMALL.sessions)
    b = FieldBracket(28, 40, SMALL.sessions)
    c = FieldBracket(45, None, SMALL.sessions)
    problems = check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(a, b, c))))
    assert codes(problems) == ["gap_between_brackets", "overlapping_brackets"]


def test_regional_final_is_required_and_unique_and_last():
    semi = RegionalStage(
        "Demi", StageKind.REGIONAL_SEMI_FINAL, date(2026, 3, 14), date(2026, 3, 14)
    )
    assert codes(check(regional(ChampionshipKind.INDIVIDUAL, semi))) == ["no_regional_final"]
    assert codes(check(regional(ChampionshipKind.INDIVIDUAL, final(), final()))) == [
        "several_regional_finals"
    ]
    (problem,) = check(regional(ChampionshipKind.INDIVIDUAL, final(), semi))
    assert (problem.code, problem.field) == ("after_regional_final", "stages[1].end")


def test_national_stage_is_not_a_regional_stage():
    stray = RegionalStage(
        "Qualificatif", StageKind.NATIONAL_QUALIFIER, date(2026, 1, 4), date(2026, 1, 4)
    )
    assert codes(check(regional(ChampionshipKind.INDIVIDUAL, stray, final()))) == [
        "not_a_regional_stage"
    ]


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (date(2025, 10, 1), date(2025, 12, 20), []),
        (date(2025, 9, 30), date(2025, 10, 1), ["before_window"]),
        (date(2025, 12, 20), date(2025, 12, 21), ["after_window"]),
        (date(2026, 1, 10), date(2026, 1, 10), ["after_window"]),
    ],
)
def test_duo_regional_championship_between_1_october_and_20_december(start, end, expected):
    stage = final(
        start=start, end=end, brackets=(FieldBracket(10, None, (SessionPlan(20), SessionPlan(20))),)
    )
    assert codes(check(regional(ChampionshipKind.DUO, stage))) == expected


def test_interclubs_regional_championship_finished_by_30_june():
    bracket = FieldBracket(5, None, (SessionPlan(20), SessionPlan(20)))
    on_time = final(start=date(2026, 6, 27), end=date(2026, 6, 30), brackets=(bracket,))
    assert check(regional(ChampionshipKind.INTERCLUBS, on_time)) == []
    late = replace(on_time, end=date(2026, 7, 1))
    assert codes(check(regional(ChampionshipKind.INTERCLUBS, late))) == [
        "after_window",
        "outside_season",
    ]


def test_stage_ending_before_it_starts_is_refused():
    stage = final(start=date(2026, 3, 8), end=date(2026, 3, 7))
    assert codes(check(regional(ChampionshipKind.INDIVIDUAL, stage))) == ["ends_before_start"]


def test_round_trip_through_a_dict():
    rules = regional(
        ChampionshipKind.INDIVIDUAL,
        RegionalStage("Demi", StageKind.REGIONAL_SEMI_FINAL, date(2026, 2, 1), date(2026, 2, 1)),
        final(),
    )
    assert RegionalRules.from_dict(rules.to_dict()) == rules


def test_malformed_dict_is_refused_with_a_location():
    data = regional().to_dict()
    del data["stages"][0]["brackets"][1]["sessions"][2]["deals"]
    with pytest.raises(RuleViolation) as refused:
        RegionalRules.from_dict(data)
    assert refused.value.problems[0].field == "stages[0].brackets[1].sessions[2]"


def test_rules_of_another_kind_are_a_programming_error():
    with pytest.raises(ValueError, match="rules for duo"):
        check_regional_rules(regional(), SEASON, ChampionshipRules.current("duo"))


@settings(max_examples=200, deadline=None)
@given(
    low=st.integers(20, 200),
    kept=st.integers(1, 200),
    divisor=st.sampled_from([1.0, 1.25, 1.5, 2.0, 2.5]),
)
def test_a_cut_is_accepted_iff_the_rule_in_words_holds(low, kept, divisor):
    bracket = FieldBracket(
        low, None, (SessionPlan(20), SessionPlan(20, entries=kept, points_divisor=divisor))
    )
    problems = check(regional(ChampionshipKind.INDIVIDUAL, final(brackets=(bracket,))))
    eliminated = low - kept
    expected = kept <= low and (divisor == 1 or (divisor <= 2 and 5 * eliminated >= low))
    assert (problems == []) is expected


@pytest.mark.parametrize("kind", list(ChampionshipKind))
def test_the_divisor_of_arts_3_9_15_and_20_is_the_seasons_setting(kind):
    """« Les points peuvent être divisés (au maximum) par 2 »: a championship-rules
    setting per kind; a season that forbids dividing refuses the halved plan."""
    rules = regional(kind)
    window = {"after_window", "before_window"}  # the DUO's dates: not this test's matter
    assert {p.code for p in check(rules)} <= window
    strict = replace(ChampionshipRules.current(kind), max_points_divisor=1.0)
    refused = check_regional_rules(rules, SEASON, strict)
    assert "division_too_large" in codes(refused)
    laxer = replace(ChampionshipRules.current(kind), min_eliminated_share=0.5)
    assert "too_few_eliminated" in codes(check_regional_rules(rules, SEASON, laxer))
