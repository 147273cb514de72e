"""The printable ranking PDF: what embedding DejaVu Sans (core/pdf_fonts.py) costs
against reportlab's built-in Helvetica, for a committee-sized ranking.

    .venv/bin/python benchmarks/ranking_pdf.py [--lines 1500] [--runs 5]

Prints the median time and the size of the PDF of ``--lines`` lines (Latin-1 names, so
that Helvetica can print them too), with each font, and their ratios; then the same in
DejaVu Sans with names in Polish, Vietnamese, Greek and Cyrillic (more glyphs to
embed). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from core import export_formats, pdf_fonts  # noqa: E402

HEADER = ["Place", "Licence", "Nom", "Prénom", "Club", "Nom du club", "Comité", "Série", "PCN",
          "PP", "PCN de la saison", "PP de la saison", "PCN reportés", "PP reportés",
          "Tournois"]  # fmt: skip
LATIN_1 = [("Génin", "Hélène"), ("Lœuillet", "Cécile"), ("Müller", "Bénédicte")]
WIDER = [("Wójcik", "Łukasz"), ("Nguyễn", "Thị Ánh"), ("Παπαδόπουλος", "Ωρίων"), ("Жуков", "Пётр")]


def table(lines: int, names: list[tuple[str, str]]) -> SimpleNamespace:
    def rows():
        for i in range(lines):
            last, first = names[i % len(names)]
            yield [i + 1, 100000 + i, last.upper(), first, 101, "Tarot Club de Lyon", 1,
                   "2e série Pique", 1200 - i // 2, i % 7, 300, 2, 900, 5, 12]  # fmt: skip

    return SimpleNamespace(
        title="Classement PCN du comité 1", subtitle="Saison 2026-2027", header=HEADER, rows=rows
    )


def measure(lines: int, names: list[tuple[str, str]], runs: int) -> tuple[float, int]:
    times, size = [], 0
    for _run in range(runs):
        start = time.perf_counter()
        stand_in = table(lines, names)  # the fields pdf_bytes reads, no database
        size = len(export_formats.pdf_bytes(stand_in))  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    return statistics.median(times), size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=1500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    dejavu = measure(args.lines, LATIN_1, args.runs)
    wider = measure(args.lines, WIDER, args.runs)
    helvetica_fonts = pdf_fonts.PdfFonts("Helvetica", "Helvetica-Bold")
    export_formats.pdf_fonts = lambda: helvetica_fonts  # type: ignore[assignment]
    helvetica = measure(args.lines, LATIN_1, args.runs)
    print(f"{args.lines} lines, median of {args.runs} runs")
    for name, (seconds, size) in (
        ("Helvetica (built in), Latin-1 names", helvetica),
        ("DejaVu Sans, Latin-1 names", dejavu),
        ("DejaVu Sans, Polish/Vietnamese/Greek/Cyrillic", wider),
    ):
        print(f"  {name:48} {seconds:6.2f} s  {size / 1024:7.0f} KiB")
    print(f"  DejaVu / Helvetica: time ×{dejavu[0] / helvetica[0]:.2f}, "
          f"size ×{dejavu[1] / helvetica[1]:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
