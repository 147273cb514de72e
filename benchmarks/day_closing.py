"""The day's standings and results document for a large field, pure (no database): how long
the projector page's standings and the end's document take to compute.

    .venv/bin/python benchmarks/day_closing.py --players 300 --sessions 3 --positions 6 --deals 5
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competitions.rules.day.layout import Holder, layout_of
from competitions.rules.day.results_document import (
    DayDeal,
    DayEntry,
    DayMember,
    DayResults,
    DaySession,
    score_sheets_document,
)
from competitions.rules.day.standings import standings_after
from competitions.rules.engine.movements.planning import plan_movement
from competitions.rules.engine.scoring import Deal, score_deal
from competitions.rules.engine.tables import TableSize, seats
from competitions.rules.results.score_sheets import parse_score_sheets


def build(players: int, sessions: int, positions: int, deals: int) -> DayResults:
    rng = random.Random(1)
    plan = plan_movement(players, positions)
    layout = layout_of(plan, deals)
    numbers = tuple(plan.numbers)
    entries = tuple(DayEntry(n, (DayMember(1, 100_000 + n, f"JOUEUR {n}"),)) for n in numbers)
    day_sessions = tuple(
        DaySession(s, layout, {n: Holder(n) for n in numbers}) for s in range(1, sessions + 1)
    )
    records = []
    for s in day_sessions:
        for tables in layout.positions:
            for table in tables:
                at = seats(TableSize(len(table.seats)))
                for k in range(1, deals + 1):
                    taker = rng.choice(at)
                    facts = Deal(
                        len(at), "garde", taker=taker, oudlers=2, attack_points=rng.randint(20, 70)
                    )
                    marks = score_deal(facts).marks
                    line = {"contract": "garde", "taker": taker.value, "oudlers": 2,
                            "attack_points": facts.attack_points}  # fmt: skip
                    records.append(
                        DayDeal(
                            s.number,
                            table.position,
                            table.table,
                            k,
                            line,
                            {o.value: m for o, m in marks.items()},
                        )
                    )
    return DayResults(entries, day_sessions, tuple(records))


def timed(what: str, call, runs: int = 3):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - start)
    print(f"{what}: {best * 1000:.0f} ms (best of {runs})")
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--deals", type=int, default=5)
    args = parser.parse_args()
    day = build(args.players, args.sessions, args.positions, args.deals)
    print(f"{args.players} players, {len(day.deals)} deals")
    timed("standings after the last position", lambda: standings_after(day))
    document = timed("score-sheets document", lambda: score_sheets_document(day))
    timed("document read back (parse_score_sheets)",
          lambda: parse_score_sheets(document, format="individual"))  # fmt: skip


if __name__ == "__main__":
    main()
