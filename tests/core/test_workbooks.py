"""Reading an uploaded .xlsx or .ods workbook as CSV text, and refusing what cannot be read.

Pure: no database. The .xlsx workbooks are made with openpyxl, as Excel would save them;
the .ods ones are written here as LibreOffice lays them out (a zip: the ``mimetype`` first,
stored, then the manifest and ``content.xml``), since no maintained library writes them.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from openpyxl import Workbook

from competitions.rules.results.csv_format import read_csv
from core.text_files import MAX_COLUMNS, MAX_ROWS, WorkbookRefused, decode_text, read_workbook

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"


def xlsx(*sheets: list[list[object]], titles: tuple[str, ...] = ()) -> bytes:
    workbook = Workbook()
    workbook.remove(workbook.active)
    for i, rows in enumerate(sheets):
        sheet = workbook.create_sheet(titles[i] if i < len(titles) else f"Feuil{i + 1}")
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


_ODS_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)
_ODS_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
    'manifest:version="1.2">'
    '<manifest:file-entry manifest:full-path="/" '
    'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    "</manifest:manifest>"
)


def _ods_cell(value: object) -> str:
    """A cell as LibreOffice writes it: its typed value, and the text shown."""
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        shown = "VRAI" if value else "FAUX"
        typed = f'office:value-type="boolean" office:boolean-value="{str(value).lower()}"'
    elif isinstance(value, int | float):
        shown, typed = str(value), f'office:value-type="float" office:value="{value}"'
    elif isinstance(value, dt.date):
        shown = value.strftime("%d/%m/%Y")
        typed = f'office:value-type="date" office:date-value="{value.isoformat()}"'
    else:
        shown, typed = str(value), 'office:value-type="string"'
    lines = "".join(f"<text:p>{escape(line)}</text:p>" for line in shown.split("\n"))
    return f"<table:table-cell {typed}>{lines}</table:table-cell>"


def ods(*sheets: list[list[object]], titles: tuple[str, ...] = ()) -> bytes:
    """An OpenDocument spreadsheet (.ods) of these sheets, as LibreOffice saves one."""
    tables = "".join(
        f"<table:table table:name={quoteattr(titles[i] if i < len(titles) else f'Feuille{i + 1}')}>"
        + "".join(
            "<table:table-row>" + "".join(_ods_cell(value) for value in row) + "</table:table-row>"
            for row in rows
        )
        + "</table:table>"
        for i, rows in enumerate(sheets)
    )
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODS_NAMESPACES} '
        f'office:version="1.2"><office:body><office:spreadsheet>{tables}'
        "</office:spreadsheet></office:body></office:document-content>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            zipfile.ZipInfo("mimetype"),
            "application/vnd.oasis.opendocument.spreadsheet",
            compress_type=zipfile.ZIP_STORED,
        )
        archive.writestr("META-INF/manifest.xml", _ODS_MANIFEST)
        archive.writestr("content.xml", content)
    return buffer.getvalue()


def typed_cells(row: list[str]) -> list[object]:
    """A CSV row as Excel keeps it once typed in: numbers as numbers."""
    return [int(cell) if cell.lstrip("-").isdigit() else (cell or None) for cell in row]


def sample_as_xlsx(name: str) -> bytes:
    text = (SAMPLES / name).read_text(encoding="utf-8-sig")
    rows = [typed_cells(row) for row in csv.reader(io.StringIO(text), delimiter=";")]
    return xlsx(rows)


def test_the_results_sample_reads_the_same_as_a_workbook_as_as_csv():
    content = sample_as_xlsx("results-individual.csv")
    from_csv = read_csv((SAMPLES / "results-individual.csv").read_bytes())
    from_xlsx = read_csv(content)
    assert from_xlsx.problems == from_csv.problems == ()
    assert from_xlsx.document is not None
    assert from_xlsx.document.entries == from_csv.document.entries
    assert from_xlsx.document.sessions == from_csv.document.sessions


def test_cells_read_as_a_person_sees_them():
    rows = [
        ["a", "b", "c", "d", "e"],
        # Excel's dates are naive
        [12.0, True, dt.datetime(1950, 3, 2), "deux\nlignes", None],  # noqa: DTZ001
        [],
        [-3, 1.5, dt.date(2026, 1, 31), "+ de 40 ans", "x"],
    ]
    assert read_workbook(xlsx(rows)) == (
        "a,b,c,d,e\n12,1,1950-03-02,deux lignes\n\n-3,1.5,2026-01-31,+ de 40 ans,x\n"
    )


def test_a_workbook_of_several_filled_sheets_is_refused_naming_them():
    refused = read_workbook(xlsx([["a"]], [["b"]], [], titles=("Résultats", "Brouillon", "Vide")))
    assert isinstance(refused, WorkbookRefused)
    assert refused.code == "workbook_several_sheets"
    assert refused.params == {"count": 2, "sheets": "« Résultats », « Brouillon »"}


def test_one_filled_sheet_among_empty_ones_is_read():
    assert read_workbook(xlsx([], [["a", 1]], [])) == "a,1\n"


def test_an_empty_workbook_is_refused():
    refused = read_workbook(xlsx([], [[None, ""]]))
    assert isinstance(refused, WorkbookRefused)
    assert refused.code == "workbook_empty"


def test_a_sheet_wider_than_the_limit_is_refused():
    refused = read_workbook(xlsx([["x"] * (MAX_COLUMNS + 1)]))
    assert isinstance(refused, WorkbookRefused)
    assert (refused.code, refused.params["columns"]) == ("workbook_too_large", MAX_COLUMNS)


def test_a_zip_bomb_is_refused_before_it_is_unpacked():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"<" * (50 * 1024 * 1024))
    refused = read_workbook(buffer.getvalue())
    assert isinstance(refused, WorkbookRefused)
    assert refused.code == "workbook_too_large"


def test_the_results_sample_reads_the_same_as_an_opendocument_spreadsheet_as_as_csv():
    text = (SAMPLES / "results-individual.csv").read_text(encoding="utf-8-sig")
    rows = [typed_cells(row) for row in csv.reader(io.StringIO(text), delimiter=";")]
    content = ods(rows)
    assert decode_text(content).encoding == "ods"
    from_csv = read_csv((SAMPLES / "results-individual.csv").read_bytes())
    from_ods = read_csv(content)
    assert from_ods.problems == from_csv.problems == ()
    assert from_ods.document is not None
    assert from_ods.document.entries == from_csv.document.entries
    assert from_ods.document.sessions == from_csv.document.sessions


def test_opendocument_cells_read_as_a_person_sees_them():
    rows = [
        [],  # an empty first row: row N stays line N
        ["a", "b", "c", "d", "e"],
        [12, True, dt.date(1950, 3, 2), "deux\nlignes", None],
        [],
        [-3, 1.5, dt.date(2026, 1, 31), "+ de 40 ans", "x"],
    ]
    assert read_workbook(ods(rows)) == (
        "\na,b,c,d,e\n12,1,1950-03-02,deux lignes\n\n-3,1.5,2026-01-31,+ de 40 ans,x\n"
    )


def test_an_opendocument_spreadsheet_is_refused_as_an_excel_one_would_be():
    several = read_workbook(ods([["a"]], [], [["b"]], titles=("Résultats", "Vide", "Brouillon")))
    empty = read_workbook(ods([], [[None]]))
    wide = read_workbook(ods([["x"] * (MAX_COLUMNS + 1)]))
    assert isinstance(several, WorkbookRefused)
    assert several.code == "workbook_several_sheets"
    assert several.params == {"count": 2, "sheets": "« Résultats », « Brouillon »"}
    assert isinstance(empty, WorkbookRefused)
    assert empty.code == "workbook_empty"
    assert isinstance(wide, WorkbookRefused)
    assert (wide.code, wide.params["columns"]) == ("workbook_too_large", MAX_COLUMNS)
    assert read_workbook(ods([["x"] * MAX_COLUMNS])) == ",".join(["x"] * MAX_COLUMNS) + "\n"


def test_an_opendocument_spreadsheet_longer_than_the_limit_is_refused():
    content = ods([[None]] * MAX_ROWS + [["x"]])
    refused = read_workbook(content)
    assert isinstance(refused, WorkbookRefused)
    assert (refused.code, refused.params["rows"]) == ("workbook_too_large", MAX_ROWS)


def test_an_opendocument_zip_bomb_is_refused_before_it_is_unpacked():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            zipfile.ZipInfo("mimetype"),
            "application/vnd.oasis.opendocument.spreadsheet",
            compress_type=zipfile.ZIP_STORED,
        )
        archive.writestr("content.xml", b"<" * (50 * 1024 * 1024))
    refused = read_workbook(buffer.getvalue())
    assert isinstance(refused, WorkbookRefused)
    assert refused.code == "workbook_too_large"


def test_a_damaged_opendocument_spreadsheet_is_unreadable():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(
            zipfile.ZipInfo("mimetype"),
            "application/vnd.oasis.opendocument.spreadsheet",
            compress_type=zipfile.ZIP_STORED,
        )
        archive.writestr("content.xml", "<office:document-content")
    refused = read_workbook(buffer.getvalue())
    assert isinstance(refused, WorkbookRefused)
    assert refused.code == "workbook_unreadable"


def test_a_password_protected_workbook_and_an_old_xls_are_told_apart():
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 64
    encrypted = read_workbook(ole + "EncryptedPackage".encode("utf-16-le") + b"\x00" * 64)
    old = read_workbook(ole + "Workbook".encode("utf-16-le") + b"\x00" * 64)
    assert isinstance(encrypted, WorkbookRefused)
    assert isinstance(old, WorkbookRefused)
    assert (encrypted.code, old.code) == ("workbook_encrypted", "workbook_xls")


def test_a_word_document_or_a_damaged_archive_is_unreadable():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", "<w:document/>")
    for content in (buffer.getvalue(), b"PK\x03\x04 truncated"):
        refused = read_workbook(content)
        assert isinstance(refused, WorkbookRefused)
        assert refused.code == "workbook_unreadable"
