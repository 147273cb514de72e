"""An export as a file: CSV (UTF-8 with a BOM, ``;``: French Excel opens it right;
streamed row by row), XLSX (openpyxl, write-only) and a printable A4 PDF for a club's
noticeboard (reportlab). Every text cell goes through ``safe_row`` (core/spreadsheet.py):
no cell a spreadsheet would run as a formula.

Any table with a title, a subtitle, a header, rows and a file name (``ExportTable``) is
exported the same way (``export_response``): the national ranking
(``rankings/exports.py``) and a championship stage's results and qualified players
(``competitions/championships/desk_exports.py``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from typing import Protocol
from xml.sax.saxutils import escape

from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from openpyxl import Workbook
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
    """One sheet: the title and the subtitle on top, then the header and the rows."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=_sheet_title(sheet_title))
    sheet.append(safe_row([table.title]))
    sheet.append(safe_row([table.subtitle]))
    sheet.append([])
    sheet.append(safe_row(table.header))
    for row in table.rows():
        sheet.append(safe_row(row))
    output = io.BytesIO()
    book.save(output)
    return output.getvalue()


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
