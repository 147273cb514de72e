"""Reading a licence CSV file: encodings, delimiters, dates, and every kind of bad line.

Pure: no database. Line numbers are those a spreadsheet shows (header = line 1).
"""

from __future__ import annotations

import codecs
import datetime as dt
from pathlib import Path

import pytest

from federation.rules.licence_file import (
    WINDOWS_1252,
    LicenceFileRefused,
    LicenceLine,
    LineProblem,
    parse_date,
    read_licence_file,
    sniff_delimiter,
)

TODAY = dt.date(2026, 9, 1)
HEADER = "licence_number,last_name,first_name,birth_date,club_number"
SAMPLES = Path(__file__).resolve().parents[3] / "docs" / "samples"


def read(text: str | bytes):
    content = text.encode("utf-8") if isinstance(text, str) else text
    return read_licence_file(content, today=TODAY)


def csv_text(*lines: str, header: str = HEADER) -> str:
    return "\n".join([header, *lines]) + "\n"


def located(licence_file) -> set[tuple[int | None, str | None, str]]:
    return {(p.line, p.column, p.code) for p in licence_file.problems}


# -- a good file ------------------------------------------------------------------------


def test_a_good_file_gives_typed_lines_with_accents_intact():
    parsed = read(
        csv_text(
            "1001,Lefèvre,Élise,1950-03-02,101",
            "1002,Nguyễn,Thảo,14/07/1990,201",
        )
    )
    assert parsed.problems == ()
    assert parsed.encoding == "utf-8"
    assert parsed.delimiter == ","
    assert parsed.notices == ()
    assert parsed.lines == (
        LicenceLine(2, 1001, "Lefèvre", "Élise", dt.date(1950, 3, 2), 101),
        LicenceLine(3, 1002, "Nguyễn", "Thảo", dt.date(1990, 7, 14), 201),
    )
    assert parsed.club_references == ((2, 101), (3, 201))


def test_values_are_trimmed_and_inner_spaces_collapsed():
    parsed = read(csv_text("  1001 ,  Le   Gall ,\u00a0Yannick\u00a0, 1961-01-15 , 101 "))
    assert parsed.problems == ()
    (line,) = parsed.lines
    assert (line.licence_number, line.last_name, line.first_name) == (1001, "Le Gall", "Yannick")


def test_header_is_case_insensitive_in_any_order_and_a_trailing_delimiter_is_ignored():
    parsed = read(
        csv_text(
            "101,1961-01-15,Yannick,Le Gall,1001,",
            header=" Club_Number , BIRTH_DATE,first_name,last_name,licence_number,",
        )
    )
    assert parsed.problems == ()
    assert parsed.lines[0].licence_number == 1001
    assert parsed.lines[0].club_number == 101


def test_blank_lines_are_skipped_but_line_numbers_stay_physical():
    parsed = read(csv_text("1001,Martin,Élise,1950-03-02,101", "", ",,,,", "1002,Roux,Paul,x,101"))
    assert [line.line for line in read(csv_text("", "1001,A,B,1950-03-02,101")).lines] == [3]
    assert located(parsed) == {(5, "birth_date", "malformed_date")}


def test_a_quoted_value_may_contain_the_delimiter():
    parsed = read(csv_text('1001,"Roux, dit Le Rouquin",Gaëlle,1979-04-01,101'))
    assert parsed.problems == ()
    assert parsed.lines[0].last_name == "Roux, dit Le Rouquin"


# -- delimiters -------------------------------------------------------------------------


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_the_delimiter_is_taken_from_the_header(delimiter):
    text = csv_text(
        delimiter.join(["1001", "Lefèvre", "Élise", "02/03/1950", "101"]),
        header=HEADER.replace(",", delimiter),
    )
    parsed = read(text)
    assert parsed.delimiter == delimiter
    assert parsed.problems == ()
    assert parsed.lines[0].last_name == "Lefèvre"


def test_sniffing_prefers_the_delimiter_the_header_uses_most():
    assert sniff_delimiter("a;b;c,d\n1,2") == ";"
    assert sniff_delimiter("\n\nlicence_number\n") == ","
    assert sniff_delimiter(";;;;\n  \nlicence_number\tlast_name\n") == "\t"


def test_a_file_with_commas_in_rows_but_semicolons_in_the_header_is_refused_per_line():
    parsed = read(csv_text("1001,Martin,Élise,1950-03-02,101", header=HEADER.replace(",", ";")))
    assert (2, "last_name", "missing_column") in located(parsed)
    assert parsed.lines == ()


# -- dates ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1950-03-02", dt.date(1950, 3, 2)),
        ("02/03/1950", dt.date(1950, 3, 2)),
        ("2/3/1950", dt.date(1950, 3, 2)),
        ("29/02/2000", dt.date(2000, 2, 29)),
    ],
)
def test_iso_and_french_dates(raw, expected):
    assert parse_date(raw) == expected


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("1950.03.02", "not a date"),
        ("02-03-1950", "not a date"),
        ("1950-3-2", "not a date"),
        ("31/02/1950", "not a calendar date"),
        ("2023-13-01", "not a calendar date"),
        ("29/02/2001", "not a calendar date"),
        ("02/03/50", "two-digit year"),
        ("March 2, 1950", "not a date"),
    ],
)
def test_malformed_dates_say_why(raw, says):
    assert says in parse_date(raw)


@pytest.mark.parametrize("raw", ["1900-01-01", "1899-12-31", "2026-09-02", "01/01/2099"])
def test_implausible_birth_dates_are_refused(raw):
    parsed = read(csv_text(f"1001,Martin,Élise,{raw},101"))
    assert located(parsed) == {(2, "birth_date", "implausible_date")}


def test_birth_date_today_and_1900_01_02_are_plausible():
    parsed = read(csv_text("1001,Martin,Élise,1900-01-02,101", "1002,Petit,Léa,2026-09-01,101"))
    assert parsed.problems == ()


# -- encodings --------------------------------------------------------------------------


def test_utf8_with_bom():
    parsed = read(codecs.BOM_UTF8 + csv_text("1001,Lefèvre,Élise,1950-03-02,101").encode())
    assert parsed.problems == ()
    assert parsed.encoding == "utf-8"
    assert parsed.columns[0] == "licence_number"
    assert parsed.lines[0].last_name == "Lefèvre"


def test_a_windows_1252_file_is_read_and_the_result_says_so():
    content = csv_text("1001;Lefèvre;Élise;02/03/1950;101", header=HEADER.replace(",", ";"))
    parsed = read(content.encode("cp1252"))
    assert parsed.problems == ()
    assert parsed.encoding == WINDOWS_1252
    assert parsed.lines[0].last_name == "Lefèvre"
    assert parsed.lines[0].first_name == "Élise"
    (notice,) = parsed.notices
    assert "Windows-1252" in notice
    assert "line 2" in notice


def test_windows_1252_specific_letters_are_read_correctly():
    # œ and Ÿ are in Windows-1252 (0x9C, 0x9F) but not in ISO-8859-1.
    parsed = read(csv_text("1001,Dubœuf,Ÿves,1950-03-02,101").encode("cp1252"))
    assert parsed.problems == ()
    assert (parsed.lines[0].last_name, parsed.lines[0].first_name) == ("Dubœuf", "Ÿves")


def test_a_file_mixing_utf8_and_windows_1252_is_refused_at_the_first_bad_line():
    content = csv_text(
        "1001,Lefèvre,Élise,1950-03-02,101"
    ).encode() + "1002,Quéré,Maëlle,1999-08-30,101\n".encode("cp1252")
    parsed = read(content)
    assert located(parsed) == {(3, None, "encoding")}
    assert "mixes encodings" in parsed.problems[0].message
    assert parsed.lines == ()


def test_bytes_that_are_neither_utf8_nor_windows_1252_are_refused_with_the_line():
    content = csv_text("1001,Martin,Élise,1950-03-02,101").encode() + b"1002,Ma\x81rtin,A,B,C\n"
    content = content.replace("Élise".encode(), b"Elise")
    parsed = read(content)
    assert located(parsed) == {(3, None, "encoding")}
    assert "0x81" in parsed.problems[0].message


def test_utf16_and_spreadsheets_are_refused_with_how_to_save_as_csv():
    utf16 = read(csv_text("1001,Martin,Élise,1950-03-02,101").encode("utf-16"))
    assert located(utf16) == {(None, None, "encoding")}
    assert "CSV UTF-8" in utf16.problems[0].message
    xls = read(b"\xd0\xcf\x11\xe0" + b"\x00" * 40)
    assert located(xls) == {(None, None, "workbook_xls")}
    assert "(.xlsx)" in xls.problems[0].message


def test_garbled_accents_from_a_double_conversion_are_refused():
    garbled = "Lefèvre".encode().decode("cp1252")  # 'LefÃ¨vre'
    parsed = read(
        csv_text(f"1001,{garbled},Élise,1950-03-02,101", "1002,Ã‰ric,Jean,1950-03-02,101")
    )
    assert located(parsed) == {(2, "last_name", "encoding"), (3, "last_name", "encoding")}
    assert "garbled" in parsed.problems[0].message


# -- the whole file ---------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"\n\n  \r\n", codecs.BOM_UTF8])
def test_an_empty_file_is_refused(content):
    assert located(read(content)) == {(None, None, "empty_file")}


def test_a_header_without_lines_is_refused():
    assert located(read(csv_text())) == {(None, None, "no_lines")}


def test_header_problems_are_all_reported_and_lines_still_checked():
    parsed = read(
        csv_text(
            "1001,Martin,Élise,1950-03-02,x,a,b,not-an-e-mail",
            header="licence_number,last_name,first_name,birthdate,club_number,Licence_Number,",
        ).replace("Licence_Number,\n", "Licence_Number,,email\n")
    )
    assert located(parsed) == {
        (1, "birthdate", "unknown_column"),
        (1, "licence_number", "duplicate_column"),
        (1, None, "unnamed_column"),
        (1, "birth_date", "missing_column"),
        (2, "club_number", "not_a_number"),
        (2, "email", "invalid_email"),
    }
    unknown = next(p for p in parsed.problems if p.code == "unknown_column")
    assert "licence_number, last_name, first_name, birth_date, club_number" in unknown.message


def test_every_kind_of_bad_line_is_reported_with_line_and_column():
    parsed = read(
        csv_text(
            "1001,Martin,Élise,1950-03-02,101",  # 2: good
            "1002,Roux,Paul",  # 3: too few values
            "1003,,Léa,1950-03-02,101",  # 4: empty first... last name
            "10O4,Petit,Léa,1950-03-02,1O1",  # 5: letters in numbers
            "0,Petit,Léa,1950-03-02,0",  # 6: zero numbers
            "1001,Martin,Élise,1950-03-02,101",  # 7: duplicate of line 2
            "1007,Petit,Léa,1950-03-02,101,extra",  # 8: too many values
            "1008,1234,Léa,1950-03-02,101",  # 9: not a name
            f"1009,{'A' * 101},Léa,1950-03-02,101",  # 10: name too long
            "99999999999,Petit,Léa,1950-03-02,101",  # 11: out of range
            "1011,Pe\x07tit,Léa,1950-03-02,101",  # 12: control character
            "1012,Petit,Léa,,",  # 13: empty date and club
            "1013,Petit,Léa,12.5.1950,101",  # 14: malformed date
            "１０１４,Petit,Léa,1950-03-02,101",  # 15: full-width digits
        )
    )
    assert parsed.lines == ()
    assert located(parsed) == {
        (3, "birth_date", "missing_column"),
        (3, "club_number", "missing_column"),
        (4, "last_name", "required"),
        (5, "licence_number", "not_a_number"),
        (5, "club_number", "not_a_number"),
        (6, "licence_number", "out_of_range"),
        (6, "club_number", "out_of_range"),
        (7, "licence_number", "duplicate_licence_number"),
        (8, None, "too_many_values"),
        (9, "last_name", "not_a_name"),
        (10, "last_name", "too_long"),
        (11, "licence_number", "out_of_range"),
        (12, "last_name", "control_character"),
        (13, "birth_date", "required"),
        (13, "club_number", "required"),
        (14, "birth_date", "malformed_date"),
        (15, "licence_number", "not_a_number"),
    }
    duplicate = next(p for p in parsed.problems if p.code == "duplicate_licence_number")
    assert "already on line 2" in duplicate.message
    # Sorted by line, then column order; club references kept for the unknown-club check.
    assert [p.line for p in parsed.problems] == sorted(p.line for p in parsed.problems)
    assert (2, 101) in parsed.club_references
    assert (14, 101) in parsed.club_references


def test_each_duplicate_names_the_first_line():
    parsed = read(csv_text(*(f"1001,Martin,Élise,1950-03-02,{club}" for club in (101, 102, 201))))
    assert [(p.line, p.message.split(" is ")[1]) for p in parsed.problems] == [
        (3, "already on line 2: a player appears once in the file."),
        (4, "already on line 2: a player appears once in the file."),
    ]


def test_an_unclosed_quote_is_reported_where_it_starts():
    parsed = read(
        csv_text(
            '1001,"Martin,Élise,1950-03-02,101',
            "1002,Roux,Paul,1950-03-02,101",
        )
    )
    assert (2, None, "unclosed_quote") in located(parsed)
    assert "runs on to line 3" in next(p.message for p in parsed.problems if p.line == 2)


# -- optional columns -------------------------------------------------------------------


def test_optional_columns_are_read_and_may_be_empty():
    parsed = read(
        csv_text(
            "1001,Martin,Élise,1950-03-02,101,2026-07-03,elise@example.org,06 39  98 00 01",
            "1002,Roux,Paul,1950-03-02,101,,,",
            "1003,Petit,Léa,1950-03-02,101",  # short: optional values absent
            header=HEADER + ",issued_on,email,phone",
        )
    )
    assert parsed.problems == ()
    assert parsed.columns == (*HEADER.split(","), "issued_on", "email", "phone")
    first, second, third = parsed.lines
    assert (first.issued_on, first.email, first.phone) == (
        dt.date(2026, 7, 3),
        "elise@example.org",
        "06 39 98 00 01",
    )
    assert (second.issued_on, second.email, second.phone) == (None, "", "")
    assert (third.issued_on, third.email, third.phone) == (None, "", "")


def test_bad_optional_values_are_reported():
    parsed = read(
        csv_text(
            "1001,Martin,Élise,1950-03-02,101,2026-13-01,elise@,06 39 98 00 01 poste 3",
            f"1002,Roux,Paul,1950-03-02,101,2099-01-01,a b@c.fr,{'0' * 31}",
            header=HEADER + ",issued_on,email,phone",
        )
    )
    assert located(parsed) == {
        (2, "issued_on", "malformed_date"),
        (2, "email", "invalid_email"),
        (2, "phone", "invalid_phone"),
        (3, "issued_on", "implausible_date"),
        (3, "email", "invalid_email"),
        (3, "phone", "too_long"),
    }


# -- reporting --------------------------------------------------------------------------


def test_problems_locate_themselves_for_the_api_and_the_terminal():
    line = LineProblem(12, "birth_date", "malformed_date", "« x » is not a date.")
    assert line.field == "lines[12].birth_date"
    assert line.describe() == "line 12, birth_date: « x » is not a date."
    assert LineProblem(8, None, "too_many_values", "m").field == "lines[8]"
    assert LineProblem(None, None, "empty_file", "m").field == "file"
    assert LineProblem(None, None, "empty_file", "The file is empty.").describe() == (
        "file: The file is empty."
    )


def test_refusal_sorts_problems_and_counts_bad_lines():
    refused = LicenceFileRefused(
        [
            LineProblem(7, "club_number", "unknown_club", "m"),
            LineProblem(3, "club_number", "not_a_number", "m"),
            LineProblem(3, "licence_number", "not_a_number", "m"),
        ]
    )
    assert [p.field for p in refused.problems] == [
        "lines[3].licence_number",
        "lines[3].club_number",
        "lines[7].club_number",
    ]
    assert refused.bad_lines == 2


# -- the documented samples -------------------------------------------------------------


def test_the_good_sample_reads_without_problem():
    parsed = read((SAMPLES / "licences.csv").read_bytes())
    assert parsed.problems == ()
    assert len(parsed.lines) == 10
    assert {line.club_number for line in parsed.lines} == {1001, 2001, 7001}
    assert parsed.lines[5].last_name == "Nguyễn"


def test_the_bad_sample_reports_every_bad_line():
    parsed = read((SAMPLES / "licences-bad.csv").read_bytes())
    assert parsed.delimiter == ";"
    assert located(parsed) == {
        (3, "birth_date", "malformed_date"),
        (4, "licence_number", "not_a_number"),
        (5, "licence_number", "duplicate_licence_number"),
        (6, "first_name", "required"),
        (8, "birth_date", "malformed_date"),
        (9, "birth_date", "missing_column"),
        (9, "club_number", "missing_column"),
        (10, "birth_date", "implausible_date"),
        (11, "birth_date", "malformed_date"),
        (12, None, "too_many_values"),
    }
    # Line 7 names club 9999: well-formed here, unknown to the registry (checked there).
    assert (7, 9999) in parsed.club_references


def test_an_excel_workbook_is_read_like_the_csv_with_dates_as_dates():
    from tests.core.test_workbooks import xlsx

    book = xlsx(
        [
            HEADER.split(","),
            [1001, "Martin", "Élise", dt.datetime(1950, 3, 2), 101],  # noqa: DTZ001
            [1002, "Durand", "Jean", "02/03/1951", 101.0],
            [1003, "Petit", "Ana", dt.datetime(1950, 3, 2), "abc"],  # noqa: DTZ001
        ]
    )
    parsed = read(book)
    assert parsed.encoding == "xlsx"
    assert located(parsed) == {(4, "club_number", "not_a_number")}
    fixed = read(
        csv_text(
            "1001,Martin,Élise,1950-03-02,101",
            "1002,Durand,Jean,1951-03-02,101",
            "1003,Petit,Ana,1950-03-02,abc",
        )
    )
    assert parsed.problems == fixed.problems


def test_an_opendocument_spreadsheet_is_read_like_the_excel_workbook():
    from tests.core.test_workbooks import ods, xlsx

    rows = [
        HEADER.split(","),
        [1001, "Martin", "Élise", dt.date(1950, 3, 2), 101],
        [1002, "Durand", "Jean", "02/03/1951", 101],
        [1003, "Petit", "Ana", dt.date(1950, 3, 2), "abc"],
    ]
    parsed = read(ods(rows))
    assert parsed.encoding == "ods"
    assert located(parsed) == {(4, "club_number", "not_a_number")}
    assert parsed.problems == read(xlsx(rows)).problems
    assert parsed.lines == read(xlsx(rows)).lines


def test_a_workbook_of_several_sheets_is_refused_for_the_whole_file():
    from tests.core.test_workbooks import xlsx

    parsed = read(xlsx([HEADER.split(",")], [["notes"]]))
    assert located(parsed) == {(None, None, "workbook_several_sheets")}
