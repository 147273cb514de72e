"""The live ranking's score encoding orders exactly like the pure core: sorting by
(score, member) is the core's listing order, and counting smaller scores gives the
core's places (overall, committee, club) and ranked count; ``entry_for`` with those
places gives the core's line, step included."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.problems import RuleViolation
from rankings.rules.live_order import (
    MAX_TOTAL_PCN,
    PP_SPAN,
    RANKED_MAX_SCORE,
    key_of,
    licence_of,
    member,
    place_from,
    score,
)
from rankings.rules.national_ranking import (
    Places,
    compute_ranking,
    entry_for,
    order_key,
    player_totals,
    step_criteria,
)
from rankings.rules.series import ManualPlacement, SeriesPolicy, Step
from tests.rankings.rules.test_national_ranking import DEFAULT, STEP_CODES, with_history

THRESHOLDS = SeriesPolicy(
    ladder=(
        Step("4T", 4, "a", "a"),
        Step("3T", 3, "b", "b", min_pcn=200),
        Step("2T", 2, "c", "c", min_pcn=900, min_pp=2),
        Step("1T", 1, "d", "d", top_share=__import__("decimal").Decimal("0.1")),
    ),
    entry_step="4T",
    max_demotion_steps=None,
    pp_breaks_ties=False,
)


def live_ranking(players, policy, placements=()):
    """The ranking as the live store reads it: sorted scores, counts of smaller ones."""
    keyed = []
    for p in players:
        _cp, _cpp, total_pcn, total_pp = player_totals(p, policy)
        keyed.append((score(order_key(total_pcn, total_pp, policy)), member(p.player), p))
    keyed.sort(key=lambda row: (row[0], row[1]))
    overall = [row[0] for row in keyed]
    committee = {}
    club = {}
    for s, _m, p in keyed:
        committee.setdefault(p.committee, []).append(s)
        if p.club is not None:
            club.setdefault(p.club, []).append(s)
    ranked = bisect_left(overall, RANKED_MAX_SCORE + 1)
    criteria = step_criteria(policy, ranked, len(keyed))
    by_player = {placement.player: placement for placement in placements}
    entries = []
    for s, m, p in keyed:
        places = Places(
            place_from(bisect_left(overall, s)),
            place_from(bisect_left(committee[p.committee], s)),
            None if p.club is None else place_from(bisect_left(club[p.club], s)),
        )
        assert licence_of(m) == p.player
        entries.append(entry_for(p, places, criteria, by_player.get(p.player)))
    return tuple(entries), ranked


@settings(max_examples=80, deadline=None)
@given(
    with_history,
    st.sampled_from([DEFAULT, replace(DEFAULT, pp_breaks_ties=False), THRESHOLDS]),
    st.data(),
)
def test_scores_order_and_place_exactly_like_the_core(players, policy, data):
    players = [
        p if p.previous_step is None or p.previous_step in {s.code for s in policy.ladder}
        else replace(p, previous_step=policy.ladder[-1].code)
        for p in players
    ]  # fmt: skip
    codes = [s.code for s in policy.ladder]
    placed = (
        data.draw(st.lists(st.sampled_from(players), unique_by=lambda p: p.player))
        if players
        else []
    )
    placements = [
        ManualPlacement(p.player, data.draw(st.sampled_from(codes)), "CCN") for p in placed
    ]
    core = compute_ranking(players, policy, placements)
    entries, ranked = live_ranking(players, policy, placements)
    assert entries == core.entries
    assert ranked == core.ranked_count


@given(st.integers(0, MAX_TOTAL_PCN), st.integers(0, PP_SPAN - 1))
def test_score_is_exact_and_reversible(pcn, pp):
    value = score((pcn, pp))
    assert float(value) == value  # a float holds it exactly
    assert key_of(float(value)) == (pcn, pp)


@given(
    st.tuples(st.integers(0, MAX_TOTAL_PCN), st.integers(0, PP_SPAN - 1)),
    st.tuples(st.integers(0, MAX_TOTAL_PCN), st.integers(0, PP_SPAN - 1)),
)
def test_a_higher_key_has_a_smaller_score(a, b):
    assert (a > b) == (float(score(a)) < float(score(b)))
    assert (a == b) == (score(a) == score(b))


@given(st.integers(0, 10**12 - 1), st.integers(0, 10**12 - 1))
def test_members_sort_like_licence_numbers(a, b):
    assert (member(a) < member(b)) == (a < b)


@pytest.mark.parametrize("key", [(MAX_TOTAL_PCN + 1, 0), (0, PP_SPAN), (-1, 0)])
def test_out_of_range_keys_are_refused(key):
    with pytest.raises(RuleViolation) as error:
        score(key)
    assert error.value.problems[0].code == "score_out_of_range"


def test_out_of_range_licence_is_refused():
    with pytest.raises(RuleViolation) as error:
        member(10**12)
    assert error.value.problems[0].code == "licence_out_of_range"


def test_step_codes_are_the_default_ladder():
    assert STEP_CODES[0] == DEFAULT.entry_step
