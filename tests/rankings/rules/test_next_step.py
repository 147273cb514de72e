"""« Mes points »: what the next step asks under the live thresholds, checked against the
ranking recomputed with those points added."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from rankings.rules.national_ranking import PlayerStanding, Ranking, compute_ranking
from rankings.rules.next_step import LivePosition, next_step, threshold_orders
from rankings.rules.series import SeriesPolicy, Step

POLICY = SeriesPolicy.default()


def _position(ranking: Ranking, player: int) -> LivePosition:
    order, entry = next((i, e) for i, e in enumerate(ranking.entries, 1) if e.player == player)
    return LivePosition(
        entry.step, entry.total_pcn, entry.total_pp, order, ranking.ranked_count,
        len(ranking.entries),
    )  # fmt: skip


def _outlook(policy: SeriesPolicy, ranking: Ranking, player: int):
    position = _position(ranking, player)
    totals = {
        order: (ranking.entries[order - 1].total_pcn, ranking.entries[order - 1].total_pp)
        for order in threshold_orders(policy, position)
    }
    return next_step(policy, position, totals)


def _standings(points: list[int], pps: list[int]) -> list[PlayerStanding]:
    return [
        PlayerStanding(player=i + 1, committee=1, club=None, season_pcn=pcn,
                       season_pp=pps[i % len(pps)] if pcn else 0)
        for i, pcn in enumerate(points)
    ]  # fmt: skip


def _points_index(policy: SeriesPolicy, players, player: int, extra: int) -> int:
    ranking = compute_ranking(
        [replace(p, season_pcn=p.season_pcn + extra) if p.player == player else p for p in players],
        policy,
    )
    entry = next(e for e in ranking.entries if e.player == player)
    return policy.index_of(entry.points_step)


@settings(max_examples=200, deadline=None)
@given(
    points=st.lists(st.integers(0, 300), min_size=1, max_size=150),
    pps=st.lists(st.integers(0, 2), min_size=1, max_size=5),
    who=st.integers(0, 10_000),
    pp_breaks_ties=st.booleans(),
)
def test_the_missing_pcn_are_exactly_what_the_next_step_asks(points, pps, who, pp_breaks_ties):
    policy = replace(POLICY, pp_breaks_ties=pp_breaks_ties)
    players = _standings(points, pps)
    me = players[who % len(players)].player
    ranking = compute_ranking(players, policy)
    outlook = _outlook(policy, ranking, me)
    entry = next(e for e in ranking.entries if e.player == me)
    if outlook is None:
        assert entry.step == policy.ladder[-1].code
        return
    target = policy.index_of(outlook.step)
    assert target == policy.index_of(entry.step) + 1
    if not outlook.reachable or outlook.missing_pp:
        return
    # With the missing PCN the player meets the next step's criterion…
    assert _points_index(policy, players, me, outlook.missing_pcn) >= target
    # … and with one PCN less they do not.
    if outlook.missing_pcn:
        assert _points_index(policy, players, me, outlook.missing_pcn - 1) < target
    assert outlook.threshold_pcn == entry.total_pcn + outlook.missing_pcn


def test_a_player_near_a_boundary_reads_the_points_of_the_last_place() -> None:
    # 100 ranked players, 1 … 100 PCN: 3P is the top 34.6 % → last place 34, held at 67 PCN.
    players = _standings(list(range(1, 101)), [0])
    ranking = compute_ranking(players, POLICY)
    outlook = _outlook(POLICY, ranking, 60)  # 60 PCN, 41st: 3C (top 41.4 % → 41st)
    assert outlook is not None
    assert (outlook.step, outlook.label_fr, outlook.last_place) == ("3P", "3e série Pique", 34)
    # Level with the 34th on PCN and PP (0 each) shares its place: 67 PCN, 7 missing.
    assert (outlook.threshold_pcn, outlook.missing_pcn, outlook.missing_pp) == (67, 7, 0)


def test_when_pp_break_ties_a_player_with_fewer_pp_needs_one_pcn_more() -> None:
    players = _standings(list(range(1, 101)), [1])
    players = [replace(p, season_pp=0) if p.player == 60 else p for p in players]
    outlook = _outlook(POLICY, compute_ranking(players, POLICY), 60)
    assert outlook is not None
    assert (outlook.threshold_pcn, outlook.missing_pcn) == (68, 8)


def test_a_player_without_points_counts_in_the_shares_once_they_score() -> None:
    # 99 ranked players and one at 0: with a point, 100 ranked players.
    players = _standings([*range(1, 100), 0], [0])
    ranking = compute_ranking(players, POLICY)
    assert ranking.ranked_count == 99
    outlook = _outlook(POLICY, ranking, 100)
    assert outlook is not None
    assert outlook.step == "4K"
    assert (outlook.last_place, outlook.threshold_pcn, outlook.missing_pcn) == (91, 9, 9)


def test_the_top_step_asks_pp() -> None:
    players = _standings(list(range(1, 201)), [0])
    outlook = _outlook(POLICY, compute_ranking(players, POLICY), 200)  # 1st, 0 PP: 1P
    assert outlook is not None
    assert outlook.step == "1N"
    assert (outlook.missing_pcn, outlook.missing_pp) == (0, 1)


def test_nothing_above_the_top() -> None:
    players = [replace(p, season_pp=1) for p in _standings(list(range(1, 201)), [0])]
    ranking = compute_ranking(players, POLICY)
    assert ranking.entries[0].step == "1N"
    assert _outlook(POLICY, ranking, 200) is None


def test_a_share_holding_nobody_is_not_reachable() -> None:
    players = _standings(list(range(1, 31)), [0])  # 3 % of 30 players: no place in 1C
    outlook = _outlook(POLICY, compute_ranking(players, POLICY), 30)  # 1st: 1K (4 % → 1)
    assert outlook is not None
    assert outlook.step == "1C"
    assert not outlook.reachable


def test_an_absolute_threshold_is_read_as_it_is() -> None:
    ladder = (
        Step("4T", 4, "4e série Trèfle", "4th series Clubs"),
        Step("3T", 3, "3e série Trèfle", "3rd series Clubs", min_pcn=500),
        Step("2T", 2, "2e série Trèfle", "2nd series Clubs", top_share=Decimal("0.2")),
        Step("1T", 1, "1re série Trèfle", "1st series Clubs", top_share=Decimal("0.05")),
    )
    policy = replace(POLICY, ladder=ladder, carry_over=(Decimal("0.8"),) * 4)
    players = _standings([288, 10, 20], [0])
    outlook = _outlook(policy, compute_ranking(players, policy), 1)
    assert outlook is not None
    assert outlook.step == "3T"
    assert (outlook.threshold_pcn, outlook.missing_pcn, outlook.last_place) == (500, 212, None)
