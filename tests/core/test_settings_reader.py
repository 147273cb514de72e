"""One reader for the four per-season settings: each reports every problem at once, each
located, and fills a missing key only where it declares the key optional."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from decimal import Decimal

import pytest

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import RegionalRules
from competitions.rules.rulebook import Rulebook
from core.problems import RuleViolation
from core.settings_reader import Codes, read_settings
from rankings.rules.series import SeriesPolicy


def refusal(read, data) -> list[tuple[str, str]]:
    with pytest.raises(RuleViolation) as refused:
        read(data)
    return [(p.field, p.code) for p in refused.value.problems]


# --- the helper ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Leaf:
    count: int
    share: Decimal | None = None


@dataclass(frozen=True)
class Tree:
    name: str
    leaves: tuple[Leaf, ...]


def test_every_problem_is_reported_with_its_location():
    data = {"leaves": [{"count": "3"}, {"count": 1, "share": "x", "colour": "red"}], "size": 2}
    assert refusal(lambda d: read_settings(Tree, d, optional={Leaf: {"share": None}}), data) == [
        ("size", "unknown_key"),
        ("name", "missing"),
        ("leaves[0].count", "wrong_type"),
        ("leaves[1].colour", "unknown_key"),
        ("leaves[1].share", "not_a_number"),
    ]


def test_a_key_is_optional_only_when_declared_so():
    data = {"name": "t", "leaves": [{"count": 1}]}
    assert refusal(lambda d: read_settings(Tree, d), data) == [("leaves[0].share", "missing")]
    tree = read_settings(Tree, data, optional={Leaf: {"share": None}})
    assert tree == Tree("t", (Leaf(1),))


def test_a_kind_keeps_its_codes_and_may_locate_a_missing_key_at_its_object():
    codes = Codes.uniform("malformed", missing_at_object=True)
    assert refusal(lambda d: read_settings(Tree, d, codes=codes, root="tree"), [1]) == [
        ("tree", "malformed")
    ]
    data = {"name": "t", "leaves": [{}]}
    assert refusal(lambda d: read_settings(Tree, d, codes=codes), data) == [
        ("leaves[0]", "malformed"),
        ("leaves[0]", "malformed"),
    ]


# --- the four readers -----------------------------------------------------------------------


def test_the_rulebook_reports_several_problems_at_once():
    data = copy.deepcopy(Rulebook.default().to_dict())
    del data["floor"]
    data["stages"]["regional_final"]["cap"] = "3000"
    data["national_finals"]["duo"][2]["pp"] = None
    data["formats"]["team4"]["beneficiary_rounding"] = "up"
    assert refusal(Rulebook.from_dict, data) == [
        ("floor", "missing"),
        ("formats.team4.beneficiary_rounding", "unknown_value"),
        ("stages.regional_final.cap", "wrong_type"),
        ("national_finals.duo[2].pp", "wrong_type"),
    ]


def test_the_series_policy_reports_several_problems_at_once():
    data = copy.deepcopy(SeriesPolicy.default().to_dict())
    del data["entry_step"]
    data["ladder"][2]["series"] = "4"
    data["ladder"][4]["colour"] = "red"
    data["carry_over"][1] = "zero"
    assert refusal(SeriesPolicy.from_dict, data) == [
        ("ladder[2].series", "wrong_type"),
        ("ladder[4].colour", "unknown_field"),
        ("carry_over[1]", "not_a_number"),
        ("entry_step", "missing"),
    ]


def test_the_championship_settings_report_several_problems_at_once():
    data = {
        "kind": "seniors",
        "min_sessions": "2",
        "regional_window_end": [6],
        "series_product_exceptions": [[1, 1, "3", 4]],
        "max_divisor": 2,
    }
    assert refusal(ChampionshipRules.from_dict, data) == [
        ("max_divisor", "unknown_setting"),
        ("min_sessions", "wrong_type"),
        ("regional_window_end", "wrong_type"),
        ("series_product_exceptions[0][2]", "wrong_type"),
    ]


def test_an_unknown_championship_does_not_hide_the_other_problems():
    assert refusal(ChampionshipRules.from_dict, {"kind": "mixed", "min_sessions": None}) == [
        ("kind", "unknown_kind"),
        ("min_sessions", "wrong_type"),
    ]


def test_the_championship_settings_take_the_kinds_regulation_for_a_missing_key():
    assert ChampionshipRules.from_dict({"kind": "duo"}) == ChampionshipRules.current("duo")


def test_the_regional_rules_report_several_problems_at_once():
    data = {
        "committee": "1",
        "kind": "duo",
        "stages": [
            {"name": "Demi", "kind": "ordinary", "start": "2026-02-01", "end": "2026-02-31"},
            {
                "name": "Finale",
                "kind": "regional_final",
                "start": "2026-03-01",
                "end": "2026-03-01",
                "brackets": [
                    {"min_entries": "10", "sessions": [{"deals": 20}, {"entries": 10}]},
                ],
            },
        ],
    }
    assert refusal(RegionalRules.from_dict, data) == [
        ("stages[0].kind", "malformed"),
        ("stages[0].end", "malformed"),
        ("stages[1].brackets[0].min_entries", "malformed"),
        ("stages[1].brackets[0].sessions[1]", "malformed"),  # its deals are missing
    ]
