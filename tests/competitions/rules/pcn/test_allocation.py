"""Allocating PCN to a ranked result: places, ties (ex-æquo), teams, sessions, refusals."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.pcn.allocation import Allocation, RankedEntry, allocate
from competitions.rules.pcn.scales import scale
from competitions.rules.rulebook import Rulebook
from core.problems import RuleViolation
from core.vocabulary import Format, StageKind

RULEBOOK = Rulebook.default()
# 10 tables, 40 players, 20 with a right to points (chapter 5 table, column 10):
TEN_TABLES = (400, 304, 231, 175, 133, 101, 77, 58) + (50,) * 12


def ranking_of(places: list[int]) -> list[RankedEntry]:
    return [RankedEntry(f"e{i}", place) for i, place in enumerate(places)]


def tie_at(place: int, size: int, entries: int) -> list[int]:
    """1224 places of ``entries`` entries with ``size`` of them tied at ``place``."""
    places = list(range(1, place)) + [place] * size
    return places + list(range(place + size, entries + 1))


def pcn_by_id(allocation: Allocation) -> dict[str, int]:
    return {award.entry_id: award.pcn_per_player for award in allocation.awards}


def test_an_untied_ordinary_tournament() -> None:
    allocation = allocate(
        ranking_of(list(range(1, 41))), Format.INDIVIDUAL, 10, StageKind.ORDINARY, RULEBOOK
    )
    assert [a.pcn_per_player for a in allocation.awards] == [*TEN_TABLES, *([0] * 20)]
    assert [a.has_right for a in allocation.awards] == [True] * 20 + [False] * 20
    assert all(a.pp_per_player == 0 for a in allocation.awards)
    assert all(a.tied_entries == 1 for a in allocation.awards)
    assert allocation.players_per_entry == 1
    assert allocation.places_with_points == 20
    assert allocation.national_final is None


def test_awards_come_in_ranking_order_whatever_the_input_order() -> None:
    ranking = [RankedEntry("c", 3), RankedEntry("a", 1), RankedEntry("b", 2)]
    ranking += [RankedEntry(f"x{p}", p) for p in range(4, 13)]
    allocation = allocate(ranking, Format.INDIVIDUAL, 3, StageKind.ORDINARY, RULEBOOK)
    assert [a.entry_id for a in allocation.awards[:3]] == ["a", "b", "c"]
    assert [a.pcn_per_player for a in allocation.awards[:3]] == [120, 82, 57]


# Two entries tied at each place of a 40-player, 10-table tournament (20 paid places).
TWO_WAY = {1: 352, 2: 268, 3: 203, 4: 154, 5: 117, 6: 89, 7: 68, 8: 54}
TWO_WAY |= dict.fromkeys(range(9, 20), 50)
TWO_WAY[20] = 50  # straddles the boundary: ⌈(50 + 0) / 2⌉ = 25, raised to the floor
TWO_WAY |= dict.fromkeys(range(21, 40), 0)


@pytest.mark.parametrize(("place", "share"), sorted(TWO_WAY.items()))
def test_two_entries_tied_at_every_place(place: int, share: int) -> None:
    ranking = ranking_of(tie_at(place, 2, 40))
    allocation = allocate(ranking, Format.INDIVIDUAL, 10, StageKind.ORDINARY, RULEBOOK)
    for award in allocation.awards:
        if award.place == place:
            assert award.pcn_per_player == share
            assert award.tied_entries == 2
            assert award.has_right is (place <= 20)
        else:
            untied_place = award.place
            assert award.pcn_per_player == (
                TEN_TABLES[untied_place - 1] if untied_place <= 20 else 0
            )


@pytest.mark.parametrize(
    ("place", "size", "share"),
    [
        (1, 3, 312),  # (400 + 304 + 231) / 3 = 311.67, rounded up
        (1, 4, 278),  # (400 + 304 + 231 + 175) / 4 = 277.5
        (6, 5, 68),  # (101 + 77 + 58 + 50 + 50) / 5 = 67.2, rounded up
        (18, 3, 50),  # all paid: 50
        (19, 3, 50),  # straddles: (50 + 50 + 0) / 3 = 33.3 → 34, raised to the floor
        (20, 4, 50),  # straddles with one paid place: 12.5 → 13, raised to the floor
        (21, 20, 0),  # no paid place
        (1, 40, 52),  # everyone tied: (2079 + 0 × 20) / 40 = 51.98, rounded up
    ],
)
def test_larger_ties(place: int, size: int, share: int) -> None:
    ranking = ranking_of(tie_at(place, size, 40))
    allocation = allocate(ranking, Format.INDIVIDUAL, 10, StageKind.ORDINARY, RULEBOOK)
    shares = {a.pcn_per_player for a in allocation.awards if a.place == place}
    assert shares == {share}


def test_a_straddling_tie_above_the_floor_keeps_its_exact_share() -> None:
    # Regional final, 30 tables, 120 players: 60 paid places, 59th = 110, 60th = 104.
    grid = scale(Format.INDIVIDUAL, 30, StageKind.REGIONAL_FINAL, RULEBOOK)
    assert grid.values[58:60] == (110, 104)
    for place, size, share in [(60, 2, 52), (59, 3, 72), (59, 2, 107)]:
        allocation = allocate(
            ranking_of(tie_at(place, size, 120)),
            Format.INDIVIDUAL,
            30,
            StageKind.REGIONAL_FINAL,
            RULEBOOK,
            ties_after_tie_break=True,
        )
        assert {a.pcn_per_player for a in allocation.awards if a.place == place} == {share}
        assert all(a.has_right for a in allocation.awards if a.place == place)


def test_several_ties_in_one_ranking() -> None:
    # Places 4, 5 and 6 shared: (175 + 133 + 101) / 3 = 136.33, rounded up.
    places = [1, 1, 3, 4, 4, 4, 7, 8, *range(9, 41)]
    allocation = allocate(ranking_of(places), Format.INDIVIDUAL, 10, StageKind.ORDINARY, RULEBOOK)
    expected = [352, 352, 231, 137, 137, 137, 77, 58]
    assert [a.pcn_per_player for a in allocation.awards[:8]] == expected
    assert [a.tied_entries for a in allocation.awards[:8]] == [2, 2, 1, 3, 3, 3, 1, 1]


# ---------------------------------------------------------------------------
# Competitions with their own tie-break rules (article 29)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stage",
    [
        StageKind.REGIONAL_STAGE,
        StageKind.REGIONAL_SEMI_FINAL,
        StageKind.REGIONAL_FINAL,
        StageKind.NATIONAL_QUALIFIER,
    ],
)
def test_championship_stages_do_not_share_ties(stage: StageKind) -> None:
    ranking = ranking_of(tie_at(3, 2, 40))
    with pytest.raises(RuleViolation) as excinfo:
        allocate(ranking, Format.INDIVIDUAL, 10, stage, RULEBOOK)
    assert [(p.field, p.code) for p in excinfo.value.problems] == [
        ("ranking[2].place", "tie_not_broken")
    ]
    # Broken by article 29, the ranking allocates place by place.
    broken = allocate(ranking_of(list(range(1, 41))), Format.INDIVIDUAL, 10, stage, RULEBOOK)
    assert broken.awards[2].pcn_per_player != broken.awards[3].pcn_per_player


def test_every_unbroken_tie_is_reported() -> None:
    places = [1, 1, 3, 3, 3, *range(6, 41)]
    with pytest.raises(RuleViolation) as excinfo:
        allocate(ranking_of(places), Format.INDIVIDUAL, 10, StageKind.REGIONAL_FINAL, RULEBOOK)
    assert [p.field for p in excinfo.value.problems] == ["ranking[0].place", "ranking[2].place"]


def test_a_tie_that_survived_article_29_is_shared() -> None:
    ranking = ranking_of(tie_at(2, 2, 40))
    allocation = allocate(
        ranking,
        Format.INDIVIDUAL,
        10,
        StageKind.REGIONAL_FINAL,
        RULEBOOK,
        ties_after_tie_break=True,
    )
    # Regional final: 720, 547.2 → 547, 415.87 → 415, then 316; tie at 2: (547 + 415) / 2 = 481.
    assert [a.pcn_per_player for a in allocation.awards[:4]] == [720, 481, 481, 316]


def test_the_rulebook_decides_which_stages_break_ties() -> None:
    stages = replace(
        RULEBOOK.stages, ordinary=replace(RULEBOOK.stages.ordinary, tie_break_rules=True)
    )
    with pytest.raises(RuleViolation):
        allocate(
            ranking_of(tie_at(1, 2, 12)),
            Format.INDIVIDUAL,
            3,
            StageKind.ORDINARY,
            replace(RULEBOOK, stages=stages),
        )


# ---------------------------------------------------------------------------
# Teams, sessions, indices
# ---------------------------------------------------------------------------


def test_duo_each_player_gets_the_team_value() -> None:
    allocation = allocate(
        ranking_of(list(range(1, 11))), Format.DUO, 5, StageKind.ORDINARY, RULEBOOK
    )
    assert allocation.players_per_entry == 2
    assert [a.pcn_per_player for a in allocation.awards] == [200, 100, 50, 50, 50, 0, 0, 0, 0, 0]


def test_teams_of_four_half_rounded_up() -> None:
    allocation = allocate(
        ranking_of([1, 2, 3, 4, 5]), Format.TEAM4, 5, StageKind.ORDINARY, RULEBOOK
    )
    assert allocation.players_per_entry == 4
    assert allocation.places_with_points == 3
    assert [a.pcn_per_player for a in allocation.awards] == [200, 100, 50, 0, 0]


def test_teams_of_four_tied_across_the_boundary() -> None:
    allocation = allocate(
        ranking_of([1, 2, 3, 3, 5]), Format.TEAM4, 5, StageKind.ORDINARY, RULEBOOK
    )
    assert [a.pcn_per_player for a in allocation.awards] == [200, 100, 50, 50, 0]


def test_multi_session_regional_final_of_duos() -> None:
    # 12 duos at 6 tables, then 10 duos at 5: 11 tables counted, 6 duos paid, index 1.8.
    allocation = allocate(
        ranking_of(list(range(1, 11))),
        Format.DUO,
        [6, 5],
        StageKind.REGIONAL_FINAL,
        RULEBOOK,
        entries=12,
    )
    assert [a.pcn_per_player for a in allocation.awards] == [792, 469, 278, 165, 97, 58, 0, 0, 0, 0]


def test_multi_session_individual_counts_beneficiaries_on_the_first_session() -> None:
    # 40 players in session 1 (10 tables), 32 in session 2 (8 tables): 18 tables, 20 paid.
    allocation = allocate(
        ranking_of(list(range(1, 33))),
        Format.INDIVIDUAL,
        [10, 8],
        StageKind.ORDINARY,
        RULEBOOK,
        entries=40,
    )
    assert allocation.places_with_points == 20
    assert [a.pcn_per_player for a in allocation.awards[:3]] == [720, 604, 508]
    assert allocation.awards[19].pcn_per_player > 0
    assert allocation.awards[20].pcn_per_player == 0


@pytest.mark.parametrize(
    ("stage", "first", "second"),
    [
        (StageKind.ORDINARY, 400, 304),
        (StageKind.REGIONAL_SEMI_FINAL, 600, 456),
        (StageKind.REGIONAL_FINAL, 720, 547),
    ],
)
def test_indices_reach_the_allocation(stage: StageKind, first: int, second: int) -> None:
    allocation = allocate(ranking_of(list(range(1, 41))), Format.INDIVIDUAL, 10, stage, RULEBOOK)
    assert [a.pcn_per_player for a in allocation.awards[:2]] == [first, second]


# ---------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "problems"),
    [
        ([1, 1, 2, *range(4, 13)], [("ranking[2].place", "place_not_1224")]),
        ([1, 2, 2, 3, *range(5, 13)], [("ranking[3].place", "place_not_1224")]),
        ([2, *range(2, 13)], [("ranking[0].place", "place_not_1224")]),
        ([0, *range(2, 13)], [("ranking[0].place", "place_not_positive")]),
    ],
)
def test_rankings_must_follow_the_1224_convention(
    places: list[int], problems: list[tuple[str, str]]
) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        allocate(ranking_of(places), Format.INDIVIDUAL, 3, StageKind.ORDINARY, RULEBOOK)
    assert [(p.field, p.code) for p in excinfo.value.problems] == problems


def test_every_problem_is_collected() -> None:
    ranking = [RankedEntry("a", 1), RankedEntry("a", 2), RankedEntry("", 4)]
    with pytest.raises(RuleViolation) as excinfo:
        allocate(ranking, Format.INDIVIDUAL, [3, 0], StageKind.ORDINARY, RULEBOOK, entries=2)
    assert [(p.field, p.code) for p in excinfo.value.problems] == [
        ("ranking[1].entry_id", "duplicate_entry"),
        ("ranking[2].entry_id", "missing_id"),
        ("ranking[2].place", "place_not_1224"),
        ("entries", "more_ranked_than_entries"),
        ("tables[1]", "not_positive"),
    ]


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"stage": StageKind.NATIONAL_FINAL}, "national_final_has_no_scale"),
        ({"tables": 2}, "entries_do_not_fit_tables"),
        ({"entries": 10}, "more_ranked_than_entries"),
    ],
)
def test_allocation_refusals(kwargs: dict, code: str) -> None:
    arguments = {"stage": StageKind.ORDINARY, "tables": 3, **kwargs}
    with pytest.raises(RuleViolation) as excinfo:
        allocate(
            ranking_of(list(range(1, 13))),
            Format.INDIVIDUAL,
            arguments.pop("tables"),
            arguments.pop("stage"),
            RULEBOOK,
            **arguments,
        )
    assert code in [p.code for p in excinfo.value.problems]


def test_an_empty_ranking_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        allocate([], Format.INDIVIDUAL, 3, StageKind.ORDINARY, RULEBOOK, entries=12)
    assert excinfo.value.problems[0].code == "empty_ranking"


# ---------------------------------------------------------------------------
# Invariants of tie sharing
# ---------------------------------------------------------------------------


@st.composite
def tied_rankings(draw: st.DrawFn) -> tuple[Format, int, list[int]]:
    fmt = draw(st.sampled_from(list(Format)))
    tables = draw(st.integers(min_value=5, max_value=40))
    entries = 4 * tables // fmt.team_size
    sizes: list[int] = []
    while sum(sizes) < entries:
        sizes.append(draw(st.integers(min_value=1, max_value=min(6, entries - sum(sizes)))))
    places = []
    for size in sizes:
        places += [len(places) + 1] * size
    return fmt, tables, places


@settings(max_examples=120, deadline=None)
@given(case=tied_rankings())
def test_tie_sharing_preserves_the_total_up_to_rounding_up(
    case: tuple[Format, int, list[int]],
) -> None:
    fmt, tables, places = case
    grid = scale(fmt, tables, StageKind.ORDINARY, RULEBOOK)
    allocation = allocate(ranking_of(places), fmt, tables, StageKind.ORDINARY, RULEBOOK)
    paid = grid.beneficiaries
    for place in sorted(set(places)):
        size = places.count(place)
        occupied = [grid.value(q) for q in range(place, place + size)]
        shares = {a.pcn_per_player for a in allocation.awards if a.place == place}
        assert len(shares) == 1, "tied entries receive the same"
        (share,) = shares
        if place > paid:
            assert share == 0
        elif place + size - 1 <= paid:
            assert 0 <= share * size - sum(occupied) < size, "the total, rounded up"
            assert min(occupied) <= share <= max(occupied)
        else:
            assert share == max(grid.floor_value, -(-sum(occupied) // size)), "straddling"
    received = sum(a.pcn_per_player for a in allocation.awards)
    scale_total = sum(grid.values)
    assert received >= scale_total, "sharing never loses points"
    groups = {p: places.count(p) for p in set(places)}
    straddles = any(p <= paid < p + size - 1 for p, size in groups.items())
    if not straddles:
        assert received - scale_total <= sum(size - 1 for size in groups.values())
