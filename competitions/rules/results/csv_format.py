"""The CSV form of a results document (see ``docs/results-format.md``).

One file, UTF-8 with or without a byte order mark, ``,`` or ``;`` between
cells (whichever the header line uses), a header line naming the columns in
any order. Each following line is one record, its kind in the ``record``
column:

- ``session``: a session (``session``, ``tables``, ``tables_of_three``, ``deals``);
- ``player``: a player of an entry, with the entry's columns (``entry``,
  ``place``, ``entry_total``, ``abandoned``, the tie-break columns) repeated on
  every player line of the entry;
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
from dataclasses import dataclass, field
from enum import StrEnum

from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.engine.scoring import Contract
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
    PenaltyRecord,
    PlayerResult,
    PositionScore,
    ResultsDocument,
    SessionResult,
    SourceMap,
    TieBreakData,
)
from core.problems import Problem, RuleViolation

MAX_LINES = 200_000


class RecordType(StrEnum):
    """What a line of the CSV file describes (its ``record`` column)."""

    SESSION = "session"
    PLAYER = "player"
    POSITION = "position"
    PENALTY = "penalty"


TIEBREAK_COLUMNS = ("best_position_score", *(c.value for c in CONTRACTS))
ENTRY_COLUMNS = ("place", "entry_total", "abandoned", *TIEBREAK_COLUMNS)

# For each record type: (required columns, optional columns).
RECORD_COLUMNS: dict[RecordType, tuple[tuple[str, ...], tuple[str, ...]]] = {
    RecordType.SESSION: (("session", "tables", "deals"), ("tables_of_three",)),
    RecordType.PLAYER: (
        ("entry", "place", "entry_total"),
        ("abandoned", "licence_number", "name", "player_total", *TIEBREAK_COLUMNS),
    ),
    RecordType.POSITION: (
        ("entry", "session", "position", "table", "score"),
        ("licence_number", "name"),
    ),
    RecordType.PENALTY: (("licence_number", "points", "kind", "reason"), ()),
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


class _Line:
    """One line of the file: reads its cells, reporting problems as ``lines[N].column``."""

    def __init__(self, number: int, cells: dict[str, str], problems: list[Problem]) -> None:
        self.number = number
        self.cells = cells
        self.problems = problems
        self.failed = False

    def at(self, column: str) -> str:
        return f"lines[{self.number}].{column}"

    def report(self, column: str, code: str, message: str) -> None:
        self.failed = True
        self.problems.append(Problem(self.at(column), code, message))

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
            )
            return None
        if value < minimum:
            code = "negative_number" if minimum == 0 else "number_too_small"
            self.report(
                column,
                code,
                f"Line {self.number}: {column} must be at least {minimum}, not {value}.",
            )
            return None
        if value > maximum:
            self.report(
                column,
                "number_too_large",
                f"Line {self.number}: {column} must be at most {maximum}, not {value}.",
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
            )
        return text


def parse_csv(data: bytes | str) -> ResultsDocument:
    """Read a results document in its CSV form; raise RuleViolation with every problem."""
    text = _decode(data)
    rows = _rows(text)
    problems: list[Problem] = []
    header = _header(rows[0] if rows else [], problems)
    if header is None:
        raise RuleViolation(problems)

    sessions: list[tuple[int, SessionResult]] = []
    entries: dict[int, _Entry] = {}
    positions: list[tuple[_Line, dict[str, int | str | None], PositionScore]] = []
    penalties: list[tuple[int, PenaltyRecord]] = []
    missing_columns: set[tuple[RecordType, str]] = set()

    for index, row in enumerate(rows[1:], start=2):
        if not "".join(row).strip():
            continue  # spreadsheets leave empty lines (or lines of bare delimiters) at the end
        cells = _cells(index, row, header, problems)
        if cells is None:
            continue
        line = _Line(index, cells, problems)
        record = _record_type(line)
        if record is None:
            continue
        _check_columns(line, record, header, missing_columns)
        if record is RecordType.SESSION:
            session = _session(line)
            if session is not None:
                if len(sessions) == MAX_SESSIONS:
                    line.report("record", "too_many_items", f"At most {MAX_SESSIONS} sessions.")
                else:
                    sessions.append((index, session))
        elif record is RecordType.PLAYER:
            _player(line, entries)
        elif record is RecordType.POSITION:
            found = _position(line)
            if found is not None:
                positions.append((line, *found))
        else:
            penalty = _penalty(line)
            if penalty is not None:
                if len(penalties) == MAX_PENALTIES:
                    line.report("record", "too_many_items", f"At most {MAX_PENALTIES} penalties.")
                else:
                    penalties.append((index, penalty))

    for line, who, score in positions:
        _attach(line, who, score, entries)
    if problems:
        raise RuleViolation(sorted(problems, key=_line_number))
    return _document(sessions, entries, penalties)


def _line_number(problem: Problem) -> int:
    """The line a problem is on (``lines[12].score`` → 12), to list problems in file order."""
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
            "lines", "wrong_type", f"A CSV file is bytes, not {type(data).__name__}."
        )
    if size > MAX_DOCUMENT_BYTES:
        raise RuleViolation.single(
            "lines",
            "document_too_large",
            f"A results file may be at most {MAX_DOCUMENT_BYTES} bytes, got {size}.",
        )
    if isinstance(data, bytes | bytearray):
        raw = bytes(data)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = raw.count(b"\n", 0, error.start) + 1
            raise RuleViolation.single(
                f"lines[{line}]",
                "not_utf8",
                f"Line {line} is not UTF-8 text (byte 0x{raw[error.start]:02x} cannot be "
                f"decoded). Save the file as 'CSV UTF-8'.",
            ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise RuleViolation.single(
            f"lines[{line}]",
            "malformed_csv",
            f"Line {line} contains a NUL character: this is not a text file.",
        )
    return text


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
    names = [cell.strip().lower() for cell in row]
    seen: set[str] = set()
    for name in names:
        if not name:
            continue
        if name not in COLUMNS:
            problems.append(
                Problem(
                    f"lines[1].{name}",
                    "unknown_column",
                    f"'{name}' is not a column of the results format; the columns are: "
                    f"{', '.join(COLUMNS)}.",
                )
            )
        elif name in seen:
            problems.append(
                Problem(f"lines[1].{name}", "duplicate_column", f"The column '{name}' is twice.")
            )
        seen.add(name)
    if "record" not in seen:
        problems.append(
            Problem(
                "lines[1].record",
                "missing_column",
                "The column 'record' (session, player, position or penalty) is required.",
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
        problems.append(
            Problem(
                f"lines[{index}]",
                "cell_without_column",
                f"Line {index} has values in cells that the header names no column for "
                f"({', '.join(repr(cell) for cell in (*unnamed, *extra))}).",
            )
        )
        return None
    return {name: cell for name, cell in zip(header, row, strict=False) if name}


def _record_type(line: _Line) -> RecordType | None:
    text = line.text("record").lower()
    try:
        return RecordType(text)
    except ValueError:
        line.report(
            "record",
            "unknown_record_type" if text else "missing_value",
            f"Line {line.number}: the record must be one of "
            f"{', '.join(r.value for r in RecordType)}, not {text!r}.",
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
                )
            )
    allowed = _ALLOWED[record]
    for column, cell in line.cells.items():
        if cell and column not in allowed and cell.strip():
            line.report(
                column,
                "column_not_for_record",
                f"Line {line.number}: a {record} line has no {column}; leave that cell empty "
                f"(a {record} line uses {', '.join(c for c in COLUMNS if c in allowed)}).",
            )


def _session(line: _Line) -> SessionResult | None:
    number = line.integer("session", minimum=1, maximum=99)
    tables = line.integer("tables", minimum=0, maximum=MAX_COUNT)
    three = line.integer("tables_of_three", minimum=0, maximum=MAX_COUNT, required=False)
    deals = line.integer("deals", minimum=0, maximum=MAX_COUNT)
    if line.failed or number is None or tables is None or deals is None:
        return None
    return SessionResult(number=number, tables=tables, tables_of_three=three or 0, deals=deals)


def _player(line: _Line, entries: dict[int, _Entry]) -> None:
    number = line.integer("entry", minimum=1, maximum=MAX_LICENCE_NUMBER)
    place = line.integer("place", minimum=1, maximum=MAX_ENTRIES)
    total = line.integer("entry_total", minimum=-MAX_SCORE, maximum=MAX_SCORE)
    abandoned = line.boolean("abandoned")
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
    if line.failed or number is None or place is None or total is None:
        return
    player = _Player(line.number, licence, name, player_total)
    columns = {column: line.text(column) for column in ENTRY_COLUMNS}
    entry = entries.get(number)
    if entry is None:
        if len(entries) == MAX_ENTRIES:
            line.report("entry", "too_many_items", f"At most {MAX_ENTRIES} entries are accepted.")
            return
        entries[number] = _Entry(
            line.number, number, columns, place, total, abandoned, tiebreak, [player]
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
        )
    if len(entry.players) == MAX_PLAYERS_PER_ENTRY:
        line.report(
            "entry",
            "too_many_items",
            f"At most {MAX_PLAYERS_PER_ENTRY} players are accepted in one entry.",
        )
    elif not line.failed:
        entry.players.append(player)


def _same_cell(column: str, first: str, other: str) -> bool:
    if column == "abandoned":
        return (first.lower() in _TRUE) == (other.lower() in _TRUE)
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


def _attach(
    line: _Line,
    who: dict[str, int | str | None],
    score: PositionScore,
    entries: dict[int, _Entry],
) -> None:
    entry = entries.get(who["entry"])  # type: ignore[arg-type]
    if entry is None:
        line.report(
            "entry",
            "position_entry_not_found",
            f"Line {line.number}: no player line has entry {who['entry']}.",
        )
        return
    if who["licence_number"] is not None:
        found = [p for p in entry.players if p.licence_number == who["licence_number"]]
        column, named = "licence_number", f"licence number {who['licence_number']}"
    elif who["name"]:
        wanted = str(who["name"]).casefold()
        found = [
            p for p in entry.players if p.licence_number is None and p.name.casefold() == wanted
        ]
        column, named = "name", f"the name {who['name']!r}"
    elif len(entry.players) == 1:
        found = entry.players
        column, named = "entry", "its only player"
    else:
        line.report(
            "licence_number",
            "position_player_ambiguous",
            f"Line {line.number}: entry {entry.number} has {len(entry.players)} players; give "
            f"the licence number (or, for a player without one, the name) of the player.",
        )
        return
    if len(found) != 1:
        line.report(
            column,
            "position_player_not_found",
            f"Line {line.number}: entry {entry.number} has no single player with {named}.",
        )
        return
    player = found[0]
    if len(player.positions) == MAX_POSITIONS_PER_PLAYER:
        line.report(
            "record",
            "too_many_items",
            f"At most {MAX_POSITIONS_PER_PLAYER} position scores per player are accepted.",
        )
        return
    player.positions.append((line.number, score))


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
            )
    reason = line.string("reason", maximum=MAX_REASON_LENGTH, required=True)
    if line.failed or licence is None or points is None or kind is None:
        return None
    return PenaltyRecord(licence_number=licence, points=points, kind=kind, reason=reason)


def _document(
    sessions: list[tuple[int, SessionResult]],
    entries: dict[int, _Entry],
    penalties: list[tuple[int, PenaltyRecord]],
) -> ResultsDocument:
    lines: dict[str, str] = {"sessions": "lines", "entries": "lines", "penalties": "lines"}
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
            )
        )
    return ResultsDocument(
        format_version=FORMAT_VERSION,
        sessions=tuple(session for _, session in sessions),
        entries=tuple(results),
        penalties=tuple(penalty for _, penalty in penalties),
        source=SourceMap(parts=lines),
    )


def write_csv(document: ResultsDocument, *, delimiter: str = ",") -> str:
    """``document`` in the CSV form :func:`parse_csv` reads (every column, in :data:`COLUMNS`).

    Lines come in the order sessions, players (each followed by its position
    scores), penalties.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(COLUMNS)

    def row(record: RecordType, **cells: object) -> None:
        writer.writerow([record.value if c == "record" else _cell(cells.get(c)) for c in COLUMNS])

    for session in document.sessions:
        row(
            RecordType.SESSION,
            session=session.number,
            tables=session.tables,
            tables_of_three=session.tables_of_three,
            deals=session.deals,
        )
    for entry in document.entries:
        tiebreak: dict[str, object] = {}
        if entry.tiebreak is not None:
            tiebreak = {
                "best_position_score": entry.tiebreak.best_position_score,
                **{c.value: entry.tiebreak.contracts_made.get(c, 0) for c in CONTRACTS},
            }
        for player in entry.players:
            row(
                RecordType.PLAYER,
                entry=entry.number,
                place=entry.place,
                entry_total=entry.total,
                abandoned=1 if entry.abandoned else 0,
                licence_number=player.licence_number,
                name=player.name,
                player_total=player.total,
                **tiebreak,
            )
            for score in player.positions:
                row(
                    RecordType.POSITION,
                    entry=entry.number,
                    licence_number=player.licence_number,
                    name=None if player.licence_number is not None else player.name,
                    session=score.session,
                    position=score.position,
                    table=score.table,
                    score=score.score,
                )
    for penalty in document.penalties:
        row(
            RecordType.PENALTY,
            licence_number=penalty.licence_number,
            points=penalty.points,
            kind=str(penalty.kind),
            reason=penalty.reason,
        )
    return buffer.getvalue()


def _cell(value: object) -> str:
    return "" if value is None else str(value)
