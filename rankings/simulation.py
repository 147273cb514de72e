"""« Et si… »: price a hypothetical result under the season's rulebook and place the player
in the live ranking after it. A pure read: nothing is stored, nobody else moves.

The rules are the pure core's (:mod:`rankings.rules.simulation`); this module reads
the season's rulebook in force, the live ranking's state, the player's line, and
finds how many players would still be ahead (two small index reads of the snapshot).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt
from typing import Any

from competitions.rulebooks import rulebook_in_force
from core.problems import RuleViolation
from core.vocabulary import Format
from federation.access import Actor, scope_of
from federation.models import Player, Season
from federation.privacy import sees_hidden_player
from rankings import live_reads, live_store, selectors
from rankings.models import RankingEntry, RankingSnapshot, SeasonRanking, StepSource
from rankings.my_points import live_line, live_snapshot, snapshot_policy
from rankings.rules.live_order import score
from rankings.rules.national_ranking import order_key
from rankings.rules.series import SeriesPolicy
from rankings.rules.simulation import (
    Event,
    LiveLine,
    SimulatedAward,
    SimulatedLine,
    simulate_award,
    simulated_line,
    simulated_totals,
)


@dataclass(frozen=True)
class PlayerOutcome:
    """Where the result would put the player in the live ranking."""

    player: Player
    snapshot: Any
    before: Any
    before_label: str
    after: SimulatedLine
    after_label: str


@dataclass(frozen=True)
class Simulation:
    season: Season
    rulebook_version: int
    award: SimulatedAward
    outcome: PlayerOutcome | None


def _outcome(
    season: Season, licence_number: int, award: SimulatedAward, by: Actor | None
) -> PlayerOutcome:
    player = Player.objects.filter(licence_number=licence_number).first()
    if (
        player is not None
        and player.name_hidden
        and not sees_hidden_player(scope_of(by), player.pk)
    ):  # a player who asked for anonymity is unknown to the public (docs/privacy.md)
        player = None
    if player is None:
        raise RuleViolation.single(
            "licence_number",
            "no_player_with_licence",
            f"No player has licence number {licence_number}.",
            {"licence_number": licence_number},
        )
    state = (
        SeasonRanking.objects.filter(season=season)
        .select_related("live__policy", "live__season")
        .first()
    )
    snapshot = live_snapshot(season, state)
    entry = live_line(snapshot, player) if snapshot is not None else None
    if snapshot is None or entry is None:
        raise RuleViolation.single(
            "licence_number",
            "not_in_live_ranking",
            f"Player {licence_number} is not in the live ranking of season {season.name}.",
            {"licence_number": licence_number, "season": season.name},
        )
    policy = snapshot_policy(snapshot)
    line = LiveLine(
        player=licence_number,
        season_pcn=entry.season_pcn,
        season_pp=entry.season_pp,
        carried_pcn=entry.carried_pcn,
        carried_pp=entry.carried_pp,
        season_step=entry.season_step,
        manual_step=entry.step if entry.step_source == StepSource.MANUAL else None,
        ranked_count=snapshot.ranked_count,
        player_count=snapshot.player_count,
    )
    total_pcn, total_pp = simulated_totals(line, award)
    key = order_key(total_pcn, total_pp, policy)
    if isinstance(snapshot, live_reads.LiveRanking):  # Redis: the members of a smaller score
        ahead = live_store.client().zcount(snapshot.meta.key("all"), "-inf", f"({score(key)}")
        place = 1 + int(ahead)
    else:
        place = 1 + _players_ahead(snapshot, key, policy)
    after = simulated_line(policy, line, award, place)
    labels = selectors.step_labels(snapshot)
    return PlayerOutcome(
        player=player,
        snapshot=snapshot,
        before=entry,
        before_label=labels.get(entry.step, (entry.step,))[0],
        after=after,
        after_label=labels.get(after.step, (after.step,))[0],
    )


def _players_ahead(snapshot: RankingSnapshot, key: tuple[int, int], policy: SeriesPolicy) -> int:
    """How many lines of the snapshot have an order key above ``key``.

    The lines are stored in ranking order (``rank_order`` 1…N, keys never increasing), so
    the answer is the first line whose key is not above ``key``, less one: found in two
    index reads of about √N lines each (every √N-th line, then the window between two of
    them) instead of counting through the snapshot. The player's own line never counts:
    a result only adds points, so their old key is not above the new one."""
    count = snapshot.player_count
    stride = max(1, isqrt(count))
    entries = RankingEntry.objects.filter(snapshot=snapshot)

    def above(pcn: int, pp: int) -> bool:
        return order_key(pcn, pp, policy) > key

    probes = sorted(
        entries.filter(rank_order__in=range(1, count + 1, stride)).values_list(
            "rank_order", "total_pcn", "total_pp"
        )
    )
    low = 0  # every line up to ``low`` is above
    high = count  # the first line not above is at most ``high`` + 1
    for order, pcn, pp in probes:
        if above(pcn, pp):
            low = order
        else:
            high = order - 1
            break
    window = entries.filter(rank_order__gt=low, rank_order__lte=high).order_by("rank_order")
    for order, pcn, pp in window.values_list("rank_order", "total_pcn", "total_pp"):
        if not above(pcn, pp):
            return order - 1
    return high


def simulate(
    *,
    season: Season,
    event: Event,
    fmt: Format,
    tables: int,
    place: int,
    entries: int | None = None,
    licence_number: int | None = None,
    by: Actor | None = None,
) -> Simulation:
    """The PCN/PP of ``place`` in such a tournament under the season's rulebook, and, with
    a licence number, the player's place and step in the live ranking after it.
    Raises :class:`RuleViolation` naming each bad field."""
    version, rulebook = rulebook_in_force(season=season)
    award = simulate_award(event, fmt, tables, place, rulebook, entries=entries)
    outcome = _outcome(season, licence_number, award, by) if licence_number is not None else None
    return Simulation(season, version.version, award, outcome)


def simulation_out(simulation: Simulation) -> dict:
    """The API's form of a simulation."""
    a, o = simulation.award, simulation.outcome
    return {
        "season": simulation.season.name,
        "rulebook_version": simulation.rulebook_version,
        "event": a.event.value,
        "format": a.format.value,
        "stage": a.stage.value,
        "tables": a.tables,
        "entries": a.entries,
        "place": a.place,
        "pcn": a.pcn,
        "pp": a.pp,
        "has_right": a.has_right,
        "places_with_points": a.places_with_points,
        "index": str(a.index) if a.index is not None else None,
        "cap": a.cap,
        "player": None
        if o is None
        else {
            "licence_number": o.player.licence_number,
            "before": {
                "place": o.before.place,
                "total_pcn": o.before.total_pcn,
                "total_pp": o.before.total_pp,
                "step": o.before.step,
                "step_label": o.before_label,
                "series": o.before.series,
            },
            "after": {
                "place": o.after.place,
                "total_pcn": o.after.total_pcn,
                "total_pp": o.after.total_pp,
                "step": o.after.step,
                "step_label": o.after_label,
                "series": o.after.series,
                "step_source": o.after.step_source,
            },
        },
    }
