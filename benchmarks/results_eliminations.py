"""Reading and checking results with eliminations and article 29, against plain results.

    .venv/bin/python benchmarks/results_eliminations.py [--players 300] [--runs 7]

Builds one individual tournament of ``--players`` players in 3 sessions: as plain sums
(everyone plays every session), with eliminations between sessions (the best 80 % play on
at each cut, scores halved), and with cuts between positions too (the third session cut
after each of its first four positions, the best 80 % playing on, scores not divided), all
in a championship (article 29 decides level entries). Prints the median time of
``parse_json`` + ``validate`` for each and their ratio to plain sums (same run). Pure: no
database. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from competitions.rules.engine.eliminations import HalvingRounding, divided
from competitions.rules.results import parse_json, validate
from competitions.rules.results.licences import LicenceStatus

BASE = 500_000


def zero_sum(rng: random.Random, n: int) -> list[int]:
    scores = [rng.randrange(-400, 400) for _ in range(n - 1)]
    return [*scores, -sum(scores)]


def tiebreaks(rng: random.Random, n: int) -> list[dict]:
    # Distinct best position scores: level totals are always separated by article 29.
    bests = rng.sample(range(-2000, 2000), n)
    return [{"best_position_score": b, "contracts_made": {"prise": 1}} for b in bests]


def session(number: int, players: int, entries=None, divisor: int = 1) -> dict:
    tables = math.ceil(players / 4)
    found = {"number": number, "tables": tables, "tables_of_three": 4 * tables - players,
             "deals": 20}  # fmt: skip
    if entries is not None:
        found.update(entries=entries, points_divisor=divisor)
    return found


def place(totals: dict[int, tuple], keys: dict[int, tuple]) -> dict[int, int]:
    ordered = sorted(totals, key=lambda i: keys[i])
    return {i: k + 1 for k, i in enumerate(ordered)}


def documents(n: int, seed: int = 1) -> tuple[dict, dict, dict]:
    rng = random.Random(seed)
    figures = tiebreaks(rng, n)
    scores = [zero_sum(rng, n) for _ in range(3)]
    totals = [sum(s[i] for s in scores) for i in range(n)]
    keys = {i: (-totals[i], -figures[i]["best_position_score"]) for i in range(n)}
    places = place(dict.fromkeys(range(n)), keys)
    plain = {
        "format_version": 1,
        "sessions": [session(k + 1, n) for k in range(3)],
        "entries": [{"number": i + 1, "place": places[i], "total": totals[i],
                     "players": [{"licence_number": BASE + i}], "tiebreak": figures[i]}
                    for i in range(n)],
    }  # fmt: skip
    between = phased(rng, n, figures, [(1, 0, 1), (2, 0, 2), (3, 0, 2)])
    cuts = [(1, 0, 1), (2, 0, 2), (3, 0, 2), *((3, p, 1) for p in range(1, 5))]
    return plain, between, phased(rng, n, figures, cuts)


def phased(rng: random.Random, n: int, figures: list[dict], phases: list[tuple]) -> dict:
    """Phases (session, after_position, divisor): 80 % of the entries play on at each."""
    playing, end, last = list(range(n)), dict.fromkeys(range(n), 0), dict.fromkeys(range(n), 1)
    sessions: list[dict] = []
    for k, (number, after, divisor) in enumerate(phases):
        if k:
            playing = sorted(playing, key=lambda i: (-end[i], -figures[i]["best_position_score"]))
            playing = playing[: int(len(playing) * 0.8)]
        played = zero_sum(rng, len(playing))
        listed = []
        for i, score in zip(playing, played, strict=True):
            carried = divided(end[i], divisor, HalvingRounding.HALF_AWAY_FROM_ZERO) if k else 0
            listed.append({"number": i + 1, "score": score, "carried": carried})
            end[i], last[i] = carried + score, k + 1
        if after == 0:
            sessions.append(session(number, len(playing), listed, divisor))
        else:
            tables = math.ceil(len(playing) / 4)
            sessions[-1].setdefault("cuts", []).append(
                {"after_position": after, "tables": tables, "points_divisor": divisor,
                 "tables_of_three": 4 * tables - len(playing), "entries": listed}
            )  # fmt: skip
    keys = {i: (-last[i], -end[i], -figures[i]["best_position_score"]) for i in range(n)}
    places = place(dict.fromkeys(range(n)), keys)
    return {
        "format_version": 1,
        "sessions": sessions,
        "entries": [{"number": i + 1, "place": places[i], "total": end[i],
                     "players": [{"licence_number": BASE + i}], "tiebreak": figures[i]}
                    for i in range(n)],
    }  # fmt: skip


def median_seconds(document: dict, n: int, runs: int) -> float:
    licences = {BASE + i: LicenceStatus.LICENSED for i in range(n)}
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        validate(parse_json(document), format="individual", licences=licences,
                 tie_break_rules=True)  # fmt: skip
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    plain, staged, cut = documents(args.players)
    a = median_seconds(plain, args.players, args.runs)
    b = median_seconds(staged, args.players, args.runs)
    c = median_seconds(cut, args.players, args.runs)
    print(f"{args.players} players, 3 sessions, article 29 (median of {args.runs}):")
    print(f"  plain sums          parse + validate {a * 1000:7.1f} ms")
    print(f"  with eliminations   parse + validate {b * 1000:7.1f} ms  ({b / a:.2f}× plain)")
    print(f"  and 4 position cuts parse + validate {c * 1000:7.1f} ms  ({c / a:.2f}× plain)")


if __name__ == "__main__":
    main()
