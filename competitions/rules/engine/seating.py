"""Seatings (mises en place): which entrant takes which starting seat of a movement plan.

A seating gives each player a starting number of a
:class:`~competitions.rules.engine.movements.plan.MovementPlan` (a seat of its first row);
the plan then moves them. Chapter 2 ("Mouvements des joueurs", page 25) allows three ways
of placing the players for a position: the FFT movement, a random placement (mise en place
aléatoire) and best against best (meilleurs scores avec les meilleurs, from the ranking
after the previous positions); chapter 3 article 25 ("place des joueurs") seats the first
session of a championship stage.

Randomness always comes from an explicit ``random.Random``.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from competitions.rules.engine.movements.plan import MovementPlan
from competitions.rules.engine.tables import Orientation
from core.problems import Problem, RuleViolation
from core.vocabulary import Format


class PlacementMethod(StrEnum):
    """How the seats of a position are decided (types de mises en place)."""

    FFT_MOVEMENT = "fft_movement"  # Mouvement FFT
    RANDOM = "random"  # Mise en place aléatoire
    BEST_AGAINST_BEST = "best_against_best"  # Meilleurs scores avec les meilleurs


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player, a duo or a team of 4 entering a tournament."""

    id: str
    """Licence number of a player; the team's id for a duo or a team of 4."""
    members: tuple[str, ...] = ()
    """Licence numbers of a team's players in seat order (N, S, E, W; a duo N/S or E/W).
    Empty for a player."""
    committee: str = ""
    zone: str = ""

    @property
    def players(self) -> tuple[str, ...]:
        return self.members or (self.id,)


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    number: int
    """Starting number in the movement plan."""
    table: int
    orientation: Orientation
    player: str
    entrant: str


@dataclass(frozen=True, slots=True)
class Seating:
    """Starting seats of every player, by starting number."""

    tables: int
    assignments: tuple[SeatAssignment, ...]

    def number_of(self, player: str) -> int:
        for assignment in self.assignments:
            if assignment.player == player:
                return assignment.number
        raise RuleViolation.single(
            "player",
            "unknown_player",
            f"Player {player} has no seat in this seating.",
            {"player": player},
        )

    def player_at(self, number: int) -> str | None:
        """The player with starting number ``number``; ``None`` for a removed seat."""
        return next((a.player for a in self.assignments if a.number == number), None)


def random_seating(plan: MovementPlan, entrants: Sequence[Entrant], rng: random.Random) -> Seating:
    """Draws every entrant to a starting seat (tirage au sort intégral, page 17).

    A team is drawn to a team slot: a duo to the N/S or E/W pair of a table, a team of 4 to a
    whole table.
    """
    _check_entrants(plan, entrants)
    slots = _free_slots(plan)
    rng.shuffle(slots)
    return _seating(plan, zip(entrants, slots, strict=True))


def best_against_best_seating(plan: MovementPlan, ranking: Sequence[str]) -> Seating:
    """Seats players by the current ranking, best first: the 4 best at table 1 (N, S, E, W in
    ranking order), the next 4 at table 2, and so on; the removed North seats of the highest
    tables are skipped.

    Not for team tournaments ("Les mouvements aléatoires et meilleurs/meilleures ne sont pas
    possibles pour un tournoi libre par équipes").
    """
    if plan.format is not Format.INDIVIDUAL:
        raise RuleViolation.single(
            "format",
            "placement_not_allowed",
            f"Best-against-best placement is not allowed in a {plan.format} tournament: "
            "the regulations reserve it for individual tournaments.",
            {},
        )
    entrants = [Entrant(player) for player in ranking]
    _check_entrants(plan, entrants, field="ranking")
    return _seating(plan, zip(entrants, _free_slots(plan), strict=True))


def championship_seating(
    plan: MovementPlan,
    entrants: Sequence[Entrant],
    rng: random.Random,
    champion: str | None = None,
) -> Seating:
    """First-session seating of a championship stage (article 25, "place des joueurs").

    The outgoing champion (``champion``, an entrant id) sits North at table 1, the champion duo
    North/South at table 1, the champion team of 4 at table 1. The other entrants are spread so
    that every orientation receives a balanced share of each zone and each committee, and, as
    far as the free seats allow, members of one committee start at different tables. Ties are
    drawn with ``rng``.
    """
    _check_entrants(plan, entrants)
    slots = _free_slots(plan)
    pairs: list[tuple[Entrant, tuple[int, ...]]] = []
    others = list(entrants)
    if champion is not None:
        reserved = _table_one_slot(plan)
        found = next((e for e in entrants if e.id == champion), None)
        if found is None:
            raise RuleViolation.single(
                "champion",
                "unknown_champion",
                f"The outgoing champion {champion} is not among the entrants.",
                {"champion": champion},
            )
        if reserved not in slots:
            raise RuleViolation.single(
                "champion",
                "champion_seat_removed",
                f"The champion's seat at table 1 (number {reserved[0]}) is removed for a "
                "table of 3 players, so article 25 cannot be applied.",
                {"number": reserved[0]},
            )
        pairs.append((found, reserved))
        slots.remove(reserved)
        others.remove(found)
    pairs.extend(_spread(plan, _grouped(others, rng), slots))
    return _seating(plan, pairs)


def check_placement_sequence(methods: Sequence[PlacementMethod], format: Format) -> None:
    """Refuses a sequence of placements, one per position, that chapter 2 forbids.

    ``methods[0]`` is how the starting seats are decided: the FFT movement's own starting seats
    or a random draw; there is no ranking yet for best against best. From the second position:
    the FFT movement cannot be resumed after a random or best-against-best placement, and team
    tournaments use the FFT movement only.
    """
    problems = []
    format = Format(format)
    broken_at: int | None = None
    for index, method in enumerate(PlacementMethod(m) for m in methods):
        position = index + 1
        field = f"methods[{index}]"
        if index == 0:
            if method is PlacementMethod.BEST_AGAINST_BEST:
                problems.append(
                    Problem(
                        field,
                        "no_ranking_yet",
                        "The first position cannot be placed best against best: there is no "
                        "ranking before any position is played.",
                        {},
                    )
                )
            continue
        if method is not PlacementMethod.FFT_MOVEMENT:
            if format is not Format.INDIVIDUAL:
                problems.append(
                    Problem(
                        field,
                        "placement_not_allowed",
                        f"Position {position} cannot use a {method} placement in a {format} "
                        "tournament: team tournaments use the FFT movement only.",
                        {"position": position},
                    )
                )
            if broken_at is None:
                broken_at = position
        elif broken_at is not None:
            problems.append(
                Problem(
                    field,
                    "fft_movement_not_resumable",
                    f"Position {position} cannot return to the FFT movement: position "
                    f"{broken_at} used another placement, after which the FFT movement "
                    "cannot be resumed.",
                    {"position": position, "broken_at": broken_at},
                )
            )
    if problems:
        raise RuleViolation(problems)


# ---------------------------------------------------------------------------------------------


def _check_entrants(
    plan: MovementPlan, entrants: Sequence[Entrant], field: str = "entrants"
) -> None:
    size = plan.format.team_size
    expected = plan.players // size
    problems = []
    if len(entrants) != expected:
        problems.append(
            Problem(
                field,
                "entrant_count",
                f"{len(entrants)} entrants given but the plan seats {plan.players} players, "
                f"that is {expected} {plan.format} entrants.",
                {"entrants": len(entrants), "players": plan.players, "expected": expected},
            )
        )
    ids: set[str] = set()
    players: set[str] = set()
    for index, entrant in enumerate(entrants):
        at = f"{field}[{index}]"
        if len(entrant.players) != size:
            problems.append(
                Problem(
                    f"{at}.members",
                    "team_size",
                    f"Entrant {entrant.id} has {len(entrant.players)} players; a "
                    f"{plan.format} entrant has {size}.",
                    {"entrant": entrant.id, "players": len(entrant.players), "size": size},
                )
            )
        if entrant.id in ids:
            problems.append(
                Problem(
                    f"{at}.id",
                    "duplicate_entrant",
                    f"Entrant {entrant.id} appears twice.",
                    {"entrant": entrant.id},
                )
            )
        ids.add(entrant.id)
        for player in entrant.players:
            if player in players:
                problems.append(
                    Problem(
                        f"{at}.members",
                        "duplicate_player",
                        f"Player {player} is entered twice.",
                        {"player": player},
                    )
                )
            players.add(player)
    if problems:
        raise RuleViolation(problems)


def _free_slots(plan: MovementPlan) -> list[tuple[int, ...]]:
    """Starting numbers an entrant takes together (the plan's teams, or one number each), in
    number order, removed seats skipped."""
    vacant = set(plan.vacant)
    slots = plan.teams or tuple((n,) for n in plan.numbers)  # fifth players last
    return [slot for slot in slots if vacant.isdisjoint(slot)]


def _table_one_slot(plan: MovementPlan) -> tuple[int, ...]:
    return plan.teams[0] if plan.teams else (1,)


def _slot_kind(plan: MovementPlan, slot: tuple[int, ...]) -> Orientation:
    """The orientation of a slot's first seat: N, S, E, W (or the fifth seat of a table of
    5) for a player, N (N/S) or E (E/W) for a duo, N for a team of 4."""
    return plan.starting_seat_of(slot[0])[1]


def _grouped(entrants: list[Entrant], rng: random.Random) -> list[Entrant]:
    """Entrants grouped by zone, then committee; groups and members in drawn order."""
    by_zone: dict[str, dict[str, list[Entrant]]] = defaultdict(lambda: defaultdict(list))
    for entrant in entrants:
        by_zone[entrant.zone][entrant.committee].append(entrant)
    ordered: list[Entrant] = []
    zones = sorted(by_zone)
    rng.shuffle(zones)
    for zone in zones:
        committees = sorted(by_zone[zone])
        rng.shuffle(committees)
        for committee in committees:
            members = by_zone[zone][committee]
            rng.shuffle(members)
            ordered.extend(members)
    return ordered


def _spread(
    plan: MovementPlan,
    entrants: list[Entrant],
    slots: list[tuple[int, ...]],
) -> list[tuple[Entrant, tuple[int, ...]]]:
    """Deals grouped entrants over the orientations in smooth proportion to their free seats
    (smooth weighted round robin: any run of consecutive entrants, such as one committee, gets
    each orientation in proportion), each to the table of its orientation where it finds the
    fewest of its committee, then of its zone, then the first after the table that orientation
    last received (orientations start a quarter of the room apart), so that consecutive
    entrants start at different tables."""
    free: dict[Orientation, list[tuple[int, ...]]] = defaultdict(list)
    for slot in slots:
        free[_slot_kind(plan, slot)].append(slot)
    weight = {kind: len(kind_slots) for kind, kind_slots in free.items()}
    total = sum(weight.values())
    credit = dict.fromkeys(weight, 0)
    committees_at: dict[int, Counter[str]] = defaultdict(Counter)
    zones_at: dict[int, Counter[str]] = defaultdict(Counter)
    cursor = {kind: (index * plan.tables) // len(weight) for index, kind in enumerate(weight)}
    pairs = []
    for entrant in entrants:
        for kind in credit:
            credit[kind] += weight[kind]
        kind = max((k for k in credit if free[k]), key=lambda k: credit[k])
        credit[kind] -= total

        def preference(
            slot: tuple[int, ...], entrant: Entrant = entrant, kind: Orientation = kind
        ) -> tuple[int, int, int]:
            table = plan.starting_seat_of(slot[0])[0]
            return (
                committees_at[table][entrant.committee],
                zones_at[table][entrant.zone],
                (table - 1 - cursor[kind]) % plan.tables,
            )

        slot = min(free[kind], key=preference)
        free[kind].remove(slot)
        table = plan.starting_seat_of(slot[0])[0]
        cursor[kind] = table % plan.tables
        committees_at[table][entrant.committee] += 1
        zones_at[table][entrant.zone] += 1
        pairs.append((entrant, slot))
    return pairs


def _seating(plan: MovementPlan, pairs: Iterable[tuple[Entrant, tuple[int, ...]]]) -> Seating:
    assignments = []
    for entrant, slot in pairs:
        for number, player in zip(slot, entrant.players, strict=True):
            table, orientation = plan.starting_seat_of(number)
            assignments.append(SeatAssignment(number, table, orientation, player, entrant.id))
    return Seating(plan.tables, tuple(sorted(assignments, key=lambda a: a.number)))
