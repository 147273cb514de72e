"""Reading a licence-registry CSV file: decoding, columns, and every bad line.

Pure Python (no Django, no database): bytes in, a :class:`LicenceFile` out, with
the valid lines and *every* problem found, each located by line number (as a
spreadsheet or a text editor shows it, the header being line 1) and column.
Whether the clubs exist is for :mod:`federation.licence_registry` to check.

The format is described for people in ``docs/licence-import.md``:

- encoding: UTF-8, with or without BOM. A file that is not valid UTF-8 is read as
  Windows-1252 (what Excel writes for « CSV (séparateur : point-virgule) » on a
  French Windows) and a notice says so; an Excel (.xlsx) or OpenDocument (.ods) workbook
  is read from its single sheet (:mod:`core.text_files`); a file mixing both encodings, a
  UTF-16 file, an .xls workbook is refused with a message saying how to re-save it;
- delimiter: ``,`` ``;`` or tab, whichever the header line uses most;
- header: the column names below, in any order, trimmed and case-insensitive;
  an unknown column is refused (a misspelt optional column would otherwise be
  silently ignored);
- values are trimmed; runs of spaces inside names and phone numbers become one;
- dates: ``YYYY-MM-DD`` or ``DD/MM/YYYY`` (day and month may have one digit);
- lines where every value is empty are skipped.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from core.digits import ascii_digits
from core.problems import Problem, RuleViolation
from core.text_files import WINDOWS_1252, DecodedText, WhyUndecodable, WorkbookRefused, decode_text

REQUIRED_COLUMNS = ("licence_number", "last_name", "first_name", "birth_date", "club_number")
OPTIONAL_COLUMNS = ("issued_on", "email", "phone")
KNOWN_COLUMNS = REQUIRED_COLUMNS + OPTIONAL_COLUMNS

DELIMITERS = (",", ";", "\t")

MAX_NAME_LENGTH = 100  # Player.last_name / first_name
MAX_EMAIL_LENGTH = 254
MAX_PHONE_LENGTH = 30  # Player.phone
MAX_NUMBER = 2_147_483_647  # PositiveIntegerField
EARLIEST_DATE = dt.date(1900, 1, 2)  # Player.birth_date must be after 1900-01-01

_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_FRENCH_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_SHORT_YEAR_DATE = re.compile(r"\d{1,2}/\d{1,2}/\d{2}")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_PHONE = re.compile(r"[0-9+().\- ]+")
# UTF-8 text of an accented letter read as Windows-1252 and saved again ("Ã©" for "é").
_MOJIBAKE = re.compile(
    "[ÃÂ][\u00a0-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]"
)


@dataclass(frozen=True, slots=True)
class LineProblem:
    """One thing wrong with the file: where (line, column) and why.

    ``line`` is ``None`` for the file as a whole (encoding, emptiness);
    ``column`` is ``None`` for the line as a whole (too many values).
    """

    line: int | None
    column: str | None
    code: str
    message: str
    params: Mapping[str, object] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )
    """The values the message names, for its French text (``core.messages``)."""

    @property
    def field(self) -> str:
        """The API field path: ``file``, ``lines[12]`` or ``lines[12].birth_date``."""
        if self.line is None:
            return "file"
        return f"lines[{self.line}]" + (f".{self.column}" if self.column else "")

    def as_problem(self) -> Problem:
        return Problem(field=self.field, code=self.code, message=self.message, params=self.params)

    def describe(self) -> str:
        """For a person reading a terminal: ``line 12, birth_date: …``."""
        where = "file" if self.line is None else f"line {self.line}"
        if self.column:
            where += f", {self.column}"
        return f"{where}: {self.message}"

    def sort_key(self) -> tuple[int, int, str]:
        column_rank = KNOWN_COLUMNS.index(self.column) + 1 if self.column in KNOWN_COLUMNS else 0
        return (self.line or 0, column_rank, self.column or "")


class LicenceFileRefused(RuleViolation):
    """The file has bad lines: it is refused whole, nothing is imported."""

    def __init__(self, problems: Iterable[LineProblem]) -> None:
        self.line_problems: tuple[LineProblem, ...] = tuple(
            sorted(problems, key=LineProblem.sort_key)
        )
        super().__init__(p.as_problem() for p in self.line_problems)

    @property
    def bad_lines(self) -> int:
        return len({p.line for p in self.line_problems if p.line is not None})


@dataclass(frozen=True, slots=True)
class LicenceLine:
    """One valid licensee line of the file."""

    line: int
    licence_number: int
    last_name: str
    first_name: str
    birth_date: dt.date
    club_number: int
    issued_on: dt.date | None = None
    email: str = ""
    phone: str = ""


@dataclass(frozen=True, slots=True)
class LicenceFile:
    """What was read from the file.

    ``lines`` holds the valid lines only; the file may be imported only when
    ``problems`` is empty. ``club_references`` pairs every line whose club number
    is well-formed (even if the line has other problems) with that number, so that
    unknown clubs and the importer's scope can be checked on the whole file.
    ``columns`` are the known columns present in the header: an optional column
    that is absent leaves the stored value untouched.
    """

    encoding: str
    delimiter: str
    columns: tuple[str, ...]
    lines: tuple[LicenceLine, ...]
    club_references: tuple[tuple[int, int], ...]
    problems: tuple[LineProblem, ...]
    notices: tuple[str, ...] = ()

    @property
    def club_numbers(self) -> frozenset[int]:
        return frozenset(number for _, number in self.club_references)


def read_licence_file(content: bytes, *, today: dt.date) -> LicenceFile:
    """Decode, split and validate a licence CSV file; collect every problem.

    ``today`` bounds plausible dates (nobody is born tomorrow).
    """
    decoded = decode(content)
    if isinstance(decoded, LineProblem):
        return _refused_file(decoded)
    text, encoding, notices = decoded
    if not text.strip():
        return _refused_file(
            LineProblem(None, None, "empty_file", "The file is empty.", {}), encoding
        )
    delimiter = sniff_delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    problems: list[LineProblem] = []
    try:
        header = _read_header(reader)
    except csv.Error as exc:
        return _refused_file(
            LineProblem(
                1, None, "unreadable_line", f"The header cannot be read as CSV: {exc}.", {}
            ),
            encoding,
            delimiter,
        )
    if header is None:
        return _refused_file(
            LineProblem(None, None, "empty_file", "The file is empty.", {}), encoding, delimiter
        )
    header_line, names = header
    positions, header_problems = check_header(names, header_line)
    problems.extend(header_problems)

    lines: list[LicenceLine] = []
    club_references: list[tuple[int, int]] = []
    first_line_of: dict[int, int] = {}
    checker = _LineChecker(positions, len(names), today)
    row_count = 0
    while True:
        line_number = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            problems.append(
                LineProblem(
                    line_number,
                    None,
                    "unreadable_line",
                    f"This line cannot be read as CSV: {exc}.",
                    {},
                )
            )
            break
        if not any(value.strip() for value in row):
            continue
        row_count += 1
        if reader.line_num > line_number and any("\n" in v or "\r" in v for v in row):
            problems.append(
                LineProblem(
                    line_number,
                    None,
                    "unclosed_quote",
                    f"A value on this line runs on to line {reader.line_num}: a double quote "
                    "is probably not closed.",
                    {"next_line": reader.line_num},
                )
            )
        outcome = checker.check(row, line_number)
        problems.extend(outcome.problems)
        if outcome.club_number is not None:
            club_references.append((line_number, outcome.club_number))
        number = outcome.licence_number
        if number is not None:
            if number in first_line_of:
                problems.append(
                    LineProblem(
                        line_number,
                        "licence_number",
                        "duplicate_licence_number",
                        f"Licence number {number} is already on line {first_line_of[number]}: "
                        "a player appears once in the file.",
                        {"licence": number, "first_line": first_line_of[number]},
                    )
                )
            else:
                first_line_of[number] = line_number
        if outcome.line is not None and not outcome.problems:
            lines.append(outcome.line)
    if row_count == 0 and not problems:
        problems.append(
            LineProblem(None, None, "no_lines", "The file has a header but no licensee line.", {})
        )
    return LicenceFile(
        encoding=encoding,
        delimiter=delimiter,
        columns=tuple(sorted(positions, key=positions.__getitem__)),
        lines=tuple(lines) if not problems else (),
        club_references=tuple(club_references),
        problems=tuple(sorted(problems, key=LineProblem.sort_key)),
        notices=notices,
    )


def decode(content: bytes) -> tuple[str, str, tuple[str, ...]] | LineProblem:
    """The text of the file, the encoding it was read in, and notices; or why not
    (the decoding itself is :func:`core.text_files.decode_text`, shared with the results)."""
    decoded = decode_text(content)
    if isinstance(decoded, WorkbookRefused):
        return LineProblem(None, None, decoded.code, decoded.message, decoded.params)
    if isinstance(decoded, DecodedText):
        if decoded.encoding != WINDOWS_1252:  # UTF-8, or an .xlsx workbook's sheet
            return decoded.text, decoded.encoding, ()
        return (
            decoded.text,
            WINDOWS_1252,
            (
                f"The file is not UTF-8 (first non-UTF-8 byte on line "
                f"{decoded.first_non_utf8_line}); it was read as Windows-1252, the encoding of "
                "Excel's « CSV (séparateur: point-virgule) ». Check that accented names look "
                "right; prefer « CSV UTF-8 ».",
            ),
        )
    why, line, byte = decoded.why, decoded.line, decoded.byte
    if why is WhyUndecodable.UTF16:
        return LineProblem(
            None,
            None,
            "encoding",
            "The file is encoded in UTF-16 (« Unicode text »); save it as "
            "« CSV UTF-8 (comma delimited) ».",
        )
    if why is WhyUndecodable.BINARY:
        return LineProblem(
            line,
            None,
            "encoding",
            "The file contains NUL bytes: it is not a text CSV file (or it is UTF-16); "
            "save it as « CSV UTF-8 (comma delimited) ».",
        )
    if why is WhyUndecodable.MIXED:
        return LineProblem(
            line,
            None,
            "encoding",
            "The file mixes encodings: it has UTF-8 accented letters, but this line "
            f"has a byte that is not UTF-8 ({byte:#04x}). Re-save "
            "the whole file as « CSV UTF-8 (comma delimited) ».",
        )
    return LineProblem(
        line,
        None,
        "encoding",
        f"This line has a byte ({byte:#04x}) that is neither "
        "UTF-8 nor Windows-1252; save the file as « CSV UTF-8 (comma delimited) ».",
    )


def sniff_delimiter(text: str) -> str:
    """``,``, ``;`` or tab: whichever the header line uses most; ``,`` if none.

    The header is the first line with something else than delimiters and spaces.
    """
    first_line = next((line for line in text.splitlines() if line.strip(" \t,;")), "")
    counts = {delimiter: first_line.count(delimiter) for delimiter in DELIMITERS}
    best = max(DELIMITERS, key=lambda delimiter: counts[delimiter])
    return best if counts[best] else ","


def check_header(names: list[str], line: int) -> tuple[dict[str, int], list[LineProblem]]:
    """Map each known column to its position; every unknown, duplicate or missing one."""
    positions: dict[str, int] = {}
    problems: list[LineProblem] = []
    known = ", ".join(KNOWN_COLUMNS)
    for index, name in enumerate(names):
        if not name:
            problems.append(
                LineProblem(
                    line,
                    None,
                    "unnamed_column",
                    f"Column {index + 1} of the header has no name.",
                    {"index": index + 1},
                )
            )
        elif name not in KNOWN_COLUMNS:
            problems.append(
                LineProblem(
                    line,
                    name,
                    "unknown_column",
                    f"Unknown column « {name} »; the columns are: {known}.",
                    {"column": name, "columns": known},
                )
            )
        elif name in positions:
            problems.append(
                LineProblem(
                    line,
                    name,
                    "duplicate_column",
                    f"Column « {name} » appears twice.",
                    {"column": name},
                )
            )
        else:
            positions[name] = index
    for column in REQUIRED_COLUMNS:
        if column not in positions:
            problems.append(
                LineProblem(
                    line,
                    column,
                    "missing_column",
                    f"The header has no « {column} » column; required columns are: "
                    f"{', '.join(REQUIRED_COLUMNS)}.",
                    {"column": column, "columns": ", ".join(REQUIRED_COLUMNS)},
                )
            )
    return positions, problems


def parse_date(raw: str) -> dt.date | str:
    """A date from ``YYYY-MM-DD`` or ``DD/MM/YYYY``; otherwise why not (a message)."""
    if iso := _ISO_DATE.fullmatch(raw):
        year, month, day = int(iso[1]), int(iso[2]), int(iso[3])
    elif french := _FRENCH_DATE.fullmatch(raw):
        day, month, year = int(french[1]), int(french[2]), int(french[3])
    elif _SHORT_YEAR_DATE.fullmatch(raw):
        return f"« {raw} » has a two-digit year; write the year in full (DD/MM/YYYY)."
    else:
        return f"« {raw} » is not a date; write YYYY-MM-DD or DD/MM/YYYY."
    try:
        return dt.date(year, month, day)
    except ValueError:
        return f"« {raw} » is not a calendar date (no such day or month)."


# -- one line ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _LineOutcome:
    line: LicenceLine | None
    licence_number: int | None
    club_number: int | None
    problems: tuple[LineProblem, ...]


class _CsvRows(Protocol):
    """What ``_read_header`` needs of a ``csv.reader``: its rows and its line counter."""

    @property
    def line_num(self) -> int: ...

    def __iter__(self) -> Iterator[list[str]]: ...


class _LineChecker:
    """Validates one data line against the header's column positions.

    Called once per line of files of 50,000 lines and more: the checks are plain
    methods appending to the line's list of problems (no closure per line or value).
    """

    def __init__(self, positions: dict[str, int], width: int, today: dt.date) -> None:
        self.positions = positions
        self.width = width
        self.today = today
        self.issued_on = "issued_on" in positions
        self.email = "email" in positions
        self.phone = "phone" in positions

    def check(self, row: list[str], line: int) -> _LineOutcome:
        problems: list[LineProblem] = []
        width = self.width
        if len(row) > width and any(value.strip() for value in row[width:]):
            problems.append(
                LineProblem(
                    line,
                    None,
                    "too_many_values",
                    f"The line has {len(row)} values but the header has {width} columns "
                    "(a value containing the delimiter must be in double quotes).",
                    {"values": len(row), "columns": width},
                )
            )

        values: dict[str, str] = {}
        length = len(row)
        for column, index in self.positions.items():
            if index < length:
                values[column] = row[index].strip()
            elif column in REQUIRED_COLUMNS:
                problems.append(
                    LineProblem(
                        line,
                        column,
                        "missing_column",
                        f"The line has only {length} of the {width} columns of the "
                        f"header: no value for « {column} ».",
                        {"column": column},
                    )
                )
            else:
                values[column] = ""

        licence_number = club_number = None
        if raw := self._required(values, "licence_number", line, problems):
            licence_number = self._number(raw, "licence_number", "licence number", line, problems)
        last_name = first_name = None
        if raw := self._required(values, "last_name", line, problems):
            last_name = self._name(raw, "last_name", line, problems)
        if raw := self._required(values, "first_name", line, problems):
            first_name = self._name(raw, "first_name", line, problems)
        birth_date = None
        if raw := self._required(values, "birth_date", line, problems):
            birth_date = self._date(raw, "birth_date", "birth date", line, problems)
        if raw := self._required(values, "club_number", line, problems):
            club_number = self._number(raw, "club_number", "club number", line, problems)
        issued_on = email = phone = None
        if self.issued_on and (raw := values.get("issued_on", "")):
            issued_on = self._date(raw, "issued_on", "issue date", line, problems)
        if self.email and (raw := values.get("email", "")):
            email = self._email(raw, line, problems)
        if self.phone and (raw := values.get("phone", "")):
            phone = self._phone(raw, line, problems)

        licensee = None
        if not problems:
            licensee = LicenceLine(
                line=line,
                licence_number=licence_number,  # type: ignore[arg-type]
                last_name=last_name,  # type: ignore[arg-type]
                first_name=first_name,  # type: ignore[arg-type]
                birth_date=birth_date,  # type: ignore[arg-type]
                club_number=club_number,  # type: ignore[arg-type]
                issued_on=issued_on,
                email=email or "",
                phone=phone or "",
            )
        return _LineOutcome(
            line=licensee,
            licence_number=licence_number,
            club_number=club_number,
            problems=tuple(problems),
        )

    @staticmethod
    def _required(
        values: dict[str, str], column: str, line: int, problems: list[LineProblem]
    ) -> str:
        """The value of a required column; empty (a problem recorded if it is present
        but empty) when there is none to read."""
        raw = values.get(column)
        if raw is None:  # the line is too short: already a problem
            return ""
        if not raw:
            problems.append(
                LineProblem(
                    line,
                    column,
                    "required",
                    f"« {column} » is required but empty.",
                    {"column": column},
                )
            )
        return raw

    @staticmethod
    def _number(
        raw: str, column: str, label: str, line: int, problems: list[LineProblem]
    ) -> int | None:
        if not ascii_digits(raw):
            problems.append(
                LineProblem(
                    line,
                    column,
                    "not_a_number",
                    f"« {raw} » is not a {label}: digits only.",
                    {"value": raw},
                )
            )
            return None
        number = int(raw)
        if not 0 < number <= MAX_NUMBER:
            problems.append(
                LineProblem(
                    line, column, "out_of_range", f"{raw} is not a valid {label}.", {"value": raw}
                )
            )
            return None
        return number

    @staticmethod
    def _name(raw: str, column: str, line: int, problems: list[LineProblem]) -> str | None:
        name = " ".join(raw.split())
        # Every control character (category C*) is unprintable: the exact test only then.
        if not name.isprintable() and any(
            unicodedata.category(char).startswith("C") for char in name
        ):
            problems.append(
                LineProblem(
                    line,
                    column,
                    "control_character",
                    f"« {column} » contains a control character.",
                    {"column": column},
                )
            )
            return None
        if mojibake := _MOJIBAKE.search(name):
            problems.append(
                LineProblem(
                    line,
                    column,
                    "encoding",
                    f"« {name} » looks garbled (« {mojibake.group()} »): UTF-8 text was "
                    "read as another encoding and saved again. Fix the accents.",
                    {},
                )
            )
            return None
        if not any(char.isalpha() for char in name):
            problems.append(
                LineProblem(
                    line,
                    column,
                    "not_a_name",
                    f"« {name} » is not a name: it has no letter.",
                    {"value": name},
                )
            )
            return None
        if len(name) > MAX_NAME_LENGTH:
            problems.append(
                LineProblem(
                    line,
                    column,
                    "too_long",
                    f"The name has {len(name)} characters; at most {MAX_NAME_LENGTH}.",
                    {"length": len(name), "maximum": MAX_NAME_LENGTH},
                )
            )
            return None
        return name

    def _date(
        self, raw: str, column: str, label: str, line: int, problems: list[LineProblem]
    ) -> dt.date | None:
        parsed = parse_date(raw)
        if isinstance(parsed, str):
            problems.append(LineProblem(line, column, "malformed_date", parsed, {"value": raw}))
            return None
        if parsed < EARLIEST_DATE or parsed > self.today:
            problems.append(
                LineProblem(
                    line,
                    column,
                    "implausible_date",
                    f"{label.capitalize()} {parsed.isoformat()} is implausible: it must be "
                    f"after 1900-01-01 and not after today ({self.today.isoformat()}).",
                    {"date": parsed.isoformat(), "today": self.today.isoformat()},
                )
            )
            return None
        return parsed

    @staticmethod
    def _email(raw: str, line: int, problems: list[LineProblem]) -> str | None:
        if len(raw) > MAX_EMAIL_LENGTH or not _EMAIL.fullmatch(raw):
            problems.append(
                LineProblem(
                    line,
                    "email",
                    "invalid_email",
                    f"« {raw} » is not an e-mail address.",
                    {"value": raw},
                )
            )
            return None
        return raw

    @staticmethod
    def _phone(raw: str, line: int, problems: list[LineProblem]) -> str | None:
        phone = " ".join(raw.split())
        if not _PHONE.fullmatch(phone) or not any(char.isdigit() for char in phone):
            problems.append(
                LineProblem(
                    line,
                    "phone",
                    "invalid_phone",
                    f"« {raw} » is not a phone number (digits, spaces, + . - ( ) only).",
                    {"value": raw},
                )
            )
            return None
        if len(phone) > MAX_PHONE_LENGTH:
            problems.append(
                LineProblem(
                    line,
                    "phone",
                    "too_long",
                    f"The phone number is over {MAX_PHONE_LENGTH} characters.",
                    {"maximum": MAX_PHONE_LENGTH},
                )
            )
            return None
        return phone


def _read_header(reader: _CsvRows) -> tuple[int, list[str]] | None:
    """The first non-blank line, as normalised column names, with its line number."""
    for row in reader:
        if any(value.strip() for value in row):
            names = [value.strip().lower() for value in row]
            while names and not names[-1]:  # a trailing delimiter
                names.pop()
            return reader.line_num, names
    return None


def _refused_file(problem: LineProblem, encoding: str = "", delimiter: str = "") -> LicenceFile:
    return LicenceFile(
        encoding=encoding,
        delimiter=delimiter,
        columns=(),
        lines=(),
        club_references=(),
        problems=(problem,),
    )
