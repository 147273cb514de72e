"""National ranking: carry-over, places, steps, validation and invariants."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.problems import RuleViolation
from rankings.rules.national_ranking import (
    PlayerStanding,
    Ranking,
    StepSource,
    carried_points,
    compute_ranking,
    share_cutoff,
)
from rankings.rules.series import ManualPlacement, SeriesPolicy, Step

DEFAULT = SeriesPolicy.default()


def _step(code: str, series: int, **criterion) -> Step:
    return Step(code, series, f"{code} fr", f"{code} en", **criterion)


# A small pure-threshold ladder: easy to reason about by hand.
THRESHOLDS = SeriesPolicy(
    ladder=(
        _step("4T", 4),
        _step("4P", 4, min_pcn=100),
        _step("3T", 3, min_pcn=200),
        _step("2T", 2, min_pcn=400),
        _step("1T", 1, min_pcn=800),
        _step("1N", 1, min_pcn=1600, min_pp=5),
    ),
    max_demotion_steps=None,
).validate()

# A small share ladder: 10 % / 20 % / 50 % of the ranked players.
SHARES = SeriesPolicy(
    ladder=(
        _step("4T", 4),
        _step("3T", 3, top_share=Decimal("0.5")),
        _step("2T", 2, top_share=Decimal("0.2")),
        _step("1T", 1, top_share=Decimal("0.1")),
    ),
    max_demotion_steps=None,
).validate()


def standing(player: int, pcn: int = 0, pp: int = 0, **fields) -> PlayerStanding:
    fields.setdefault("committee", 1)
    fields.setdefault("club", 10)
    return PlayerStanding(player=player, season_pcn=pcn, season_pp=pp, **fields)


def by_player(ranking: Ranking) -> dict:
    return {entry.player: entry for entry in ranking.entries}


def problem_keys(error: pytest.ExceptionInfo[RuleViolation]) -> set[tuple[str, str]]:
    return {(p.field, p.code) for p in error.value.problems}


# --- carry-over -------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "coefficient", "missed", "carried"),
    [
        (1000, "0.8", 0, 800),
        (1000, "0.8", 1, 640),
        (1000, "0.8", 2, 512),
        (999, "0.8", 0, 799),  # 799.2 truncated
        (1, "0.8", 0, 0),
        (3, "0.8", 0, 2),
        (1000, "1", 5, 1000),
        (1000, "0", 0, 0),
        (12345, "0.75", 0, 9258),  # 9258.75 truncated
        (10**9, "0.8", 40, 106_338),  # exact even for long gaps: 10**9 * 4**41 // 5**41
    ],
)
def test_carried_points(previous, coefficient, missed, carried):
    assert carried_points(previous, Decimal(coefficient), missed) == carried


def test_totals_add_season_points_and_carried_points():
    ranking = compute_ranking(
        [
            standing(1, 500, 2, previous_pcn=1000, previous_pp=6, previous_step="2T"),
            standing(
                2, 300, 0, previous_pcn=1000, previous_pp=6, previous_step="2T", missed_seasons=1
            ),
            standing(3, 700, 1),
        ],
        replace(DEFAULT, carry_over=tuple(Decimal(c) for c in ("0.5", "0.6", "0.7", "0.8"))),
    )
    entries = by_player(ranking)
    # series 2 coefficient 0.6: 600 and 3 (3.6), then 0.36 after a missed season.
    assert (entries[1].carried_pcn, entries[1].carried_pp) == (600, 3)
    assert (entries[1].total_pcn, entries[1].total_pp) == (1100, 5)
    assert (entries[2].carried_pcn, entries[2].carried_pp) == (360, 2)
    assert (entries[2].total_pcn, entries[2].total_pp) == (660, 2)
    assert (entries[3].carried_pcn, entries[3].total_pcn) == (0, 700)


# --- places -----------------------------------------------------------------


def test_ties_share_the_place_1224():
    ranking = compute_ranking(
        [standing(1, 900), standing(2, 700), standing(3, 700), standing(4, 500), standing(5, 0)],
        replace(DEFAULT, pp_breaks_ties=False),
    )
    places = [(e.player, e.place) for e in ranking.entries]
    assert places == [(1, 1), (2, 2), (3, 2), (4, 4), (5, 5)]


@pytest.mark.parametrize(
    ("pp_breaks_ties", "expected"),
    [
        (True, [(3, 1), (2, 2), (4, 2), (1, 4)]),
        (False, [(1, 1), (2, 1), (3, 1), (4, 1)]),
    ],
)
def test_pp_breaks_pcn_ties_when_the_policy_says_so(pp_breaks_ties, expected):
    players = [standing(1, 700, 0), standing(2, 700, 2), standing(3, 700, 5), standing(4, 700, 2)]
    ranking = compute_ranking(players, replace(DEFAULT, pp_breaks_ties=pp_breaks_ties))
    assert [(e.player, e.place) for e in ranking.entries] == expected


def test_places_in_committee_and_club():
    players = [
        standing(1, 900, committee=1, club=10),
        standing(2, 800, committee=2, club=20),
        standing(3, 800, committee=1, club=11),
        standing(4, 800, committee=1, club=10),
        standing(5, 600, committee=2, club=20),
        standing(6, 500, committee=1, club=10),
        standing(7, 400, committee=1, club=None),
    ]
    entries = by_player(compute_ranking(players, DEFAULT))
    table = {p: (e.place, e.place_in_committee, e.place_in_club) for p, e in entries.items()}
    assert table == {
        1: (1, 1, 1),
        2: (2, 1, 1),
        3: (2, 2, 1),
        4: (2, 2, 2),
        5: (5, 2, 2),
        6: (6, 4, 3),
        7: (7, 5, None),
    }


def test_order_is_place_then_licence_number_whatever_the_input_order():
    players = [standing(p, pcn) for p, pcn in [(9, 100), (3, 300), (5, 100), (1, 100), (7, 300)]]
    expected = [3, 7, 1, 5, 9]
    for seed in range(5):
        shuffled = players[:]
        random.Random(seed).shuffle(shuffled)
        assert [e.player for e in compute_ranking(shuffled, DEFAULT).entries] == expected


def test_empty_standings_give_an_empty_ranking():
    ranking = compute_ranking([], DEFAULT)
    assert ranking.entries == ()
    assert ranking.ranked_count == 0
    assert all(cutoff.last_place == 0 for cutoff in ranking.share_cutoffs)


# --- steps by threshold ------------------------------------------------------


@pytest.mark.parametrize(
    ("pcn", "pp", "step"),
    [
        (0, 0, "4T"),
        (99, 0, "4T"),
        (100, 0, "4P"),
        (199, 9, "4P"),
        (200, 0, "3T"),
        (400, 0, "2T"),
        (799, 0, "2T"),
        (800, 0, "1T"),
        (1600, 4, "1T"),  # 1N needs 5 PP as well
        (1600, 5, "1N"),
        (5000, 50, "1N"),
    ],
)
def test_threshold_steps(pcn, pp, step):
    (entry,) = compute_ranking([standing(1, pcn, pp)], THRESHOLDS).entries
    assert (entry.points_step, entry.step, entry.step_source) == (step, step, StepSource.POINTS)
    assert entry.series == THRESHOLDS.series_of(step)


# --- steps by share ----------------------------------------------------------


@pytest.mark.parametrize(
    ("ranked", "expected_cutoffs"),
    [
        (10, {"1T": 1, "2T": 2, "3T": 5}),
        (19, {"1T": 1, "2T": 3, "3T": 9}),  # 1.9, 3.8, 9.5 rounded down
        (20, {"1T": 2, "2T": 4, "3T": 10}),
        (9, {"1T": 0, "2T": 1, "3T": 4}),
    ],
)
def test_share_cutoffs_round_down(ranked, expected_cutoffs):
    players = [standing(p, 1000 - p) for p in range(1, ranked + 1)]
    players += [standing(500 + p, 0) for p in range(3)]  # without points: not ranked
    ranking = compute_ranking(players, SHARES)
    assert ranking.ranked_count == ranked
    assert {c.step: c.last_place for c in ranking.share_cutoffs} == expected_cutoffs
    steps = by_player(ranking)
    for player in range(1, ranked + 1):
        place = steps[player].place
        expected = next(
            (code for code in ("1T", "2T", "3T") if place <= expected_cutoffs[code]), "4T"
        )
        assert steps[player].step == expected
    assert {steps[500 + p].step for p in range(3)} == {"4T"}


def test_share_cutoff_is_exact_decimal_arithmetic():
    assert share_cutoff(Decimal("0.082"), 1000) == 82
    assert share_cutoff(Decimal("0.07"), 100) == 7  # 0.07 * 100 is 7.000000000000001 in floats
    assert share_cutoff(Decimal("0.29"), 100) == 29  # and 0.29 * 100 is 28.999999999999996


@pytest.mark.parametrize(
    ("place", "step"),
    [
        (1, "1N"),
        (2, "1P"),
        (5, "1T"),
        (6, "2PR"),
        (8, "2PR"),
        (9, "2P"),
        (21, "2T"),
        (22, "3PR"),
        (55, "3T"),
        (56, "4PR"),
        (64, "4PR"),
        (65, "4P"),
        (91, "4K"),
        (92, "4T"),
        (100, "4T"),
    ],
)
def test_default_policy_boundaries_with_100_ranked_players(place, step):
    players = [standing(p, 10_000 - p, pp=3) for p in range(1, 101)]
    entries = by_player(compute_ranking(players, DEFAULT))
    assert entries[place].place == place
    assert entries[place].step == step


def test_first_place_without_pp_is_not_nationale():
    players = [standing(p, 10_000 - p) for p in range(1, 101)]
    entries = by_player(compute_ranking(players, DEFAULT))
    assert entries[1].step == "1P"
    assert entries[2].step == "1P"  # 1P's share is still 2 places


def test_a_tie_across_a_share_boundary_takes_the_whole_group_in():
    # 10 ranked players, 1T = top 1 place, 2T = top 2: players 1-3 tie for the 1st place.
    players = [standing(p, 500 if p <= 3 else 100 - p) for p in range(1, 11)]
    entries = by_player(compute_ranking(players, SHARES))
    assert [entries[p].place for p in (1, 2, 3, 4)] == [1, 1, 1, 4]
    assert [entries[p].step for p in (1, 2, 3, 4, 5, 6)] == ["1T", "1T", "1T", "3T", "3T", "4T"]


# --- the step held during the season, demotion limit, returns ---------------


@pytest.mark.parametrize(
    ("previous_step", "missed", "max_demotion", "season_step", "step", "source"),
    [
        (None, 0, 1, "4T", "4T", StepSource.POINTS),  # new licensee
        ("1C", 0, 1, "1C", "1K", StepSource.DEMOTION_LIMIT),  # idle: one step down
        ("1C", 0, 5, "1C", "2C", StepSource.DEMOTION_LIMIT),  # one whole series down
        ("1C", 0, 0, "1C", "1C", StepSource.DEMOTION_LIMIT),  # no demotion at all
        ("1C", 0, None, "1C", "4T", StepSource.POINTS),  # no limit
        ("1C", 2, 1, "1T", "2PR", StepSource.DEMOTION_LIMIT),  # back after 2 seasons
        ("4K", 0, 1, "4K", "4T", StepSource.POINTS),  # the limit allows the drop
        ("4T", 3, 1, "4T", "4T", StepSource.POINTS),
    ],
)
def test_season_step_and_demotion_limit(
    previous_step, missed, max_demotion, season_step, step, source
):
    policy = replace(DEFAULT, max_demotion_steps=max_demotion)
    player = standing(1, 0, previous_step=previous_step, missed_seasons=missed)
    (entry,) = compute_ranking([player], policy).entries
    assert (entry.season_step, entry.points_step) == (season_step, "4T")
    assert (entry.step, entry.step_source) == (step, source)


def test_points_above_the_floor_win_over_the_demotion_limit():
    players = [standing(p, 10_000 - p) for p in range(1, 101)]
    players[9] = replace(players[9], previous_step="4T")  # place 10 reaches 2P by points
    players[29] = replace(players[29], previous_step="1N")  # place 30 only 3P: kept at 1P
    entries = by_player(compute_ranking(players, DEFAULT))
    assert (entries[10].step, entries[10].step_source) == ("2P", StepSource.POINTS)
    assert (entries[30].points_step, entries[30].step) == ("3P", "1P")
    assert entries[30].step_source == StepSource.DEMOTION_LIMIT


def test_a_new_licensee_may_climb_in_the_first_season():
    players = [standing(p, 10_000 - p, pp=2) for p in range(1, 101)]
    assert by_player(compute_ranking(players, DEFAULT))[1].step == "1N"


# --- manual placements -------------------------------------------------------


def test_manual_placement_overrides_points_and_demotion_limit():
    players = [
        standing(1, 5000),
        standing(2, 0, previous_step="1N"),
        standing(3, 100),
    ]
    placements = [
        ManualPlacement(player=2, step="3T", reason="Fascicule 1, article 7"),
        ManualPlacement(player=3, step="1T", reason="Champion abroad, CCN decision of 3 June"),
    ]
    entries = by_player(compute_ranking(players, THRESHOLDS, placements))
    assert (entries[1].step, entries[1].step_source, entries[1].manual_reason) == (
        "1T",
        StepSource.POINTS,
        None,
    )
    assert (entries[2].step, entries[2].series, entries[2].step_source) == (
        "3T",
        3,
        StepSource.MANUAL,
    )
    assert entries[2].manual_reason == "Fascicule 1, article 7"
    assert (entries[3].points_step, entries[3].step) == ("4P", "1T")
    assert entries[3].place == 2  # a placement changes the step, never the place


# --- refusals ----------------------------------------------------------------


def test_standings_problems_are_all_reported():
    players = [
        standing(1, 100),
        standing(1, 200),
        standing(2, -5, pp=-1),
        standing(3, 0, previous_pcn=50),
        standing(4, 0, previous_step="9Z"),
        standing(5, 0, previous_step="1T", missed_seasons=-1),
    ]
    placements = [
        ManualPlacement(player=2, step="1X", reason=" "),
        ManualPlacement(player=2, step="1T", reason="again"),
        ManualPlacement(player=99, step="1T", reason="who?"),
    ]
    with pytest.raises(RuleViolation) as error:
        compute_ranking(players, DEFAULT, placements)
    assert problem_keys(error) == {
        ("players[1].player", "duplicate_player"),
        ("players[2].season_pcn", "negative"),
        ("players[2].season_pp", "negative"),
        ("players[3].previous_step", "missing_previous_step"),
        ("players[4].previous_step", "unknown_step"),
        ("players[5].missed_seasons", "negative"),
        ("manual_placements[0].step", "unknown_step"),
        ("manual_placements[0].reason", "missing_reason"),
        ("manual_placements[1].player", "duplicate_placement"),
        ("manual_placements[2].player", "unknown_player"),
    }


def test_an_invalid_policy_is_refused():
    with pytest.raises(RuleViolation) as error:
        compute_ranking([standing(1, 100)], replace(DEFAULT, entry_step="0X"))
    assert problem_keys(error) == {("entry_step", "unknown_step")}


# --- invariants --------------------------------------------------------------

STEP_CODES = [step.code for step in DEFAULT.ladder]

standings_strategy = st.lists(
    st.builds(
        PlayerStanding,
        player=st.integers(1, 10**6),
        committee=st.integers(1, 3),
        club=st.one_of(st.none(), st.integers(1, 4)),
        season_pcn=st.sampled_from([0, 50, 100, 400, 800, 1600, 3000]) | st.integers(0, 3000),
        season_pp=st.integers(0, 6),
    ),
    max_size=40,
    unique_by=lambda s: s.player,
)

with_history = standings_strategy.flatmap(
    lambda players: st.tuples(
        *[
            st.one_of(
                st.just(player),
                st.builds(
                    lambda step, pcn, pp, missed, p=player: replace(
                        p,
                        previous_step=step,
                        previous_pcn=pcn,
                        previous_pp=pp,
                        missed_seasons=missed,
                    ),
                    st.sampled_from(STEP_CODES),
                    st.integers(0, 4000),
                    st.integers(0, 10),
                    st.integers(0, 3),
                ),
            )
            for player in players
        ]
    ).map(list)
)


def _key(entry, policy):
    return (entry.total_pcn, entry.total_pp if policy.pp_breaks_ties else 0)


@settings(max_examples=40, deadline=None)
@given(with_history, st.booleans())
def test_place_is_one_plus_the_number_strictly_ahead(players, pp_breaks_ties):
    policy = replace(DEFAULT, pp_breaks_ties=pp_breaks_ties)
    entries = compute_ranking(players, policy).entries
    for entry in entries:
        key = _key(entry, policy)
        ahead = [other for other in entries if _key(other, policy) > key]
        assert entry.place == 1 + len(ahead)
        assert entry.place_in_committee == 1 + sum(o.committee == entry.committee for o in ahead)
        if entry.club is None:
            assert entry.place_in_club is None
        else:
            assert entry.place_in_club == 1 + sum(o.club == entry.club for o in ahead)
    order = [(e.place, e.player) for e in entries]
    assert order == sorted(order)


@settings(max_examples=40, deadline=None)
@given(with_history)
def test_every_player_gets_exactly_one_step_and_the_right_totals(players):
    entries = compute_ranking(players, DEFAULT).entries
    assert sorted(e.player for e in entries) == sorted(p.player for p in players)
    codes = set(STEP_CODES)
    by_id = {p.player: p for p in players}
    for entry in entries:
        assert entry.step in codes
        assert entry.series == DEFAULT.series_of(entry.step)
        source = by_id[entry.player]
        factor = Fraction(8, 10) ** (1 + source.missed_seasons)
        expected_pcn = source.season_pcn + int(source.previous_pcn * factor)
        expected_pp = source.season_pp + int(source.previous_pp * factor)
        assert (entry.total_pcn, entry.total_pp) == (expected_pcn, expected_pp)
        # The demotion limit: never more than one step below the step held.
        assert STEP_CODES.index(entry.step) >= STEP_CODES.index(entry.season_step) - 1


def _assert_more_points_never_lower(entries, policy):
    index = {step.code: i for i, step in enumerate(policy.ladder)}
    for a in entries:
        for b in entries:
            if a.total_pcn >= b.total_pcn and a.total_pp >= b.total_pp:
                assert index[a.step] >= index[b.step], (a, b)


@settings(max_examples=60, deadline=None)
@given(standings_strategy, st.booleans())
def test_more_points_never_give_a_lower_step_under_thresholds(players, pp_breaks_ties):
    policy = replace(THRESHOLDS, pp_breaks_ties=pp_breaks_ties)
    _assert_more_points_never_lower(compute_ranking(players, policy).entries, policy)


@settings(max_examples=60, deadline=None)
@given(standings_strategy, st.booleans())
def test_more_points_never_give_a_lower_step_under_shares(players, pp_breaks_ties):
    policy = replace(DEFAULT, pp_breaks_ties=pp_breaks_ties)
    entries = compute_ranking(players, policy).entries
    assert all(entry.step_source == StepSource.POINTS for entry in entries)
    _assert_more_points_never_lower(entries, policy)


@settings(max_examples=60, deadline=None)
@given(standings_strategy)
def test_share_steps_never_reach_beyond_their_cutoff(players):
    ranking = compute_ranking(players, DEFAULT)
    index = {step.code: i for i, step in enumerate(DEFAULT.ladder)}
    for cutoff in ranking.share_cutoffs:
        reached = [e for e in ranking.entries if index[e.step] >= index[cutoff.step]]
        assert all(e.place <= cutoff.last_place and e.total_pcn > 0 for e in reached)


def test_twenty_thousand_players():
    rng = random.Random(2024)
    players = []
    for player in range(20_000):
        previous = rng.choice([None, *STEP_CODES])
        players.append(
            PlayerStanding(
                player=100_000 + player,
                committee=rng.randrange(1, 31),
                club=rng.randrange(1, 301),
                season_pcn=rng.choice([0, rng.randrange(50, 20_000)]),
                season_pp=rng.choice([0, 0, 0, rng.randrange(1, 18)]),
                previous_pcn=0 if previous is None else rng.randrange(20_000),
                previous_pp=0 if previous is None else rng.randrange(10),
                previous_step=previous,
                missed_seasons=rng.choice([0, 0, 0, 1, 2]),
            )
        )
    ranking = compute_ranking(players, DEFAULT)
    assert len(ranking.entries) == 20_000
    assert ranking.entries[0].place == 1
    places = [e.place for e in ranking.entries]
    assert places == sorted(places)
    last_first_series_place = {c.step: c.last_place for c in ranking.share_cutoffs}["1T"]
    assert last_first_series_place == ranking.ranked_count * 5 // 100
    by_points = [e for e in ranking.entries if e.step_source == StepSource.POINTS]
    first_series = [e for e in by_points if e.series == 1]
    assert first_series
    assert all(e.place <= last_first_series_place for e in first_series)
