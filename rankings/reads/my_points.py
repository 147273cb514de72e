"""« Mes points »: a player's points of a season explained, and what the next step asks.

A read over the season's **live** ranking (the thresholds move with it): the
player's live line, their standing (what was carried from which official
total), and the one ranking line that holds the next step's threshold; the
rules are the pure core's (:mod:`rankings.rules.next_step`). At most four queries
whatever the ranking's size: the season's state with its live snapshot, the player's
line and their standing (unless the caller's record has them), the threshold line.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from federation.models import Player, Season
from rankings.models import SeasonRanking, SeasonStanding
from rankings.reads import selectors
from rankings.rules.next_step import LivePosition, NextStep, next_step, threshold_orders
from rankings.rules.series import SeriesPolicy
from rankings.season import engines
from rankings.season.ranking import Line, Ranking


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
    ranking: Ranking
    """The live ranking the figures come from."""
    entry: Line
    step_label: str
    carry: Carry | None
    next: NextStep | None
    final: bool
    """The season's official ranking is published: the thresholds no longer move."""


def _carry(
    policy: SeriesPolicy,
    previous: tuple[int, int, str, int | None] | None,
    missed_seasons: int,
) -> Carry | None:
    """``previous``: (total PCN, total PP, step, series) of the last official ranking."""
    if previous is None or not previous[2]:
        return None
    previous_pcn, previous_pp, step, series = previous
    if step in {s.code for s in policy.ladder}:
        series = policy.series_of(step)
    factor = Fraction(policy.carry_over_for(series or 4)) ** (1 + missed_seasons)
    percent = (Decimal(factor.numerator) * 100 / Decimal(factor.denominator)).normalize()
    return Carry(previous_pcn, previous_pp, percent, missed_seasons)


def my_points(
    player: Player, season: Season, *, record: selectors.PlayerRecord | None = None
) -> MyPoints | None:
    """The player's points in the season's live ranking explained; ``None`` when the
    season has no live ranking or the player is not in it.

    ``record``: the player's record already read for this season, whose live line and
    last official line are then not read again."""
    state = (
        SeasonRanking.objects.filter(season=season)
        .select_related("live__policy", "live__season")
        .first()
    )
    ranking = engines.live_ranking(season=season, state=state) if state is not None else None
    if state is None or ranking is None:
        return None
    if record is not None and record.ranking is not None and record.ranking.same_as(ranking):
        entry = record.entry
    else:
        entry = ranking.line(player)
    if entry is None:
        return None
    policy = ranking.rules()
    position = LivePosition(
        step=entry.step,
        total_pcn=entry.total_pcn,
        total_pp=entry.total_pp,
        order=ranking.order_of(entry),
        ranked_count=ranking.ranked_count,
        player_count=ranking.player_count,
    )
    totals = ranking.keys_at(threshold_orders(policy, position))
    carry = None
    if entry.carried_pcn or entry.carried_pp:
        held = record.held if record is not None and record.season.pk == season.pk else None
        if held is not None:  # the previous season's official line: no season missed
            carry = _carry(policy, (held.total_pcn, held.total_pp, held.step, held.series), 0)
        else:
            standing = (
                SeasonStanding.objects.filter(season=season, player=player).order_by().first()
            )
            if standing is not None:
                carry = _carry(
                    policy,
                    (standing.previous_pcn, standing.previous_pp, standing.previous_step,
                     standing.previous_series),
                    standing.missed_seasons,
                )  # fmt: skip
    labels = ranking.step_labels()
    return MyPoints(
        season=season,
        ranking=ranking,
        entry=entry,
        step_label=labels.get(entry.step, (entry.step,))[0],
        carry=carry,
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
        "players": points.ranking.player_count,
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
