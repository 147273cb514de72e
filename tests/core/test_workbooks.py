"""Reading an uploaded .xlsx workbook as CSV text, and refusing what cannot be read.

Pure: no database. The workbooks are made with openpyxl, as Excel would save them.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from pathlib import Path

from openpyxl import Workbook

from competitions.rules.results.csv_format import read_csv
from core.text_files import MAX_COLUMNS, WorkbookRefused, read_workbook

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


def test_an_opendocument_spreadsheet_is_refused_with_how_to_save_it():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", "<office:document-content/>")
    refused = read_workbook(buffer.getvalue())
    assert isinstance(refused, WorkbookRefused)
    assert refused.code == "workbook_ods"


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
