"""« Mes points »: a player's points of a season explained, and what the next step asks.

A read over the season's **live** ranking (the thresholds move with it): the
player's live line, their standing (what was carried from which official
total), and the one ranking line that holds the next step's threshold; the
rules are the pure core's (:mod:`rankings.rules.next_step`). Four queries
(the season's state with its live snapshot, the player's line, their standing,
the threshold line), whatever the ranking's size.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from federation.models import Player, Season
from rankings import selectors
from rankings.models import RankingEntry, RankingSnapshot, SeasonRanking, SeasonStanding
from rankings.rules.next_step import LivePosition, NextStep, next_step, threshold_orders
from rankings.rules.series import SeriesPolicy


@lru_cache(maxsize=32)
def _policy(data: str) -> SeriesPolicy:
    return SeriesPolicy.from_dict(json.loads(data))


def snapshot_policy(snapshot: RankingSnapshot) -> SeriesPolicy:
    """The series policy a snapshot was computed with (parsed once per version)."""
    return _policy(json.dumps(snapshot.policy.data, sort_keys=True))


@dataclass(frozen=True)
class Carry:
    """What was carried over from the player's last official ranking."""

    previous_pcn: int
    previous_pp: int
    percent: Decimal
    """The share kept, c^(1 + missed seasons), in percent."""
    missed_seasons: int


@dataclass(frozen=True)
class MyPoints:
    season: Season
    snapshot: RankingSnapshot
    """The live ranking the figures come from."""
    entry: RankingEntry
    step_label: str
    carry: Carry | None
    next: NextStep | None
    final: bool
    """The season's official ranking is published: the thresholds no longer move."""


def _carry(policy: SeriesPolicy, standing: SeasonStanding | None) -> Carry | None:
    if standing is None or not standing.previous_step:
        return None
    codes = {s.code for s in policy.ladder}
    if standing.previous_step in codes:
        series = policy.series_of(standing.previous_step)
    else:
        series = standing.previous_series or 4
    factor = Fraction(policy.carry_over_for(series)) ** (1 + standing.missed_seasons)
    percent = (Decimal(factor.numerator) * 100 / Decimal(factor.denominator)).normalize()
    return Carry(standing.previous_pcn, standing.previous_pp, percent, standing.missed_seasons)


def my_points(player: Player, season: Season) -> MyPoints | None:
    """The player's points in the season's live ranking explained; ``None`` when the
    season has no live ranking or the player is not in it."""
    state = (
        SeasonRanking.objects.filter(season=season)
        .select_related("live__policy", "live__season")
        .first()
    )
    snapshot = state.live if state is not None else None
    if state is None or snapshot is None:
        return None
    entry = RankingEntry.objects.filter(snapshot=snapshot, player=player).order_by().first()
    if entry is None:
        return None
    policy = snapshot_policy(snapshot)
    position = LivePosition(
        step=entry.step,
        total_pcn=entry.total_pcn,
        total_pp=entry.total_pp,
        order=entry.rank_order,
        ranked_count=snapshot.ranked_count,
        player_count=snapshot.player_count,
    )
    orders = threshold_orders(policy, position)
    totals = {
        order: (pcn, pp)
        for order, pcn, pp in RankingEntry.objects.filter(
            snapshot=snapshot, rank_order__in=orders
        ).values_list("rank_order", "total_pcn", "total_pp")
    } if orders else {}  # fmt: skip
    standing = (
        SeasonStanding.objects.filter(season=season, player=player).order_by().first()
        if entry.carried_pcn or entry.carried_pp or entry.previous_step
        else None
    )
    labels = selectors.step_labels(snapshot)
    return MyPoints(
        season=season,
        snapshot=snapshot,
        entry=entry,
        step_label=labels.get(entry.step, (entry.step,))[0],
        carry=_carry(policy, standing),
        next=next_step(policy, position, totals),
        final=state.official_id is not None,
    )


def my_points_out(points: MyPoints | None) -> dict | None:
    """The API's form of :func:`my_points`."""
    if points is None:
        return None
    e, nxt, carry = points.entry, points.next, points.carry
    return {
        "season": points.season.name,
        "live_snapshot": points.snapshot.pk,
        "computed_at": points.snapshot.computed_at,
        "thresholds_final": points.final,
        "season_pcn": e.season_pcn,
        "season_pp": e.season_pp,
        "carried_pcn": e.carried_pcn,
        "carried_pp": e.carried_pp,
        "total_pcn": e.total_pcn,
        "total_pp": e.total_pp,
        "tournaments": e.tournaments,
        "carry_over": None
        if carry is None
        else {
            "previous_total_pcn": carry.previous_pcn,
            "previous_total_pp": carry.previous_pp,
            "kept_percent": str(carry.percent),
            "missed_seasons": carry.missed_seasons,
        },
        "place": e.place,
        "players": points.snapshot.player_count,
        "step": e.step,
        "step_label": points.step_label,
        "step_source": e.step_source,
        "next_step": None
        if nxt is None
        else {
            "step": nxt.step,
            "step_label": nxt.label_fr,
            "series": nxt.series,
            "reachable": nxt.reachable,
            "threshold_pcn": nxt.threshold_pcn,
            "missing_pcn": nxt.missing_pcn,
            "missing_pp": nxt.missing_pp,
            "last_place": nxt.last_place,
        },
    }
