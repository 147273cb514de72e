"""Totalling score sheets of tables of 5 with a mort against sheets of tables of 4.

    .venv/bin/python benchmarks/table_of_five_sheets.py [--runs 7] [--sheets 1000]

Prints the median (and min) time, over ``--runs`` runs, of totalling ``--sheets`` sheets of
5 deals (facts on every line) at tables of 4, then at tables of 5 where one player sits out
each deal in turn (each line scored at 4 among the four in play, the rotation checked), and
the ratio of the two medians in the same run. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competitions.rules.engine.scoring import Contract, Deal
from competitions.rules.engine.sheets import DealLine, ScoreSheet, total_sheet
from competitions.rules.engine.sitting_out import in_play, rotations
from competitions.rules.engine.tables import Orientation, TableSize, seats


def deal(rng: random.Random, taker: Orientation) -> Deal:
    oudlers = rng.randrange(4)
    return Deal(
        TableSize.FOUR,
        rng.choice(list(Contract)),
        taker,
        oudlers=oudlers,
        attack_points=rng.randrange(25 + 5 * oudlers, 70),
    )


def sheets(count: int, five: bool, seed: int = 5) -> list[ScoreSheet]:
    rng = random.Random(seed)
    made = []
    for k in range(count):
        if five:
            rotation = rng.choice(rotations())
            start = rng.randrange(5)
            morts = [rotation[(start + i) % 5] for i in range(5)]
            lines = tuple(
                DealLine(facts=deal(rng, rng.choice(in_play(m))), sitting_out=m) for m in morts
            )
            size = TableSize.FIVE
        else:
            lines = tuple(
                DealLine(facts=deal(rng, rng.choice(seats(TableSize.FOUR)))) for _ in range(5)
            )
            size = TableSize.FOUR
        players = {seat: f"{k}-{seat}" for seat in seats(size)}
        made.append(ScoreSheet(table=k + 1, position=1, players=players, deals=lines))
    return made


def timed(work: list[ScoreSheet], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for sheet in work:
            total_sheet(sheet)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sheets", type=int, default=1000)
    args = parser.parse_args()
    four = timed(sheets(args.sheets, five=False), args.runs)
    five = timed(sheets(args.sheets, five=True), args.runs)
    for label, times in (("tables of 4", four), ("tables of 5 with a mort", five)):
        print(
            f"{args.sheets} sheets of 5 deals, {label}: median "
            f"{statistics.median(times) * 1000:.0f} ms (min {min(times) * 1000:.0f} ms)"
        )
    print(f"ratio (5 with a mort / 4): {statistics.median(five) / statistics.median(four):.2f}")


if __name__ == "__main__":
    main()
