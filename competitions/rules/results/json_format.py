"""The JSON form of a results document (see ``docs/results-format.md``).

:func:`parse_json` reads bytes, text or an already decoded object and returns a
:class:`~competitions.rules.results.document.ResultsDocument`, or raises
:class:`~core.problems.RuleViolation` with every structural problem
(malformed JSON, missing or unknown field, wrong type, number out of range,
unknown penalty kind, too many items). What the results *mean* (places against
totals, table counts...) is checked afterwards by
:func:`competitions.rules.results.validation.validate`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.results import schema as shapes
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
from core import json_body
from core.problems import Problem, RuleViolation

T = TypeVar("T")

MISSING = object()
"""Marks a field absent from its object (``None`` is JSON's ``null``)."""

_Decoded = object
"""Any decoded JSON value, checked before use (inside ``JsonReader`` the name ``object``
is its method that reads a JSON object, so the class's annotations use this alias)."""


def _join(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def json_type(value: object) -> str:
    """The JSON name of a value's type (for a message in any language)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


_KIND_IN_WORDS = {
    "null": "null",
    "boolean": "a boolean",
    "integer": "a whole number",
    "number": "a decimal number",
    "string": "a string",
    "array": "an array",
    "object": "an object",
}


def _kind_of(value: object) -> str:
    """How a JSON value is called in a message (its :func:`json_type` in words)."""
    kind = json_type(value)
    return _KIND_IN_WORDS.get(kind, kind)


class JsonReader:
    """Reads decoded JSON values, collecting every problem instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def report(self, where: str, code: str, message: str, **params: object) -> None:
        self.problems.append(Problem(where, code, message, params))

    def object(
        self,
        value: _Decoded,
        where: str,
        *,
        required: Iterable[str],
        optional: Iterable[str] = (),
        what: str = "an object",
    ) -> dict[str, Any] | None:
        """``value`` if it is an object with every required key and no unknown one."""
        if not isinstance(value, dict):
            self.report(
                where or "document",
                "wrong_type",
                f"Expected {what} here, got {_kind_of(value)}.",
                expected="object",
                got=json_type(value),
            )
            return None
        required = tuple(required)
        known = set(required) | set(optional)
        for key in required:
            if key not in value:
                self.report(
                    _join(where, key),
                    "missing_field",
                    f"The field '{key}' is required.",
                    field=key,
                )
        for key in value:
            if key not in known:
                self.report(
                    _join(where, str(key)),
                    "unknown_field",
                    f"'{key}' is not a field here; the fields are: {', '.join(sorted(known))}.",
                    field=str(key),
                    fields=", ".join(sorted(known)),
                )
        return value

    def array(
        self, value: _Decoded, where: str, *, limit: int, what: str, optional: bool = False
    ) -> list[Any]:
        """``value`` if it is an array of at most ``limit`` items (else an empty list)."""
        if value is MISSING or (optional and value is None):
            return []
        if not isinstance(value, list):
            self.report(
                where,
                "wrong_type",
                f"Expected an array of {what}, got {_kind_of(value)}.",
                expected="array",
                got=json_type(value),
            )
            return []
        if len(value) > limit:
            self.report(
                where,
                "too_many_items",
                f"At most {limit} {what} are accepted in one document, got {len(value)}.",
                limit=limit,
            )
            return []
        return value

    def integer(
        self,
        value: _Decoded,
        where: str,
        *,
        minimum: int,
        maximum: int,
        nullable: bool = False,
    ) -> int | None:
        """``value`` if it is a whole number within [minimum, maximum]."""
        if value is MISSING or (nullable and value is None):
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                shown = f"{value!r} (write it without a decimal point)"
            else:
                shown = _kind_of(value)
            self.report(
                where,
                "not_an_integer",
                f"Expected a whole number, got {shown}.",
                value=repr(value) if isinstance(value, float | str) else json_type(value),
            )
            return None
        if value < minimum:
            code = "negative_number" if minimum == 0 else "number_too_small"
            self.report(
                where,
                code,
                f"Expected a number of at least {minimum}, got {value}.",
                minimum=minimum,
                value=value,
            )
            return None
        if value > maximum:
            self.report(
                where,
                "number_too_large",
                f"Expected a number of at most {maximum}, got {value}.",
                maximum=maximum,
                value=value,
            )
            return None
        return value

    def string(
        self, value: _Decoded, where: str, *, maximum: int, required: bool = False
    ) -> str | None:
        """``value`` trimmed and in Unicode NFC, if it is a string of at most ``maximum`` chars."""
        if value is MISSING or value is None:
            if required:
                self.report(where, "missing_field", "A non-empty text is required here.")
            return None if required else ""
        if not isinstance(value, str):
            self.report(
                where,
                "wrong_type",
                f"Expected a string, got {_kind_of(value)}.",
                expected="string",
                got=json_type(value),
            )
            return None
        text = unicodedata.normalize("NFC", value.strip())
        if len(text) > maximum:
            self.report(
                where,
                "text_too_long",
                f"At most {maximum} characters are accepted, got {len(text)}.",
                maximum=maximum,
                length=len(text),
            )
            return None
        if required and not text:
            self.report(where, "blank_text", "A non-empty text is required here.")
            return None
        return text

    def boolean(self, value: _Decoded, where: str, *, default: bool) -> bool | None:
        if value is MISSING or value is None:
            return default
        if not isinstance(value, bool):
            self.report(
                where,
                "wrong_type",
                f"Expected true or false, got {_kind_of(value)}.",
                expected="boolean",
                got=json_type(value),
            )
            return None
        return value

    def items(
        self, values: list[Any], where: str, read: Callable[[Any, str], T | None]
    ) -> tuple[T, ...] | None:
        """Each item read; ``None`` if any could not be."""
        results = [read(value, _join(where, i)) for i, value in enumerate(values)]
        if any(result is None for result in results):
            return None
        return tuple(results)  # type: ignore[arg-type]


def decode_json(data: bytes | str | dict[str, Any], *, what: str) -> dict[str, Any]:
    """``data`` as a decoded JSON object; raise RuleViolation if it is not valid JSON."""
    if isinstance(data, dict):
        json_body.check(data)  # decoded elsewhere (an API body): still no NUL, not too deep
        return data
    if isinstance(data, bytes | bytearray):
        if len(data) > MAX_DOCUMENT_BYTES:
            raise RuleViolation.single(
                "document",
                "document_too_large",
                f"A {what} may be at most {MAX_DOCUMENT_BYTES} bytes, got {len(data)}.",
                {"limit_mib": MAX_DOCUMENT_BYTES // (1024 * 1024), "size": len(data)},
            )
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise RuleViolation.single(
                "document",
                "not_utf8",
                f"The {what} is not UTF-8 text: byte {error.start} "
                f"(0x{data[error.start]:02x}) cannot be decoded. Save it as UTF-8.",
                {"byte": f"0x{data[error.start]:02x}"},
            ) from None
    elif isinstance(data, str):
        text = data.removeprefix("\ufeff")
        if len(text) > MAX_DOCUMENT_BYTES:
            raise RuleViolation.single(
                "document",
                "document_too_large",
                f"A {what} may be at most {MAX_DOCUMENT_BYTES} characters, got {len(text)}.",
                {"limit_mib": MAX_DOCUMENT_BYTES // (1024 * 1024), "size": len(text)},
            )
    else:
        raise RuleViolation.single(
            "document",
            "wrong_type",
            f"A {what} is JSON text or a decoded JSON object, not {type(data).__name__}.",
            {"expected": "object", "got": type(data).__name__},
        )
    decoded = json_body.loads(text, what=what)  # depth, duplicate keys, NUL refused
    if not isinstance(decoded, dict):
        raise RuleViolation.single(
            "document",
            "wrong_type",
            f"A {what} is a JSON object, not {_kind_of(decoded)}.",
            {"expected": "object", "got": json_type(decoded)},
        )
    return decoded


def parse_json(data: bytes | str | dict[str, Any]) -> ResultsDocument:
    """Read a results document in its JSON form; raise RuleViolation with every problem."""
    return read_json(data).document_or_raise()


def read_json(data: bytes | str | dict[str, Any]) -> Reading:
    """Read a results document as far as it can be read: the sessions, entries and
    penalties that could be (the others left out, their problems reported, the document
    locating what is left as it was sent)."""
    try:
        root = decode_json(data, what="results document")
    except RuleViolation as refused:
        return Reading(None, refused.problems)
    reader = JsonReader()
    document = _read_document(reader, root)
    return Reading(document, tuple(reader.problems))


def _read_document(reader: JsonReader, root: dict[str, Any]) -> ResultsDocument | None:
    if "score_sheets" in root:
        reader.report(
            "score_sheets",
            "score_sheets_not_expected",
            "This document carries score sheets: submit it as score sheets, not as results.",
        )
        return None
    obj = reader.object(
        root,
        "",
        required=shapes.RESULTS_DOCUMENT.required,
        optional=shapes.RESULTS_DOCUMENT.optional,
        what="a results document",
    )
    if obj is None:
        return None
    version = obj.get("format_version", MISSING)
    if version is not MISSING and (isinstance(version, bool) or version != FORMAT_VERSION):
        reader.report(
            "format_version",
            "unsupported_format_version",
            f"Only format_version {FORMAT_VERSION} is supported, got {version!r}.",
            version=repr(version),
            supported=FORMAT_VERSION,
        )
    before = len(reader.problems)
    raw_sessions = reader.array(
        obj.get("sessions", MISSING), "sessions", limit=MAX_SESSIONS, what="sessions"
    )
    sessions_gap = len(reader.problems) > before or "sessions" not in obj
    sessions = _readable(
        raw_sessions, "sessions", lambda value, where: read_session(reader, value, where)
    )
    before = len(reader.problems)
    raw_entries = reader.array(
        obj.get("entries", MISSING), "entries", limit=MAX_ENTRIES, what="entries"
    )
    entries_gap = len(reader.problems) > before or "entries" not in obj
    entries = _readable(
        raw_entries, "entries", lambda value, where: _read_entry(reader, value, where)
    )
    before = len(reader.problems)
    raw_penalties = reader.array(
        obj.get("penalties", MISSING), "penalties", limit=MAX_PENALTIES, what="penalties",
        optional=True,
    )  # fmt: skip
    penalties_gap = len(reader.problems) > before
    penalties = _readable(
        raw_penalties, "penalties", lambda value, where: _read_penalty(reader, value, where)
    )
    unread_entries = [raw_entries[i] for i in range(len(raw_entries)) if i not in entries]
    numbers = [
        entry["number"]
        for entry in unread_entries
        if isinstance(entry, dict) and type(entry.get("number")) is int
    ]
    gaps = Gaps(
        sessions=sessions_gap or len(sessions) < len(raw_sessions),
        entries=frozenset(numbers),
        unnumbered_entry=entries_gap or len(numbers) < len(unread_entries),
        penalties=penalties_gap or len(penalties) < len(raw_penalties),
    )
    parts = {
        f"{name}[{k}]": f"{name}[{i}]"
        for name, read in (("sessions", sessions), ("entries", entries), ("penalties", penalties))
        for k, i in enumerate(read)
    }
    return ResultsDocument(
        format_version=FORMAT_VERSION,
        sessions=tuple(sessions.values()),
        entries=tuple(entries.values()),
        penalties=tuple(penalties.values()),
        source=SourceMap(parts=parts, renumbered=True) if gaps.any else None,
        gaps=gaps,
    )


def _readable(values: list[Any], where: str, read: Callable[[Any, str], T | None]) -> dict[int, T]:
    """The items that could be read, by their index as sent."""
    found = {}
    for i, value in enumerate(values):
        item = read(value, _join(where, i))
        if item is not None:
            found[i] = item
    return found


def read_session(reader: JsonReader, value: object, where: str) -> SessionResult | None:
    obj = reader.object(
        value,
        where,
        required=shapes.SESSION.required,
        optional=shapes.SESSION.optional,
        what="a session",
    )
    if obj is None:
        return None
    before = len(reader.problems)
    cuts = reader.items(
        reader.array(
            obj.get("cuts", MISSING),
            f"{where}.cuts",
            limit=MAX_POSITIONS_PER_PLAYER,
            what="cuts between positions",
            optional=True,
        ),
        f"{where}.cuts",
        lambda item, at: _read_cut(reader, item, at),
    )
    divisor = reader.integer(
        obj.get("points_divisor", 1), f"{where}.points_divisor", minimum=1, maximum=MAX_COUNT
    )
    entries = reader.items(
        reader.array(
            obj.get("entries", MISSING),
            f"{where}.entries",
            limit=MAX_ENTRIES,
            what="entries of the session",
            optional=True,
        ),
        f"{where}.entries",
        lambda item, at: _read_session_entry(reader, item, at),
    )
    number = reader.integer(obj.get("number", MISSING), f"{where}.number", minimum=1, maximum=99)
    tables = reader.integer(
        obj.get("tables", MISSING), f"{where}.tables", minimum=0, maximum=MAX_COUNT
    )
    three = reader.integer(
        obj.get("tables_of_three", 0), f"{where}.tables_of_three", minimum=0, maximum=MAX_COUNT
    )
    deals = reader.integer(
        obj.get("deals", MISSING), f"{where}.deals", minimum=0, maximum=MAX_COUNT
    )
    five = reader.integer(
        obj.get("tables_of_five", 0), f"{where}.tables_of_five", minimum=0, maximum=MAX_COUNT
    )
    if number is None or tables is None or three is None or deals is None or five is None:
        return None
    if len(reader.problems) > before or divisor is None or entries is None or cuts is None:
        return None
    return SessionResult(
        number=number,
        tables=tables,
        tables_of_three=three,
        deals=deals,
        tables_of_five=five,
        points_divisor=divisor,
        entries=entries,
        cuts=cuts,
    )


def _read_cut(reader: JsonReader, value: object, where: str) -> PositionCut | None:
    """A cut between two positions of a session (eliminations within a session)."""
    obj = reader.object(
        value,
        where,
        required=shapes.POSITION_CUT.required,
        optional=shapes.POSITION_CUT.optional,
        what="a cut between positions",
    )
    if obj is None:
        return None
    before = len(reader.problems)
    after = reader.integer(
        obj.get("after_position", MISSING), f"{where}.after_position", minimum=1, maximum=MAX_COUNT
    )
    tables = reader.integer(
        obj.get("tables", MISSING), f"{where}.tables", minimum=0, maximum=MAX_COUNT
    )
    three = reader.integer(
        obj.get("tables_of_three", 0), f"{where}.tables_of_three", minimum=0, maximum=MAX_COUNT
    )
    divisor = reader.integer(
        obj.get("points_divisor", 1), f"{where}.points_divisor", minimum=1, maximum=MAX_COUNT
    )
    entries = reader.items(
        reader.array(
            obj.get("entries", MISSING), f"{where}.entries", limit=MAX_ENTRIES, what="entries"
        ),
        f"{where}.entries",
        lambda item, at: _read_session_entry(reader, item, at),
    )
    if len(reader.problems) > before or entries is None:
        return None
    if after is None or tables is None or three is None or divisor is None:
        return None
    return PositionCut(
        after_position=after,
        tables=tables,
        entries=entries,
        tables_of_three=three,
        points_divisor=divisor,
    )


def _read_session_entry(reader: JsonReader, value: object, where: str) -> SessionEntry | None:
    obj = reader.object(
        value,
        where,
        required=shapes.SESSION_ENTRY.required,
        optional=shapes.SESSION_ENTRY.optional,
        what="an entry of the session",
    )
    if obj is None:
        return None
    number = reader.integer(
        obj.get("number", MISSING), f"{where}.number", minimum=1, maximum=MAX_LICENCE_NUMBER
    )
    score = reader.integer(
        obj.get("score", MISSING), f"{where}.score", minimum=-MAX_SCORE, maximum=MAX_SCORE
    )
    carried = reader.integer(
        obj.get("carried", 0), f"{where}.carried", minimum=-MAX_SCORE, maximum=MAX_SCORE
    )
    if number is None or score is None or carried is None:
        return None
    return SessionEntry(number=number, score=score, carried=carried)


def _read_entry(reader: JsonReader, value: object, where: str) -> EntryResult | None:
    before = len(reader.problems)
    obj = reader.object(
        value,
        where,
        required=shapes.ENTRY.required,
        optional=shapes.ENTRY.optional,
        what="an entry",
    )
    if obj is None:
        return None
    number = reader.integer(
        obj.get("number", MISSING), f"{where}.number", minimum=1, maximum=MAX_LICENCE_NUMBER
    )
    place = reader.integer(
        obj.get("place", MISSING), f"{where}.place", minimum=1, maximum=MAX_ENTRIES
    )
    total = reader.integer(
        obj.get("total", MISSING), f"{where}.total", minimum=-MAX_SCORE, maximum=MAX_SCORE
    )
    abandoned = reader.boolean(obj.get("abandoned", MISSING), f"{where}.abandoned", default=False)
    accord = obj.get("arbiter_accord")
    if accord is not None and not isinstance(accord, bool):
        reader.boolean(accord, f"{where}.arbiter_accord", default=False)  # reports it
    players = reader.items(
        reader.array(
            obj.get("players", MISSING),
            f"{where}.players",
            limit=MAX_PLAYERS_PER_ENTRY,
            what="players",
        ),
        f"{where}.players",
        lambda item, at: _read_player(reader, item, at),
    )
    tiebreak_value = obj.get("tiebreak")
    tiebreak = None
    if tiebreak_value is not None:
        tiebreak = _read_tiebreak(reader, tiebreak_value, f"{where}.tiebreak")
    if len(reader.problems) > before or number is None or place is None or total is None:
        return None
    if abandoned is None or players is None:
        return None
    return EntryResult(
        number=number,
        place=place,
        total=total,
        players=players,
        abandoned=abandoned,
        tiebreak=tiebreak,
        arbiter_accord=accord,
    )


def _read_player(reader: JsonReader, value: object, where: str) -> PlayerResult | None:
    before = len(reader.problems)
    obj = reader.object(
        value,
        where,
        required=shapes.PLAYER.required,
        optional=shapes.PLAYER.optional,
        what="a player",
    )
    if obj is None:
        return None
    licence = reader.integer(
        obj.get("licence_number", MISSING),
        f"{where}.licence_number",
        minimum=1,
        maximum=MAX_LICENCE_NUMBER,
        nullable=True,
    )
    name = reader.string(obj.get("name"), f"{where}.name", maximum=MAX_NAME_LENGTH)
    if obj.get("licence_number", MISSING) is None and name == "":
        reader.report(
            f"{where}.name",
            "unidentified_player",
            "A player without a licence number must be named.",
        )
    total = reader.integer(
        obj.get("total"), f"{where}.total", minimum=-MAX_SCORE, maximum=MAX_SCORE, nullable=True
    )
    values = reader.array(
        obj.get("positions", MISSING),
        f"{where}.positions",
        limit=MAX_POSITIONS_PER_PLAYER,
        what="position scores",
        optional=True,
    )
    positions = _positions_fast(values)
    if positions is None:  # some score needs the reader (and its problems, located)
        positions = reader.items(
            values,
            f"{where}.positions",
            lambda item, at: read_position(reader, item, at),
        )
    if len(reader.problems) > before or name is None or positions is None:
        return None
    return PlayerResult(licence_number=licence, name=name, total=total, positions=positions)


_POSITION_FIELDS = frozenset(shapes.POSITION.required)


def _position_fast(value: object) -> PositionScore | None:
    """A position score in the common case — an object of exactly the four integer fields,
    each in its range — read without building a path; else ``None`` (the slow reader then
    says what is wrong)."""
    if type(value) is not dict or value.keys() != _POSITION_FIELDS:
        return None
    session, position = value["session"], value["position"]
    table, score = value["table"], value["score"]
    if (
        type(session) is int
        and type(position) is int
        and type(table) is int
        and type(score) is int
        and 1 <= session <= 99
        and 1 <= position <= MAX_COUNT
        and 1 <= table <= MAX_COUNT
        and -MAX_SCORE <= score <= MAX_SCORE
    ):
        return PositionScore(session, position, table, score)
    return None


def _positions_fast(values: list[Any]) -> tuple[PositionScore, ...] | None:
    """A player's position scores when every one is read by :func:`_position_fast` (the
    same scores, no path built for each); else ``None``."""
    scores = []
    for value in values:
        score = _position_fast(value)
        if score is None:
            return None
        scores.append(score)
    return tuple(scores)


def read_position(reader: JsonReader, value: object, where: str) -> PositionScore | None:
    fast = _position_fast(value)  # the common case
    if fast is not None:
        return fast
    obj = reader.object(
        value,
        where,
        required=shapes.POSITION.required,
        what="a position score",
    )
    if obj is None:
        return None
    session = reader.integer(obj.get("session", MISSING), f"{where}.session", minimum=1, maximum=99)
    position = reader.integer(
        obj.get("position", MISSING), f"{where}.position", minimum=1, maximum=MAX_COUNT
    )
    table = reader.integer(
        obj.get("table", MISSING), f"{where}.table", minimum=1, maximum=MAX_COUNT
    )
    score = reader.integer(
        obj.get("score", MISSING), f"{where}.score", minimum=-MAX_SCORE, maximum=MAX_SCORE
    )
    if session is None or position is None or table is None or score is None:
        return None
    return PositionScore(session=session, position=position, table=table, score=score)


def _read_tiebreak(reader: JsonReader, value: object, where: str) -> TieBreakData | None:
    obj = reader.object(
        value,
        where,
        required=shapes.TIEBREAK.required,
        optional=shapes.TIEBREAK.optional,
        what="tie-break data",
    )
    if obj is None:
        return None
    before = len(reader.problems)
    best = reader.integer(
        obj.get("best_position_score"),
        f"{where}.best_position_score",
        minimum=-MAX_SCORE,
        maximum=MAX_SCORE,
        nullable=True,
    )
    counts = {}
    contracts = obj.get("contracts_made", {})
    if contracts is None:
        contracts = {}
    if not isinstance(contracts, dict):
        reader.report(
            f"{where}.contracts_made",
            "wrong_type",
            f"Expected an object counting contracts made, got {_kind_of(contracts)}.",
            expected="object",
            got=json_type(contracts),
        )
    else:
        names = {contract.value: contract for contract in CONTRACTS}
        for key, count in contracts.items():
            at = f"{where}.contracts_made.{key}"
            if key not in names:
                reader.report(
                    at,
                    "unknown_contract",
                    f"'{key}' is not a contract; the contracts are {', '.join(names)}.",
                    value=str(key),
                    contracts=", ".join(names),
                )
                continue
            number = reader.integer(count, at, minimum=0, maximum=MAX_COUNT)
            if number is not None:
                counts[names[key]] = number
    if len(reader.problems) > before:
        return None
    return TieBreakData(best_position_score=best, contracts_made=counts)


def read_penalties(reader: JsonReader, value: object) -> tuple[PenaltyRecord, ...] | None:
    return reader.items(
        reader.array(value, "penalties", limit=MAX_PENALTIES, what="penalties", optional=True),
        "penalties",
        lambda item, where: _read_penalty(reader, item, where),
    )


def _read_penalty(reader: JsonReader, value: object, where: str) -> PenaltyRecord | None:
    obj = reader.object(
        value,
        where,
        required=shapes.PENALTY.required,
        what="a penalty",
    )
    if obj is None:
        return None
    licence = reader.integer(
        obj.get("licence_number", MISSING),
        f"{where}.licence_number",
        minimum=1,
        maximum=MAX_LICENCE_NUMBER,
    )
    points = reader.integer(
        obj.get("points", MISSING), f"{where}.points", minimum=0, maximum=MAX_SCORE
    )
    kind = penalty_kind(reader, obj.get("kind", MISSING), f"{where}.kind")
    reason = reader.string(
        obj.get("reason", MISSING), f"{where}.reason", maximum=MAX_REASON_LENGTH, required=True
    )
    if licence is None or points is None or kind is None or reason is None:
        return None
    return PenaltyRecord(licence_number=licence, points=points, kind=kind, reason=reason)


def penalty_kind(reader: JsonReader, value: object, where: str) -> PenaltyKind | None:
    """``value`` as a kind of the penalty catalogue (chapter 4 and article 26)."""
    if value is MISSING:
        return None
    if isinstance(value, str):
        try:
            return PenaltyKind(value.strip())
        except ValueError:
            pass
    reader.report(
        where,
        "unknown_penalty_kind",
        f"{value!r} is not a kind of penalty; the kinds are: "
        f"{', '.join(kind.value for kind in PenaltyKind)}.",
        value=str(value),
        kinds=", ".join(kind.value for kind in PenaltyKind),
    )
    return None
