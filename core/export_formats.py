"""An export as a file: CSV (UTF-8 with a BOM, ``;``: French Excel opens it right;
streamed row by row), XLSX (openpyxl, write-only) and a printable A4 PDF for a club's
noticeboard (reportlab). No cell a spreadsheet would run as a formula: every CSV cell goes
through ``safe_row`` (core/spreadsheet.py: a quote before ``=``, ``+``, ``-``, ``@``...);
an XLSX cell is typed, its text a text cell (only a leading ``=`` needs guarding there,
written as text rather than quoted, so that « -Marie » reads « -Marie »).

Any table with a title, a subtitle, a header, rows and a file name (``ExportTable``) is
exported the same way (``export_response``): the national ranking
(``rankings/reads/exports.py``) and a championship stage's results and qualified players
(``competitions/championships/desk_exports.py``)."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterable, Iterator, Sequence
from datetime import date
from decimal import Decimal
from typing import Protocol
from xml.sax.saxutils import escape

from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.utils import get_column_letter
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, TableStyle
from reportlab.platypus.flowables import Spacer

from core.pdf_fonts import pdf_fonts
from core.spreadsheet import safe_row

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CONTENT_TYPES = {"csv": "text/csv; charset=utf-8", "xlsx": XLSX, "pdf": "application/pdf"}


class ExportTable(Protocol):
    """What an export reads: words already in the reader's language, rows read lazily."""

    @property
    def title(self) -> str: ...

    @property
    def subtitle(self) -> str: ...

    @property
    def header(self) -> list[str]: ...

    def rows(self) -> Iterator[list[object]]: ...

    def file_name(self, extension: str) -> str: ...


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_lines(table: ExportTable) -> Iterator[str]:
    writer = csv.writer(_Echo(), delimiter=";")
    yield "\ufeff" + writer.writerow(table.header)  # BOM: spreadsheets then read UTF-8
    for row in table.rows():
        yield writer.writerow(safe_row(row))


def xlsx_bytes(table: ExportTable, sheet_title: str) -> bytes:
    """One sheet: the title and the subtitle on top, then the header (frozen: it stays
    in view when scrolling) and the rows; columns as wide as their first rows need."""
    return xlsx_sheet(
        table.header,
        table.rows(),
        sheet_title=sheet_title,
        above=[[table.title], [table.subtitle], []],
    )


XLSX_WIDTH_SAMPLE = 200
"""The rows the column widths are measured on (the rest are streamed as they come)."""
_MIN_WIDTH, _MAX_WIDTH = 6, 60


def xlsx_sheet(
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    sheet_title: str,
    above: Sequence[Sequence[object]] = (),
) -> bytes:
    """A workbook of one sheet: the ``above`` lines, the header, frozen, then the rows.

    Cells are typed (numbers, dates), and text is a text cell: only a text beginning
    with ``=`` would be read as a formula by openpyxl, and it is written as text (the
    quote the CSV export prefixes such text with would show in the cell)."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=_sheet_title(sheet_title))
    rows = iter(rows)
    first = list(itertools.islice(rows, XLSX_WIDTH_SAMPLE))
    for index, width in enumerate(_widths([header, *first]), start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    sheet.freeze_panes = f"A{len(above) + 2}"  # below the header
    for line in above:
        sheet.append([_xlsx_cell(sheet, value) for value in line])
    sheet.append([_xlsx_cell(sheet, value) for value in header])
    for row in itertools.chain(first, rows):
        sheet.append([_xlsx_cell(sheet, value) for value in row])
    output = io.BytesIO()
    book.save(output)
    return output.getvalue()


def _widths(rows: Sequence[Sequence[object]]) -> list[float]:
    widths: list[float] = []
    for row in rows:
        for index, value in enumerate(row):
            size = len(str(value)) if value is not None else 0
            if index == len(widths):
                widths.append(0)
            widths[index] = max(widths[index], size)
    return [min(max(width + 2, _MIN_WIDTH), _MAX_WIDTH) for width in widths]


def _xlsx_cell(sheet, value: object) -> object:
    """``value`` as an XLSX cell: a text starting with ``=`` a text cell, not a formula."""
    if isinstance(value, str) and value.startswith("="):
        cell = WriteOnlyCell(sheet, value=value)
        cell.data_type = "s"
        return cell
    if value is not None and not isinstance(value, bool | int | float | Decimal | date):
        return str(value)  # a lazy translation, an enum: its text
    return value


def _sheet_title(title: str) -> str:
    """A worksheet title Excel accepts: 31 characters at most, none of ``[]:*?/\\``."""
    cleaned = "".join("-" if c in "[]:*?/\\" else c for c in title).strip("'")
    return cleaned[:31] or "Feuille"


def pdf_bytes(
    table: ExportTable, columns: Sequence[int] | None = None, *, right_aligned: int = 3
) -> bytes:
    """An A4 landscape page (or more) per table: title and subtitle on top, the header
    repeated on every page; ``columns`` (default all) are printed, the first two and the
    last ``right_aligned`` right-aligned (numbers)."""
    columns = range(len(table.header)) if columns is None else columns
    output = io.BytesIO()
    document = SimpleDocTemplate(
        output,
        pagesize=landscape(A4),
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=12 * mm,
        bottomMargin=12 * mm,
        title=table.title,
    )
    fonts = pdf_fonts()  # DejaVu Sans: names beyond Latin-1 print (core/pdf_fonts.py)
    styles = getSampleStyleSheet()
    title = ParagraphStyle("title", parent=styles["Title"], fontName=fonts.bold)
    subtitle = ParagraphStyle("subtitle", parent=styles["Normal"], fontName=fonts.regular)
    cells = [[table.header[i] for i in columns]]
    cells += [["" if row[i] is None else str(row[i]) for i in columns] for row in table.rows()]
    grid = LongTable(cells, repeatRows=1)
    grid.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), fonts.bold, 9),
                ("FONT", (0, 1), (-1, -1), fonts.regular, 9),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde4ee")),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f4f6f9")]),
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ("ALIGN", (0, 0), (1, -1), "RIGHT"),
                *([("ALIGN", (-right_aligned, 0), (-1, -1), "RIGHT")] if right_aligned else []),
            ]
        )
    )
    document.build(
        [
            Paragraph(escape(table.title), title),
            Paragraph(escape(table.subtitle), subtitle),
            Spacer(1, 5 * mm),
            grid,
        ]
    )
    return output.getvalue()


def export_response(
    table: ExportTable,
    file_format: str,
    *,
    sheet_title: str,
    pdf_columns: Sequence[int] | None = None,
    right_aligned: int = 3,
) -> HttpResponseBase:
    """The table as a downloaded file: ``csv`` (streamed), ``xlsx`` or ``pdf``."""
    name = table.file_name(file_format)
    response: HttpResponseBase
    if file_format == "csv":
        response = StreamingHttpResponse(csv_lines(table), content_type=CONTENT_TYPES["csv"])
    elif file_format == "xlsx":
        response = HttpResponse(xlsx_bytes(table, sheet_title), content_type=XLSX)
    else:
        pdf = pdf_bytes(table, pdf_columns, right_aligned=right_aligned)
        response = HttpResponse(pdf, content_type=CONTENT_TYPES["pdf"])
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
