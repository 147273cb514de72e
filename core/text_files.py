"""The text of an uploaded CSV file, as a spreadsheet saved it (pure).

One decoder for every CSV the federation receives (the licence file, the results file):

- UTF-8, with or without a byte order mark (« CSV UTF-8 »);
- Windows-1252, what French Excel writes for « CSV (séparateur : point-virgule) », when
  the file is not valid UTF-8 and has no UTF-8 accented letter (a file mixing both is
  refused: some of its accents would come out wrong whichever way it is read);
- a spreadsheet workbook (.xlsx): its single sheet as CSV text (:mod:`core.workbooks`),
  or why it cannot be read (:class:`~core.workbooks.WorkbookRefused`: an .xls, an .ods,
  a password, several sheets...);
- anything else is refused with the reason (:class:`Undecodable`): UTF-16 (« Texte
  Unicode »), binary data (NUL bytes), a byte neither encoding reads. Each caller words
  the refusal for its own readers.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from enum import StrEnum

from core.workbooks import WorkbookRefused, looks_like_workbook, read_workbook

UTF8 = "utf-8"
WINDOWS_1252 = "windows-1252"
XLSX = "xlsx"
# In a file that is not valid UTF-8: the UTF-8 form of an accented Latin letter.
_UTF8_LATIN_LETTER = re.compile(rb"\xc3[\x80-\xbf]")


class WhyUndecodable(StrEnum):
    UTF16 = "utf16"
    """UTF-16 text (« Texte Unicode »), byte order mark first."""
    BINARY = "binary"
    """NUL bytes: not a text file (or UTF-16 without byte order mark)."""
    MIXED = "mixed"
    """UTF-8 accented letters, and bytes that are not UTF-8."""
    UNKNOWN = "unknown"
    """A byte that neither UTF-8 nor Windows-1252 reads."""


@dataclass(frozen=True, slots=True)
class DecodedText:
    text: str
    encoding: str
    """:data:`UTF8`, :data:`WINDOWS_1252`, or :data:`XLSX` (a workbook's sheet)."""
    first_non_utf8_line: int | None = None
    """For a Windows-1252 file: the line of its first byte that is not UTF-8."""


@dataclass(frozen=True, slots=True)
class Undecodable:
    why: WhyUndecodable
    line: int | None = None
    """The line of the offending byte (header = 1), when there is one."""
    byte: int | None = None


def decode_text(content: bytes) -> DecodedText | Undecodable | WorkbookRefused:
    """The text of ``content``, UTF-8, Windows-1252 or a workbook's sheet as CSV; or why
    it cannot be read as a CSV file."""
    if looks_like_workbook(content):
        sheet = read_workbook(content)
        return sheet if isinstance(sheet, WorkbookRefused) else DecodedText(sheet, XLSX)
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return Undecodable(WhyUndecodable.UTF16)
    if b"\x00" in content:
        return Undecodable(WhyUndecodable.BINARY, _line_of(content, content.index(b"\x00")))
    body = content.removeprefix(codecs.BOM_UTF8)
    try:
        return DecodedText(body.decode(UTF8), UTF8)
    except UnicodeDecodeError as utf8_error:
        line = _line_of(body, utf8_error.start)
        if content.startswith(codecs.BOM_UTF8) or _UTF8_LATIN_LETTER.search(body):
            return Undecodable(WhyUndecodable.MIXED, line, body[utf8_error.start])
        try:
            return DecodedText(body.decode("cp1252"), WINDOWS_1252, line)
        except UnicodeDecodeError as cp1252_error:
            return Undecodable(
                WhyUndecodable.UNKNOWN,
                _line_of(body, cp1252_error.start),
                body[cp1252_error.start],
            )


def _line_of(content: bytes, offset: int) -> int:
    return content.count(b"\n", 0, offset) + 1
