"""A tournament played deal by deal, for the demo: every deal scored by the engine.

Pure (no Django): :func:`play` seats the entries position by position (tables of 4,
the last ones of 3 when the number of players is not a multiple of 4, teammates never
at one table: chapter 2), deals random contracts that ``score_deal`` marks, and keeps
each player's score per position. :class:`PlayedTournament` then writes the results
document of ``docs/results-format.md`` (position scores, totals, places in the "1224"
convention, no tie-break data: level entries share their place), which the demo submits
through the same services as any club.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from competitions.rules.engine.scoring import Contract, Deal, Side, score_deal
from competitions.rules.engine.tables import Orientation, TableSize, seats

CONTRACT_WEIGHTS: tuple[tuple[Contract | None, int], ...] = (
    (Contract.PRISE, 46),
    (Contract.GARDE, 38),
    (Contract.GARDE_SANS, 9),
    (Contract.GARDE_CONTRE, 2),
    (None, 5),  # everyone passed
)
POINTS_NEEDED = (56, 51, 41, 36)  # by oudlers (chapter 1, « Décompte des points »)


@dataclass(frozen=True)
class Participant:
    """A player of an entry: a licence number and the name written on the results, or
    ``licence_number=None`` for a player without licence (a guest)."""

    licence_number: int | None
    name: str


@dataclass
class PlayedTournament:
    entries: list[list[Participant]]
    """Entry ``k + 1``'s players (1 for an individual, 2 for a duo, 4 for a team)."""
    sessions: list[dict[str, int]]
    scores: dict[tuple[int, int], list[tuple[int, int, int, int]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    """(entry index, player index) → (session, position, table, score) per position played."""

    def results_document(self) -> dict[str, Any]:
        """The JSON results document: position scores, totals, places (1224)."""
        entries: list[dict[str, Any]] = []
        for k, team in enumerate(self.entries):
            players: list[dict[str, Any]] = []
            for j, player in enumerate(team):
                rows = sorted(self.scores[(k, j)])
                players.append(
                    {
                        "licence_number": player.licence_number,
                        "name": player.name,
                        "total": sum(row[3] for row in rows),
                        "positions": [
                            {"session": s, "position": p, "table": t, "score": score}
                            for s, p, t, score in rows
                        ],
                    }
                )
            total = sum(int(p["total"]) for p in players)
            entries.append({"number": k + 1, "place": 0, "total": total, "players": players})
        totals = sorted(-int(e["total"]) for e in entries)
        for entry in entries:
            entry["place"] = 1 + totals.index(-int(entry["total"]))
        return {"format_version": 1, "sessions": self.sessions, "entries": entries}

    def corrected(self, rng: random.Random) -> PlayedTournament:
        """The same tournament with one table's marks of one position entered wrongly and
        set right (the scores of two players of that table swapped): what a staff
        correction after homologation typically fixes."""
        by_table: dict[tuple[int, int, int], list[tuple[int, int]]] = defaultdict(list)
        for key, rows in self.scores.items():
            for session, position, table, _ in rows:
                by_table[(session, position, table)].append(key)
        where = rng.choice(sorted(by_table))
        first, second = rng.sample(sorted(by_table[where]), 2)
        scores: dict[tuple[int, int], list[tuple[int, int, int, int]]] = defaultdict(list)
        for key, rows in self.scores.items():
            scores[key] = list(rows)

        def score_of(key: tuple[int, int]) -> int:
            return next(row[3] for row in scores[key] if row[:3] == where)

        a, b = score_of(first), score_of(second)
        for key, value in ((first, b), (second, a)):
            scores[key] = [(*row[:3], value) if row[:3] == where else row for row in scores[key]]
        return PlayedTournament(self.entries, self.sessions, scores)


def play(
    rng: random.Random,
    entries: list[list[Participant]],
    *,
    sessions: int = 1,
    positions: int = 4,
    deals: int = 5,
) -> PlayedTournament:
    """``entries`` play ``sessions`` of ``positions`` positions of ``deals`` deals."""
    players = [(k, j) for k, team in enumerate(entries) for j in range(len(team))]
    tables = math.ceil(len(players) / 4)
    threes = 4 * tables - len(players)
    played = PlayedTournament(
        entries=entries,
        sessions=[
            {
                "number": s,
                "tables": tables,
                "tables_of_three": threes,
                "deals": positions * deals,
            }
            for s in range(1, sessions + 1)
        ],
    )
    sizes = [4] * (tables - threes) + [3] * threes
    for session in range(1, sessions + 1):
        for position in range(1, positions + 1):
            for table, group in enumerate(_seat(rng, players, sizes), start=1):
                size = TableSize(len(group))
                marks = dict.fromkeys(seats(size), 0)
                for _ in range(deals):
                    for seat, mark in score_deal(random_deal(rng, size)).marks.items():
                        marks[seat] += mark
                for seat, player in zip(seats(size), group, strict=True):
                    played.scores[player].append((session, position, table, marks[seat]))
    return played


def random_deal(rng: random.Random, size: TableSize) -> Deal:
    """A plausible deal: the contract by its usual frequency, the attack's points around
    what its oudlers need, now and then the petit au bout."""
    contract = rng.choices(
        [c for c, _ in CONTRACT_WEIGHTS], weights=[w for _, w in CONTRACT_WEIGHTS]
    )[0]
    if contract is None:
        return Deal.all_passed(size)
    oudlers = rng.choice((0, 1, 1, 2, 2, 2, 3))
    low, high = 4 * oudlers, 91 - 4 * (3 - oudlers)
    points = max(low, min(high, round(rng.gauss(POINTS_NEEDED[oudlers] + 2, 9))))
    petit = rng.choice((None,) * 10 + (Side.ATTACK, Side.DEFENCE)) if oudlers else None
    taker: Orientation = rng.choice(seats(size))
    return Deal(size, contract, taker, oudlers=oudlers, attack_points=points, petit_au_bout=petit)


def _seat(
    rng: random.Random, players: list[tuple[int, int]], sizes: list[int]
) -> list[list[tuple[int, int]]]:
    """Players split into tables of ``sizes``, no two players of one entry at a table."""
    for _ in range(1000):
        order = players[:]
        rng.shuffle(order)
        seated: list[list[tuple[int, int]]] = [[] for _ in sizes]
        for player in order:
            free = [
                t
                for t, size in enumerate(sizes)
                if len(seated[t]) < size and all(player[0] != other[0] for other in seated[t])
            ]
            if not free:
                break
            # The emptiest tables first, so the last players still find a table.
            room = max(sizes[t] - len(seated[t]) for t in free)
            seated[rng.choice([t for t in free if sizes[t] - len(seated[t]) == room])].append(
                player
            )
        else:
            return seated
    raise ValueError("these entries cannot be seated without teammates meeting")
