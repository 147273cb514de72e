"""decode_text: UTF-8 (with or without BOM) or French Excel's Windows-1252; anything
else refused with the reason."""

from __future__ import annotations

import codecs

import pytest

from core.text_files import (
    UTF8,
    WINDOWS_1252,
    DecodedText,
    Undecodable,
    WhyUndecodable,
    decode_text,
)

TEXT = "licence;nom\r\n1;DESPRÉS Cœur\r\n2;MÜLLER Léa\r\n"


@pytest.mark.parametrize(
    ("content", "encoding"),
    [
        (TEXT.encode("utf-8"), UTF8),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), UTF8),
        (TEXT.encode("cp1252"), WINDOWS_1252),
    ],
)
def test_utf8_and_windows_1252_read_the_same_text(content, encoding):
    decoded = decode_text(content)
    assert isinstance(decoded, DecodedText)
    assert (decoded.text, decoded.encoding) == (TEXT, encoding)


def test_windows_1252_says_where_its_first_non_utf8_byte_is():
    decoded = decode_text(TEXT.encode("cp1252"))
    assert isinstance(decoded, DecodedText)
    assert decoded.first_non_utf8_line == 2


@pytest.mark.parametrize(
    ("content", "why", "line"),
    [
        (TEXT.encode("utf-16"), WhyUndecodable.UTF16, None),
        (b"a;b\nc\x00d\n", WhyUndecodable.BINARY, 2),
        ("é;1\n".encode() + b"\xe9;2\n", WhyUndecodable.MIXED, 2),
        (codecs.BOM_UTF8 + b"a\n\xe9\n", WhyUndecodable.MIXED, 2),
        (b"a\nb\n\x81\n", WhyUndecodable.UNKNOWN, 3),  # 0x81: not a Windows-1252 character
    ],
)
def test_anything_else_is_refused_with_the_reason(content, why, line):
    decoded = decode_text(content)
    assert isinstance(decoded, Undecodable)
    assert (decoded.why, decoded.line) == (why, line)
