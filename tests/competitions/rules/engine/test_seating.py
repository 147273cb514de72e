"""Seatings: random draw, best against best, championship first session (article 25), and
the order of placements (chapter 2)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.movements.planning import plan_movement
from competitions.rules.engine.seating import (
    Entrant,
    PlacementMethod,
    SeatAssignment,
    Seating,
    best_against_best_seating,
    championship_seating,
    check_placement_sequence,
    random_seating,
)
from competitions.rules.engine.tables import Orientation
from core.problems import RuleViolation
from core.vocabulary import Format

N, S, E, W = Orientation.N, Orientation.S, Orientation.E, Orientation.W
INDIVIDUAL, DUO, TEAM4 = Format.INDIVIDUAL, Format.DUO, Format.TEAM4
FFT, RANDOM, BEST = (
    PlacementMethod.FFT_MOVEMENT,
    PlacementMethod.RANDOM,
    PlacementMethod.BEST_AGAINST_BEST,
)


def codes(excinfo: pytest.ExceptionInfo[RuleViolation]) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in excinfo.value.problems]


def players(count: int, committees: int = 1) -> list[Entrant]:
    return [
        Entrant(f"L{i:04}", committee=f"C{i % committees}", zone=f"Z{i % committees % 3}")
        for i in range(count)
    ]


def duos(count: int) -> list[Entrant]:
    return [Entrant(f"D{i}", (f"L{2 * i}", f"L{2 * i + 1}"), f"C{i % 5}") for i in range(count)]


def teams(count: int) -> list[Entrant]:
    return [Entrant(f"T{i}", tuple(f"L{4 * i + k}" for k in range(4))) for i in range(count)]


def assert_complete(seating: Seating, plan_numbers: tuple[int, ...], entrants: list[Entrant]):
    assert [a.number for a in seating.assignments] == list(plan_numbers)
    assert sorted(a.player for a in seating.assignments) == sorted(
        p for e in entrants for p in e.players
    )


# --- Best against best -----------------------------------------------------------------------


def test_best_against_best_seats_the_ranking_four_by_four() -> None:
    plan = plan_movement(16, 1)
    ranking = [f"R{rank}" for rank in range(1, 17)]
    seating = best_against_best_seating(plan, ranking)
    assert seating.assignments[:5] == (
        SeatAssignment(1, 1, N, "R1", "R1"),
        SeatAssignment(2, 1, S, "R2", "R2"),
        SeatAssignment(3, 1, E, "R3", "R3"),
        SeatAssignment(4, 1, W, "R4", "R4"),
        SeatAssignment(5, 2, N, "R5", "R5"),
    )
    assert {a.player for a in seating.assignments if a.table == 4} == {
        "R13",
        "R14",
        "R15",
        "R16",
    }


def test_best_against_best_puts_the_last_ranked_at_the_table_of_three() -> None:
    plan = plan_movement(15, 1)
    seating = best_against_best_seating(plan, [f"R{rank}" for rank in range(1, 16)])
    assert seating.player_at(13) is None
    assert [(a.table, a.orientation, a.player) for a in seating.assignments[-3:]] == [
        (4, S, "R13"),
        (4, E, "R14"),
        (4, W, "R15"),
    ]


@pytest.mark.parametrize("format", [DUO, TEAM4])
def test_best_against_best_is_not_for_team_tournaments(format: Format) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        best_against_best_seating(plan_movement(16, 1, format), [f"R{i}" for i in range(16)])
    assert codes(excinfo) == [("format", "placement_not_allowed")]


def test_best_against_best_refuses_a_wrong_ranking_with_every_problem() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        best_against_best_seating(plan_movement(16, 1), ["A", "B", "A"])
    assert codes(excinfo) == [
        ("ranking", "entrant_count"),
        ("ranking[2].id", "duplicate_entrant"),
        ("ranking[2].members", "duplicate_player"),
    ]


# --- Random draw ---------------------------------------------------------------------------


def test_random_seating_is_reproducible_from_its_seed_and_depends_on_it() -> None:
    plan = plan_movement(31, 5)
    entrants = players(31)
    first = random_seating(plan, entrants, random.Random(7))
    assert first == random_seating(plan, entrants, random.Random(7))
    assert first != random_seating(plan, entrants, random.Random(8))
    assert_complete(first, plan.numbers, entrants)


def test_random_seating_keeps_duos_together_as_north_south_or_east_west() -> None:
    plan = plan_movement(40, 4, DUO)
    seating = random_seating(plan, duos(20), random.Random(3))
    by_entrant: dict[str, list[SeatAssignment]] = {}
    for assignment in seating.assignments:
        by_entrant.setdefault(assignment.entrant, []).append(assignment)
    for entrant in duos(20):
        first, second = by_entrant[entrant.id]
        assert first.table == second.table
        assert (first.orientation, second.orientation) in {(N, S), (E, W)}
        assert (first.player, second.player) == entrant.members


def test_six_duos_take_the_three_table_howell_pairs() -> None:
    plan = plan_movement(12, 5, DUO)
    for seating in (
        random_seating(plan, duos(6), random.Random(5)),
        championship_seating(plan, duos(6), random.Random(5), champion="D3"),
    ):
        numbers: dict[str, tuple[int, ...]] = {}
        for assignment in seating.assignments:
            numbers[assignment.entrant] = (*numbers.get(assignment.entrant, ()), assignment.number)
        assert sorted(numbers.values()) == sorted(plan.teams)
    assert numbers["D3"] == (1, 4), "the champion takes table 1's pair"


def test_random_seating_puts_a_team_of_four_at_one_table() -> None:
    plan = plan_movement(32, 4, TEAM4)
    seating = random_seating(plan, teams(8), random.Random(3))
    for team in teams(8):
        seats = [a for a in seating.assignments if a.entrant == team.id]
        assert len({a.table for a in seats}) == 1
        assert [a.player for a in seats] == list(team.members)


@pytest.mark.parametrize(
    ("entrants", "expected"),
    [
        (duos(9), [("entrants", "entrant_count")]),
        (
            [*duos(9), Entrant("D9", ("L98",))],
            [("entrants[9].members", "team_size")],
        ),
        (
            [*duos(9), Entrant("D9", ("L0", "L99"))],
            [("entrants[9].members", "duplicate_player")],
        ),
    ],
)
def test_entrants_that_do_not_fit_the_plan_are_refused(
    entrants: list[Entrant], expected: list[tuple[str, str]]
) -> None:
    plan = plan_movement(20, 1, DUO)
    with pytest.raises(RuleViolation) as excinfo:
        random_seating(plan, entrants, random.Random(1))
    assert codes(excinfo) == expected


# --- Championship, first session (article 25) ------------------------------------------------


def test_outgoing_champion_sits_north_at_table_one() -> None:
    plan = plan_movement(80, 5)
    entrants = players(80, committees=7)
    seating = championship_seating(plan, entrants, random.Random(1), champion="L0042")
    assert seating.assignments[0] == SeatAssignment(1, 1, N, "L0042", "L0042")
    assert seating.number_of("L0042") == 1
    assert_complete(seating, plan.numbers, entrants)


def test_champion_duo_sits_north_south_at_table_one() -> None:
    plan = plan_movement(40, 5, DUO)
    seating = championship_seating(plan, duos(20), random.Random(1), champion="D13")
    assert seating.assignments[:2] == (
        SeatAssignment(1, 1, N, "L26", "D13"),
        SeatAssignment(2, 1, S, "L27", "D13"),
    )


def test_champion_team_sits_at_table_one() -> None:
    plan = plan_movement(32, 4, TEAM4)
    seating = championship_seating(plan, teams(8), random.Random(1), champion="T5")
    assert [(a.table, a.player) for a in seating.assignments[:4]] == [
        (1, "L20"),
        (1, "L21"),
        (1, "L22"),
        (1, "L23"),
    ]


def test_unknown_champion_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        championship_seating(plan_movement(20, 1), players(20), random.Random(1), champion="X")
    assert codes(excinfo) == [("champion", "unknown_champion")]


def test_champion_seat_removed_for_a_table_of_three_is_refused() -> None:
    plan = plan_movement(9, 1)  # 3 tables of 3: North of tables 3, 2 and 1 removed
    assert 1 in plan.vacant
    with pytest.raises(RuleViolation) as excinfo:
        championship_seating(plan, players(9), random.Random(1), champion="L0000")
    assert codes(excinfo) == [("champion", "champion_seat_removed")]


@pytest.mark.parametrize("tables", [4, 5, 8, 12])
@pytest.mark.parametrize("seed", range(5))
def test_four_players_per_committee_and_table_spread_like_a_latin_square(
    tables: int, seed: int
) -> None:
    entrants = [Entrant(f"L{i}", committee=f"C{i % tables}") for i in range(4 * tables)]
    seating = championship_seating(plan_movement(4 * tables, 1), entrants, random.Random(seed))
    committee = {e.id: e.committee for e in entrants}
    per_orientation = Counter((committee[a.player], a.orientation) for a in seating.assignments)
    per_table = Counter((committee[a.player], a.table) for a in seating.assignments)
    assert set(per_orientation.values()) == {1}
    assert set(per_table.values()) == {1}


@settings(max_examples=80, deadline=None)
@given(
    tables=st.integers(3, 30),
    short=st.integers(0, 3),
    committee_count=st.integers(1, 12),
    with_champion=st.booleans(),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_championship_seating_balances_orientations_by_committee_and_zone(
    tables: int,
    short: int,
    committee_count: int,
    with_champion: bool,
    seed: int,
    data: st.DataObject,
) -> None:
    count = 4 * tables - short
    plan = plan_movement(count, 1)
    committees = data.draw(
        st.lists(st.integers(0, committee_count - 1), min_size=count, max_size=count),
        label="committees",
    )
    entrants = [
        Entrant(f"L{i}", committee=f"C{c}", zone=f"Z{c % 3}") for i, c in enumerate(committees)
    ]
    champion = "L0" if with_champion and 1 not in plan.vacant else None
    seating = championship_seating(plan, entrants, random.Random(seed), champion=champion)
    assert_complete(seating, plan.numbers, entrants)
    assert seating == championship_seating(plan, entrants, random.Random(seed), champion=champion)
    if champion:
        assert seating.player_at(1) == champion
    others = [a for a in seating.assignments if a.player != champion]
    capacity = Counter(a.orientation for a in others)
    total = len(others)
    by_id = {e.id: e for e in entrants}
    for group in ("committee", "zone"):
        per = Counter((getattr(by_id[a.player], group), a.orientation) for a in others)
        sizes = Counter(getattr(by_id[a.player], group) for a in others)
        for name, size in sizes.items():
            counts = [per[(name, o)] for o in (N, S, E, W)]
            for orientation, got in zip((N, S, E, W), counts, strict=True):
                assert abs(got - size * capacity[orientation] / total) < 2
            if len({capacity[o] for o in (N, S, E, W)}) == 1:
                assert max(counts) - min(counts) <= 1


# --- Order of placements (chapter 2, "Mouvements des joueurs") --------------------------------


@pytest.mark.parametrize(
    "methods",
    [
        [FFT, FFT, FFT, FFT],
        [RANDOM, FFT, FFT],  # a random draw of starting seats, then the FFT movement
        [FFT, FFT, RANDOM, BEST, BEST],
        [FFT, BEST, RANDOM],
    ],
)
def test_allowed_placement_sequences(methods: list[PlacementMethod]) -> None:
    check_placement_sequence(methods, INDIVIDUAL)


@pytest.mark.parametrize(
    ("methods", "format", "expected"),
    [
        ([FFT, RANDOM, FFT], INDIVIDUAL, [("methods[2]", "fft_movement_not_resumable")]),
        (
            [FFT, BEST, FFT, FFT],
            INDIVIDUAL,
            [
                ("methods[2]", "fft_movement_not_resumable"),
                ("methods[3]", "fft_movement_not_resumable"),
            ],
        ),
        ([BEST, FFT], INDIVIDUAL, [("methods[0]", "no_ranking_yet")]),
        ([FFT, RANDOM], DUO, [("methods[1]", "placement_not_allowed")]),
        (
            [FFT, BEST, FFT],
            TEAM4,
            [
                ("methods[1]", "placement_not_allowed"),
                ("methods[2]", "fft_movement_not_resumable"),
            ],
        ),
    ],
)
def test_forbidden_placement_sequences(
    methods: list[PlacementMethod], format: Format, expected: list[tuple[str, str]]
) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        check_placement_sequence(methods, format)
    assert codes(excinfo) == expected
