"""The PCN scales of chapter 5: printed tables reproduced, rule beyond them, bounds.

The three printed tables are verbatim copies in ``printed/`` (source lines cited
in each file). The PDF conversion damaged their layout, not their figures: from
the 11th place on a row's figures may sit one or more columns off, and the
number of trailing 50s is unreliable. They are read by one rule, checked below:
the figures above the floor of a row belong, in order, to the *last* table
counts of the header (they are right-aligned on the 30-table column, whose
value at every printed place is above 50).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import replace
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from competitions.rules.pcn.scales import beneficiary_count, reduction_coefficient, scale
from competitions.rules.rulebook import IndexOrder, Rulebook
from core.problems import RuleViolation
from core.vocabulary import Format, StageKind

PRINTED = Path(__file__).parent / "printed"
RULEBOOK = Rulebook.default()
FLOOR = 50
PLACE_ROW = re.compile(r"^\|\s*(\d+)(?:er|ère|ème)\s*\|(.*)$")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _read_printed(name: str) -> tuple[list[int], list[str], dict[int, list[int]]]:
    """(table counts, printed coefficients, place → printed figures in row order)."""
    lines = (PRINTED / name).read_text(encoding="utf-8").splitlines()
    table_counts: list[int] = []
    coefficients: list[str] = []
    rows: dict[int, list[int]] = {}
    for i, line in enumerate(lines):
        cells = _cells(line) if line.startswith("|") else []
        filled = [c for c in cells[1:] if c]
        if not table_counts and filled and all(c.isdigit() for c in filled):
            table_counts = [int(c) for c in filled]
            coefficients = [c for c in _cells(lines[i + 1])[1:] if c]
            continue
        match = PLACE_ROW.match(line)
        if match:
            rows[int(match.group(1))] = [int(c) for c in _cells(match.group(2)) if c]
    return table_counts, coefficients, rows


PRINTED_TABLES = {
    Format.INDIVIDUAL: _read_printed("individual.md"),
    Format.DUO: _read_printed("duo.md"),
    Format.TEAM4: _read_printed("team4.md"),
}


def _printed_cells() -> list[tuple[Format, int, int, int]]:
    """Every printed figure above the floor as (format, tables, place, figure)."""
    cells = []
    for fmt, (table_counts, _, rows) in PRINTED_TABLES.items():
        for place, figures in rows.items():
            above = [f for f in figures if f > FLOOR]
            columns = table_counts[len(table_counts) - len(above) :]
            cells.extend((fmt, t, place, f) for t, f in zip(columns, above, strict=True))
    return cells


PRINTED_CELLS = _printed_cells()


def test_the_printed_tables_were_read_whole() -> None:
    # 316 + 162 + 97 figures above 50 are printed; the parser must find them all.
    counts = {fmt: sum(1 for c in PRINTED_CELLS if c[0] is fmt) for fmt in Format}
    assert counts == {Format.INDIVIDUAL: 316, Format.DUO: 162, Format.TEAM4: 97}
    assert PRINTED_TABLES[Format.INDIVIDUAL][0] == [*range(3, 15), *range(16, 31, 2)]
    assert PRINTED_TABLES[Format.DUO][0] == [*range(5, 15), *range(16, 31, 2)]
    assert max(PRINTED_TABLES[Format.INDIVIDUAL][2]) == 48


@pytest.mark.parametrize(
    ("fmt", "tables", "place", "printed"),
    PRINTED_CELLS,
    ids=[f"{c[0]}-{c[1]}t-{c[2]}" for c in PRINTED_CELLS],
)
def test_every_printed_figure_above_the_floor(
    fmt: Format, tables: int, place: int, printed: int
) -> None:
    assert scale(fmt, tables, StageKind.ORDINARY, RULEBOOK).value(place) == printed


@pytest.mark.parametrize("fmt", list(Format))
def test_each_printed_row_holds_exactly_the_computed_figures_above_the_floor(fmt: Format) -> None:
    table_counts, _, rows = PRINTED_TABLES[fmt]
    scales = {t: scale(fmt, t, StageKind.ORDINARY, RULEBOOK) for t in table_counts}
    for place, figures in rows.items():
        computed = [scales[t].value(place) for t in table_counts]
        assert [f for f in figures if f > FLOOR] == [v for v in computed if v > FLOOR], place


def test_thirty_tables_column_read_down_the_last_figure_of_each_row() -> None:
    # Hand transcription of the last figure of each row of the individual table (page 45):
    # the 30-table column, which the damaged layout leaves intact at the row ends.
    printed = (
        1200, 1140, 1083, 1028, 977, 928, 882, 838, 796, 756, 718, 682, 648, 616, 585, 555,
        528, 501, 476, 452, 430, 408, 388, 368, 350, 332, 316, 300, 285, 271, 257, 244,
        232, 220, 209, 199, 189, 179, 170, 162, 154, 146, 139, 132, 125, 119, 113, 107,
    )  # fmt: skip
    assert scale(Format.INDIVIDUAL, 30, StageKind.ORDINARY, RULEBOOK).values[:48] == printed


@pytest.mark.parametrize(
    ("fmt", "tables", "column"),
    [
        (Format.INDIVIDUAL, 3, (120, 82, 57, 50, 50, 50)),
        (Format.INDIVIDUAL, 10, (400, 304, 231, 175, 133, 101, 77, 58) + (50,) * 12),
        (Format.DUO, 5, (200, 100, 50, 50, 50)),
        (Format.TEAM4, 5, (200, 100, 50)),
        (Format.TEAM4, 7, (280, 140, 70, 50)),
        (Format.TEAM4, 20, (800, 437, 239, 130, 71, 50, 50, 50, 50, 50)),
    ],
)
def test_whole_columns_including_the_places_at_the_floor(
    fmt: Format, tables: int, column: tuple[int, ...]
) -> None:
    assert scale(fmt, tables, StageKind.ORDINARY, RULEBOOK).values == column


@pytest.mark.parametrize("fmt", list(Format))
def test_printed_coefficients_are_the_exact_ones_rounded_for_display(fmt: Format) -> None:
    table_counts, coefficients, _ = PRINTED_TABLES[fmt]
    assert len(coefficients) == len(table_counts)
    for tables, printed in zip(table_counts, coefficients, strict=True):
        exact = reduction_coefficient(fmt, tables, RULEBOOK)
        text = printed.replace(",", ".").replace("²", "").strip()
        if fmt is Format.DUO:  # printed as the base, "0,71 ²"
            assert exact == Fraction(text) ** 2, tables
        else:
            decimals = len(text.split(".")[1]) if "." in text else 0
            shown = Decimal(exact.numerator) / Decimal(exact.denominator)
            assert round(shown, decimals) == Decimal(text), tables


def test_footers_match_the_default_rulebook() -> None:
    assert RULEBOOK.stages.ordinary.cap == 1500
    assert RULEBOOK.floor == 50
    assert reduction_coefficient(Format.INDIVIDUAL, 4, RULEBOOK) == Fraction("0.70")
    assert RULEBOOK.reduction.step_per_table == Decimal("0.01")
    assert reduction_coefficient(Format.INDIVIDUAL, 30, RULEBOOK) == Fraction("0.95")
    assert reduction_coefficient(Format.DUO, 5, RULEBOOK) == Fraction("0.71") ** 2
    assert reduction_coefficient(Format.DUO, 30, RULEBOOK) == Fraction("0.9025")
    assert reduction_coefficient(Format.TEAM4, 5, RULEBOOK) == Fraction("0.5")
    # "0,815" is 0.95⁴ = 0.81450625 rounded: 0.815 exactly would print 978, not 977.
    assert reduction_coefficient(Format.TEAM4, 30, RULEBOOK) == Fraction("0.81450625")
    assert scale(Format.TEAM4, 30, StageKind.ORDINARY, RULEBOOK).value(2) == 977


@pytest.mark.parametrize(
    ("fmt", "tables", "coefficient"),
    [
        (Format.INDIVIDUAL, 1, "0.67"),
        (Format.INDIVIDUAL, 3, "0.69"),
        (Format.INDIVIDUAL, 28, "0.94"),
        (Format.INDIVIDUAL, 29, "0.95"),
        (Format.INDIVIDUAL, 150, "0.95"),
        (Format.DUO, 3, "0.5"),  # 0.69² = 0.4761 is below the minimum
        (Format.DUO, 4, "0.5"),
        (Format.DUO, 5, "0.5041"),
        (Format.DUO, 150, "0.9025"),
        (Format.TEAM4, 18, "0.5"),  # 0.84⁴ = 0.4979
        (Format.TEAM4, 19, "0.52200625"),
        (Format.TEAM4, 150, "0.81450625"),
    ],
)
def test_reduction_coefficient(fmt: Format, tables: int, coefficient: str) -> None:
    assert reduction_coefficient(fmt, tables, RULEBOOK) == Fraction(coefficient)


def _reference_values(fmt: Format, tables: int, places: int, cap: int) -> list[int]:
    """An independent oracle: high-precision decimals instead of fractions."""
    exponent = {Format.INDIVIDUAL: 1, Format.DUO: 2, Format.TEAM4: 4}[fmt]
    with localcontext() as context:
        context.prec = 400
        base = min(Decimal("0.69") + Decimal("0.01") * (tables - 3), Decimal("0.95"))
        coefficient = max(base**exponent, Decimal("0.5"))
        return [
            min(cap, max(FLOOR, math.floor(Decimal(40 * tables) * coefficient ** (k - 1))))
            for k in range(1, places + 1)
        ]


@pytest.mark.parametrize("fmt", list(Format))
def test_table_counts_beyond_the_printed_ones_follow_the_same_rule(fmt: Format) -> None:
    for tables in range(3, 151):
        if 4 * tables < RULEBOOK.formats.of(fmt).minimum_entries * fmt.team_size:
            continue
        computed = scale(fmt, tables, StageKind.ORDINARY, RULEBOOK)
        assert list(computed.values) == _reference_values(fmt, tables, computed.beneficiaries, 1500)


@pytest.mark.parametrize(
    ("tables", "first_places"),
    [
        (37, (1480, 1406, 1335)),
        (38, (1500, 1444, 1371)),  # 40 × 38 = 1520 is capped at 1500, the next is 1520 × 0.95
        (150, (1500,) * 5),
    ],
)
def test_the_ordinary_cap(tables: int, first_places: tuple[int, ...]) -> None:
    grid = scale(Format.INDIVIDUAL, tables, StageKind.ORDINARY, RULEBOOK)
    assert grid.values[: len(first_places)] == first_places


def test_a_large_scale_is_fast_and_complete() -> None:
    grid = scale(Format.INDIVIDUAL, 150, StageKind.REGIONAL_FINAL, RULEBOOK)
    assert grid.beneficiaries == 300
    assert len(grid.values) == 300
    assert grid.values[0] == 3000
    assert grid.values[-1] == 50


# ---------------------------------------------------------------------------
# Beneficiaries and sessions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "entries", "beneficiaries"),
    [
        (Format.INDIVIDUAL, 11, 5),
        (Format.INDIVIDUAL, 12, 6),
        (Format.INDIVIDUAL, 13, 6),
        (Format.INDIVIDUAL, 600, 300),
        (Format.DUO, 6, 3),
        (Format.DUO, 7, 3),
        (Format.DUO, 10, 5),
        (Format.TEAM4, 5, 3),  # "arrondi à l'unité supérieure si 0.5"
        (Format.TEAM4, 6, 3),
        (Format.TEAM4, 7, 4),
    ],
)
def test_half_the_entries_have_a_right_to_points(
    fmt: Format, entries: int, beneficiaries: int
) -> None:
    assert beneficiary_count(fmt, entries, RULEBOOK) == beneficiaries
    tables = math.ceil(entries * fmt.team_size / 4)
    grid = scale(fmt, tables, StageKind.ORDINARY, RULEBOOK, entries=entries)
    assert grid.beneficiaries == len(grid.values) == beneficiaries
    assert grid.value(beneficiaries + 1) == 0


def test_several_sessions_sum_the_tables_and_count_the_first_session() -> None:
    grid = scale(Format.INDIVIDUAL, [10, 8], StageKind.REGIONAL_FINAL, RULEBOOK, entries=40)
    assert grid.tables == 18
    assert grid.coefficient == Fraction("0.84")
    assert grid.beneficiaries == 20
    # 40 × 18 × 1.8 = 1296, then × 0.84 each place, truncated.
    assert grid.values[:4] == (1296, 1088, 914, 768)


def test_several_sessions_of_teams_of_four() -> None:
    grid = scale(Format.TEAM4, [7, 7], StageKind.ORDINARY, RULEBOOK, entries=7)
    assert grid.tables == 14
    assert grid.beneficiaries == 4
    assert grid.values == (560, 280, 140, 70)


def test_a_full_first_session_is_assumed_when_entries_are_not_given() -> None:
    assert scale(Format.DUO, [6, 5], StageKind.ORDINARY, RULEBOOK).entries == 12
    assert scale(Format.INDIVIDUAL, 3, StageKind.ORDINARY, RULEBOOK).entries == 12


# ---------------------------------------------------------------------------
# Indices, caps, floor and the order of operations
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stage", "tables", "first", "second", "last"),
    [
        (StageKind.ORDINARY, 10, 400, 304, 50),
        (StageKind.REGIONAL_STAGE, 10, 400, 304, 50),
        (StageKind.NATIONAL_QUALIFIER, 10, 400, 304, 50),
        (StageKind.REGIONAL_SEMI_FINAL, 10, 600, 456, 50),
        (StageKind.REGIONAL_FINAL, 10, 720, 547, 50),
        (StageKind.ORDINARY, 40, 1500, 1520, 50),
        (StageKind.REGIONAL_STAGE, 40, 1600, 1520, 50),
        (StageKind.REGIONAL_SEMI_FINAL, 50, 3000, 2850, 50),
        (StageKind.REGIONAL_FINAL, 41, 2952, 2804, 50),
        (StageKind.REGIONAL_FINAL, 42, 3000, 2872, 50),
    ],
)
def test_indices_and_caps(
    stage: StageKind, tables: int, first: int, second: int, last: int
) -> None:
    grid = scale(Format.INDIVIDUAL, tables, stage, RULEBOOK)
    assert grid.values[0] == first
    assert grid.values[1] == min(second, grid.cap)
    assert grid.values[-1] == last


INDEX_AFTER = replace(RULEBOOK, index_order=IndexOrder.INDEX_AFTER_BOUNDS)


@pytest.mark.parametrize(
    ("rulebook", "stage", "tables", "place", "value"),
    [
        # 3 tables, 2nd place: exact 82.8. Index first: ⌊82.8 × 1.5⌋ = 124; after: ⌊82 × 1.5⌋ = 123.
        (RULEBOOK, StageKind.REGIONAL_SEMI_FINAL, 3, 2, 124),
        (INDEX_AFTER, StageKind.REGIONAL_SEMI_FINAL, 3, 2, 123),
        # The floor: 50 with the index first, 50 × 1.8 = 90 with the index after.
        (RULEBOOK, StageKind.REGIONAL_FINAL, 3, 6, 50),
        (INDEX_AFTER, StageKind.REGIONAL_FINAL, 3, 6, 90),
        (INDEX_AFTER, StageKind.REGIONAL_SEMI_FINAL, 3, 6, 75),
        # The cap: 3000 bounds the final figure, or only the index-1 figure.
        (RULEBOOK, StageKind.REGIONAL_FINAL, 42, 1, 3000),
        (INDEX_AFTER, StageKind.REGIONAL_FINAL, 42, 1, 3024),
        (INDEX_AFTER, StageKind.REGIONAL_FINAL, 80, 1, 5400),
        # Index 1: both orders agree.
        (INDEX_AFTER, StageKind.ORDINARY, 38, 1, 1500),
        (INDEX_AFTER, StageKind.ORDINARY, 38, 2, 1444),
    ],
)
def test_order_of_index_floor_and_cap(
    rulebook: Rulebook, stage: StageKind, tables: int, place: int, value: int
) -> None:
    assert scale(Format.INDIVIDUAL, tables, stage, rulebook).value(place) == value


def test_a_season_may_change_index_and_cap() -> None:
    stages = replace(
        RULEBOOK.stages,
        regional_final=replace(RULEBOOK.stages.regional_final, index=Decimal("2"), cap=2500),
    )
    book = replace(RULEBOOK, stages=stages)
    assert scale(Format.INDIVIDUAL, 10, StageKind.REGIONAL_FINAL, book).values[:2] == (800, 608)
    assert scale(Format.INDIVIDUAL, 40, StageKind.REGIONAL_FINAL, book).values[0] == 2500


@settings(max_examples=150, deadline=None)
@given(
    fmt=st.sampled_from(list(Format)),
    sessions=st.lists(st.integers(min_value=3, max_value=60), min_size=1, max_size=3),
    stage=st.sampled_from([s for s in StageKind if s is not StageKind.NATIONAL_FINAL]),
    order=st.sampled_from(list(IndexOrder)),
    data=st.data(),
)
def test_scale_invariants(
    fmt: Format, sessions: list[int], stage: StageKind, order: IndexOrder, data: st.DataObject
) -> None:
    book = replace(RULEBOOK, index_order=order)
    fewest = max(-(-3 * sessions[0] // fmt.team_size), book.formats.of(fmt).minimum_entries)
    most = 4 * sessions[0] // fmt.team_size
    assume(fewest <= most)
    entries = data.draw(st.integers(min_value=fewest, max_value=most), label="entries")
    grid = scale(fmt, sessions, stage, book, entries=entries)
    values = grid.values
    assert len(values) == grid.beneficiaries == beneficiary_count(fmt, entries, book)
    assert all(a >= b for a, b in itertools.pairwise(values)), "non-increasing"
    assert all(v >= grid.floor_value >= FLOOR for v in values), "never below the floor"
    if order is IndexOrder.INDEX_BEFORE_BOUNDS:
        assert all(v <= grid.cap for v in values), "never above the cap"
        expected_first = min(grid.cap, max(FLOOR, math.floor(40 * sum(sessions) * grid.index)))
        assert values[0] == expected_first
    else:
        assert all(v <= math.floor(grid.cap * grid.index) for v in values)


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


def _codes(excinfo: pytest.ExceptionInfo[RuleViolation]) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in excinfo.value.problems]


@pytest.mark.parametrize(
    ("kwargs", "problems"),
    [
        ({"tables": 0}, [("tables", "not_positive")]),
        ({"tables": []}, [("tables", "no_session")]),
        ({"tables": [5, 0, -1]}, [("tables[1]", "not_positive"), ("tables[2]", "not_positive")]),
        ({"tables": "5"}, [("tables", "wrong_type")]),
        ({"tables": 3, "entries": 10}, [("entries", "below_minimum_participation")]),
        ({"tables": 5, "entries": 11}, [("entries", "entries_do_not_fit_tables")]),
        ({"tables": 3, "entries": 16}, [("entries", "entries_do_not_fit_tables")]),
        (
            {"tables": 4, "entries": 4},
            [("entries", "below_minimum_participation"), ("entries", "entries_do_not_fit_tables")],
        ),
        (
            {"tables": 5, "stage": StageKind.NATIONAL_FINAL},
            [("stage", "national_final_has_no_scale")],
        ),
    ],
)
def test_refusals_locate_every_problem(kwargs: dict, problems: list[tuple[str, str]]) -> None:
    arguments = {"stage": StageKind.ORDINARY, **kwargs}
    tables, stage = arguments.pop("tables"), arguments.pop("stage")
    with pytest.raises(RuleViolation) as excinfo:
        scale(Format.INDIVIDUAL, tables, stage, RULEBOOK, **arguments)
    assert _codes(excinfo) == problems


def test_an_individual_table_of_five_with_a_mort_is_a_table_of_the_scale() -> None:
    """13 players at 3 tables: one of them seats 5, a player sitting out each deal (fasc. 459)."""
    assert scale(Format.INDIVIDUAL, 3, StageKind.ORDINARY, RULEBOOK, entries=13).value(1) == 120
    with pytest.raises(RuleViolation) as excinfo:
        scale(Format.DUO, 3, StageKind.ORDINARY, RULEBOOK, entries=7)  # 14 players
    assert _codes(excinfo) == [("entries", "entries_do_not_fit_tables")]


def test_a_place_must_be_positive() -> None:
    grid = scale(Format.INDIVIDUAL, 3, StageKind.ORDINARY, RULEBOOK)
    with pytest.raises(RuleViolation):
        grid.value(0)


def test_an_invalid_rulebook_is_refused() -> None:
    book = replace(RULEBOOK, floor=-1)
    with pytest.raises(RuleViolation) as excinfo:
        scale(Format.INDIVIDUAL, 3, StageKind.ORDINARY, book)
    assert ("floor", "negative") in _codes(excinfo)
