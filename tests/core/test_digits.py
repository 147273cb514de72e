"""Whole numbers in untrusted text: ASCII digits only."""

import pytest

from core.digits import ascii_digits


@pytest.mark.parametrize("text", ["0", "101", "0042"])
def test_ascii_digits_are_a_number(text):
    assert ascii_digits(text)
    int(text)  # what the callers do next never fails


@pytest.mark.parametrize("text", ["", "²", "1²", "١٢", "12a", "-1", " 1", "1.0"])
def test_anything_else_is_not(text):
    assert not ascii_digits(text)
