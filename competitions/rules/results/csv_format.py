"""The CSV form of a results document (see ``docs/results-format.md``).

One file, UTF-8 with or without a byte order mark, or Windows-1252 (French Excel's
« CSV (séparateur : point-virgule) », :mod:`core.text_files`), or the single sheet of an
Excel workbook (.xlsx, :mod:`core.text_files`), ``,`` or ``;`` between cells (whichever
the header line uses), a header line naming the columns in any order, by their codes or
their French names (:mod:`.csv_columns`, as the record kinds). Each following line is
one record, its kind in the ``record`` column:

- ``session``: a session (``session``, ``tables``, ``tables_of_three``, ``deals``);
- ``player``: a player of an entry, with the entry's columns (``entry``,
  ``place``, ``entry_total``, ``abandoned``, the tie-break columns, and
  ``arbiter_accord`` for an entry that abandoned: 1 with the arbiter's accord, 0
  without, empty when not said) repeated on every player line of the entry;
- ``position``: one player's score at one table for one position;
- ``penalty``: a penalty recorded against a player.

Problems are located as ``lines[N].column``, N the spreadsheet line (header = 1).
The document returned remembers those lines, so that
:func:`~competitions.rules.results.validation.validate` locates its problems in the
file too.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field, replace
from enum import StrEnum

from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.engine.scoring import Contract
from competitions.rules.results.csv_columns import column_code, record_code
from competitions.rules.results.document import (
    CONTRACTS,
    FORMAT_VERSION,
    MAX_COUNT,
    MAX_DOCUMENT_BYTES,
    MAX_ENTRIES,
    MAX_LICENCE_NUMBER,
    MAX_NAME_LENGTH,
    MAX_PENALTIES,
    MAX_PLAYERS_PER_ENTRY,
    MAX_POSITIONS_PER_PLAYER,
    MAX_REASON_LENGTH,
    MAX_SCORE,
    MAX_SESSIONS,
    EntryResult,
    Gaps,
    PenaltyRecord,
    PlayerResult,
    PositionCut,
    PositionScore,
    Reading,
    ResultsDocument,
    SessionEntry,
    SessionResult,
    SourceMap,
    TieBreakData,
)
from core.problems import Problem, RuleViolation
from core.text_files import Undecodable, WhyUndecodable, WorkbookRefused, decode_text

MAX_LINES = 200_000


class RecordType(StrEnum):
    """What a line of the CSV file describes (its ``record`` column)."""

    SESSION = "session"
    PLAYER = "player"
    POSITION = "position"
    PENALTY = "penalty"
    SESSION_ENTRY = "session_entry"
    POSITION_CUT = "position_cut"


TIEBREAK_COLUMNS = ("best_position_score", *(c.value for c in CONTRACTS))
_ABANDON = ("abandoned", "arbiter_accord")  # arbiter_accord: 1, 0, or empty (not said)
ENTRY_COLUMNS = ("place", "entry_total", *_ABANDON, *TIEBREAK_COLUMNS)

# For each record type: (required columns, optional columns).
RECORD_COLUMNS: dict[RecordType, tuple[tuple[str, ...], tuple[str, ...]]] = {
    RecordType.SESSION: (("session", "tables", "deals"), ("tables_of_three", "points_divisor")),
    RecordType.PLAYER: (
        ("entry", "place", "entry_total"),
        (*_ABANDON, "licence_number", "name", "player_total", *TIEBREAK_COLUMNS),
    ),
    RecordType.POSITION: (
        ("entry", "session", "position", "table", "score"),
        ("licence_number", "name"),
    ),
    RecordType.PENALTY: (("licence_number", "points", "kind", "reason"), ()),
    RecordType.SESSION_ENTRY: (("session", "entry", "score"), ("carried", "after_position")),
    RecordType.POSITION_CUT: (
        ("session", "after_position", "tables"),
        ("tables_of_three", "points_divisor"),
    ),
}

COLUMNS: tuple[str, ...] = (
    "record",
    "session",
    "tables",
    "tables_of_three",
    "deals",
    "entry",
    "place",
    "entry_total",
    "abandoned",
    "licence_number",
    "name",
    "player_total",
    "position",
    "table",
    "score",
    *TIEBREAK_COLUMNS,
    "points",
    "kind",
    "reason",
)
"""The columns of a results CSV (:func:`write_csv` writes them all)."""

ELIMINATION_COLUMNS = ("points_divisor", "carried")
"""The columns of sessions with eliminations, after :data:`COLUMNS` when a file has any."""
ACCORD_COLUMNS = ("arbiter_accord",)
"""Whether an entry that abandoned had the arbiter's accord: written when a document says it."""
CUT_COLUMNS = ("after_position",)
"""The column of cuts between positions, after the others when a file has any."""
ALL_COLUMNS = (*COLUMNS, *ELIMINATION_COLUMNS, *CUT_COLUMNS, *ACCORD_COLUMNS)
"""Every column a results CSV may have."""

_ALLOWED: dict[RecordType, frozenset[str]] = {
    record: frozenset({"record", *required, *optional})
    for record, (required, optional) in RECORD_COLUMNS.items()
}
_INTEGER = re.compile(r"^[+-]?[0-9]+$")
_TRUE = frozenset({"1", "true", "yes", "oui", "vrai", "x"})
_FALSE = frozenset({"", "0", "false", "no", "non", "faux"})


@dataclass(slots=True)
class _Player:
    line: int
    licence_number: int | None
    name: str
    total: int | None
    positions: list[tuple[int, PositionScore]] = field(default_factory=list)


@dataclass(slots=True)
class _Entry:
    line: int
    number: int
    columns: dict[str, str]  # the entry's columns as first written, to compare repeats
    place: int
    total: int
    abandoned: bool
    tiebreak: TieBreakData | None
    players: list[_Player] = field(default_factory=list)
    arbiter_accord: bool | None = None


class _Line:
    """One line of the file: reads its cells, reporting problems as ``lines[N].column``."""

    def __init__(self, number: int, cells: dict[str, str], problems: list[Problem]) -> None:
        self.number = number
        self.cells = cells
        self.problems = problems
        self.failed = False

    def at(self, column: str) -> str:
        return f"lines[{self.number}].{column}"

    def report(self, column: str, code: str, message: str, **params: object) -> None:
        self.failed = True
        self.problems.append(Problem(self.at(column), code, message, params))

    def text(self, column: str) -> str:
        cell = self.cells.get(column)
        return cell.strip() if cell else ""

    def integer(
        self, column: str, *, minimum: int, maximum: int, required: bool = True
    ) -> int | None:
        text = self.text(column)
        if not text:
            if required and column in self.cells:
                self.report(column, "missing_value", f"Line {self.number} needs a {column}.")
            elif required:  # the header lacks the column: reported once, on line 1
                self.failed = True
            return None
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not text.isascii() or "_" in text:  # int() also reads "1_000"
            self.report(
                column,
                "not_an_integer",
                f"Line {self.number}: {column} must be a whole number, not {text!r}.",
                value=text,
            )
            return None
        if value < minimum:
            code = "negative_number" if minimum == 0 else "number_too_small"
            self.report(
                column,
                code,
                f"Line {self.number}: {column} must be at least {minimum}, not {value}.",
                minimum=minimum,
                value=value,
            )
            return None
        if value > maximum:
            self.report(
                column,
                "number_too_large",
                f"Line {self.number}: {column} must be at most {maximum}, not {value}.",
                maximum=maximum,
                value=value,
            )
            return None
        return value

    def boolean(self, column: str) -> bool:
        text = self.text(column).lower()
        if text in _TRUE:
            return True
        if text not in _FALSE:
            self.report(
                column,
                "not_a_boolean",
                f"Line {self.number}: {column} must be 1 (yes) or 0 / empty (no), not {text!r}.",
                value=text,
            )
        return False

    def string(self, column: str, *, maximum: int, required: bool = False) -> str:
        text = unicodedata.normalize("NFC", self.text(column))
        if required and not text:
            if column in self.cells:
                self.report(column, "missing_value", f"Line {self.number} needs a {column}.")
            else:
                self.failed = True
        if len(text) > maximum:
            self.report(
                column,
                "text_too_long",
                f"Line {self.number}: {column} may have at most {maximum} characters, "
                f"not {len(text)}.",
                maximum=maximum,
                length=len(text),
            )
        return text


def parse_csv(data: bytes | str) -> ResultsDocument:
    """Read a results document in its CSV form; raise RuleViolation with every problem."""
    return read_csv(data).document_or_raise()


def read_csv(data: bytes | str) -> Reading:
    """Read a results CSV as far as it can be read: the document of every line that was
    read, and the problems of the others (each reported once, in file order)."""
    try:
        text = _decode(data)
        rows = _rows(text)
    except RuleViolation as refused:
        return Reading(None, refused.problems)
    problems: list[Problem] = []
    header = _header(rows[0] if rows else [], problems)
    if header is None:
        return Reading(None, tuple(problems))

    sessions: list[tuple[int, SessionResult]] = []
    entries: dict[int, _Entry] = {}
    positions: list[tuple[_Line, dict[str, int | str | None], PositionScore]] = []
    penalties: list[tuple[int, PenaltyRecord]] = []
    session_entries: list[tuple[_Line, int, int, SessionEntry]] = []
    cuts: list[tuple[_Line, int, PositionCut]] = []
    missing_columns: set[tuple[RecordType, str]] = set()
    gaps = _GapsFound()

    for index, row in enumerate(rows[1:], start=2):
        if not "".join(row).strip():
            continue  # spreadsheets leave empty lines (or lines of bare delimiters) at the end
        cells = _cells(index, row, header, problems)
        if cells is None:
            gaps.unknown_line(None)
            continue
        line = _Line(index, cells, problems)
        record = _record_type(line)
        if record is None:
            gaps.unknown_line(line.text("entry"))
            continue
        _check_columns(line, record, header, missing_columns)
        if record is RecordType.SESSION:
            session = _session(line)
            if session is not None:
                if len(sessions) == MAX_SESSIONS:
                    line.report(
                        "record",
                        "too_many_items",
                        f"At most {MAX_SESSIONS} sessions.",
                        limit=MAX_SESSIONS,
                    )
                else:
                    sessions.append((index, session))
            if line.failed:
                gaps.sessions = True
        elif record is RecordType.PLAYER:
            _player(line, entries, gaps)
        elif record is RecordType.SESSION_ENTRY:
            played = _session_entry(line)
            if played is not None:
                session_entries.append((line, *played))
            else:
                gaps.sessions = True
        elif record is RecordType.POSITION_CUT:
            cut = _position_cut(line)
            if cut is not None:
                cuts.append((line, *cut))
            else:
                gaps.sessions = True
        elif record is RecordType.POSITION:
            found = _position(line)
            if found is not None:
                positions.append((line, *found))
            else:
                gaps.positions = True
        else:
            penalty = _penalty(line)
            if penalty is not None:
                if len(penalties) == MAX_PENALTIES:
                    line.report(
                        "record",
                        "too_many_items",
                        f"At most {MAX_PENALTIES} penalties.",
                        limit=MAX_PENALTIES,
                    )
                else:
                    penalties.append((index, penalty))
            if line.failed:
                gaps.penalties = True

    _attach_all(positions, entries, gaps, problems)
    sessions, listed = _attach_session_entries(sessions, cuts, session_entries, gaps)
    document = _document(sessions, entries, penalties, gaps.frozen(), listed)
    return Reading(document, tuple(sorted(problems, key=_line_number)))


@dataclass(slots=True)
class _GapsFound:
    """What could not be read, as the lines are read (see :class:`Gaps`)."""

    sessions: bool = False
    entries: set[int] = field(default_factory=set)
    unnumbered_entry: bool = False
    positions: bool = False
    penalties: bool = False

    def unknown_line(self, entry: str | None) -> None:
        """A line of unknown kind could not be read: a session, a score or a penalty may
        be missing, or a player of the entry it names (if it names one)."""
        self.sessions = self.positions = self.penalties = True
        if entry and _INTEGER.match(entry):
            self.entries.add(int(entry))

    def frozen(self) -> Gaps:
        return Gaps(
            sessions=self.sessions,
            entries=frozenset(self.entries),
            unnumbered_entry=self.unnumbered_entry,
            positions=self.positions,
            penalties=self.penalties,
        )


def _line_number(problem: Problem) -> int:
    """The line a problem is on (``lines[12].score`` → 12), to list problems in file order."""
    if not problem.field.startswith("lines["):
        return 0
    return int(problem.field[len("lines[") : problem.field.index("]")])


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        text = data.removeprefix("\ufeff")
        size = len(text)
    elif isinstance(data, bytes | bytearray):
        size = len(data)
        text = ""
    else:
        raise RuleViolation.single(
            "lines",
            "wrong_type",
            f"A CSV file is bytes, not {type(data).__name__}.",
            {"kind": type(data).__name__},
        )
    if size > MAX_DOCUMENT_BYTES:
        raise RuleViolation.single(
            "lines",
            "document_too_large",
            f"A results file may be at most {MAX_DOCUMENT_BYTES} bytes, got {size}.",
            {"limit_mib": MAX_DOCUMENT_BYTES // (1024 * 1024), "size": size},
        )
    if isinstance(data, bytes | bytearray):
        decoded = decode_text(bytes(data))
        if isinstance(decoded, WorkbookRefused):
            raise RuleViolation.single("lines", decoded.code, decoded.message, decoded.params)
        if isinstance(decoded, Undecodable):
            raise RuleViolation(_undecodable(decoded))
        text = decoded.text
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise RuleViolation.single(
            f"lines[{line}]",
            "null_character",
            f"Line {line} contains a NUL character: this is not a text file.",
        )
    return text


_UNDECODABLE: dict[WhyUndecodable, tuple[str, str]] = {
    WhyUndecodable.UTF16: ("csv_is_utf16", "The file is UTF-16 text ('Unicode text'), not CSV."),
    WhyUndecodable.BINARY: ("csv_not_text", "The file contains NUL bytes: it is not a text file."),
    WhyUndecodable.MIXED: (
        "csv_mixed_encodings",
        "The file mixes encodings: UTF-8 accented letters and bytes that are not UTF-8.",
    ),
    WhyUndecodable.UNKNOWN: (
        "csv_unknown_encoding",
        "The file has a byte that is neither UTF-8 nor Windows-1252.",
    ),
}


def _undecodable(refusal: Undecodable) -> Problem:
    code, message = _UNDECODABLE[refusal.why]
    where = "lines" if refusal.line is None else f"lines[{refusal.line}]"
    return Problem(
        where,
        code,
        f"{message} Save it as 'CSV UTF-8' or 'CSV (semicolon delimited)'.",
        {} if refusal.byte is None else {"byte": f"0x{refusal.byte:02x}"},
    )


def _rows(text: str) -> list[list[str]]:
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    rows: list[list[str]] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for row in reader:
            rows.append(row)
            if len(rows) > MAX_LINES:
                raise RuleViolation.single(
                    f"lines[{len(rows)}]",
                    "too_many_lines",
                    f"A results file may have at most {MAX_LINES} lines.",
                    {"limit": MAX_LINES},
                )
    except csv.Error as error:
        line = len(rows) + 1
        raise RuleViolation.single(
            f"lines[{line}]", "malformed_csv", f"Line {line} cannot be read as CSV: {error}."
        ) from None
    return rows


def _header(row: list[str], problems: list[Problem]) -> list[str] | None:
    if not any(cell.strip() for cell in row):
        problems.append(
            Problem(
                "lines[1]",
                "missing_header",
                "The first line must name the columns (record, session, tables, ...).",
            )
        )
        return None
    names = [column_code(cell) for cell in row]  # English codes or French names
    seen: set[str] = set()
    for name in names:
        if not name:
            continue
        if name not in ALL_COLUMNS:
            problems.append(
                Problem(
                    f"lines[1].{name}",
                    "unknown_column",
                    f"'{name}' is not a column of the results format; the columns are: "
                    f"{', '.join(ALL_COLUMNS)}.",
                    {"column": name, "columns": ", ".join(ALL_COLUMNS)},
                )
            )
        elif name in seen:
            problems.append(
                Problem(
                    f"lines[1].{name}",
                    "duplicate_column",
                    f"The column '{name}' is twice.",
                    {"column": name},
                )
            )
        seen.add(name)
    if "record" not in seen:
        problems.append(
            Problem(
                "lines[1].record",
                "missing_column",
                "The column 'record' (session, player, position or penalty) is required.",
                {"column": "record"},
            )
        )
    return None if problems else names


def _cells(
    index: int, row: list[str], header: list[str], problems: list[Problem]
) -> dict[str, str] | None:
    if len(row) > len(header) or "" in header:
        extra = [cell for cell in row[len(header) :] if cell.strip()]
        unnamed = [
            cell for name, cell in zip(header, row, strict=False) if not name and cell.strip()
        ]
    else:
        extra = unnamed = []
    if extra or unnamed:
        values = ", ".join(repr(cell) for cell in (*unnamed, *extra))
        problems.append(
            Problem(
                f"lines[{index}]",
                "cell_without_column",
                f"Line {index} has values in cells that the header names no column for ({values}).",
                {"values": ", ".join(f"« {cell.strip()} »" for cell in (*unnamed, *extra))},
            )
        )
        return None
    return {name: cell for name, cell in zip(header, row, strict=False) if name}


def _record_type(line: _Line) -> RecordType | None:
    text = record_code(line.text("record"))
    try:
        return RecordType(text)
    except ValueError:
        line.report(
            "record",
            "unknown_record_type" if text else "missing_value",
            f"Line {line.number}: the record must be one of "
            f"{', '.join(r.value for r in RecordType)}, not {text!r}.",
            value=text,
            records=", ".join(r.value for r in RecordType),
        )
        return None


def _check_columns(
    line: _Line,
    record: RecordType,
    header: list[str],
    missing_columns: set[tuple[RecordType, str]],
) -> None:
    required = RECORD_COLUMNS[record][0]
    for column in required:
        if column not in header and (record, column) not in missing_columns:
            missing_columns.add((record, column))
            line.problems.append(
                Problem(
                    f"lines[1].{column}",
                    "missing_column",
                    f"The file has {record} lines (the first on line {line.number}), which need "
                    f"the column '{column}'.",
                    {"column": column, "record": record.value, "first_line": line.number},
                )
            )
    allowed = _ALLOWED[record]
    for column, cell in line.cells.items():
        if cell and column not in allowed and cell.strip():
            line.report(
                column,
                "column_not_for_record",
                f"Line {line.number}: a {record} line has no {column}; leave that cell empty "
                f"(a {record} line uses {', '.join(c for c in ALL_COLUMNS if c in allowed)}).",
                record=record.value,
                columns=", ".join(c for c in ALL_COLUMNS if c in allowed),
            )


def _session(line: _Line) -> SessionResult | None:
    number = line.integer("session", minimum=1, maximum=99)
    tables = line.integer("tables", minimum=0, maximum=MAX_COUNT)
    three = line.integer("tables_of_three", minimum=0, maximum=MAX_COUNT, required=False)
    deals = line.integer("deals", minimum=0, maximum=MAX_COUNT)
    divisor = line.integer("points_divisor", minimum=1, maximum=MAX_COUNT, required=False)
    if line.failed or number is None or tables is None or deals is None:
        return None
    return SessionResult(
        number=number,
        tables=tables,
        tables_of_three=three or 0,
        deals=deals,
        points_divisor=divisor or 1,
    )


def _session_entry(line: _Line) -> tuple[int, int, SessionEntry] | None:
    """A ``session_entry`` line: its session, the cut it follows (0: the session's start)
    and what the entry did there."""
    session = line.integer("session", minimum=1, maximum=99)
    after = line.integer("after_position", minimum=1, maximum=MAX_COUNT, required=False)
    number = line.integer("entry", minimum=1, maximum=MAX_LICENCE_NUMBER)
    score = line.integer("score", minimum=-MAX_SCORE, maximum=MAX_SCORE)
    carried = line.integer("carried", minimum=-MAX_SCORE, maximum=MAX_SCORE, required=False)
    if line.failed or session is None or number is None or score is None:
        return None
    return session, after or 0, SessionEntry(number=number, score=score, carried=carried or 0)


def _position_cut(line: _Line) -> tuple[int, PositionCut] | None:
    """A ``position_cut`` line: its session and the cut (its entries attached later)."""
    session = line.integer("session", minimum=1, maximum=99)
    after = line.integer("after_position", minimum=1, maximum=MAX_COUNT)
    tables = line.integer("tables", minimum=0, maximum=MAX_COUNT)
    three = line.integer("tables_of_three", minimum=0, maximum=MAX_COUNT, required=False)
    divisor = line.integer("points_divisor", minimum=1, maximum=MAX_COUNT, required=False)
    if line.failed or session is None or after is None or tables is None:
        return None
    cut = PositionCut(
        after_position=after,
        tables=tables,
        entries=(),
        tables_of_three=three or 0,
        points_divisor=divisor or 1,
    )
    return session, cut


def _attach_session_entries(
    sessions: list[tuple[int, SessionResult]],
    cuts: list[tuple[_Line, int, PositionCut]],
    found: list[tuple[_Line, int, int, SessionEntry]],
    gaps: _GapsFound,
) -> tuple[list[tuple[int, SessionResult]], dict[str, str]]:
    """Each ``position_cut`` line given to its session, and each ``session_entry`` line to
    its session (by number) or to the cut it names (``after_position``); the lines of
    each, to locate problems found later."""
    index_of = {session.number: i for i, (_, session) in enumerate(sessions)}
    declared = ", ".join(str(n) for n in sorted(index_of)) or "–"

    def session_of(line: _Line, number: int) -> int | None:
        if number in index_of:
            return index_of[number]
        if not gaps.sessions:
            line.report(
                "session",
                "position_session_not_declared",
                f"Session {number} is not among the sessions declared ({declared}).",
                session=number,
                sessions=declared,
            )
        return None

    cuts_of: dict[int, list[tuple[int, PositionCut]]] = {}
    for line, number, cut in cuts:
        i = session_of(line, number)
        if i is not None:
            cuts_of.setdefault(i, []).append((line.number, cut))
    listed: dict[tuple[int, int], list[tuple[int, SessionEntry]]] = {}
    for line, number, after, played in found:
        i = session_of(line, number)
        if i is None:
            continue
        if after and not any(cut.after_position == after for _, cut in cuts_of.get(i, ())):
            if not gaps.sessions:
                line.report(
                    "after_position",
                    "cut_not_declared",
                    f"Line {line.number}: session {number} has no position_cut line after "
                    f"position {after}.",
                    session=number,
                    position=after,
                )
            continue
        listed.setdefault((i, after), []).append((line.number, played))
    lines: dict[str, str] = {}
    kept = []
    for i, (line_number, session) in enumerate(sessions):
        rows = listed.get((i, 0), [])
        for j, (at, _) in enumerate(rows):
            lines[f"sessions[{i}].entries[{j}]"] = f"lines[{at}]"
        session_cuts = []
        for c, (cut_line, cut) in enumerate(cuts_of.get(i, [])):
            lines[f"sessions[{i}].cuts[{c}]"] = f"lines[{cut_line}]"
            cut_rows = listed.pop((i, cut.after_position), [])  # a repeated cut: the first
            for j, (at, _) in enumerate(cut_rows):
                lines[f"sessions[{i}].cuts[{c}].entries[{j}]"] = f"lines[{at}]"
            session_cuts.append(replace(cut, entries=tuple(played for _, played in cut_rows)))
        kept.append(
            (
                line_number,
                replace(
                    session,
                    entries=tuple(played for _, played in rows),
                    cuts=tuple(session_cuts),
                ),
            )
        )
    return kept, lines


def _player(line: _Line, entries: dict[int, _Entry], gaps: _GapsFound) -> None:
    number = line.integer("entry", minimum=1, maximum=MAX_LICENCE_NUMBER)
    place = line.integer("place", minimum=1, maximum=MAX_ENTRIES)
    total = line.integer("entry_total", minimum=-MAX_SCORE, maximum=MAX_SCORE)
    abandoned = line.boolean("abandoned")
    accord = line.boolean("arbiter_accord") if line.text("arbiter_accord") else None
    tiebreak = _tiebreak(line)
    licence = line.integer("licence_number", minimum=1, maximum=MAX_LICENCE_NUMBER, required=False)
    name = line.string("name", maximum=MAX_NAME_LENGTH)
    if licence is None and not line.text("licence_number") and not name:
        line.report(
            "name",
            "unidentified_player",
            f"Line {line.number}: a player without a licence number must be named.",
        )
    player_total = line.integer(
        "player_total", minimum=-MAX_SCORE, maximum=MAX_SCORE, required=False
    )
    if number is None:
        gaps.unnumbered_entry = True
        return
    if line.failed or place is None or total is None:
        gaps.entries.add(number)
        return
    player = _Player(line.number, licence, name, player_total)
    columns = {column: line.text(column) for column in ENTRY_COLUMNS}
    entry = entries.get(number)
    if entry is None:
        if len(entries) == MAX_ENTRIES:
            line.report(
                "entry",
                "too_many_items",
                f"At most {MAX_ENTRIES} entries are accepted.",
                limit=MAX_ENTRIES,
            )
            gaps.entries.add(number)
            return
        entries[number] = _Entry(
            line.number, number, columns, place, total, abandoned, tiebreak, [player], accord
        )
        return
    for column in ENTRY_COLUMNS:
        if _same_cell(column, columns[column], entry.columns[column]):
            continue
        line.report(
            column,
            "entry_columns_disagree",
            f"Line {line.number} gives entry {number} {column} {columns[column]!r}, but line "
            f"{entry.line} gave {entry.columns[column]!r}; every player line of an entry repeats "
            f"the same entry columns.",
            entry=number,
            value=columns[column],
            first_line=entry.line,
            first_value=entry.columns[column],
        )
    if len(entry.players) == MAX_PLAYERS_PER_ENTRY:
        line.report(
            "entry",
            "too_many_items",
            f"At most {MAX_PLAYERS_PER_ENTRY} players are accepted in one entry.",
            limit=MAX_PLAYERS_PER_ENTRY,
        )
    if line.failed:
        gaps.entries.add(number)
    else:
        entry.players.append(player)


def _same_cell(column: str, first: str, other: str) -> bool:
    if column in _ABANDON:  # the accord said on one line and not on another differs
        same_said = column == "abandoned" or (not first) == (not other)
        return same_said and (first.lower() in _TRUE) == (other.lower() in _TRUE)
    if _INTEGER.match(first) and _INTEGER.match(other):
        return int(first) == int(other)
    return first == other


def _tiebreak(line: _Line) -> TieBreakData | None:
    if not any(line.text(column) for column in TIEBREAK_COLUMNS):
        return None
    best = line.integer(
        "best_position_score", minimum=-MAX_SCORE, maximum=MAX_SCORE, required=False
    )
    counts: dict[Contract, int] = {}
    for contract in CONTRACTS:
        count = line.integer(contract.value, minimum=0, maximum=MAX_COUNT, required=False)
        counts[contract] = count or 0
    return TieBreakData(best_position_score=best, contracts_made=counts)


def _position(line: _Line) -> tuple[dict[str, int | str | None], PositionScore] | None:
    entry = line.integer("entry", minimum=1, maximum=MAX_LICENCE_NUMBER)
    licence = line.integer("licence_number", minimum=1, maximum=MAX_LICENCE_NUMBER, required=False)
    name = line.string("name", maximum=MAX_NAME_LENGTH)
    session = line.integer("session", minimum=1, maximum=99)
    position = line.integer("position", minimum=1, maximum=MAX_COUNT)
    table = line.integer("table", minimum=1, maximum=MAX_COUNT)
    score = line.integer("score", minimum=-MAX_SCORE, maximum=MAX_SCORE)
    if line.failed or session is None or position is None or table is None or score is None:
        return None
    who = {"entry": entry, "licence_number": licence, "name": name}
    return who, PositionScore(session=session, position=position, table=table, score=score)


def _attach_all(
    positions: list[tuple[_Line, dict[str, int | str | None], PositionScore]],
    entries: dict[int, _Entry],
    gaps: _GapsFound,
    problems: list[Problem],
) -> None:
    """Give each position line to its player. The lines that name the same missing player
    are one mistake, reported once on the first of them (listing the others); a position
    line of an entry whose player line could not be read is no mistake of its own."""
    unmatched: dict[tuple[str, str, object], list[_Line]] = {}
    for line, who, score in positions:
        entry_number = who["entry"]
        entry = entries.get(entry_number)  # type: ignore[arg-type]
        # A player line of the entry could not be read: reported there, not here.
        explained = entry_number in gaps.entries or gaps.unnumbered_entry
        if entry is None:
            gaps.positions = True
            if not explained:
                key = ("entry", "position_entry_not_found", entry_number)
                unmatched.setdefault(key, []).append(line)
            continue
        missing = _attach(line, who, score, entry)
        if missing is not None:
            gaps.positions = True
            if not explained:
                unmatched.setdefault(missing, []).append(line)
    for (column, code, named), lines in unmatched.items():
        first = lines[0]
        others = [other.number for other in lines[1:]]
        entry_number = first_entry = None
        if code == "position_entry_not_found":
            first_entry = named
            message = f"Line {first.number}: no player line has entry {named}."
        else:
            entry_number = named[0]  # type: ignore[index]
            message = (
                f"Line {first.number}: entry {entry_number} has no single player with "
                f"{named[1]}."  # type: ignore[index]
            )
        if others:
            message += f" Also lines {', '.join(map(str, others))}."
        params: dict[str, object] = {
            "entry": first_entry if first_entry is not None else entry_number,
            "lines": ", ".join(str(number) for number in (first.number, *others)),
        }
        if code == "position_player_not_found":
            params["who"] = named[2]  # type: ignore[index]
        problems.append(Problem(first.at(column), code, message, params))


def _attach(
    line: _Line,
    who: dict[str, int | str | None],
    score: PositionScore,
    entry: _Entry,
) -> tuple[str, str, object] | None:
    """Give the position line to its player; the key of the mistake when it names none."""
    if who["licence_number"] is not None:
        found = [p for p in entry.players if p.licence_number == who["licence_number"]]
        column = "licence_number"
        named: object = (
            entry.number,
            f"licence number {who['licence_number']}",
            who["licence_number"],
        )
    elif who["name"]:
        wanted = str(who["name"]).casefold()
        found = [
            p for p in entry.players if p.licence_number is None and p.name.casefold() == wanted
        ]
        column = "name"
        named = (entry.number, f"the name {who['name']!r}", who["name"])
    elif len(entry.players) == 1:
        found = entry.players
        column, named = "entry", (entry.number, "its only player", "")
    else:
        line.report(
            "licence_number",
            "position_player_ambiguous",
            f"Line {line.number}: entry {entry.number} has {len(entry.players)} players; give "
            f"the licence number (or, for a player without one, the name) of the player.",
            entry=entry.number,
            players=len(entry.players),
        )
        return None
    if len(found) != 1:
        line.failed = True
        return (column, "position_player_not_found", named)
    player = found[0]
    if len(player.positions) == MAX_POSITIONS_PER_PLAYER:
        line.report(
            "record",
            "too_many_items",
            f"At most {MAX_POSITIONS_PER_PLAYER} position scores per player are accepted.",
            limit=MAX_POSITIONS_PER_PLAYER,
        )
        return None
    player.positions.append((line.number, score))
    return None


def _penalty(line: _Line) -> PenaltyRecord | None:
    licence = line.integer("licence_number", minimum=1, maximum=MAX_LICENCE_NUMBER)
    points = line.integer("points", minimum=0, maximum=MAX_SCORE)
    kind_text = line.text("kind")
    kind = None
    if not kind_text:
        if "kind" in line.cells:
            line.report("kind", "missing_value", f"Line {line.number} needs a kind.")
        else:
            line.failed = True
    else:
        try:
            kind = PenaltyKind(kind_text.lower())
        except ValueError:
            line.report(
                "kind",
                "unknown_penalty_kind",
                f"Line {line.number}: {kind_text!r} is not a kind of penalty; the kinds are: "
                f"{', '.join(k.value for k in PenaltyKind)}.",
                value=kind_text,
                kinds=", ".join(k.value for k in PenaltyKind),
            )
    reason = line.string("reason", maximum=MAX_REASON_LENGTH, required=True)
    if line.failed or licence is None or points is None or kind is None:
        return None
    return PenaltyRecord(licence_number=licence, points=points, kind=kind, reason=reason)


def _document(
    sessions: list[tuple[int, SessionResult]],
    entries: dict[int, _Entry],
    penalties: list[tuple[int, PenaltyRecord]],
    gaps: Gaps,
    session_entry_lines: dict[str, str],
) -> ResultsDocument:
    lines: dict[str, str] = {"sessions": "lines", "entries": "lines", "penalties": "lines"}
    lines.update(session_entry_lines)
    for i, (line, _) in enumerate(sessions):
        lines[f"sessions[{i}]"] = f"lines[{line}]"
    for i, (line, _) in enumerate(penalties):
        lines[f"penalties[{i}]"] = f"lines[{line}]"
    results = []
    for i, entry in enumerate(entries.values()):
        lines[f"entries[{i}]"] = f"lines[{entry.line}]"
        players = []
        for j, player in enumerate(entry.players):
            lines[f"entries[{i}].players[{j}]"] = f"lines[{player.line}]"
            for k, (line, _) in enumerate(player.positions):
                lines[f"entries[{i}].players[{j}].positions[{k}]"] = f"lines[{line}]"
            players.append(
                PlayerResult(
                    licence_number=player.licence_number,
                    name=player.name,
                    total=player.total,
                    positions=tuple(score for _, score in player.positions),
                )
            )
        results.append(
            EntryResult(
                number=entry.number,
                place=entry.place,
                total=entry.total,
                players=tuple(players),
                abandoned=entry.abandoned,
                tiebreak=entry.tiebreak,
                arbiter_accord=entry.arbiter_accord,
            )
        )
    return ResultsDocument(
        format_version=FORMAT_VERSION,
        sessions=tuple(session for _, session in sessions),
        entries=tuple(results),
        penalties=tuple(penalty for _, penalty in penalties),
        source=SourceMap(parts=lines),
        gaps=gaps,
    )
