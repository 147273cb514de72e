"""« Et si… »: a simulated result is priced like the printed tables, and its step in the
live ranking is the one a recomputed ranking gives."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.rulebook import Rulebook
from core.problems import RuleViolation
from core.vocabulary import Format, StageKind
from rankings.rules.national_ranking import PlayerStanding, compute_ranking, order_key
from rankings.rules.series import SeriesPolicy
from rankings.rules.simulation import (
    Event,
    LiveLine,
    simulate_award,
    simulated_line,
    simulated_totals,
)

RULEBOOK = Rulebook.default()
POLICY = SeriesPolicy.default()
PRINTED = Path(__file__).parents[2] / "competitions" / "rules" / "pcn" / "printed"
PLACE_ROW = re.compile(r"^\|\s*(\d+)(?:er|ème)\s*\|(.*)$")


def _printed_individual() -> tuple[list[int], dict[int, list[str]]]:
    """Table counts of the header and, for places 1–10 (the rows the conversion left
    aligned), the printed cell of each table count (docs/rankings-pcn.md, R5)."""
    counts: list[int] = []
    rows: dict[int, list[str]] = {}
    for line in (PRINTED / "individual.md").read_text(encoding="utf-8").splitlines():
        cells = (
            [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        )
        filled = [c for c in cells[1:] if c]
        if not counts and filled and all(c.isdigit() for c in filled):
            counts = [int(c) for c in filled]
            continue
        match = PLACE_ROW.match(line)
        if match and int(match.group(1)) <= 10:
            rows[int(match.group(1))] = [
                c.strip() for c in match.group(2).rstrip().removesuffix("|").split("|")
            ]
    return counts, rows


def test_a_second_place_in_a_20_table_regional_final_is_the_printed_figure_times_1_8() -> None:
    counts, rows = _printed_individual()
    printed = int(rows[2][counts.index(20)])
    assert printed == 688  # the printed index-1 table, 2nd place, 20 tables
    award = simulate_award(Event.REGIONAL_FINAL, Format.INDIVIDUAL, 20, 2, RULEBOOK)
    # 688 is exact (800 × 0.86), so the index applies to it: ⌊688 × 1.8⌋ = 1238.
    assert award.pcn == math.floor(printed * Fraction("1.8")) == 1238
    assert (award.pp, award.has_right, award.entries, award.places_with_points) == (0, True, 80, 40)
    assert award.index == Decimal("1.8")
    assert award.cap == 3000
    assert award.stage is StageKind.REGIONAL_FINAL


def test_an_ordinary_result_is_the_printed_figure_for_the_first_ten_places() -> None:
    counts, rows = _printed_individual()
    compared = 0
    for place, cells in rows.items():
        for tables, cell in zip(counts, cells, strict=False):
            if cell and int(cell) > 50:  # the printed 50s are not reliable (R5)
                award = simulate_award(Event.ORDINARY, Format.INDIVIDUAL, tables, place, RULEBOOK)
                assert award.pcn == int(cell), (place, tables)
                compared += 1
    assert compared > 150


def test_semi_final_uses_the_index_1_5() -> None:
    award = simulate_award(Event.REGIONAL_SEMI_FINAL, Format.INDIVIDUAL, 20, 2, RULEBOOK)
    assert award.pcn == 1032  # ⌊688 × 1.5⌋


@pytest.mark.parametrize(
    ("event", "place", "pcn", "pp", "fmt"),
    [
        (Event.NATIONAL_FINAL_INDIVIDUAL, 2, 3500, 11, Format.INDIVIDUAL),
        (Event.NATIONAL_FINAL_INDIVIDUAL, 240, 500, 0, Format.INDIVIDUAL),
        (Event.NATIONAL_FINAL_DUO, 1, 4000, 10, Format.DUO),
        (Event.NATIONAL_FINAL_SENIORS, 87, 500, 0, Format.INDIVIDUAL),
        (Event.NATIONAL_FINAL_SENIORS, 173, 0, 0, Format.INDIVIDUAL),
    ],
)
def test_national_finals_are_their_printed_tables(event, place, pcn, pp, fmt) -> None:
    # Teams of 4 given on purpose: a national final has its own format.
    award = simulate_award(event, Format.TEAM4, 60, place, RULEBOOK)
    assert (award.pcn, award.pp, award.format, award.index) == (pcn, pp, fmt, None)
    assert award.stage is StageKind.NATIONAL_FINAL


def _codes(excinfo) -> dict[str, str]:
    return {p.field: p.code for p in excinfo.value.problems}


@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        ((Event.ORDINARY, Format.INDIVIDUAL, 20, 81), {}, {"place": "place_beyond_entries"}),
        ((Event.ORDINARY, Format.DUO, 20, 41), {}, {"place": "place_beyond_entries"}),
        (
            (Event.ORDINARY, Format.INDIVIDUAL, 20, 30),
            {"entries": 25},
            {"place": "place_beyond_entries", "entries": "entries_do_not_fit_tables"},
        ),
        ((Event.ORDINARY, Format.INDIVIDUAL, 0, 1), {}, {"tables": "tables_out_of_range"}),
        ((Event.ORDINARY, Format.INDIVIDUAL, 1001, 1), {}, {"tables": "tables_out_of_range"}),
        ((Event.ORDINARY, Format.INDIVIDUAL, 2, 1), {}, {"entries": "below_minimum_participation"}),
        ((Event.REGIONAL_FINAL, Format.INDIVIDUAL, 5, 0), {}, {"place": "place_not_positive"}),
        ((Event.NATIONAL_FINAL_DUO, Format.DUO, 10, 21), {}, {"place": "place_beyond_entries"}),
        (
            (Event.NATIONAL_FINAL_DUO, Format.DUO, 10, 2),
            {"entries": 30},
            {"entries": "entries_do_not_fit_tables"},
        ),
    ],
)
def test_every_bad_input_is_named(args, kwargs, expected) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        simulate_award(*args, RULEBOOK, **kwargs)
    assert _codes(excinfo) == expected


def test_an_unknown_event_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        simulate_award("final", Format.INDIVIDUAL, 5, 1, RULEBOOK)  # type: ignore[arg-type]
    assert _codes(excinfo) == {"event": "unknown_event"}


def test_a_place_without_a_right_to_points_gives_nothing() -> None:
    award = simulate_award(Event.ORDINARY, Format.INDIVIDUAL, 5, 11, RULEBOOK)
    assert (award.pcn, award.has_right, award.places_with_points) == (0, False, 10)


# --- the player's line after the result: the same as a recomputed ranking --------------------


@settings(max_examples=150, deadline=None)
@given(
    points=st.lists(st.integers(0, 400), min_size=1, max_size=120),
    pps=st.data(),
    who=st.integers(0, 10_000),
    gain=st.integers(0, 1500),
    gain_pp=st.integers(0, 3),
    pp_breaks_ties=st.booleans(),
)
def test_the_simulated_step_is_the_recomputed_one(points, pps, who, gain, gain_pp, pp_breaks_ties):
    policy = replace(POLICY, pp_breaks_ties=pp_breaks_ties)
    players = [
        PlayerStanding(player=i + 1, committee=1, club=None, season_pcn=pcn,
                       season_pp=pps.draw(st.integers(0, 2)) if pcn else 0)
        for i, pcn in enumerate(points)
    ]  # fmt: skip
    me = players[who % len(players)]
    before = compute_ranking(players, policy)
    mine = next(e for e in before.entries if e.player == me.player)
    line = LiveLine(me.player, me.season_pcn, me.season_pp, 0, 0, mine.season_step, None,
                    before.ranked_count, len(players))  # fmt: skip
    award = replace(
        simulate_award(Event.ORDINARY, Format.INDIVIDUAL, 20, 1, RULEBOOK), pcn=gain, pp=gain_pp
    )
    total_pcn, total_pp = simulated_totals(line, award)
    key = order_key(total_pcn, total_pp, policy)
    place = 1 + sum(
        1 for e in before.entries
        if e.player != me.player and order_key(e.total_pcn, e.total_pp, policy) > key
    )  # fmt: skip
    after = simulated_line(policy, line, award, place)
    gained = replace(me, season_pcn=me.season_pcn + gain, season_pp=me.season_pp + gain_pp)
    recomputed = compute_ranking([gained if p is me else p for p in players], policy)
    theirs = next(e for e in recomputed.entries if e.player == me.player)
    assert (after.place, after.step, after.total_pcn, after.total_pp) == (
        theirs.place, theirs.step, theirs.total_pcn, theirs.total_pp,
    )  # fmt: skip


def test_a_manual_placement_is_kept_whatever_the_result() -> None:
    line = LiveLine(7, 0, 0, 0, 0, "4T", "2P", 10, 20)
    award = simulate_award(Event.NATIONAL_FINAL_INDIVIDUAL, Format.INDIVIDUAL, 60, 1, RULEBOOK)
    after = simulated_line(POLICY, line, award, 1)
    assert (after.step, after.step_source, after.total_pcn, after.total_pp) == (
        "2P",
        "manual",
        4000,
        17,
    )
