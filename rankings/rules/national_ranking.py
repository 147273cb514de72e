"""National ranking (*Classement National*): totals, places and series.

:func:`compute_ranking` turns every player's season PCN and PP, plus what
carries over from their last official ranking, into a place (overall, in
their committee, in their club) and a step of the ladder of a
:class:`~rankings.rules.series.SeriesPolicy`.

The same computation serves both rankings:

- the **provisional** ranking, recomputed during the season from the season
  totals so far: its step is the player's provisional series;
- the **official** ranking, computed once at the end of the season (or on
  demand by staff) and frozen by the caller: its step is the player's step
  for the whole next season.

The rules, in order (``docs/rankings-series.md`` states them exactly):

1. carried = ⌊previous official total × c^(1 + missed seasons)⌋, with c the
   policy's carry-over coefficient for the series of the previous step;
   total = season points + carried, for PCN and PP alike.
2. Order by total PCN, then total PP if ``pp_breaks_ties``; a player's place
   is 1 + the number of players strictly ahead ("1224"); the same within
   the committee and within the club.
3. Points step: the highest step whose criterion the player meets.
4. Demotion limit: never more than ``max_demotion_steps`` below the step held
   during the season.
5. A manual placement by the CCN replaces the result.

O(n log n): one sort, then linear passes. No Django, no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from core.problems import Problem, RuleViolation
from rankings.rules.series import ManualPlacement, SeriesPolicy


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """One licensee's input to the ranking (the SQL aggregation's output).

    - ``player``: licence number; ``committee``: regional committee id;
      ``club``: club id, or ``None`` for a licensee attached to no club.
    - ``season_pcn`` / ``season_pp``: PCN and PP of the season's homologated results.
    - ``previous_pcn`` / ``previous_pp``: **total** PCN and PP of the player's
      last official ranking (0 if never ranked); the policy's coefficient is
      applied here.
    - ``previous_step``: the step that ranking gave the player, ``None`` if
      never ranked (new to the federation).
    - ``missed_seasons``: seasons without a licence between that ranking's
      season and this one (0 = licensed last season).
    """

    player: int
    committee: int
    club: int | None
    season_pcn: int
    season_pp: int
    previous_pcn: int = 0
    previous_pp: int = 0
    previous_step: str | None = None
    missed_seasons: int = 0


class StepSource(StrEnum):
    """Where a player's step comes from."""

    POINTS = "points"
    """Reached by points (*au classement*)."""
    DEMOTION_LIMIT = "demotion_limit"
    """Kept up by the limit on demotion in one ranking (*descente limitée*)."""
    MANUAL = "manual"
    """Placed by the CCN (*placement par la CCN*)."""


@dataclass(frozen=True, slots=True)
class RankingEntry:
    """One player's line of the national ranking.

    ``season_step`` is the step held during the ranked season (from the last
    official ranking, the entry step or the return rule); ``points_step`` the
    step reached by points alone; ``step`` the result (next season's step in
    an official ranking) and ``series`` its series number.
    """

    player: int
    committee: int
    club: int | None
    season_pcn: int
    season_pp: int
    carried_pcn: int
    carried_pp: int
    total_pcn: int
    total_pp: int
    place: int
    place_in_committee: int
    place_in_club: int | None
    season_step: str
    points_step: str
    step: str
    series: int
    step_source: StepSource
    manual_reason: str | None


@dataclass(frozen=True, slots=True)
class ShareCutoff:
    """For a step reached by share: the last place within its share."""

    step: str
    top_share: Decimal
    last_place: int


@dataclass(frozen=True, slots=True)
class Ranking:
    """A computed national ranking.

    ``entries`` are ordered by place, then licence number. ``ranked_count`` is
    the number of players with a total PCN above 0, the base of the shares.
    """

    entries: tuple[RankingEntry, ...]
    ranked_count: int
    share_cutoffs: tuple[ShareCutoff, ...]


def carried_points(previous_total: int, coefficient: Decimal, missed_seasons: int = 0) -> int:
    """Points carried from the last official total: ⌊total × c^(1 + missed)⌋, exact."""
    factor = Fraction(coefficient) ** (1 + missed_seasons)
    return previous_total * factor.numerator // factor.denominator


def share_cutoff(top_share: Decimal, ranked_count: int) -> int:
    """Last place within a top share: ⌊share × ranked players⌋, exact."""
    return int(Fraction(top_share) * ranked_count)


def compute_ranking(
    players: Sequence[PlayerStanding],
    policy: SeriesPolicy,
    manual_placements: Sequence[ManualPlacement] = (),
) -> Ranking:
    """Rank every player and give each exactly one step.

    Raises :class:`RuleViolation` with every problem found in the policy,
    the standings (``players[i].…``) or the placements
    (``manual_placements[j].…``).
    """
    policy.validate()
    index_of = _index_of(policy)
    problems = _standing_problems(players, index_of)
    placements = _placements_by_player(manual_placements, players, index_of, problems)
    if problems:
        raise RuleViolation(problems)

    # 1. carried and total points; sort keys (higher totals first, then licence number).
    rows = []
    for position, standing in enumerate(players):
        carried_pcn, carried_pp, total_pcn, total_pp = player_totals(standing, policy, index_of)
        total_key, tie_key = order_key(total_pcn, total_pp, policy)
        rows.append((-total_key, -tie_key, standing.player, position, carried_pcn, carried_pp))
    rows.sort()

    # 2. places: overall, in committee, in club ("1224": 1 + number strictly ahead).
    places = [0] * len(players)
    committee_places = [0] * len(players)
    club_places: list[int | None] = [None] * len(players)
    last_key: tuple[int, int] | None = None
    place = 0
    by_committee: dict[int, tuple[int, tuple[int, int], int]] = {}  # seen, last key, last place
    by_club: dict[int, tuple[int, tuple[int, int], int]] = {}
    for seen, row in enumerate(rows):
        key = (row[0], row[1])
        if key != last_key:
            place, last_key = seen + 1, key
        position = row[3]
        places[position] = place
        standing = players[position]
        committee_places[position] = _group_place(by_committee, standing.committee, key)
        if standing.club is not None:
            club_places[position] = _group_place(by_club, standing.club, key)

    # 3.-5. steps, from the criteria of this ranking's size.
    ranked_count = sum(1 for row in rows if row[0] < 0)
    criteria = step_criteria(policy, ranked_count, len(players))
    entries = []
    for row in rows:
        position = row[3]
        standing = players[position]
        carried_pcn, carried_pp = row[4], row[5]
        entries.append(
            entry_for(
                standing,
                Places(places[position], committee_places[position], club_places[position]),
                criteria,
                placements.get(standing.player),
                (carried_pcn, carried_pp),
            )
        )
    return Ranking(
        entries=tuple(entries), ranked_count=ranked_count, share_cutoffs=criteria.cutoffs
    )


# --- one player at a time: the same rules, for readers that know a player's places --------
#
# ``compute_ranking`` above and the live ranking (``rankings/season/live_store.py``, which reads
# places from an order-statistics structure) both call these: every rule is written once.


@dataclass(frozen=True, slots=True)
class Places:
    """A player's places: overall, in the committee, in the club (``None``: no club)."""

    overall: int
    in_committee: int
    in_club: int | None


@dataclass(frozen=True, slots=True)
class StepCriteria:
    """The step criteria of one ranking (they depend on its size through the shares).

    ``by_step``: (ladder index, min total PCN, last place, min total PP), highest step
    first; ``cutoffs``: the last place of each step reached by share.
    """

    policy: SeriesPolicy
    index_of: dict[str, int]
    by_step: tuple[tuple[int, int, int, int], ...]
    cutoffs: tuple[ShareCutoff, ...]


@lru_cache(maxsize=256)
def _carry_factor(coefficient: Decimal, missed_seasons: int) -> tuple[int, int]:
    exact = Fraction(coefficient) ** (1 + missed_seasons)
    return exact.numerator, exact.denominator


def player_totals(
    standing: PlayerStanding, policy: SeriesPolicy, index_of: dict[str, int] | None = None
) -> tuple[int, int, int, int]:
    """Rule 1: (carried PCN, carried PP, total PCN, total PP) of one player."""
    carried_pcn = carried_pp = 0
    if standing.previous_step is not None:
        index = (index_of or _index_of(policy))[standing.previous_step]
        numerator, denominator = _carry_factor(
            policy.carry_over_for(policy.ladder[index].series), standing.missed_seasons
        )
        carried_pcn = standing.previous_pcn * numerator // denominator
        carried_pp = standing.previous_pp * numerator // denominator
    return (
        carried_pcn,
        carried_pp,
        standing.season_pcn + carried_pcn,
        standing.season_pp + carried_pp,
    )


def order_key(total_pcn: int, total_pp: int, policy: SeriesPolicy) -> tuple[int, int]:
    """Rule 2: what is compared, higher first: (total PCN, total PP if it breaks ties,
    else 0). Players with equal keys share a place; the listing orders them by licence
    number."""
    return total_pcn, total_pp if policy.pp_breaks_ties else 0


def is_ranked(total_pcn: int) -> bool:
    """Counted in the base of the shares: a total PCN above 0."""
    return total_pcn > 0


def step_criteria(policy: SeriesPolicy, ranked_count: int, player_count: int) -> StepCriteria:
    """Rule 3's criteria for a ranking of ``player_count`` players, ``ranked_count``
    of them with points."""
    cutoffs: list[ShareCutoff] = []
    criteria: list[tuple[int, int, int, int]] = []
    for index in range(len(policy.ladder) - 1, 0, -1):
        step = policy.ladder[index]
        min_pp = step.min_pp or 0
        if step.top_share is not None:
            last_place = share_cutoff(step.top_share, ranked_count)
            cutoffs.append(ShareCutoff(step.code, step.top_share, last_place))
            criteria.append((index, 1, last_place, min_pp))
        else:
            criteria.append((index, step.min_pcn or 0, player_count, min_pp))
    return StepCriteria(policy, _index_of(policy), tuple(criteria), tuple(cutoffs))


def points_step_index(criteria: StepCriteria, total_pcn: int, place: int, total_pp: int) -> int:
    """Rule 3: the ladder index of the highest step whose criterion is met (0: the lowest
    step, which every player reaches)."""
    for index, min_pcn, last_place, min_pp in criteria.by_step:
        if total_pcn >= min_pcn and place <= last_place and total_pp >= min_pp:
            return index
    return 0


def season_step_index(
    standing: PlayerStanding, policy: SeriesPolicy, index_of: dict[str, int]
) -> int:
    """Rule 4's start: the ladder index of the step held during the season (the entry
    step, or the previous step dropped per missed season)."""
    if standing.previous_step is None:
        return index_of[policy.entry_step]
    return max(
        index_of[standing.previous_step] - policy.returning_drop_steps * standing.missed_seasons,
        0,
    )


def demotion_floor(season_index: int, policy: SeriesPolicy) -> int:
    """Rule 4: the lowest ladder index a player holding ``season_index`` may end on (0:
    no limit)."""
    if policy.max_demotion_steps is None:
        return 0
    return max(season_index - policy.max_demotion_steps, 0)


def entry_for(
    standing: PlayerStanding,
    places: Places,
    criteria: StepCriteria,
    placement: ManualPlacement | None = None,
    carried: tuple[int, int] | None = None,
) -> RankingEntry:
    """Rules 1 and 3–5 for one player whose places are known: their ranking line.

    ``carried`` (carried PCN, carried PP) may be passed when already computed."""
    policy, index_of = criteria.policy, criteria.index_of
    if carried is None:
        carried_pcn, carried_pp, _total_pcn, _total_pp = player_totals(standing, policy, index_of)
    else:
        carried_pcn, carried_pp = carried
    total_pcn = standing.season_pcn + carried_pcn
    total_pp = standing.season_pp + carried_pp
    points_index = points_step_index(criteria, total_pcn, places.overall, total_pp)
    # 4. the step held during the season, and the demotion limit.
    season_index = season_step_index(standing, policy, index_of)
    final_index, source = points_index, StepSource.POINTS
    floor = demotion_floor(season_index, policy)
    if floor > points_index:
        final_index, source = floor, StepSource.DEMOTION_LIMIT
    # 5. manual placement.
    reason = None
    if placement is not None:
        final_index, source = index_of[placement.step], StepSource.MANUAL
        reason = placement.reason
    ladder = policy.ladder
    final = ladder[final_index]
    return RankingEntry(
        player=standing.player,
        committee=standing.committee,
        club=standing.club,
        season_pcn=standing.season_pcn,
        season_pp=standing.season_pp,
        carried_pcn=carried_pcn,
        carried_pp=carried_pp,
        total_pcn=total_pcn,
        total_pp=total_pp,
        place=places.overall,
        place_in_committee=places.in_committee,
        place_in_club=places.in_club,
        season_step=ladder[season_index].code,
        points_step=ladder[points_index].code,
        step=final.code,
        series=final.series,
        step_source=source,
        manual_reason=reason,
    )


def _index_of(policy: SeriesPolicy) -> dict[str, int]:
    return {step.code: index for index, step in enumerate(policy.ladder)}


def _group_place(
    groups: dict[int, tuple[int, tuple[int, int], int]], group: int, key: tuple[int, int]
) -> int:
    """Place within a group, fed in ranking order: ties share the place."""
    state = groups.get(group)
    if state is None:
        groups[group] = (1, key, 1)
        return 1
    seen, last_key, last_place = state
    place = last_place if key == last_key else seen + 1
    groups[group] = (seen + 1, key, place)
    return place


def _standing_problems(
    players: Sequence[PlayerStanding], index_of: dict[str, int]
) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[int] = set()
    for position, standing in enumerate(players):
        where = f"players[{position}]"
        if standing.player in seen:
            problems.append(
                Problem(
                    f"{where}.player",
                    "duplicate_player",
                    f"Player {standing.player} appears more than once in the standings.",
                    {"player": standing.player},
                )
            )
        seen.add(standing.player)
        for name in ("season_pcn", "season_pp", "previous_pcn", "previous_pp", "missed_seasons"):
            if getattr(standing, name) < 0:
                problems.append(
                    Problem(
                        f"{where}.{name}",
                        "negative",
                        f"{name} of player {standing.player} cannot be negative.",
                        {},
                    )
                )
        if standing.previous_step is None:
            if standing.previous_pcn or standing.previous_pp:
                problems.append(
                    Problem(
                        f"{where}.previous_step",
                        "missing_previous_step",
                        f"Player {standing.player} has points from a previous official "
                        "ranking but no step from it.",
                        {"player": standing.player},
                    )
                )
        elif standing.previous_step not in index_of:
            problems.append(
                Problem(
                    f"{where}.previous_step",
                    "unknown_step",
                    f"Previous step {standing.previous_step!r} of player {standing.player} "
                    "is not in the ladder of this policy.",
                    {"step": standing.previous_step, "player": standing.player},
                )
            )
    return problems


def _placements_by_player(
    placements: Sequence[ManualPlacement],
    players: Sequence[PlayerStanding],
    index_of: dict[str, int],
    problems: list[Problem],
) -> dict[int, ManualPlacement]:
    known = {standing.player for standing in players}
    by_player: dict[int, ManualPlacement] = {}
    for position, placement in enumerate(placements):
        where = f"manual_placements[{position}]"
        if placement.player in by_player:
            problems.append(
                Problem(
                    f"{where}.player",
                    "duplicate_placement",
                    f"Player {placement.player} has more than one manual placement.",
                    {"player": placement.player},
                )
            )
        elif placement.player not in known:
            problems.append(
                Problem(
                    f"{where}.player",
                    "unknown_player",
                    f"Player {placement.player} is placed by hand but is not in the standings.",
                    {"player": placement.player},
                )
            )
        if placement.step not in index_of:
            problems.append(
                Problem(
                    f"{where}.step",
                    "unknown_step",
                    f"Step {placement.step!r} is not in the ladder of this policy.",
                    {"step": placement.step},
                )
            )
        if not placement.reason.strip():
            problems.append(
                Problem(
                    f"{where}.reason",
                    "missing_reason",
                    f"The manual placement of player {placement.player} needs a reason.",
                    {"player": placement.player},
                )
            )
        by_player.setdefault(placement.player, placement)
    return by_player
