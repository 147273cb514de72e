"""What the regulation decides when a stage is created: its sessions, and the published
regional stage it plays (no database)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    FieldBracket,
    RegionalRules,
    RegionalStage,
    SessionPlan,
)
from competitions.rules.championships.seasons import Season
from competitions.rules.championships.stage_plan import (
    PublishedRegionalRules,
    RegionalStageRequest,
    SeasonInForce,
    match_published_stage,
    plan_sessions,
)
from core.vocabulary import CHAMPIONSHIP_STAGE_KINDS, ChampionshipKind, StageKind

INDIVIDUAL = ChampionshipRules.current(ChampionshipKind.INDIVIDUAL)
SENIORS = ChampionshipRules.current(ChampionshipKind.SENIORS)
SEASON = Season.starting_in(2025)
TABLE = (FieldBracket(20, None, (SessionPlan(24), SessionPlan(24))),)


def codes(problems) -> list[str]:
    return [p.code for p in problems]


# --- sessions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "kind", "default"),
    [
        (INDIVIDUAL, StageKind.REGIONAL_STAGE, 1),
        (INDIVIDUAL, StageKind.REGIONAL_SEMI_FINAL, 1),
        (INDIVIDUAL, StageKind.REGIONAL_FINAL, 2),
        (INDIVIDUAL, StageKind.NATIONAL_QUALIFIER, 1),
        (INDIVIDUAL, StageKind.NATIONAL_FINAL, 2),
        (SENIORS, StageKind.REGIONAL_STAGE, 2),  # article 19: every seniors stage
        (SENIORS, StageKind.REGIONAL_SEMI_FINAL, 2),
        (SENIORS, StageKind.NATIONAL_QUALIFIER, 1),
    ],
)
def test_default_sessions(rules, kind, default):
    assert plan_sessions(kind, None, rules) == (plan := plan_sessions(kind, default, rules))
    assert plan.sessions == default
    assert plan.problems == ()


@pytest.mark.parametrize(
    ("rules", "kind"),
    [
        (INDIVIDUAL, StageKind.REGIONAL_FINAL),
        (SENIORS, StageKind.REGIONAL_STAGE),
        (SENIORS, StageKind.REGIONAL_FINAL),
    ],
)
def test_a_bound_stage_below_the_minimum_sessions_is_refused(rules, kind):
    plan = plan_sessions(kind, 1, rules)
    assert plan.sessions == 1
    (problem,) = plan.problems
    assert (problem.field, problem.code) == ("planned_sessions", "too_few_sessions")
    assert "at least 2 sessions of at least 20 deals" in problem.message


def test_an_unbound_stage_may_have_one_session_and_a_final_more():
    assert plan_sessions(StageKind.REGIONAL_STAGE, 1, INDIVIDUAL).problems == ()
    assert plan_sessions(StageKind.NATIONAL_FINAL, 1, INDIVIDUAL).problems == ()
    assert plan_sessions(StageKind.REGIONAL_FINAL, 5, INDIVIDUAL).problems == ()


def test_the_national_qualifier_is_played_in_one_session():
    (problem,) = plan_sessions(StageKind.NATIONAL_QUALIFIER, 2, INDIVIDUAL).problems
    assert (problem.field, problem.code) == ("planned_sessions", "qualifier_one_session")


@given(
    kind=st.sampled_from(sorted(CHAMPIONSHIP_STAGE_KINDS)),
    rules=st.sampled_from([ChampionshipRules.current(k) for k in ChampionshipKind]),
    requested=st.one_of(st.none(), st.integers(min_value=1, max_value=8)),
)
def test_the_default_is_always_accepted_and_a_request_kept(kind, rules, requested):
    plan = plan_sessions(kind, requested, rules)
    if requested is None:
        assert plan.problems == ()
    else:
        assert plan.sessions == requested


# --- the published stage a regional stage plays ---------------------------------------------

SEMI = RegionalStage(
    "Demi-finale", StageKind.REGIONAL_SEMI_FINAL, date(2026, 2, 1), date(2026, 2, 1)
)
SEMI_NORTH = RegionalStage(
    "Demi-finale nord", StageKind.REGIONAL_SEMI_FINAL, date(2026, 2, 7), date(2026, 2, 8)
)
FINAL = RegionalStage(
    "Finale régionale", StageKind.REGIONAL_FINAL, date(2026, 3, 7), date(2026, 3, 8), TABLE
)


def published(*stages: RegionalStage, version: int = 3) -> PublishedRegionalRules:
    return PublishedRegionalRules(
        version, RegionalRules("R01", ChampionshipKind.INDIVIDUAL, stages or (SEMI, FINAL))
    )


IN_FORCE = SeasonInForce(SEASON, "2025-2026", INDIVIDUAL)


def match(kind: StageKind, day: date, name: str = "", rules=None, in_force=IN_FORCE):
    return match_published_stage(
        RegionalStageRequest(kind, day, name), rules or published(), in_force
    )


def test_the_one_stage_of_its_kind_whose_dates_contain_the_day():
    found = match(StageKind.REGIONAL_FINAL, date(2026, 3, 8))
    assert found.stage == FINAL
    assert found.problems == ()


def test_a_named_stage_is_taken_whatever_the_others():
    rules = published(SEMI, SEMI_NORTH, FINAL)
    found = match(StageKind.REGIONAL_SEMI_FINAL, date(2026, 2, 7), "Demi-finale nord", rules)
    assert found.stage == SEMI_NORTH
    assert found.problems == ()


def test_an_unknown_name_matches_nothing_and_stops_there():
    found = match(StageKind.REGIONAL_FINAL, date(2027, 3, 8), "Finale")
    assert found.stage is None
    assert codes(found.problems) == ["unknown_stage"]  # the season is not looked at


def test_no_published_stage_of_the_kind():
    found = match(StageKind.REGIONAL_STAGE, date(2026, 1, 10))
    assert found.stage is None
    (problem,) = found.problems
    assert (problem.field, problem.code) == ("kind", "not_in_published_rules")


def test_a_day_outside_every_published_stage_of_the_kind_lists_their_dates():
    found = match(StageKind.REGIONAL_FINAL, date(2026, 3, 14))
    assert found.stage is None
    (problem,) = found.problems
    assert (problem.field, problem.code) == ("date", "outside_published_stage")
    assert "'Finale régionale': 2026-03-07 – 2026-03-08" in problem.message


def test_two_published_stages_on_the_day_must_be_named():
    overlapping = replace(SEMI_NORTH, start=date(2026, 2, 1))
    found = match(
        StageKind.REGIONAL_SEMI_FINAL, date(2026, 2, 1), rules=published(SEMI, overlapping, FINAL)
    )
    assert found.stage is None
    (problem,) = found.problems
    assert (problem.field, problem.code) == ("rules_stage", "ambiguous_stage")
    assert "'Demi-finale', 'Demi-finale nord'" in problem.message


def test_a_named_stage_of_another_kind_or_other_dates_is_refused_but_matched():
    found = match(StageKind.REGIONAL_SEMI_FINAL, date(2026, 3, 1), "Finale régionale")
    assert found.stage == FINAL
    assert codes(found.problems) == ["kind_differs_from_published", "outside_published_stage"]


def test_a_day_outside_the_season():
    late = replace(FINAL, start=date(2026, 6, 27), end=date(2026, 7, 4))
    rules = published(SEMI, late)
    found = match(StageKind.REGIONAL_FINAL, date(2026, 7, 2), rules=rules)
    assert found.stage == late
    assert [(p.code, p.message) for p in found.problems if p.field == "date"] == [
        ("outside_season", "2026-07-02 is outside season 2025-2026.")
    ]


def test_published_rules_that_no_longer_comply_are_reported_with_their_version():
    stricter = SeasonInForce(SEASON, "2025-2026", replace(INDIVIDUAL, min_deals_per_session=30))
    found = match(StageKind.REGIONAL_FINAL, date(2026, 3, 7), in_force=stricter)
    assert found.stage == FINAL  # still matched: the request is refused for the rules
    assert found.problems
    assert all(p.field.startswith("regional_rules.stages[1].") for p in found.problems)
    assert all(
        p.message.startswith("the published rules (version 3) no longer comply: ")
        for p in found.problems
    )
