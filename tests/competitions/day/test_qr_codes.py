"""The fast QR codes are segno's own, module for module: the same mask chosen (its penalty
scoring reproduced), the same format information, at every version an address reaches."""

from __future__ import annotations

import random
import string

import segno

from competitions.day.qr_codes import qr_modules

ALPHABET = string.ascii_letters + string.digits + "-_:."


def segno_modules(content: str, error: str = "m") -> tuple[bytes, ...]:
    return tuple(bytes(row) for row in segno.make(content, error=error).matrix)


def test_a_table_card_s_addresses_are_segno_s_codes():
    for table in range(1, 121):
        url = f"https://donnes-libres.fft.fr/table/4217.2.{table % 7}.{table}:{table * 7919:x}/"
        assert qr_modules(url) == segno_modules(url), url


def test_addresses_of_every_length_and_every_level():
    rng = random.Random(18004)
    versions, masks = set(), set()
    for _ in range(600):
        length = rng.randint(0, 300)
        content = "https://fft.fr/t/" + "".join(rng.choice(ALPHABET) for _ in range(length))
        error = rng.choice("lmqh")
        assert qr_modules(content, error=error) == segno_modules(content, error), content
        code = segno.make(content, error=error)
        versions.add(code.version)
        masks.add(code.mask)
    assert masks == set(range(8))  # every mask chosen at least once
    assert {3, 7, 10, 14} <= versions  # codes with and without version information
