"""The table cards' QR codes: each drawn path fills exactly the dark modules segno gives
the table's address (quiet zone of 2 modules), whether encoded now or taken from the
process's memory on a reprint."""

from __future__ import annotations

import segno

from competitions.day.printouts import QUIET_ZONE, _qr_path


def dark_cells(path) -> set[tuple[int, int]]:
    """The (row, column) of every module the path's rectangles fill, row 0 at the top."""
    cells = set()
    for line in path.code.splitlines():
        x, y, width, height, op = line.split()
        assert (height, op) == ("1", "re")
        for column in range(int(x), int(x) + int(width)):
            cells.add((path.modules - 1 - int(y), column))
    return cells


def test_the_card_s_code_is_segno_s_modules_with_their_quiet_zone():
    for table in (1, 37, 120):
        url = f"https://donnes-libres.fft.fr/table/4217.2.3.{table}:Zx81-_signature{table}/"
        rows = list(segno.make(url, error="m").matrix_iter(border=QUIET_ZONE))
        path = _qr_path(url)
        assert path.modules == len(rows)
        expected = {(r, c) for r, row in enumerate(rows) for c, dark in enumerate(row) if dark}
        assert dark_cells(path) == expected
        assert _qr_path(url) is path  # a reprint draws the same path, encoded once
