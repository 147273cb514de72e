"""The per-season settings of each championship."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from competitions.rules.championships.championship_rules import ChampionshipRules
from core.problems import RuleViolation
from core.vocabulary import CHAMPIONSHIP_STAGE_KINDS, ChampionshipKind, StageKind


@pytest.mark.parametrize(
    ("kind", "min_field", "qualifier", "age", "window", "next_season"),
    [
        # articles 2 & 4; 8 & 10; 14 & (no qualifier), 16; 19 & 21 and the seniors' preamble
        (ChampionshipKind.INDIVIDUAL, 20, 80, None, (None, None), False),
        (ChampionshipKind.DUO, 10, 40, None, ((10, 1), (12, 20)), False),
        (ChampionshipKind.INTERCLUBS, 5, None, None, (None, (6, 30)), True),
        (ChampionshipKind.SENIORS, 20, 50, 60, (None, None), False),
    ],
)
def test_current_regulation(kind, min_field, qualifier, age, window, next_season):
    rules = ChampionshipRules.current(kind)
    assert rules.regional_final_min_field == min_field
    assert rules.national_qualifier_quota == qualifier
    assert rules.minimum_age == age
    assert (rules.regional_window_start, rules.regional_window_end) == window
    assert rules.national_final_next_season is next_season
    assert (rules.min_sessions, rules.min_deals_per_session) == (2, 20)
    assert (rules.max_points_divisor, rules.min_eliminated_share) == (2.0, 0.2)
    assert rules.validate() == []


def test_only_seniors_constrain_every_stage():
    flags = {
        k: ChampionshipRules.current(k).min_field_applies_to_every_stage for k in ChampionshipKind
    }
    assert flags == {
        ChampionshipKind.INDIVIDUAL: False,
        ChampionshipKind.DUO: False,
        ChampionshipKind.INTERCLUBS: False,
        ChampionshipKind.SENIORS: True,
    }


@pytest.mark.parametrize("kind", list(ChampionshipKind))
def test_round_trip_through_json(kind):
    rules = ChampionshipRules.current(kind)
    assert ChampionshipRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_missing_keys_take_the_current_regulation():
    rules = ChampionshipRules.from_dict({"kind": "duo", "national_qualifier_quota": 48})
    assert rules == replace(
        ChampionshipRules.current(ChampionshipKind.DUO), national_qualifier_quota=48
    )


def test_unknown_keys_and_kinds_are_refused():
    with pytest.raises(RuleViolation) as refused:
        ChampionshipRules.from_dict({"kind": "duo", "max_divisor": 3})
    assert [p.code for p in refused.value.problems] == ["unknown_setting"]
    with pytest.raises(RuleViolation) as refused:
        ChampionshipRules.from_dict({"kind": "mixed"})
    assert [p.code for p in refused.value.problems] == ["unknown_kind"]
    assert refused.value.problems[0].params == {
        "kind": "mixed",
        "kinds": "individual, duo, interclubs, seniors",
    }


def test_invalid_settings_are_refused_with_every_problem():
    with pytest.raises(RuleViolation) as refused:
        ChampionshipRules.from_dict(
            {
                "kind": "interclubs",
                "min_sessions": 0,
                "max_points_divisor": 0.5,
                "min_eliminated_share": 1.5,
                "regional_window_end": [6, 31],
                "series_product_exceptions": [[1, 1, 4]],
            }
        )
    assert sorted(p.field for p in refused.value.problems) == [
        "max_points_divisor",
        "min_eliminated_share",
        "min_sessions",
        "regional_window_end",
        "series_product_exceptions[0]",
    ]


def test_team_sizes():
    assert [k.team_size for k in ChampionshipKind] == [1, 2, 4, 1]


def test_championship_stages_are_the_pcn_stage_kinds_but_ordinary():
    assert [str(s) for s in StageKind if s in CHAMPIONSHIP_STAGE_KINDS] == [
        "regional_stage",
        "regional_semi_final",
        "regional_final",
        "national_qualifier",
        "national_final",
    ]
    assert {s for s in StageKind if s.is_regional} == {
        StageKind.REGIONAL_STAGE,
        StageKind.REGIONAL_SEMI_FINAL,
        StageKind.REGIONAL_FINAL,
    }
