"""The season's rulebook: defaults from the text, JSON round trip, located validation."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from competitions.rules.engine.movements.settings import ShortTableRule
from competitions.rules.pcn.allocation import RankedEntry, allocate
from competitions.rules.rulebook import (
    BeneficiaryRounding,
    EventKind,
    IndexOrder,
    NationalFinal,
    Organizer,
    PlaceRange,
    Rulebook,
)
from core.problems import RuleViolation
from core.vocabulary import Format, StageKind

RULEBOOK = Rulebook.default()


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("first_place_points_per_table", 40),
        ("floor", 50),
        ("index_order", IndexOrder.INDEX_BEFORE_BOUNDS),
        ("reduction.reference_tables", 3),
        ("reduction.coefficient_at_reference", Decimal("0.69")),
        ("reduction.step_per_table", Decimal("0.01")),
        ("reduction.maximum", Decimal("0.95")),
        ("formats.individual.coefficient_exponent", 1),
        ("formats.duo.coefficient_exponent", 2),
        ("formats.team4.coefficient_exponent", 4),
        ("formats.individual.minimum_coefficient", Decimal("0.5")),
        ("formats.team4.minimum_coefficient", Decimal("0.5")),
        ("formats.individual.minimum_entries", 11),
        ("formats.duo.minimum_entries", 6),
        ("formats.team4.minimum_entries", 5),
        ("formats.individual.beneficiary_rounding", BeneficiaryRounding.DOWN),
        ("formats.duo.beneficiary_rounding", BeneficiaryRounding.DOWN),
        ("formats.team4.beneficiary_rounding", BeneficiaryRounding.HALF_UP),
        ("formats.duo.beneficiary_fraction", Decimal("0.5")),
        ("stages.ordinary.index", Decimal("1")),
        ("stages.regional_semi_final.index", Decimal("1.5")),
        ("stages.regional_final.index", Decimal("1.8")),
        ("stages.ordinary.cap", 1500),
        ("stages.regional_stage.cap", 3000),
        ("stages.regional_semi_final.cap", 3000),
        ("stages.regional_final.cap", 3000),
        ("stages.ordinary.tie_break_rules", False),
        ("stages.regional_final.tie_break_rules", True),
        ("national_finals.tie_break_rules", True),
        ("movements.short_table_rule", ShortTableRule.BEST_EFFORT),
    ],
)
def test_defaults_are_the_current_regulation(path: str, value: object) -> None:
    node: Any = RULEBOOK
    for name in path.split("."):
        node = getattr(node, name)
    assert node == value


def test_default_homologation_lists() -> None:
    assert RULEBOOK.homologation.organizers == {
        Organizer.FFT,
        Organizer.ZONE,
        Organizer.REGIONAL_COMMITTEE,
        Organizer.AFFILIATED_CLUB,
    }
    assert RULEBOOK.homologation.arbiter_may_not_play_in == {
        EventKind.OFFICIAL_CHAMPIONSHIP,
        EventKind.TEAM_MATCH,
        EventKind.FESTIVAL,
    }
    assert RULEBOOK.homologation.forbidden_table_size == 5


def test_vocabulary() -> None:
    assert [f.team_size for f in Format] == [1, 2, 4]
    assert NationalFinal.SENIORS.format is Format.INDIVIDUAL
    assert [s.value for s in StageKind] == [
        "ordinary",
        "regional_stage",
        "regional_semi_final",
        "regional_final",
        "national_qualifier",
        "national_final",
    ]


def test_the_default_is_valid() -> None:
    RULEBOOK.validate()


def test_json_round_trip() -> None:
    data = json.loads(json.dumps(RULEBOOK.to_dict()))
    assert data["reduction"]["coefficient_at_reference"] == "0.69"
    assert data["national_finals"]["seniors"][-1] == {
        "first": 87,
        "last": 172,
        "pcn": 500,
        "pp": 0,
    }
    assert Rulebook.from_dict(data) == RULEBOOK


def test_numbers_may_be_given_as_json_numbers() -> None:
    data = RULEBOOK.to_dict()
    data["stages"]["regional_final"]["index"] = 1.8
    data["stages"]["ordinary"]["index"] = 1
    book = Rulebook.from_dict(data)
    assert book.stages.regional_final.index == Decimal("1.8")
    assert book.stages.ordinary.index == Decimal("1")


def _problems_of_dict(data: object) -> list[tuple[str, str]]:
    with pytest.raises(RuleViolation) as excinfo:
        Rulebook.from_dict(data)
    return [(p.field, p.code) for p in excinfo.value.problems]


def _edited(edit: Any) -> dict[str, Any]:
    data = copy.deepcopy(RULEBOOK.to_dict())
    edit(data)
    return data


@pytest.mark.parametrize(
    ("edit", "problems"),
    [
        (lambda d: d.pop("floor"), [("floor", "missing")]),
        (
            lambda d: d["formats"]["duo"].pop("minimum_entries"),
            [("formats.duo.minimum_entries", "missing")],
        ),
        (lambda d: d.update(flor=50), [("flor", "unknown_key")]),
        (
            lambda d: d["stages"]["ordinary"].update(indice="1"),
            [("stages.ordinary.indice", "unknown_key")],
        ),
        (lambda d: d.update(floor="50"), [("floor", "wrong_type")]),
        (lambda d: d.update(floor=True), [("floor", "wrong_type")]),
        (lambda d: d.update(index_order="sometimes"), [("index_order", "unknown_value")]),
        (lambda d: d["reduction"].update(maximum="0,95"), [("reduction.maximum", "not_a_number")]),
        (lambda d: d["reduction"].update(maximum="NaN"), [("reduction.maximum", "not_a_number")]),
        (lambda d: d["reduction"].update(maximum=None), [("reduction.maximum", "wrong_type")]),
        (lambda d: d.update(stages=[]), [("stages", "wrong_type")]),
        (
            lambda d: d["national_finals"]["duo"][2].update(pcn="3000"),
            [("national_finals.duo[2].pcn", "wrong_type")],
        ),
        (
            lambda d: d["national_finals"].update(team4={}),
            [("national_finals.team4", "wrong_type")],
        ),
        (
            lambda d: d["homologation"]["organizers"].append("fft"),
            [("homologation.organizers", "duplicate")],
        ),
        (
            lambda d: d["homologation"]["organizers"].append("casino"),
            [("homologation.organizers[4]", "unknown_value")],
        ),
        (
            lambda d: d["movements"].update(short_table_rule="never"),
            [("movements.short_table_rule", "unknown_value")],
        ),
        (
            lambda d: d["movements"].pop("short_table_rule"),
            [("movements.short_table_rule", "missing")],
        ),
        (
            lambda d: (d.pop("floor"), d["formats"]["team4"].update(beneficiary_rounding="up")),
            [("floor", "missing"), ("formats.team4.beneficiary_rounding", "unknown_value")],
        ),
    ],
)
def test_from_dict_locates_every_missing_unknown_or_ill_typed_key(
    edit: Any, problems: list[tuple[str, str]]
) -> None:
    assert _problems_of_dict(_edited(edit)) == problems


def test_a_version_stored_before_the_movements_setting_reads_with_the_default() -> None:
    data = RULEBOOK.to_dict()
    del data["movements"]
    assert Rulebook.from_dict(data) == RULEBOOK


def test_the_short_table_rule_is_a_season_choice() -> None:
    data = RULEBOOK.to_dict()
    assert data["movements"]["short_table_rule"] == "best_effort"
    data["movements"]["short_table_rule"] = "strict"
    assert Rulebook.from_dict(data).movements.short_table_rule is ShortTableRule.STRICT


def test_from_dict_refuses_a_non_object() -> None:
    assert _problems_of_dict([1, 2]) == [("rulebook", "wrong_type")]


def test_from_dict_validates_the_figures() -> None:
    data = _edited(lambda d: d["reduction"].update(maximum="1.2"))
    assert _problems_of_dict(data) == [
        ("reduction.maximum", "coefficient_out_of_range"),
    ]


def _seniors(*rows: tuple[int, int, int, int]) -> Rulebook:
    table = tuple(PlaceRange(*row) for row in rows)
    return replace(RULEBOOK, national_finals=replace(RULEBOOK.national_finals, seniors=table))


def _stage(**changes: Any) -> Rulebook:
    stages = replace(
        RULEBOOK.stages, regional_final=replace(RULEBOOK.stages.regional_final, **changes)
    )
    return replace(RULEBOOK, stages=stages)


def _format(**changes: Any) -> Rulebook:
    formats = replace(RULEBOOK.formats, duo=replace(RULEBOOK.formats.duo, **changes))
    return replace(RULEBOOK, formats=formats)


@pytest.mark.parametrize(
    ("book", "problems"),
    [
        (replace(RULEBOOK, floor=-5), [("floor", "negative")]),
        (
            replace(RULEBOOK, first_place_points_per_table=0),
            [("first_place_points_per_table", "not_positive")],
        ),
        (
            replace(
                RULEBOOK,
                reduction=replace(RULEBOOK.reduction, coefficient_at_reference=Decimal("1.01")),
            ),
            [("reduction.coefficient_at_reference", "coefficient_out_of_range")],
        ),
        (
            replace(
                RULEBOOK, reduction=replace(RULEBOOK.reduction, step_per_table=Decimal("-0.01"))
            ),
            [("reduction.step_per_table", "negative")],
        ),
        (
            replace(RULEBOOK, reduction=replace(RULEBOOK.reduction, reference_tables=0)),
            [("reduction.reference_tables", "not_positive")],
        ),
        (
            _format(minimum_coefficient=Decimal("0")),
            [("formats.duo.minimum_coefficient", "coefficient_out_of_range")],
        ),
        (
            _format(minimum_coefficient=Decimal("0.95")),
            [("formats.duo.minimum_coefficient", "minimum_above_maximum")],
        ),
        (_format(coefficient_exponent=0), [("formats.duo.coefficient_exponent", "not_positive")]),
        (_format(minimum_entries=0), [("formats.duo.minimum_entries", "not_positive")]),
        (
            _format(beneficiary_fraction=Decimal("1.5")),
            [("formats.duo.beneficiary_fraction", "fraction_out_of_range")],
        ),
        (_stage(cap=-1), [("stages.regional_final.cap", "negative")]),
        (_stage(cap=40), [("stages.regional_final.cap", "cap_below_floor")]),
        (_stage(index=Decimal("0")), [("stages.regional_final.index", "not_positive")]),
        (
            _seniors((1, 1, 5000, 10), (2, 52, 1000, 0), (43, 86, 750, 0)),
            [("national_finals.seniors[2].first", "ranges_overlap")],
        ),
        (
            _seniors((1, 1, 5000, 10), (3, 52, 1000, 0)),
            [("national_finals.seniors[1].first", "ranges_gap")],
        ),
        (
            _seniors((2, 10, 5000, 10)),
            [("national_finals.seniors[0].first", "ranges_gap")],
        ),
        (
            _seniors((1, 1, 5000, 10), (5, 2, 1000, 0)),
            [
                ("national_finals.seniors[1].last", "range_reversed"),
                ("national_finals.seniors[1].first", "ranges_gap"),
            ],
        ),
        (
            _seniors((1, 1, 5000, 10), (2, 5, 6000, 11)),
            [
                ("national_finals.seniors[1].pcn", "increasing"),
                ("national_finals.seniors[1].pp", "increasing"),
            ],
        ),
        (_seniors((1, 1, -1, 0)), [("national_finals.seniors[0].pcn", "negative")]),
        (_seniors(), [("national_finals.seniors", "empty")]),
        (
            replace(RULEBOOK, homologation=replace(RULEBOOK.homologation, organizers=frozenset())),
            [("homologation.organizers", "empty")],
        ),
    ],
)
def test_validate_refuses_nonsense(book: Rulebook, problems: list[tuple[str, str]]) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        book.validate()
    assert [(p.field, p.code) for p in excinfo.value.problems] == problems


def test_validate_collects_every_problem() -> None:
    book = replace(_stage(cap=-1), floor=-5)
    with pytest.raises(RuleViolation) as excinfo:
        book.validate()
    assert {p.field for p in excinfo.value.problems} == {"floor", "stages.regional_final.cap"}


def test_a_past_season_allocates_with_its_own_rulebook() -> None:
    # A hypothetical earlier season: floor 40, first place 30 × tables, cap 1000.
    data = RULEBOOK.to_dict()
    data["floor"] = 40
    data["first_place_points_per_table"] = 30
    data["stages"]["ordinary"]["cap"] = 1000
    past = Rulebook.from_dict(json.loads(json.dumps(data)))
    ranking = [RankedEntry(f"p{i}", i) for i in range(1, 13)]
    now = allocate(ranking, Format.INDIVIDUAL, 3, StageKind.ORDINARY, RULEBOOK)
    then = allocate(ranking, Format.INDIVIDUAL, 3, StageKind.ORDINARY, past)
    assert [a.pcn_per_player for a in now.awards[:6]] == [120, 82, 57, 50, 50, 50]
    # 90, 62.1, 42.8 → 90, 62, 42, then the floor 40.
    assert [a.pcn_per_player for a in then.awards[:6]] == [90, 62, 42, 40, 40, 40]
