"""The pure engine's speed: ranking a large field, planning movements.

    .venv/bin/python benchmarks/engine_speed.py [--runs 7]

Prints the median (and min) time, over ``--runs`` runs, of (1) ranking 1,000 entries
with penalties, abandons and article 29 tie-break data, plainly and as a championship;
(2) planning a movement with the most positions for 117 to 120 players, and for 197 to 199
players with tables of 5 (49 tables, 1 to 3 fifth players); (3) refusing a
movement of 10⁹ positions (the refusal must not loop over them). Figures only: nothing is
asserted (a timed assertion in a test fails on a busy machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competitions.rules.engine.movements.planning import max_positions, plan_movement
from competitions.rules.engine.movements.settings import MovementSettings
from competitions.rules.engine.penalties import Penalty, PenaltyKind
from competitions.rules.engine.standings import (
    Entry,
    MemberResult,
    RankingMode,
    TieBreakData,
    rank,
)
from core.problems import RuleViolation


def field_of(size: int, seed: int = 29) -> list[Entry]:
    rng = random.Random(seed)
    entries = []
    for i in range(size):
        tie_break = TieBreakData(
            tuple(rng.randrange(-500, 500, 10) for _ in range(6)),
            {"prise": rng.randrange(4), "garde_contre": rng.randrange(2)},
        )
        entries.append(
            Entry(
                entry_id=f"p{i}",
                members=(MemberResult(f"p{i}", rng.randrange(-2000, 2000, 10), tie_break),),
                penalties=tuple(
                    Penalty(f"p{i}", PenaltyKind.ETHICS, 100, "benchmark")
                    for _ in range(rng.randrange(0, 2))
                ),
                abandoned=rng.random() < 0.02,
            )
        )
    return entries


def timed(label: str, runs: int, work: Callable[[], object]) -> None:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    print(
        f"{label:<52} median {statistics.median(times) * 1000:8.1f} ms"
        f"   min {min(times) * 1000:8.1f} ms"
    )


def refuse_huge() -> None:
    try:
        plan_movement(40, 10**9)
    except RuleViolation:
        return
    raise AssertionError("10**9 positions were accepted")


def plan_thirty_tables() -> None:
    for short in range(4):
        plan_movement(120 - short, max_positions(120 - short))


FIVES = MovementSettings(tables_of_five=True)


def plan_with_tables_of_five() -> None:
    for players in (197, 198, 199):
        plan_movement(players, max_positions(players, settings=FIVES), settings=FIVES)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    entries = field_of(1000)
    timed("rank 1,000 entries (plain)", runs, lambda: rank(entries, RankingMode.PLAIN))
    timed(
        "rank 1,000 entries (championship, article 29)",
        runs,
        lambda: rank(entries, RankingMode.CHAMPIONSHIP),
    )
    timed("plan the longest movement for 117-120 players", runs, plan_thirty_tables)
    timed("plan 197-199 players with tables of 5 (longest)", runs, plan_with_tables_of_five)
    timed("refuse a movement of 10^9 positions", runs, refuse_huge)


if __name__ == "__main__":
    main()
