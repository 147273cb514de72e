"""Which players of the live store hold a series, as ranges of their scores.

A player's series is that of their step: their points step (rule 3: the highest step
whose criterion they meet), raised to the demotion limit's floor (rule 4), unless the
CCN placed them (rule 5, read apart: a few players). Every criterion but ``min_pp`` is a
bound on the score of ``rankings/rules/live_order.py`` (lower scores come first):

- total PCN ≥ ``min_pcn`` is score ≤ ``score((min_pcn, 0))``;
- place ≤ ``last_place`` is score ≤ the score of the ``last_place``-th player in order
  (a place is 1 + the players of a smaller score), which the store reads by rank.

So, among the players of one **band** — the series of their floor and how many of the
ladder's ``min_pp`` thresholds their total PP meets, both fixed between two writes of
the player — the points step only rises as the score falls, and a series is one range
of scores. The store keeps each band as a sorted set (``live_store``); a series of the
whole country is then the union of one range of each band (:func:`series_ranges`), read
by counts and ranges in O(log n), with no player's line computed but the page's.

The step itself stays the core's: :func:`series_ranges` asks
``national_ranking.points_step_index`` at one score of each range and combines it with
the floor as ``entry_for`` does (the higher index of the two, whose series is the
smaller number: series never increase going up the ladder).

No Django, no I/O.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass

from rankings.rules.live_order import MAX_TOTAL_PCN, score
from rankings.rules.national_ranking import (
    PlayerStanding,
    StepCriteria,
    demotion_floor,
    points_step_index,
    season_step_index,
)
from rankings.rules.series import SeriesPolicy


def pp_thresholds(policy: SeriesPolicy) -> tuple[int, ...]:
    """The distinct ``min_pp`` of the ladder's steps, lowest first."""
    return tuple(sorted({step.min_pp for step in policy.ladder if step.min_pp}))


def band_of(
    standing: PlayerStanding, policy: SeriesPolicy, index_of: dict[str, int], total_pp: int
) -> str:
    """The player's band: ``<series of their demotion floor>:<PP thresholds met>``."""
    floor = demotion_floor(season_step_index(standing, policy, index_of), policy)
    met = bisect_right(pp_thresholds(policy), total_pp)
    return f"{policy.ladder[floor].series}:{met}"


def bands(policy: SeriesPolicy) -> list[str]:
    """Every band a player may be in under this policy."""
    floors = sorted({step.series for step in policy.ladder})
    return [f"{f}:{met}" for f in floors for met in range(len(pp_thresholds(policy)) + 1)]


def cut_places(criteria: StepCriteria, player_count: int) -> list[int]:
    """The places whose player's score bounds a criterion (read from the store)."""
    return sorted({last for _i, _pcn, last, _pp in criteria.by_step if 0 < last < player_count})


@dataclass(frozen=True)
class ScoreRange:
    """Scores ``low`` to ``high``, both included (None: unbounded)."""

    low: int | None
    high: int | None

    def holds(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def _bounds(
    criteria: StepCriteria, player_count: int, cut_scores: Mapping[int, int]
) -> list[tuple[int, int | None, int]]:
    """(ladder index, highest score meeting the PCN and place criterion or None for
    every score, ``min_pp``) of each step some score can reach."""
    found = []
    for index, min_pcn, last_place, min_pp in criteria.by_step:
        if last_place <= 0 or min_pcn > MAX_TOTAL_PCN:
            continue  # nobody reaches it
        bound = score((min_pcn, 0)) if min_pcn > 0 else None
        if last_place < player_count:
            at = cut_scores[last_place]
            bound = at if bound is None else min(bound, at)
        found.append((index, bound, min_pp))
    return found


def series_ranges(
    criteria: StepCriteria, player_count: int, cut_scores: Mapping[int, int], series: int
) -> dict[str, ScoreRange]:
    """For each band, the range of scores whose players (unless placed by the CCN) hold
    ``series``; bands without any are left out. ``cut_scores``: the score of the player
    at each place of :func:`cut_places`."""
    policy = criteria.policy
    thresholds = (0, *pp_thresholds(policy))
    bounds = _bounds(criteria, player_count, cut_scores)
    found: dict[str, ScoreRange] = {}
    for band in bands(policy):
        floor_series, met = (int(part) for part in band.split(":"))
        pp = thresholds[met]  # the least total PP of the band: meets the same min_pp
        allowed = [(index, bound) for index, bound, min_pp in bounds if min_pp <= pp]
        points = sorted({bound for _index, bound in allowed if bound is not None})
        low: int | None = None
        picked: list[tuple[int | None, int | None]] = []
        for high in [*points, None]:  # the scores in (previous point, high]
            reached = {index for index, bound in allowed
                       if bound is None or (high is not None and bound >= high)}  # fmt: skip
            points_index = points_step_index(_met_only(criteria, reached), 0, 0, pp)
            if min(policy.ladder[points_index].series, floor_series) == series:
                picked.append((low, high))
            low = None if high is None else high + 1
        if picked:
            found[band] = ScoreRange(picked[0][0], picked[-1][1])
    return found


def _met_only(criteria: StepCriteria, met: set[int]) -> StepCriteria:
    """The criteria with the steps of ``met`` met by anyone and the others by nobody:
    the core's choice among them (``points_step_index``) then decides."""
    by_step = tuple(
        (index, 0 if index in met else MAX_TOTAL_PCN + 1, last, min_pp)
        for index, _pcn, last, min_pp in criteria.by_step
    )
    return StepCriteria(criteria.policy, criteria.index_of, by_step, criteria.cutoffs)
