"""The room's printouts for a large field: how long the table cards (a QR code each), the
fiches de déplacement and the score sheets of one drawn session take to make
(``competitions/day/printouts.py``; docs/tournament-day.md).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_printouts \
        .venv/bin/python benchmarks/day_printouts.py [--players 100 300] [--positions 6] \
        [--deals 4] [--runs 3] [--profile]

The database (created if absent, migrated) gets, for each field size, a declared tournament
and one session drawn as the room stores it (the table-entry benchmark's
``tournament_drawn``); each PDF is made ``--runs`` times and its median printed with its
size and page count. The table cards are made cold (each QR code encoded: the session's
first print in a process) and warm (the codes already encoded in this process: a reprint).
``--profile`` prints the 15 costliest functions of one cold run of each. The tournaments
are removed at the end.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()


from benchmarks.bench_db import create_database_if_absent  # noqa: E402
from benchmarks.table_entry import tournament_drawn, tournaments_remove  # noqa: E402
from competitions.day import printouts  # noqa: E402
from competitions.day.printouts import (  # noqa: E402
    movement_sheets_pdf,
    score_sheets_pdf,
    table_cards_pdf,
)


def table_cards_cold(session):
    printouts._qr_path.cache_clear()  # every code encoded again, as on a first print
    return table_cards_pdf(session)


PRINTOUTS = {
    "table cards, cold": table_cards_cold,
    "table cards, warm": table_cards_pdf,
    "fiches de déplacement": movement_sheets_pdf,
    "score sheets": score_sheets_pdf,
}


def pages(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    create_database_if_absent()
    try:
        for players in args.players:
            session = tournament_drawn(players // 4, args.positions, args.deals)
            print(f"{players} players, {args.positions} positions, {args.deals} deals each:")
            for name, make in PRINTOUTS.items():
                times = []
                for _ in range(args.runs):
                    began = time.perf_counter()
                    pdf = make(session)
                    times.append(time.perf_counter() - began)
                print(
                    f"  {name:<22} median {statistics.median(times):6.2f} s "
                    f"(min {min(times):.2f}, max {max(times):.2f}), "
                    f"{len(pdf) / 1024:,.0f} KiB, {pages(pdf)} pages"
                )
                if args.profile and name != "table cards, warm":
                    profile = cProfile.Profile()
                    profile.runcall(make, session)
                    pstats.Stats(profile).sort_stats("cumulative").print_stats(15)
    finally:
        tournaments_remove()


if __name__ == "__main__":
    main()
