"""The cost of reading an uploaded .xlsx or .ods against the same lines as CSV (pure: no
database).

A licence file of N lines written as an Excel workbook (openpyxl), as an OpenDocument
spreadsheet (written as LibreOffice lays it out: ``tests/core/test_workbooks.py``) and as
CSV, each read by ``core.text_files.decode_text`` (a workbook: its sheet turned into CSV
text; an .xlsx by openpyxl, an .ods by python-calamine) and then by the licence reader:
best of ``--runs``, and the workbooks' sizes.

    .venv/bin/python benchmarks/workbook_reading.py --rows 50000 --runs 3
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openpyxl import Workbook

from core.text_files import decode_text
from federation.rules.licence_file import read_licence_file
from tests.core.test_workbooks import ods

HEADER = ["licence_number", "last_name", "first_name", "birth_date", "club_number"]


def lines(rows: int) -> list[list[object]]:
    return [
        [10_000 + i, f"Nom{i}", "Camille", dt.date(1950 + i % 50, 1 + i % 12, 1 + i % 28), 101]
        for i in range(rows)
    ]


def best(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    data = lines(args.rows)
    book = Workbook()
    book.active.append(HEADER)
    for row in data:
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    xlsx = buffer.getvalue()
    opendocument = ods([HEADER, *data])
    csv = "\n".join(",".join(map(str, row)) for row in [HEADER, *data]).encode()
    today = dt.date(2026, 9, 1)
    print(
        f"{args.rows} lines: xlsx {len(xlsx) / 1e6:.1f} MB, ods {len(opendocument) / 1e6:.1f} MB, "
        f"csv {len(csv) / 1e6:.1f} MB"
    )
    print(f"decode xlsx (sheet -> CSV text): {best(args.runs, lambda: decode_text(xlsx)):.2f} s")
    decode_ods = best(args.runs, lambda: decode_text(opendocument))
    print(f"decode ods (sheet -> CSV text):  {decode_ods:.2f} s")
    print(f"decode csv:                      {best(args.runs, lambda: decode_text(csv)):.3f} s")
    whole_x = best(args.runs, lambda: read_licence_file(xlsx, today=today))
    whole_o = best(args.runs, lambda: read_licence_file(opendocument, today=today))
    whole_c = best(args.runs, lambda: read_licence_file(csv, today=today))
    print(f"licence reader, xlsx: {whole_x:.2f} s; ods: {whole_o:.2f} s; csv: {whole_c:.2f} s")
    for name, content in (("xlsx", xlsx), ("ods", opendocument)):
        found = len(read_licence_file(content, today=today).problems)
        print(f"problems in the {name} workbook's reading: {found}")


if __name__ == "__main__":
    main()
