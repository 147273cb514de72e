"""QR codes module for module as ``segno.make(content, error=…)`` makes them, about twice
as fast (the table cards' codes: ``competitions/day/printouts.py``).

segno spends most of a code's time choosing its data mask: it applies each of the eight
masks module by module and scores each in pure Python (ISO/IEC 18004:2015, 7.8.3), about
5 ms for a table card's address. :func:`qr_modules` chooses the same mask from one code
made with mask 0 (about 1 ms): the data modules without a mask are that code's XOR mask 0;
each mask's matrix is scored as segno scores it (format and version areas light; the four
penalties N1 to N4 with segno's exact rules, on rows as bytes and integers); then the data
modules are masked with the chosen mask and segno writes the format information that
names it. ``tests/competitions/day/test_qr_codes.py`` checks, over many addresses, that the modules
are segno's own.
"""

from __future__ import annotations

import functools
import itertools
import re

import segno
from segno import consts, encoder

_RUNS = re.compile(rb"\x00{5,}|\x01{5,}")
_FINDER_AT = re.compile(rb"(?=\x01\x00\x01\x01\x01\x00\x01)")  # every start, overlapping


def qr_modules(content: str, *, error: str = "m") -> tuple[bytes, ...]:
    """The modules (rows of 0 and 1, no quiet zone) of the QR code
    ``segno.make(content, error=error)`` makes (never a Micro QR code)."""
    first = segno.make(content, error=error, mask=0, micro=False)
    size = len(first.matrix)
    fixed, region, patterns = _layout(size)
    # The data modules before any mask: the code's modules XOR mask 0, where data lies.
    data = [(_bits(row) ^ patterns[0][i]) & region[i] for i, row in enumerate(first.matrix)]
    best, best_score = 0, None
    for number, pattern in enumerate(patterns):
        bits = [fixed[i] | (data[i] ^ pattern[i]) for i in range(size)]
        score = _penalty([_row(row, size) for row in bits], bits)
        if best_score is None or score < best_score:  # the first of equal scores, as segno
            best, best_score = number, score
    # The code with the chosen mask: its data modules masked again, its format information
    # (which names the mask) written by segno; the version information does not change.
    matrix = tuple(
        bytearray(_row(_bits(row) ^ (patterns[0][i] ^ patterns[best][i]), size))
        for i, row in enumerate(first.matrix)
    )
    encoder.add_format_info(matrix, first.version, consts.ERROR_MAPPING[first.error], best)
    return tuple(bytes(row) for row in matrix)


def _row(bits: int, size: int) -> bytes:
    """``size`` modules of an integer's bits, the most significant first."""
    return format(bits, f"0{size}b").encode().translate(_BYTE_OF)


_BIT_OF = bytes.maketrans(b"\x00\x01", b"01")
_BYTE_OF = bytes.maketrans(b"01", b"\x00\x01")


def _bits(row: bytes | bytearray) -> int:
    """A row of modules as an integer, the first module the most significant bit."""
    return int(bytes(row).translate(_BIT_OF), 2)


@functools.lru_cache(maxsize=40)
def _layout(size: int) -> tuple[list[int], list[int], list[list[int]]]:
    """For a code ``size`` modules wide, each row's modules as segno scores a mask on them
    before the data (timing, finder and alignment patterns; format and version areas
    light), where its data lies, and each of the eight masks there."""
    matrix = encoder.make_matrix(size, size)
    encoder.add_finder_patterns(matrix, size, size)
    encoder.add_alignment_patterns(matrix, size, size)
    # The dark module's place, (size - 8, 8), is a format area here: light while scored.
    fixed = [_bits(bytes(1 if m == 0x1 else 0 for m in row)) for row in matrix]
    region = [_bits(bytes(1 if m > 0x1 else 0 for m in row)) for row in matrix]
    patterns = [
        [
            _bits(bytes(1 if m > 0x1 and mask(i, j) else 0 for j, m in enumerate(row)))
            for i, row in enumerate(matrix)
        ]
        for mask in encoder.get_data_mask_functions(False)
    ]
    return fixed, region, patterns


def _penalty(rows: list[bytes], bits: list[int]) -> int:
    """segno's ``evaluate_mask`` of a matrix of 0 and 1 (``encoder.mask_scores``): ``rows``
    its rows as bytes, ``bits`` as integers."""
    size = len(rows)
    flat = b"".join(rows)
    lines = b"\x02".join([*rows, *(flat[j::size] for j in range(size))])  # runs stop at 2
    n1 = sum(len(run) - 2 for run in _RUNS.findall(lines))
    full = (1 << size) - 1
    n2 = 0
    for above, below in itertools.pairwise(bits):
        same = ~(above ^ below) & full  # a module the same as the one below it
        along = ~(below ^ (below >> 1)) & (full >> 1)  # the same as its neighbour
        n2 += 3 * (same & (same >> 1) & along).bit_count()
    n3 = _finder_like(lines, size)
    percent = float(sum(row.bit_count() for row in bits)) / (size**2)
    n4 = 10 * int(abs(percent * 100 - 50) / 5)
    return n1 + n2 + n3 + n4


def _finder_like(lines: bytes, size: int) -> int:
    """N3 of every row and column (``lines``, each ``size`` long, one byte between two), as
    segno counts it in each (``mask_scores``): 40 for each 1:1:3:1:1 pattern with four light
    modules (or the edge) on one side; the search goes on after it, or 4 modules further
    when it has none."""
    count = 0
    resume = 0
    for found in _FINDER_AT.finditer(lines):
        at = found.start()
        if at < resume:
            continue
        line, index = divmod(at, size + 1)
        start = line * (size + 1)
        offset = index + 7
        if (
            index in (0, size - 7)
            or not any(lines[start + max(index - 4, 0) : start + index])
            or not any(lines[start + offset : start + min(offset + 4, size)])
        ):
            count += 40
        else:
            offset = index + 4
        resume = start + offset
    return count
