"""What a player needs to reach the next step of the ladder, under the live thresholds.

The live (provisional) ranking gives every player a step by the criteria of
:func:`rankings.rules.national_ranking.step_criteria`: a step reached by share
is held by the players placed at or above its **last place**
(⌊share × ranked players⌋), so its live threshold is the points of the player
at that place; a step with ``min_pcn`` has that fixed threshold; ``min_pp``
adds a PP requirement. This module turns those criteria into "what is missing"
without writing them again:

- :func:`threshold_orders` says which lines of the live ranking (by their
  order 1…N) hold the thresholds, so the caller reads only them;
- :func:`next_step` compares the player's totals with them.

**Reading.** Overtaking the player at a step's last place is what it takes:
a player outside a share is placed inside it exactly when their order key
(:func:`~rankings.rules.national_ranking.order_key`: total PCN, then total PP
when PP break ties) is at least that player's key, since ties share the place
("1224"). A player without points who scores one joins the ranked players,
whose count is the base of the shares: the thresholds are then those of a
ranking one player larger. Everything else stays as the live ranking stands:
other players' future results move the thresholds until the official ranking.

No Django, no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rankings.rules.national_ranking import is_ranked, order_key, step_criteria
from rankings.rules.series import SeriesPolicy


@dataclass(frozen=True, slots=True)
class LivePosition:
    """A player's line in the live ranking, and the ranking's size."""

    step: str
    """The step the live ranking gives the player (whatever its source)."""
    total_pcn: int
    total_pp: int
    order: int
    """The player's line in ranking order, 1…``player_count`` (``rank_order``)."""
    ranked_count: int
    """Players with a total PCN above 0 (the base of the shares)."""
    player_count: int


@dataclass(frozen=True, slots=True)
class NextStep:
    """The step just above the player's, and what is missing to reach it."""

    step: str
    series: int
    label_fr: str
    label_en: str
    reachable: bool
    """False when the step's share holds no place in a ranking of this size."""
    threshold_pcn: int
    """The total PCN the step asks (the points of its last place, or its ``min_pcn``)."""
    missing_pcn: int
    """PCN still missing (0 when the PCN criterion is met); PP unchanged."""
    missing_pp: int
    """PP still missing for the step's ``min_pp`` (0 when met or none)."""
    last_place: int | None
    """For a step reached by share: the last place within it."""


def _ranked_count_if_scoring(position: LivePosition) -> int:
    """The ranked players once this player has points (they join the base if not yet)."""
    return position.ranked_count + (0 if is_ranked(position.total_pcn) else 1)


def _criterion(policy: SeriesPolicy, position: LivePosition, index: int) -> tuple[int, int, int]:
    """(min PCN, last place, min PP) of the step at ``index`` for this player."""
    criteria = step_criteria(policy, _ranked_count_if_scoring(position), position.player_count)
    for step_index, min_pcn, last_place, min_pp in criteria.by_step:
        if step_index == index:
            return min_pcn, last_place, min_pp
    return 0, position.player_count, 0  # the lowest step: no criterion


def _next_index(policy: SeriesPolicy, position: LivePosition) -> int | None:
    index = policy.index_of(position.step) + 1
    return index if index < len(policy.ladder) else None


def threshold_orders(policy: SeriesPolicy, position: LivePosition) -> tuple[int, ...]:
    """The ranking lines (orders) whose totals :func:`next_step` needs: the last place of
    the next step when it is a share the player is outside of; else none."""
    index = _next_index(policy, position)
    if index is None:
        return ()
    _min_pcn, last_place, _min_pp = _criterion(policy, position, index)
    if 1 <= last_place < position.order:
        return (last_place,)
    return ()


def next_step(
    policy: SeriesPolicy,
    position: LivePosition,
    totals_at: Mapping[int, tuple[int, int]],
) -> NextStep | None:
    """The next step above the player's and what is missing; ``None`` at the top.

    ``totals_at`` maps each order of :func:`threshold_orders` to the (total PCN,
    total PP) of the ranking line at that order.
    """
    index = _next_index(policy, position)
    if index is None:
        return None
    target = policy.ladder[index]
    min_pcn, last_place, min_pp = _criterion(policy, position, index)
    threshold = min_pcn
    reachable = True
    if last_place < 1:
        reachable = False  # the share holds nobody yet
    elif last_place < position.order:
        pcn, pp = totals_at[last_place]
        mine = order_key(position.total_pcn, position.total_pp, policy)
        theirs = order_key(pcn, pp, policy)
        # Level on PCN is enough when the PP do not lose the tie; else one PCN more.
        threshold = max(threshold, pcn if mine[1] >= theirs[1] else pcn + 1)
    return NextStep(
        step=target.code,
        series=target.series,
        label_fr=target.label_fr,
        label_en=target.label_en,
        reachable=reachable,
        threshold_pcn=threshold,
        missing_pcn=max(0, threshold - position.total_pcn) if reachable else 0,
        missing_pp=max(0, min_pp - position.total_pp),
        last_place=last_place if target.top_share is not None else None,
    )


__all__ = ["LivePosition", "NextStep", "next_step", "threshold_orders"]
