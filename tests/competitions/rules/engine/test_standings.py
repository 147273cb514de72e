"""Tournament ranking, team ranking, abandonment (art. 27) and tie-breaks (art. 29)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.penalties import Penalty, PenaltyKind
from competitions.rules.engine.standings import (
    Entry,
    MemberResult,
    Placing,
    RankingMode,
    Separation,
    TieBreakData,
    TieBreakFigures,
    rank,
)
from core.problems import RuleViolation

PLAIN = RankingMode.PLAIN
CHAMPIONSHIP = RankingMode.CHAMPIONSHIP


def solo(
    entry_id: str,
    total: int,
    *,
    penalties: Sequence[int] = (),
    abandoned: bool = False,
    positions: Sequence[int] | None = None,
    made: dict[str, int] | None = None,
) -> Entry:
    """An individual entry whose player id is the entry id."""
    tie_break = None
    if positions is not None:
        tie_break = TieBreakData(tuple(positions), made or {})
    return Entry(
        entry_id=entry_id,
        members=(MemberResult(entry_id, total, tie_break),),
        penalties=tuple(
            Penalty(entry_id, PenaltyKind.ETHICS, points, "test") for points in penalties
        ),
        abandoned=abandoned,
    )


def team(entry_id: str, totals: Sequence[int], **kwargs: object) -> Entry:
    return Entry(
        entry_id=entry_id,
        members=tuple(MemberResult(f"{entry_id}.{i}", t) for i, t in enumerate(totals)),
        **kwargs,  # type: ignore[arg-type]
    )


def table(placings: Sequence[Placing]) -> list[tuple[int, str, int]]:
    return [(p.place, p.entry_id, p.total) for p in placings]


def codes(excinfo: pytest.ExceptionInfo[RuleViolation]) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in excinfo.value.problems]


# --- plain ranking -----------------------------------------------------------


def test_plain_ranking_by_decreasing_total_with_shared_places() -> None:
    ranking = rank(
        [solo("a", 120), solo("b", 300), solo("c", 120), solo("d", -420), solo("e", 120)]
    )
    assert ranking.mode is PLAIN
    assert table(ranking.placings) == [
        (1, "b", 300),
        (2, "a", 120),
        (2, "c", 120),
        (2, "e", 120),
        (5, "d", -420),
    ]
    assert [p.tied for p in ranking.placings] == [False, True, True, True, False]
    assert [p.separated_by for p in ranking.placings] == [
        None,
        Separation.TOTAL,
        Separation.TIED,
        Separation.TIED,
        Separation.TOTAL,
    ]


def test_empty_ranking() -> None:
    assert rank([]).placings == ()


def test_penalties_come_off_the_total() -> None:
    ranking = rank([solo("a", 500, penalties=[100, 300]), solo("b", 200)])
    first, second = ranking.placings
    assert (first.entry_id, first.score, first.penalty_points, first.total) == ("b", 200, 0, 200)
    assert (second.entry_id, second.score, second.penalty_points, second.total) == (
        "a",
        500,
        400,
        100,
    )


def test_a_warning_costs_nothing() -> None:
    ranking = rank([solo("a", 100, penalties=[0]), solo("b", 50)])
    assert table(ranking.placings) == [(1, "a", 100), (2, "b", 50)]


# --- abandonment (art. 27) ---------------------------------------------------


def test_abandoners_are_ranked_last_by_total_among_themselves() -> None:
    ranking = rank(
        [
            solo("quit-high", 2000, abandoned=True),
            solo("low", -900),
            solo("quit-low", -50, abandoned=True),
            solo("high", 400),
            solo("quit-tie", -50, abandoned=True),
        ]
    )
    assert table(ranking.placings) == [
        (1, "high", 400),
        (2, "low", -900),
        (3, "quit-high", 2000),
        (4, "quit-low", -50),
        (4, "quit-tie", -50),
    ]
    assert [p.abandoned for p in ranking.placings] == [False, False, True, True, True]
    assert ranking.placings[2].separated_by is Separation.ABANDONMENT


def test_abandoner_is_not_tied_with_a_non_abandoner_of_the_same_total() -> None:
    ranking = rank([solo("quit", 100, abandoned=True), solo("stay", 100)])
    assert table(ranking.placings) == [(1, "stay", 100), (2, "quit", 100)]
    assert not ranking.placings[1].tied


# --- teams ---------------------------------------------------------------------


def test_duo_ranking_sums_members_and_their_penalties() -> None:
    pair_a = team("A", [300, -100], penalties=(Penalty("A.1", PenaltyKind.SLOWNESS, 100, "x"),))
    pair_b = team("B", [50, 100])
    pair_c = team("C", [-200, 0])
    ranking = rank([pair_a, pair_b, pair_c])
    assert table(ranking.placings) == [(1, "B", 150), (2, "A", 100), (3, "C", -200)]
    assert ranking.placings[1].score == 200


def test_teams_of_four() -> None:
    ranking = rank(
        [team("X", [10, 20, 30, 40]), team("Y", [100, 0, 0, 0]), team("Z", [0, 0, 0, 90])]
    )
    # level teams share the place and keep their input order
    assert table(ranking.placings) == [(1, "X", 100), (1, "Y", 100), (3, "Z", 90)]


# --- championship: article 29 -------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "loser", "decided_by"),
    [
        # best score on one position
        (
            {"positions": [400, -100], "made": {}},
            {"positions": [150, 150], "made": {"garde_contre": 3}},
            Separation.BEST_POSITION_SCORE,
        ),
        # then most contracts made, whatever their kind
        (
            {"positions": [200, 100], "made": {"prise": 3, "garde": 1}},
            {"positions": [100, 200], "made": {"garde_contre": 2, "garde_sans": 1}},
            Separation.CONTRACTS_MADE,
        ),
        # then garde contre made before garde sans ("suivant la hauteur")
        (
            {"positions": [300, 0], "made": {"prise": 4, "garde_contre": 1}},
            {"positions": [300, 0], "made": {"prise": 2, "garde_sans": 3}},
            Separation.GARDE_CONTRE_MADE,
        ),
        # then garde sans made
        (
            {"positions": [300, 0], "made": {"garde": 1, "garde_sans": 2, "garde_contre": 1}},
            {"positions": [0, 300], "made": {"garde": 2, "garde_sans": 1, "garde_contre": 1}},
            Separation.GARDE_SANS_MADE,
        ),
    ],
)
def test_article_29_criteria_in_order(
    winner: dict[str, object], loser: dict[str, object], decided_by: Separation
) -> None:
    entries = [
        solo("loser", 300, **loser),  # type: ignore[arg-type]
        solo("winner", 300, **winner),  # type: ignore[arg-type]
    ]
    ranking = rank(entries, CHAMPIONSHIP)
    assert table(ranking.placings) == [(1, "winner", 300), (2, "loser", 300)]
    assert ranking.placings[1].separated_by is decided_by
    assert not any(p.tied for p in ranking.placings)
    # the plain mode keeps them tied, in input order
    assert table(rank(entries).placings) == [(1, "loser", 300), (1, "winner", 300)]


def test_ties_surviving_article_29_stay_ties() -> None:
    same = {"positions": [200, 100], "made": {"prise": 1, "garde_sans": 1}}
    other_order = {"positions": [100, 200], "made": {"garde_sans": 1, "prise": 1}}
    ranking = rank(
        [
            solo("first", 900, positions=[900], made={}),
            solo("a", 300, **same),  # type: ignore[arg-type]
            solo("b", 300, **other_order),  # type: ignore[arg-type]
            solo("c", 300, positions=[150, 150], made={}),
        ],
        CHAMPIONSHIP,
    )
    assert table(ranking.placings) == [
        (1, "first", 900),
        (2, "a", 300),
        (2, "b", 300),
        (4, "c", 300),
    ]
    assert [p.separated_by for p in ranking.placings] == [
        None,
        Separation.TOTAL,
        Separation.TIED,
        Separation.BEST_POSITION_SCORE,
    ]
    assert ranking.placings[1].tie_break == TieBreakFigures(
        best_position_score=200, contracts_made=2, garde_contre_made=0, garde_sans_made=1
    )


def test_tie_break_data_is_only_needed_for_entries_level_on_total() -> None:
    ranking = rank(
        [
            solo("alone", 500),
            solo("t1", 100, positions=[60, 40], made={}),
            solo("t2", 100, positions=[90, 10], made={}),
        ],
        CHAMPIONSHIP,
    )
    assert table(ranking.placings) == [(1, "alone", 500), (2, "t2", 100), (3, "t1", 100)]
    assert ranking.placings[0].tie_break is None


def test_missing_tie_break_data_when_championship_needs_it() -> None:
    entries = [
        solo("a", 100, positions=[100], made={}),
        solo("b", 100),
        solo("c", 50),
        solo("d", 100),
    ]
    with pytest.raises(RuleViolation) as excinfo:
        rank(entries, CHAMPIONSHIP)
    assert codes(excinfo) == [
        ("entries[1].members[0].tie_break", "missing_tie_break_data"),
        ("entries[3].members[0].tie_break", "missing_tie_break_data"),
    ]
    assert "'a'" in excinfo.value.problems[0].message
    # the plain mode does not need it
    assert [p.place for p in rank(entries).placings] == [1, 1, 1, 4]


def test_abandoners_are_tie_broken_among_themselves_in_championship() -> None:
    ranking = rank(
        [
            solo("q1", 0, abandoned=True, positions=[10], made={}),
            solo("q2", 0, abandoned=True, positions=[20], made={}),
            solo("p", 0, positions=[0], made={}),
        ],
        CHAMPIONSHIP,
    )
    assert table(ranking.placings) == [(1, "p", 0), (2, "q2", 0), (3, "q1", 0)]
    assert [p.separated_by for p in ranking.placings] == [
        None,
        Separation.ABANDONMENT,
        Separation.BEST_POSITION_SCORE,
    ]


def test_team_tie_break_adds_members_position_by_position() -> None:
    def duo(entry_id: str, first: list[int], second: list[int], made: list[dict[str, int]]):
        return Entry(
            entry_id,
            (
                MemberResult(f"{entry_id}.0", sum(first), TieBreakData(tuple(first), made[0])),
                MemberResult(f"{entry_id}.1", sum(second), TieBreakData(tuple(second), made[1])),
            ),
        )

    # A's best single-player position is 300, but as a team its positions are 80 and 250.
    a = duo("A", [100, -50], [-20, 300], [{"garde": 1}, {"garde_contre": 1}])
    b = duo("B", [130, 0], [130, 70], [{}, {}])  # positions 260 and 70, total 330
    ranking = rank([a, b], CHAMPIONSHIP)
    assert table(ranking.placings) == [(1, "B", 330), (2, "A", 330)]
    assert ranking.placings[1].separated_by is Separation.BEST_POSITION_SCORE
    assert ranking.placings[1].tie_break == TieBreakFigures(250, 2, 1, 0)


# --- validation --------------------------------------------------------------


def test_every_structural_problem_is_located() -> None:
    bad_data = TieBreakData((), {"petite": 2, "garde": -1})
    entries = [
        solo("a", 10, penalties=[-100]),
        solo("a", 20),
        Entry("", (MemberResult("a", 5), MemberResult("z", 0))),
        Entry("d", (MemberResult("d", 0, bad_data), MemberResult("d", 0))),
        Entry("e", (MemberResult("e", 0),), (Penalty("x", PenaltyKind.SLOWNESS, 100, "r"),)),
        Entry("f", tuple(MemberResult(f"f{i}", 0) for i in range(3))),
    ]
    with pytest.raises(RuleViolation) as excinfo:
        rank(entries)
    assert codes(excinfo) == [
        ("entries[0].penalties[0].points", "negative_penalty"),
        ("entries[1].entry_id", "duplicate_entry_id"),
        ("entries[1].members[0].player", "player_in_several_entries"),
        ("entries[2].entry_id", "blank_entry_id"),
        ("entries[2].members", "team_size_mismatch"),
        ("entries[2].members[0].player", "player_in_several_entries"),
        ("entries[3].members", "team_size_mismatch"),
        ("entries[3].members[0].tie_break.position_scores", "no_position_scores"),
        ("entries[3].members[0].tie_break.contracts_made.petite", "unknown_contract"),
        ("entries[3].members[0].tie_break.contracts_made.garde", "negative_contract_count"),
        ("entries[3].members[1].player", "duplicate_member"),
        ("entries[4].penalties[0].player", "penalty_player_not_member"),
        ("entries[5].members", "unsupported_team_size"),
    ]
    for problem in excinfo.value.problems:
        assert problem.message.endswith(".")


def test_entry_without_members_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        rank([Entry("ghost", ())])
    assert codes(excinfo) == [("entries[0].members", "unsupported_team_size")]


def test_team_members_must_have_the_same_number_of_positions() -> None:
    entry = Entry(
        "A",
        (
            MemberResult("p", 0, TieBreakData((1, 2, 3))),
            MemberResult("q", 0, TieBreakData((1, 2))),
        ),
    )
    with pytest.raises(RuleViolation) as excinfo:
        rank([entry], CHAMPIONSHIP)
    assert codes(excinfo) == [
        ("entries[0].members[1].tie_break.position_scores", "position_count_mismatch")
    ]


# --- performance ---------------------------------------------------------------


# --- invariants ------------------------------------------------------------------


_one_entry = st.tuples(
    st.sampled_from([-300, -100, 0, 100, 200, 500]),
    st.lists(st.sampled_from([0, 100, 200]), max_size=2),
    st.integers(min_value=0, max_value=4).map(lambda n: n == 0),  # abandons 1 time in 5
    st.lists(st.sampled_from([-50, 0, 50, 100]), min_size=1, max_size=3),
    st.dictionaries(
        st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"]),
        st.integers(min_value=0, max_value=2),
    ),
)


def _build(rows: list[tuple]) -> list[Entry]:
    return [
        solo(f"p{i}", total, penalties=pen, abandoned=quit_, positions=pos, made=made)
        for i, (total, pen, quit_, pos, made) in enumerate(rows)
    ]


individual_fields = st.lists(_one_entry, max_size=20).map(_build)


def _strictly_ahead_plain(a: Placing, b: Placing) -> bool:
    """``a`` ranks strictly ahead of ``b`` in the plain mode, from the rules alone."""
    if a.abandoned != b.abandoned:
        return b.abandoned
    return a.total > b.total


@settings(max_examples=80, deadline=None)
@given(individual_fields)
def test_plain_ranking_invariants(entries: list[Entry]) -> None:
    placings = rank(entries).placings
    assert sorted(p.entry_id for p in placings) == sorted(e.entry_id for e in entries)
    places = [p.place for p in placings]
    assert places == sorted(places)
    for p in placings:
        assert p.place == 1 + sum(_strictly_ahead_plain(q, p) for q in placings)
        assert p.total == p.score - p.penalty_points <= p.score
    for p in placings:
        for q in placings:
            if p.abandoned == q.abandoned and p.total == q.total:
                assert p.place == q.place
    abandoned = [p.abandoned for p in placings]
    assert abandoned == sorted(abandoned)  # every abandoner after every other entry


@settings(max_examples=80, deadline=None)
@given(individual_fields)
def test_championship_refines_the_plain_ranking(entries: list[Entry]) -> None:
    plain = {p.entry_id: p for p in rank(entries, PLAIN).placings}
    champ = rank(entries, CHAMPIONSHIP).placings
    places = [p.place for p in champ]
    assert places == sorted(places)
    for p in champ:
        group = sum(q.place == plain[p.entry_id].place for q in plain.values())
        assert plain[p.entry_id].place <= p.place < plain[p.entry_id].place + group
        assert p.place == 1 + sum(q.place < p.place for q in champ)
        if p.tied:
            assert sum(q.place == p.place for q in champ) >= 2


@settings(max_examples=60, deadline=None)
@given(individual_fields, st.randoms(use_true_random=False))
def test_places_do_not_depend_on_input_order(entries: list[Entry], rng: random.Random) -> None:
    shuffled = list(entries)
    rng.shuffle(shuffled)
    for mode in (PLAIN, CHAMPIONSHIP):
        before = {p.entry_id: p.place for p in rank(entries, mode).placings}
        after = {p.entry_id: p.place for p in rank(shuffled, mode).placings}
        assert before == after


@settings(max_examples=80, deadline=None)
@given(individual_fields, st.data())
def test_a_penalty_never_raises_a_total_or_improves_a_place(
    entries: list[Entry], data: st.DataObject
) -> None:
    if not entries:
        return
    i = data.draw(st.integers(min_value=0, max_value=len(entries) - 1))
    points = data.draw(st.sampled_from([0, 100, 400]))
    target = entries[i]
    penalised = Entry(
        target.entry_id,
        target.members,
        (*target.penalties, Penalty(target.entry_id, PenaltyKind.SLOWNESS, points, "again")),
        target.abandoned,
    )
    changed = [*entries[:i], penalised, *entries[i + 1 :]]
    for mode in (PLAIN, CHAMPIONSHIP):
        before = next(p for p in rank(entries, mode).placings if p.entry_id == target.entry_id)
        after = next(p for p in rank(changed, mode).placings if p.entry_id == target.entry_id)
        assert after.total == before.total - points
        assert after.place >= before.place


def test_mode_given_as_a_string_is_honoured_and_an_unknown_one_refused():
    tied = [
        Entry("A", (MemberResult("1", 10, TieBreakData((8, 2))),)),
        Entry("B", (MemberResult("2", 10, TieBreakData((9, 1))),)),
    ]
    assert [p.entry_id for p in rank(tied, "championship").placings] == ["B", "A"]
    with pytest.raises(RuleViolation):
        rank(tied, "knockout")
