"""Series policy: default ladder, lookups, return rule, JSON and validation."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.problems import RuleViolation
from rankings.rules.series import ManualPlacement, SeriesPolicy, Step

DEFAULT = SeriesPolicy.default()

DEFAULT_CODES = [
    *("4T", "4K", "4C", "4P", "4PR"),
    *("3T", "3K", "3C", "3P", "3PR"),
    *("2T", "2K", "2C", "2P", "2PR"),
    *("1T", "1K", "1C", "1P", "1N"),
]


def problem_keys(error: pytest.ExceptionInfo[RuleViolation]) -> set[tuple[str, str]]:
    return {(p.field, p.code) for p in error.value.problems}


# --- default policy ---------------------------------------------------------


def test_default_policy_is_valid_and_returns_itself():
    assert DEFAULT.validate() is DEFAULT
    assert DEFAULT.problems() == []


def test_default_ladder_lowest_first_with_bridge_steps():
    assert [step.code for step in DEFAULT.ladder] == DEFAULT_CODES
    assert [step.series for step in DEFAULT.ladder] == [4] * 5 + [3] * 5 + [2] * 5 + [1] * 5


@pytest.mark.parametrize(
    ("code", "label_fr", "label_en"),
    [
        ("4T", "4e série Trèfle", "4th series Clubs"),
        ("3K", "3e série Carreau", "3rd series Diamonds"),
        ("2C", "2e série Cœur", "2nd series Hearts"),
        ("2PR", "2e série Promotion", "2nd series Promotion"),
        ("1P", "1re série Pique", "1st series Spades"),
        ("1N", "1re série Nationale", "1st series National"),
    ],
)
def test_default_labels(code, label_fr, label_en):
    step = DEFAULT.step(code)
    assert (step.label_fr, step.label_en) == (label_fr, label_en)


@pytest.mark.parametrize(
    ("code", "top_share", "min_pp"),
    [
        ("4T", None, None),
        ("4K", "0.91", None),
        ("4PR", "0.64", None),
        ("3T", "0.55", None),
        ("2T", "0.21", None),
        ("2PR", "0.082", None),
        ("1T", "0.05", None),
        ("1P", "0.02", None),
        ("1N", "0.01", 1),
    ],
)
def test_default_shares(code, top_share, min_pp):
    step = DEFAULT.step(code)
    assert step.top_share == (None if top_share is None else Decimal(top_share))
    assert step.min_pp == min_pp
    assert step.min_pcn is None


def test_default_settings():
    assert DEFAULT.carry_over == (Decimal("0.8"),) * 4
    assert DEFAULT.entry_step == "4T"
    assert DEFAULT.returning_drop_steps == 1
    assert DEFAULT.max_demotion_steps == 1
    assert DEFAULT.pp_breaks_ties is True


def test_default_series_widths_are_five_sixteen_thirty_four_percent():
    share = {step.code: step.top_share for step in DEFAULT.ladder}
    assert share["1T"] == Decimal("0.05")
    assert share["2T"] - share["1T"] == Decimal("0.16")
    assert share["3T"] - share["2T"] == Decimal("0.34")


# --- lookups ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "series"),
    [("4T", 4), ("4PR", 4), ("3T", 3), ("3PR", 3), ("2K", 2), ("1T", 1), ("1N", 1)],
)
def test_series_of(code, series):
    assert DEFAULT.series_of(code) == series


def test_series_of_unknown_step_is_refused():
    with pytest.raises(RuleViolation) as error:
        DEFAULT.series_of("5T")
    assert problem_keys(error) == {("step", "unknown_step")}


@pytest.mark.parametrize(("series", "coefficient"), [(1, "0.5"), (2, "0.6"), (4, "0.8")])
def test_carry_over_for_series(series, coefficient):
    policy = replace(DEFAULT, carry_over=tuple(Decimal(c) for c in ("0.5", "0.6", "0.7", "0.8")))
    assert policy.carry_over_for(series) == Decimal(coefficient)


# --- step held during the season -------------------------------------------


@pytest.mark.parametrize(
    ("last_step", "missed", "drop", "expected"),
    [
        (None, 0, 1, "4T"),  # new licensee: entry step
        (None, 3, 1, "4T"),
        ("1C", 0, 1, "1C"),  # licensed last season: keeps the official step
        ("1C", 1, 1, "1K"),
        ("1C", 3, 1, "2PR"),  # crosses a series boundary
        ("2T", 1, 5, "3T"),  # a whole series per missed season
        ("2P", 2, 5, "4P"),
        ("4K", 5, 1, "4T"),  # never below the lowest step
        ("1N", 4, 0, "1N"),  # no drop configured
    ],
)
def test_season_step(last_step, missed, drop, expected):
    policy = replace(DEFAULT, returning_drop_steps=drop)
    assert policy.season_step(last_step, missed) == expected


def test_season_step_uses_configured_entry_step():
    assert replace(DEFAULT, entry_step="4C").season_step(None) == "4C"


def test_season_step_refuses_negative_gap_and_unknown_step():
    with pytest.raises(RuleViolation) as error:
        DEFAULT.season_step("1C", -1)
    assert problem_keys(error) == {("missed_seasons", "negative")}
    with pytest.raises(RuleViolation):
        DEFAULT.season_step("9Z", 0)


# --- JSON -------------------------------------------------------------------


def test_to_dict_is_json_and_round_trips():
    data = json.loads(json.dumps(DEFAULT.to_dict()))
    assert data["carry_over"] == ["0.8"] * 4
    assert data["ladder"][-1]["top_share"] == "0.01"
    assert SeriesPolicy.from_dict(data) == DEFAULT


def test_from_dict_accepts_numbers_and_absent_optional_step_fields():
    data = DEFAULT.to_dict()
    data["carry_over"] = [0.75, "0.8", 1, "0"]
    del data["ladder"][0]["min_pcn"]
    del data["ladder"][0]["top_share"]
    data["ladder"][1]["top_share"] = 0.91
    policy = SeriesPolicy.from_dict(data)
    assert policy.carry_over == (Decimal("0.75"), Decimal("0.8"), Decimal(1), Decimal(0))
    assert policy.ladder[1].top_share == Decimal("0.91")


thresholds = st.lists(st.integers(1, 100_000), min_size=19, max_size=19, unique=True)


@settings(max_examples=50, deadline=None)
@given(
    thresholds,
    st.lists(st.decimals(0, 1, places=3), min_size=4, max_size=4),
    st.integers(0, 5),
    st.one_of(st.none(), st.integers(0, 20)),
    st.booleans(),
)
def test_threshold_policies_round_trip(values, carry, drop, demotion, pp_breaks_ties):
    ladder = tuple(
        replace(step, top_share=None, min_pcn=None if index == 0 else sorted(values)[index - 1])
        for index, step in enumerate(DEFAULT.ladder)
    )
    policy = SeriesPolicy(
        ladder=ladder,
        carry_over=tuple(carry),
        returning_drop_steps=drop,
        max_demotion_steps=demotion,
        pp_breaks_ties=pp_breaks_ties,
    ).validate()
    assert SeriesPolicy.from_dict(json.loads(json.dumps(policy.to_dict()))) == policy


def _mutated(change):
    data = copy.deepcopy(DEFAULT.to_dict())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.pop("entry_step"), {("entry_step", "missing")}),
        (lambda d: d.update(colour="red"), {("colour", "unknown_field")}),
        (lambda d: d.update(ladder="4T"), {("ladder", "wrong_type")}),
        (lambda d: d.update(carry_over="0.8"), {("carry_over", "wrong_type")}),
        (lambda d: d["carry_over"].__setitem__(2, "abc"), {("carry_over[2]", "not_a_number")}),
        (lambda d: d["carry_over"].__setitem__(1, True), {("carry_over[1]", "wrong_type")}),
        (lambda d: d.update(returning_drop_steps="1"), {("returning_drop_steps", "wrong_type")}),
        (lambda d: d.update(max_demotion_steps=1.5), {("max_demotion_steps", "wrong_type")}),
        (lambda d: d.update(pp_breaks_ties="yes"), {("pp_breaks_ties", "wrong_type")}),
        (lambda d: d["ladder"].__setitem__(3, "4P"), {("ladder[3]", "wrong_type")}),
        (lambda d: d["ladder"][3].pop("code"), {("ladder[3].code", "missing")}),
        (lambda d: d["ladder"][3].update(series="4"), {("ladder[3].series", "wrong_type")}),
        (lambda d: d["ladder"][3].update(suit="P"), {("ladder[3].suit", "unknown_field")}),
        (lambda d: d["ladder"][3].update(top_share=[1]), {("ladder[3].top_share", "wrong_type")}),
        (lambda d: d["ladder"][3].update(min_pp="2"), {("ladder[3].min_pp", "wrong_type")}),
        # semantic problems are reported by validate(), with the same paths
        (lambda d: d.update(entry_step="5T"), {("entry_step", "unknown_step")}),
        (
            lambda d: d["ladder"][5].update(top_share="0.7"),
            {("ladder[5].top_share", "share_not_decreasing")},
        ),
        (lambda d: d["carry_over"].pop(), {("carry_over", "wrong_length")}),
    ],
)
def test_from_dict_reports_located_problems(change, expected):
    with pytest.raises(RuleViolation) as error:
        SeriesPolicy.from_dict(_mutated(change))
    assert problem_keys(error) == expected


def test_from_dict_collects_every_type_problem():
    def change(d):
        d["entry_step"] = 4
        d["ladder"][0]["series"] = None
        d["carry_over"][3] = {}

    with pytest.raises(RuleViolation) as error:
        SeriesPolicy.from_dict(_mutated(change))
    assert problem_keys(error) == {
        ("entry_step", "wrong_type"),
        ("ladder[0].series", "wrong_type"),
        ("carry_over[3]", "wrong_type"),
    }


def test_from_dict_refuses_non_object():
    with pytest.raises(RuleViolation) as error:
        SeriesPolicy.from_dict(["ladder"])  # type: ignore[arg-type]
    assert problem_keys(error) == {("", "wrong_type")}


# --- validation -------------------------------------------------------------


def _with_step(index, **changes):
    ladder = list(DEFAULT.ladder)
    ladder[index] = replace(ladder[index], **changes)
    return replace(DEFAULT, ladder=tuple(ladder))


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (
            replace(DEFAULT, ladder=()),
            {("ladder", "empty_ladder"), ("entry_step", "unknown_step")},
        ),
        (_with_step(3, code="4K"), {("ladder[3].code", "duplicate_step_code")}),
        (_with_step(3, code=" "), {("ladder[3].code", "missing_code")}),
        (_with_step(3, label_fr=""), {("ladder[3].label_fr", "missing_label")}),
        (_with_step(3, series=5), {("ladder[3].series", "series_out_of_range")}),
        (_with_step(6, series=4), {("ladder[6].series", "series_out_of_order")}),
        (_with_step(10, series=4), {("ladder[10].series", "series_out_of_order")}),
        (_with_step(0, min_pcn=10), {("ladder[0]", "lowest_step_has_criterion")}),
        (_with_step(0, min_pp=1), {("ladder[0]", "lowest_step_has_criterion")}),
        (_with_step(3, top_share=None), {("ladder[3]", "missing_criterion")}),
        (_with_step(3, min_pcn=500), {("ladder[3]", "ambiguous_criterion")}),
        (_with_step(3, top_share=Decimal(0)), {("ladder[3].top_share", "share_out_of_range")}),
        (
            _with_step(1, top_share=Decimal("1.5")),
            {("ladder[1].top_share", "share_out_of_range")},
        ),
        (
            _with_step(4, top_share=Decimal("0.8")),
            {("ladder[4].top_share", "share_not_decreasing")},
        ),
        (_with_step(19, min_pp=-1), {("ladder[19].min_pp", "threshold_out_of_range")}),
        (
            _with_step(1, top_share=None, min_pcn=0),
            {("ladder[1].min_pcn", "threshold_out_of_range")},
        ),
        (
            replace(DEFAULT, carry_over=(Decimal("0.8"),) * 3),
            {("carry_over", "wrong_length")},
        ),
        (
            replace(DEFAULT, carry_over=(Decimal("0.8"), Decimal("1.2"), *(Decimal("0.8"),) * 2)),
            {("carry_over[1]", "coefficient_out_of_range")},
        ),
        (replace(DEFAULT, entry_step="4Z"), {("entry_step", "unknown_step")}),
        (replace(DEFAULT, returning_drop_steps=-1), {("returning_drop_steps", "negative")}),
        (replace(DEFAULT, max_demotion_steps=-2), {("max_demotion_steps", "negative")}),
    ],
)
def test_validate_reports_located_problems(policy, expected):
    with pytest.raises(RuleViolation) as error:
        policy.validate()
    assert problem_keys(error) == expected


def test_thresholds_must_increase_going_up():
    ladder = tuple(
        replace(step, top_share=None, min_pcn=None if index == 0 else 100 * index)
        for index, step in enumerate(DEFAULT.ladder)
    )
    assert replace(DEFAULT, ladder=ladder).problems() == []
    broken = list(ladder)
    broken[7] = replace(broken[7], min_pcn=600)
    with pytest.raises(RuleViolation) as error:
        replace(DEFAULT, ladder=tuple(broken)).validate()
    assert problem_keys(error) == {("ladder[7].min_pcn", "threshold_not_increasing")}


def test_a_ladder_may_mix_thresholds_and_shares():
    policy = _with_step(19, top_share=None, min_pcn=20_000)
    assert policy.problems() == []


def test_ladder_must_cover_every_series():
    ladder = tuple(step for step in DEFAULT.ladder if step.series != 3)
    with pytest.raises(RuleViolation) as error:
        replace(DEFAULT, ladder=ladder).validate()
    assert problem_keys(error) == {("ladder", "missing_series")}


def test_validate_collects_every_problem():
    policy = replace(
        _with_step(2, code="4T"),
        entry_step="X",
        returning_drop_steps=-1,
        max_demotion_steps=-1,
    )
    with pytest.raises(RuleViolation) as error:
        policy.validate()
    assert problem_keys(error) == {
        ("ladder[2].code", "duplicate_step_code"),
        ("returning_drop_steps", "negative"),
        ("max_demotion_steps", "negative"),
    } | ({("entry_step", "unknown_step")})
    assert all(p.message.endswith(".") for p in error.value.problems)


def test_manual_placement_and_step_are_frozen():
    placement = ManualPlacement(player=1234, step="1T", reason="Article 7")
    with pytest.raises(AttributeError):
        placement.step = "1N"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Step("x", 4, "x", "x").code = "y"  # type: ignore[misc]
