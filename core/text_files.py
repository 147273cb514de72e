"""The text of an uploaded CSV file, as a spreadsheet saved it (pure).

One decoder for every CSV the federation receives (the licence file, the results file):

- UTF-8, with or without a byte order mark (« CSV UTF-8 »);
- Windows-1252, what French Excel writes for « CSV (séparateur : point-virgule) », when
  the file is not valid UTF-8 and has no UTF-8 accented letter (a file mixing both is
  refused: some of its accents would come out wrong whichever way it is read);
- a spreadsheet workbook (Excel's .xlsx or OpenDocument's .ods): its single sheet as CSV
  text (below), or why it cannot be read (:class:`WorkbookRefused`: an .xls, a password,
  several sheets...);
- anything else is refused with the reason (:class:`Undecodable`): UTF-16 (« Texte
  Unicode »), binary data (NUL bytes), a byte neither encoding reads. Each caller words
  the refusal for its own readers.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

UTF8 = "utf-8"
WINDOWS_1252 = "windows-1252"
XLSX = "xlsx"
ODS = "ods"
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
    """:data:`UTF8`, :data:`WINDOWS_1252`, :data:`XLSX` or :data:`ODS` (a workbook's sheet)."""
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
        if isinstance(sheet, WorkbookRefused):
            return sheet
        return DecodedText(sheet, ODS if _is_ods(content) else XLSX)
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


# A workbook
#
# The rows of an uploaded spreadsheet workbook (.xlsx, .ods), as the CSV readers read them.
#
# A club secretary's first reflex is to send the workbook the results or the licences
# were typed in. :func:`read_workbook` turns its single sheet into CSV text (``,``
# between cells, one line per sheet row, so that line N of the report is row N of the
# sheet), which :func:`decode_text` hands to the results and licence readers as it hands
# any CSV file: one reader, one report.
#
# Cells become the text a person sees: whole numbers without ``.0``, dates as
# ``YYYY-MM-DD``, ``VRAI``/``FAUX`` as ``1``/``0``; a formula gives the value Excel last
# saved with it. Anything else is refused with a precise reason (:class:`WorkbookRefused`):
# an old .xls (to re-save as .xlsx or CSV), a workbook protected by a password, an empty
# one, one with several sheets that have content, a file that is no spreadsheet, or one
# too large once unpacked (a zip bomb: the archive's announced sizes are checked before
# anything is unpacked, then rows and columns are bounded).
#
# An .xlsx is read by openpyxl in read-only mode, which streams the rows, so the bounds
# are checked while reading. An .ods (LibreOffice's format, which openpyxl does not read)
# is read by python-calamine, which parses the sheet whole: its unpacked size is bounded
# first, as an .xlsx's, and its rows and columns are checked before any cell becomes a
# Python value.

ZIP_MAGIC = b"PK\x03\x04"  # .xlsx, .ods
OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # .xls, or an .xlsx protected by a password
# The stream an encrypted Office Open XML file keeps its package in (UTF-16 name).
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
_ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"

MAX_UNPACKED_BYTES = 200 * 1024 * 1024
"""The workbook's parts together, unpacked (the archive says their sizes)."""
MAX_RATIO = 200
"""Unpacked / packed size of one part: beyond, a zip bomb rather than a sheet."""
MAX_ROWS = 200_000
MAX_COLUMNS = 100


@dataclass(frozen=True, slots=True)
class WorkbookRefused:
    """Why a workbook cannot be read: a stable ``code``, English developer text, and the
    values it names (the French text is in ``core/messages/catalogue/workbooks.py``)."""

    code: str
    message: str
    params: dict[str, object] = field(default_factory=dict)


def looks_like_workbook(content: bytes) -> bool:
    """Whether ``content`` is a spreadsheet container (zip or OLE), whatever its name."""
    return content.startswith((ZIP_MAGIC, OLE_MAGIC))


def read_workbook(content: bytes) -> str | WorkbookRefused:
    """The single sheet of the workbook ``content`` as CSV text, or why not."""
    if content.startswith(OLE_MAGIC):
        if _ENCRYPTED_PACKAGE in content:
            return _encrypted()
        return WorkbookRefused(
            "workbook_xls",
            "This is an old Excel workbook (.xls): save it as « Excel Workbook (.xlsx) » "
            "or « CSV UTF-8 » and send that file.",
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        parts = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return _unreadable()
    names = {part.filename for part in parts}
    ods = "mimetype" in names and _is_ods(content)
    if not ods and "xl/workbook.xml" not in names:
        return _unreadable()
    unpacked = sum(part.file_size for part in parts)
    if unpacked > MAX_UNPACKED_BYTES or any(
        part.file_size > MAX_RATIO * max(part.compress_size, 1024) for part in parts
    ):
        return _too_large(unpacked_mib=unpacked // (1024 * 1024))
    return _ods_as_csv(content) if ods else _sheet_as_csv(content)


def _is_ods(content: bytes) -> bool:
    """An OpenDocument spreadsheet: a zip whose ``mimetype`` part says so."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        return _ODS_MIMETYPE in archive.read("mimetype")[:64]
    except (zipfile.BadZipFile, ValueError, OSError, KeyError):
        return False


def _ods_as_csv(content: bytes) -> str | WorkbookRefused:
    import python_calamine  # imported when an .ods is sent

    try:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(content))
    except python_calamine.PasswordError:
        return _encrypted()
    except Exception:  # calamine raises many kinds on a damaged file
        return _unreadable()
    try:
        filled = []
        for name in workbook.sheet_names:
            sheet = workbook.get_sheet_by_name(name)
            end = sheet.end
            if end is None:
                continue
            if end[0] + 1 > MAX_ROWS:
                return _too_large(rows=MAX_ROWS)
            if end[1] + 1 > MAX_COLUMNS:
                return _too_large(columns=MAX_COLUMNS)
            rows = [[None if cell == "" else cell for cell in row] for row in sheet.iter_rows()]
            if any(cell is not None for row in rows for cell in row):
                filled.append((name, rows))
    except python_calamine.PasswordError:
        return _encrypted()
    except Exception:  # a part damaged past the workbook's index
        return _unreadable()
    finally:
        workbook.close()
    if not filled:
        return WorkbookRefused("workbook_empty", "The workbook has no filled cell.")
    if len(filled) > 1:
        return _several_sheets([name for name, _ in filled])
    return _as_csv(filled[0][1])


def _as_csv(rows: Iterable[Sequence[object]]) -> str | WorkbookRefused:
    """Rows as CSV text, one line per row; beyond the bounds, refused."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for count, row in enumerate(rows, start=1):
        if count > MAX_ROWS:
            return _too_large(rows=MAX_ROWS)
        if len(row) > MAX_COLUMNS and any(cell is not None for cell in row[MAX_COLUMNS:]):
            return _too_large(columns=MAX_COLUMNS)
        cells = list(row[:MAX_COLUMNS])
        while cells and cells[-1] is None:  # rows come padded to the widest
            cells.pop()
        writer.writerow([_text(cell) for cell in cells])
    return buffer.getvalue()


def _several_sheets(titles: list[str]) -> WorkbookRefused:
    named = ", ".join(f"« {title} »" for title in titles)
    return WorkbookRefused(
        "workbook_several_sheets",
        f"The workbook has {len(titles)} sheets with content ({named}); keep only "
        "the sheet to send (delete the others) and send it again.",
        {"count": len(titles), "sheets": named},
    )


def _encrypted() -> WorkbookRefused:
    return WorkbookRefused(
        "workbook_encrypted",
        "The workbook is protected by a password: remove the password "
        "(File > Info > Protect workbook) and send it again.",
    )


def _sheet_as_csv(content: bytes) -> str | WorkbookRefused:
    from openpyxl import load_workbook  # heavy: imported when a workbook is sent

    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds on a damaged file
        return _unreadable()
    try:
        sheets = [sheet for sheet in workbook.worksheets if _first_row(sheet) is not None]
        if not sheets:
            return WorkbookRefused("workbook_empty", "The workbook has no filled cell.")
        if len(sheets) > 1:
            return _several_sheets([sheet.title for sheet in sheets])
        return _as_csv(_rows(sheets[0]))
    except Exception:  # a part damaged past the workbook's index
        return _unreadable()
    finally:
        workbook.close()


def _rows(sheet: Any) -> Iterator[tuple[object, ...]]:
    """The sheet's rows from row 1 (leading empty rows kept: row N stays line N)."""
    rows: Iterator[tuple[object, ...]] = sheet.iter_rows(
        min_row=1, max_col=MAX_COLUMNS + 1, values_only=True
    )
    return rows


def _first_row(sheet: Any) -> int | None:
    for number, row in enumerate(_rows(sheet), start=1):
        if any(cell not in (None, "") for cell in row):
            return number
        if number > MAX_ROWS:
            break
    return None


def _text(value: object) -> str:
    """A cell as the text a person sees in it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    # A line break typed in a cell (Alt+Enter) would shift the lines after it.
    return " ".join(str(value).splitlines())


def _unreadable() -> WorkbookRefused:
    return WorkbookRefused(
        "workbook_unreadable",
        "The file is not a spreadsheet that can be read (damaged, or another kind of "
        "document): save it as « Excel Workbook (.xlsx) » or « CSV UTF-8 ».",
    )


def _too_large(**limits: int) -> WorkbookRefused:
    return WorkbookRefused(
        "workbook_too_large",
        f"The workbook is too large to read (limits: {MAX_ROWS} rows, {MAX_COLUMNS} "
        f"columns, {MAX_UNPACKED_BYTES // (1024 * 1024)} MiB unpacked).",
        {
            "rows": MAX_ROWS,
            "columns": MAX_COLUMNS,
            "mib": MAX_UNPACKED_BYTES // (1024 * 1024),
            **limits,
        },
    )
