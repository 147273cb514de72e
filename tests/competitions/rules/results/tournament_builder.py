"""Plays whole random tournaments, deal by deal, for the results tests and samples.

A tournament is seated position by position (tables of 4, the last ones of 3
when the number of players is not a multiple of 4, teammates never at the same
table), each table plays random deals scored by the engine, and the builder
writes both forms of the same results: deal-by-deal score sheets and the
results document (position scores, totals after penalties, tie-break figures,
places in the "1224" convention). It computes the results on its own, so that
the converter and the validator are checked against an independent account.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from competitions.rules.engine.card_counts import Talon, Tricks, possible_counts
from competitions.rules.engine.scoring import Contract, Deal, Side, score_deal
from competitions.rules.engine.tables import Orientation, TableSize, seats

CONTRACT_WEIGHTS = (
    (Contract.PRISE, 50),
    (Contract.GARDE, 35),
    (Contract.GARDE_SANS, 8),
    (Contract.GARDE_CONTRE, 2),
    (None, 5),
)
POINTS_NEEDED = (56, 51, 41, 36)
TALON = {
    Contract.PRISE: Talon.ECART,
    Contract.GARDE: Talon.ECART,
    Contract.GARDE_SANS: Talon.CHIEN_FOR_ATTACK,
    Contract.GARDE_CONTRE: Talon.CHIEN_FOR_DEFENCE,
}


@dataclass
class Sheet:
    session: int
    position: int
    table: int
    players: dict[Orientation, int | str]
    deals: list[Deal]


@dataclass
class Tournament:
    team_size: int
    players: list[int | str]  # licence numbers; a string is a player without one (its name)
    names: dict[int | str, str]
    teams: list[list[int | str]]  # entry k+1's players
    sessions: list[dict[str, int]]
    sheets: list[Sheet] = field(default_factory=list)
    penalties: list[dict[str, Any]] = field(default_factory=list)
    abandoned: set[int] = field(default_factory=set)  # entry numbers

    # ------------------------------------------------------------------
    def sheets_document(self, *, with_entries: bool = True) -> dict[str, Any]:
        document: dict[str, Any] = {"format_version": 1}
        if with_entries:
            document["entries"] = [
                {
                    "number": k + 1,
                    "players": [self._player_id(p) for p in team],
                    **({"abandoned": True} if k + 1 in self.abandoned else {}),
                }
                for k, team in enumerate(self.teams)
            ]
        document["score_sheets"] = [
            {
                "session": sheet.session,
                "position": sheet.position,
                "table": sheet.table,
                "players": {str(seat): player for seat, player in sheet.players.items()},
                "deals": [_deal_json(deal) for deal in sheet.deals],
            }
            for sheet in self.sheets
        ]
        if self.penalties:
            document["penalties"] = list(self.penalties)
        return document

    def _player_id(self, player: int | str) -> dict[str, Any]:
        if isinstance(player, str):
            return {"licence_number": None, "name": player}
        return {"licence_number": player, "name": self.names[player]}

    def results_document(self, *, tiebreak: bool = True) -> dict[str, Any]:
        balances: dict[int | str, list[tuple[int, int, int, int]]] = defaultdict(list)
        made: dict[int | str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for sheet in self.sheets:
            totals = dict.fromkeys(sheet.players, 0)
            for deal in sheet.deals:
                scored = score_deal(deal)
                for seat, mark in scored.marks.items():
                    totals[seat] += mark
                if scored.breakdown is not None and scored.breakdown.contract_won:
                    made[sheet.players[deal.taker]][deal.contract.value] += 1
            for seat, player in sheet.players.items():
                balances[player].append((sheet.session, sheet.position, sheet.table, totals[seat]))
        penalty_points: dict[int | str, int] = defaultdict(int)
        for penalty in self.penalties:
            penalty_points[penalty["licence_number"]] += penalty["points"]

        entries = []
        for k, team in enumerate(self.teams):
            players = []
            rounds: dict[tuple[int, int], int] = defaultdict(int)
            contracts: dict[str, int] = dict.fromkeys((c.value for c in Contract), 0)
            for player in team:
                scores = sorted(balances[player])
                for session, position, _, score in scores:
                    rounds[(session, position)] += score
                for contract, count in made[player].items():
                    contracts[contract] += count
                players.append(
                    {
                        **self._player_id(player),
                        "total": sum(s[3] for s in scores) - penalty_points[player],
                        "positions": [
                            {"session": s, "position": p, "table": t, "score": score}
                            for s, p, t, score in scores
                        ],
                    }
                )
            entries.append(
                {
                    "number": k + 1,
                    "place": 0,
                    "total": sum(p["total"] for p in players),
                    "abandoned": k + 1 in self.abandoned,
                    "players": players,
                    "tiebreak": (
                        {"best_position_score": max(rounds.values()), "contracts_made": contracts}
                        if tiebreak
                        else None
                    ),
                }
            )
        keys = sorted((e["abandoned"], -e["total"]) for e in entries)
        for entry in entries:
            entry["place"] = 1 + keys.index((entry["abandoned"], -entry["total"]))
        return {
            "format_version": 1,
            "sessions": self.sessions,
            "entries": entries,
            "penalties": list(self.penalties),
        }


def _deal_json(deal: Deal) -> dict[str, Any]:
    if deal.contract is None:
        return {"contract": None}
    line: dict[str, Any] = {
        "contract": deal.contract.value,
        "taker": deal.taker.value,
        "oudlers": deal.oudlers,
        "attack_points": deal.attack_points,
    }
    if deal.petit_au_bout is not None:
        line["petit_au_bout"] = deal.petit_au_bout.value
    return line


def random_deal(rng: random.Random, size: TableSize) -> Deal:
    contract = rng.choices(
        [c for c, _ in CONTRACT_WEIGHTS], weights=[w for _, w in CONTRACT_WEIGHTS]
    )[0]
    if contract is None:
        return Deal.all_passed(size)
    oudlers = rng.choice((0, 1, 1, 2, 2, 2, 3))
    needed = POINTS_NEEDED[oudlers]
    aimed = round(rng.gauss(needed + 3, 9))
    # the whole count nearest the aim that the cards allow (card_counts), no chelem
    counts = possible_counts(size, TALON[contract], Tricks.SHARED)
    points = min((p for k, p in counts if k == oudlers and p.denominator == 1),
                 key=lambda p: abs(p - aimed))  # fmt: skip
    petit = rng.choice((None,) * 8 + (Side.ATTACK, Side.DEFENCE)) if oudlers else None
    if petit is Side.DEFENCE and oudlers == 3:  # the defence would hold the petit
        petit = None
    return Deal(
        size,
        contract,
        rng.choice(seats(size)),
        oudlers=oudlers,
        attack_points=int(points),
        petit_au_bout=petit,
    )


def _seat_position(rng: random.Random, players: list[int | str], team_of: dict) -> list[list]:
    """Players split into tables of 4 then 3, no two teammates at one table."""
    tables = math.ceil(len(players) / 4)
    threes = 4 * tables - len(players)
    sizes = [4] * (tables - threes) + [3] * threes
    for _ in range(1000):
        order = players[:]
        rng.shuffle(order)
        seated: list[list] = [[] for _ in sizes]
        for player in order:
            free = [
                t
                for t, size in enumerate(sizes)
                if len(seated[t]) < size
                and all(team_of[player] != team_of[other] for other in seated[t])
            ]
            if not free:
                break
            seated[rng.choice(free)].append(player)
        else:
            return seated
    raise RuntimeError("could not seat the players")


def play(
    rng: random.Random,
    *,
    players: int,
    team_size: int = 1,
    sessions: int = 1,
    positions: int = 2,
    deals: int = 4,
    licence_base: int = 100_000,
    unlicensed: int = 0,
    penalties: int = 0,
) -> Tournament:
    """A random tournament of ``players`` (a multiple of ``team_size``), fully played."""
    ids: list[int | str] = [licence_base + i for i in range(1, players + 1)]
    for k in range(unlicensed):
        ids[-1 - k] = f"GUEST {chr(65 + k)}"
    names = {p: (p if isinstance(p, str) else f"PLAYER {p}") for p in ids}
    teams = [ids[i : i + team_size] for i in range(0, players, team_size)]
    team_of = {p: k for k, team in enumerate(teams) for p in team}
    tables = math.ceil(players / 4)
    tournament = Tournament(
        team_size=team_size,
        players=ids,
        names=names,
        teams=teams,
        sessions=[
            {
                "number": s,
                "tables": tables,
                "tables_of_three": 4 * tables - players,
                "deals": positions * deals,
            }
            for s in range(1, sessions + 1)
        ],
    )
    for session in range(1, sessions + 1):
        for position in range(1, positions + 1):
            for t, group in enumerate(_seat_position(rng, ids, team_of), start=1):
                size = TableSize(len(group))
                tournament.sheets.append(
                    Sheet(
                        session,
                        position,
                        t,
                        dict(zip(seats(size), group, strict=True)),
                        [random_deal(rng, size) for _ in range(deals)],
                    )
                )
    licensed = [p for p in ids if isinstance(p, int)]
    for player in rng.sample(licensed, penalties):
        tournament.penalties.append(
            {
                "licence_number": player,
                "points": 100,
                "kind": "late_arrival",
                "reason": "Arrived 3 minutes late (article 26).",
            }
        )
    return tournament
