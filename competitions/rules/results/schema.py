"""The shape of the JSON results documents, declared once as data.

Each object of a document is a :class:`Shape`: its fields, which are required, and the
JSON Schema of each field's value, its bounds taken from ``document.py``'s limits. The
readers take their required and optional keys from these shapes
(:mod:`~competitions.rules.results.json_format`,
:mod:`~competitions.rules.results.score_sheets`), and the published schemas are built
from them:

- :func:`json_schema` — a standalone JSON Schema (draft 2020-12) of the results document
  (:data:`RESULTS_DOCUMENT`) or of the score sheets document (:data:`SCORE_SHEETS_DOCUMENT`);
- :func:`openapi_components` — the same shapes as OpenAPI 3.0 components (``nullable``,
  ``#/components/schemas/…``), which the API's schema serves.

A document the schema refuses the reader refuses too, and a document the reader refuses
for its structure the schema refuses (``tests/competitions/rules/test_results_schema.py``),
with three differences the schema cannot express: the reader trims texts and puts them in
Unicode NFC before measuring them (and reads a penalty's kind trimmed), it refuses a whole
number written with a decimal point (``12.0``, which JSON Schema takes for an integer), and
the limits of every JSON body (depth, a key given twice, NUL) are the parser's
(``core/json_body.py``). What the results *mean* (places against totals, tables that
balance, the deals' facts) is checked afterwards and is no part of the schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.engine.scoring import Contract, Side
from competitions.rules.engine.tables import Orientation
from competitions.rules.results.document import (
    FORMAT_VERSION,
    MAX_COUNT,
    MAX_ENTRIES,
    MAX_LICENCE_NUMBER,
    MAX_NAME_LENGTH,
    MAX_PENALTIES,
    MAX_PLAYERS_PER_ENTRY,
    MAX_POSITIONS_PER_PLAYER,
    MAX_REASON_LENGTH,
    MAX_SCORE,
    MAX_SESSIONS,
)

Schema = dict[str, Any]

MAX_SHEETS = 20_000
MAX_DEALS_PER_SHEET = 60
MAX_DECLARED_SESSIONS = 99
TOTAL_POINTS = 91  # the 78 cards' points (chapter 1)
TOTAL_TRUMPS = 22  # the 21 trumps and the excuse

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_DEFS = "#/$defs/"
_COMPONENTS = "#/components/schemas/"


# The JSON Schema of a field's value (draft 2020-12; ``openapi_components`` converts).


def integer(minimum: int, maximum: int | None = None, *, nullable: bool = False) -> Schema:
    schema: Schema = {"type": ["integer", "null"] if nullable else "integer", "minimum": minimum}
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def score(*, nullable: bool = False) -> Schema:
    return integer(-MAX_SCORE, MAX_SCORE, nullable=nullable)


def text(
    max_length: int | None = None, *, non_blank: bool = False, nullable: bool = False
) -> Schema:
    schema: Schema = {"type": ["string", "null"] if nullable else "string"}
    if max_length is not None:
        schema["maxLength"] = max_length
    if non_blank:
        schema["pattern"] = r"\S"
    return schema


def boolean(*, nullable: bool = False) -> Schema:
    return {"type": ["boolean", "null"] if nullable else "boolean"}


def choice(values: Iterator[str] | tuple[str, ...], *, nullable: bool = False) -> Schema:
    names = [*values]
    if nullable:
        return {"type": ["string", "null"], "enum": [*names, None]}
    return {"type": "string", "enum": names}


def array(items: Schema, max_items: int | None = None, *, nullable: bool = False) -> Schema:
    schema: Schema = {"type": ["array", "null"] if nullable else "array", "items": items}
    if max_items is not None:
        schema["maxItems"] = max_items
    return schema


def ref(shape: Shape, *, nullable: bool = False) -> Schema:
    target = {"$ref": _DEFS + shape.name}
    return {"anyOf": [target, {"type": "null"}]} if nullable else target


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: Schema
    description: str
    required: bool = False


@dataclass(frozen=True, slots=True)
class Shape:
    """One JSON object of a document: its fields (no other key is accepted)."""

    name: str
    description: str
    fields: tuple[Field, ...]
    rules: tuple[Schema, ...] = ()  # more conditions on the whole object (``allOf``)
    values: Schema | None = None  # a map (keys → this value) rather than fixed fields
    keys: tuple[str, ...] = ()  # a map's keys

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(field.name for field in self.fields if field.required)

    @property
    def optional(self) -> tuple[str, ...]:
        return tuple(field.name for field in self.fields if not field.required)

    def object_schema(self) -> Schema:
        if self.values is not None:
            return {
                "type": "object",
                "description": self.description,
                "propertyNames": {"enum": list(self.keys)},
                "additionalProperties": self.values,
            }
        schema: Schema = {
            "type": "object",
            "description": self.description,
            "properties": {
                field.name: {**field.value, "description": field.description}
                if "$ref" not in field.value
                else {"allOf": [field.value], "description": field.description}
                for field in self.fields
            },
            "additionalProperties": False,
        }
        if self.required:
            schema["required"] = list(self.required)
        if self.rules:
            schema["allOf"] = list(self.rules)
        return schema


def _named_player_rule() -> Schema:
    """A player without licence number (``null``) is named: a name with a letter in it."""
    return {
        "anyOf": [
            {"properties": {"licence_number": {"type": "integer"}}},
            {"required": ["name"], "properties": {"name": {"type": "string", "pattern": r"\S"}}},
        ]
    }


_LICENCE = integer(1, MAX_LICENCE_NUMBER)
_ENTRY_NUMBER = integer(1, MAX_LICENCE_NUMBER)
_SESSION_NUMBER = integer(1, 99)
_FORMAT_VERSION: Schema = {"type": "integer", "enum": [FORMAT_VERSION]}
_SEATS = tuple(seat.value for seat in Orientation)
_SIDES = tuple(side.value for side in Side)

_ARBITER_ACCORD = Field(
    "arbiter_accord",
    boolean(nullable=True),
    "For an entry that abandoned: with the arbiter's accord (true) or without (false: a "
    "12-month suspension is proposed); null: not said.",
)

SESSION_ENTRY = Shape(
    "ResultsSessionEntry",
    "With eliminations: an entry that plays the session.",
    (
        Field("number", _ENTRY_NUMBER, "The entry's number.", required=True),
        Field("score", score(), "Its score in the session, before penalties.", required=True),
        Field("carried", score(), "The score carried in from the previous session (0)."),
    ),
)

POSITION_CUT = Shape(
    "ResultsPositionCut",
    "With eliminations between positions: a cut after a position of the session, the "
    "entries that play on and the divisor of the scores they carry past it.",
    (
        Field(
            "after_position",
            integer(1, MAX_COUNT),
            "The last position played before the cut.",
            required=True,
        ),
        Field("tables", integer(0, MAX_COUNT), "Tables that seat the entries.", required=True),
        Field(
            "entries",
            array(ref(SESSION_ENTRY), MAX_ENTRIES),
            "The entries that play on: their score after the cut and what they carry in.",
            required=True,
        ),
        Field("tables_of_three", integer(0, MAX_COUNT), "Of the tables, tables of 3 (0)."),
        Field(
            "points_divisor",
            integer(1, MAX_COUNT),
            "The scores carried past the cut are divided by it (1).",
        ),
    ),
)

SESSION = Shape(
    "ResultsSession",
    "A session (séance) played.",
    (
        Field("number", _SESSION_NUMBER, "1, 2, … without gaps.", required=True),
        Field("tables", integer(0, MAX_COUNT), "Tables that played the session.", required=True),
        Field("deals", integer(0, MAX_COUNT), "Deals played by a table.", required=True),
        Field("tables_of_three", integer(0, MAX_COUNT), "Of the tables, tables of 3 (0)."),
        Field(
            "tables_of_five", integer(0, MAX_COUNT), "Of the tables, tables of 5 with a mort (0)."
        ),
        Field(
            "points_divisor",
            integer(1, MAX_COUNT),
            "With eliminations: the carried scores are divided by it (1).",
        ),
        Field(
            "entries",
            array(ref(SESSION_ENTRY), MAX_ENTRIES, nullable=True),
            "With eliminations: the entries that play this session (for every session or none).",
        ),
        Field(
            "cuts",
            array(ref(POSITION_CUT), MAX_POSITIONS_PER_PLAYER, nullable=True),
            "With eliminations between positions: the session's cuts, in order.",
        ),
    ),
)

POSITION = Shape(
    "ResultsPositionScore",
    "A player's score (bilan) at one position.",
    (
        Field("session", _SESSION_NUMBER, "The session.", required=True),
        Field("position", integer(1, MAX_COUNT), "The position.", required=True),
        Field(
            "table",
            integer(1, MAX_COUNT),
            "The table, numbered across the tournament.",
            required=True,
        ),
        Field("score", score(), "The player's bilan at that table.", required=True),
    ),
)

PLAYER = Shape(
    "ResultsPlayer",
    "A player of an entry; without licence number (null), named.",
    (
        Field(
            "licence_number",
            integer(1, MAX_LICENCE_NUMBER, nullable=True),
            "The licence number; null for a player without one (ranked, no points).",
            required=True,
        ),
        Field(
            "name",
            text(MAX_NAME_LENGTH, nullable=True),
            "The name (required without licence number).",
        ),
        Field("total", score(nullable=True), "The player's total after his penalties."),
        Field(
            "positions",
            array(ref(POSITION), MAX_POSITIONS_PER_PLAYER, nullable=True),
            "The player's score at each position.",
        ),
    ),
    rules=(_named_player_rule(),),
)

CONTRACTS_MADE = Shape(
    "ResultsContractsMade",
    "Contracts made by the entry's players as takers, by contract (missing: 0).",
    tuple(
        Field(contract.value, integer(0, MAX_COUNT), f"Contracts « {contract.value} » made.")
        for contract in Contract
    ),
)

TIEBREAK = Shape(
    "ResultsTieBreak",
    "The entry's figures for article 29.",
    (
        Field(
            "best_position_score",
            score(nullable=True),
            "The best score on one position (computed from the positions when null).",
        ),
        Field("contracts_made", ref(CONTRACTS_MADE, nullable=True), "Contracts made, by contract."),
    ),
)

ENTRY = Shape(
    "ResultsEntry",
    "An entry of the final ranking: a player, a duo or a team of 4.",
    (
        Field("number", _ENTRY_NUMBER, "The entry's number in the tournament.", required=True),
        Field("place", integer(1, MAX_ENTRIES), "Its final place (1224).", required=True),
        Field("total", score(), "Its total after penalties.", required=True),
        Field(
            "players",
            array(ref(PLAYER), MAX_PLAYERS_PER_ENTRY),
            "Its players (1, 2 or 4).",
            required=True,
        ),
        Field("abandoned", boolean(nullable=True), "Left before the end (article 27; false)."),
        _ARBITER_ACCORD,
        Field("tiebreak", ref(TIEBREAK, nullable=True), "Its article 29 figures."),
    ),
)

PENALTY = Shape(
    "ResultsPenalty",
    "A penalty in points recorded by the arbiter (already counted in the totals).",
    (
        Field("licence_number", _LICENCE, "The player hit.", required=True),
        Field("points", integer(0, MAX_SCORE), "Points taken off (0: a warning).", required=True),
        Field(
            "kind",
            choice(kind.value for kind in PenaltyKind),
            "The kind, from the penalty catalogue.",
            required=True,
        ),
        Field("reason", text(MAX_REASON_LENGTH, non_blank=True), "Why.", required=True),
    ),
)

_PENALTIES = Field(
    "penalties",
    array(ref(PENALTY), MAX_PENALTIES, nullable=True),
    "The penalties recorded by the arbiter ([]).",
)

RESULTS_DOCUMENT = Shape(
    "ResultsDocument",
    "A tournament's results: its sessions, its final ranking and its penalties "
    "(docs/results-format.md).",
    (
        Field("format_version", _FORMAT_VERSION, f"{FORMAT_VERSION}.", required=True),
        Field("sessions", array(ref(SESSION), MAX_SESSIONS), "The sessions played.", required=True),
        Field("entries", array(ref(ENTRY), MAX_ENTRIES), "The final ranking.", required=True),
        _PENALTIES,
    ),
)

# The score sheets document (deal by deal).

SHEET_PLAYER = Shape(
    "ScoreSheetsPlayer",
    "A player of an entry; without licence number (null), named as the sheets seat him.",
    (
        Field(
            "licence_number",
            integer(1, MAX_LICENCE_NUMBER, nullable=True),
            "The licence number; null for a player without one.",
            required=True,
        ),
        Field(
            "name",
            text(MAX_NAME_LENGTH, nullable=True),
            "The name (required without licence number).",
        ),
    ),
    rules=(_named_player_rule(),),
)

SHEET_ENTRY = Shape(
    "ScoreSheetsEntry",
    "Who makes an entry (required for duo and team4 tournaments).",
    (
        Field("number", _ENTRY_NUMBER, "The entry's number.", required=True),
        Field(
            "players",
            array(ref(SHEET_PLAYER), MAX_PLAYERS_PER_ENTRY),
            "Its players.",
            required=True,
        ),
        Field("abandoned", boolean(nullable=True), "Left before the end (article 27; false)."),
        _ARBITER_ACCORD,
    ),
)

SEATS = Shape(
    "ScoreSheetSeats",
    "The player at each seat (N, S, E, W; 5 at a table of 5): a licence number, or the "
    "name of a player without one.",
    (),
    values={"anyOf": [_LICENCE, text(non_blank=True)]},
    keys=_SEATS,
)

MARKS = Shape(
    "ScoreSheetMarks",
    "Each seat's signed mark, as written on the sheet.",
    (),
    values={"type": "integer"},
    keys=_SEATS,
)

POIGNEE = Shape(
    "ScoreSheetPoignee",
    "A poignée shown.",
    (
        Field("seat", choice(_SEATS), "Who showed it.", required=True),
        Field("trumps", integer(0, TOTAL_TRUMPS), "Trumps shown.", required=True),
    ),
)

DEAL_FACTS = (
    "contract",
    "taker",
    "called_partner",
    "oudlers",
    "attack_points",
    "poignees",
    "petit_au_bout",
    "chelem_announced",
    "chelem_made_by",
)

REVOKE = Shape(
    "ScoreSheetDefenceRevoke",
    "A revoke in defence (renonce consommée en défense) and the taker's choice (chapter 4).",
    (
        Field(
            "taker_choice",
            choice(("scored", "not_scored")),
            "scored: the deal is scored as usual; not_scored: it marks 0 and is not a deal played.",
            required=True,
        ),
        Field("by", choice(_SEATS, nullable=True), "The defender who revoked."),
    ),
)

DEAL = Shape(
    "ScoreSheetDeal",
    "One line of the sheet: the deal's facts (from `contract` on), the marks as written, "
    "or both (they must agree).",
    (
        Field(
            "contract", choice((c.value for c in Contract), nullable=True), "null: everyone passed."
        ),
        Field("taker", choice(_SEATS, nullable=True), "The taker's seat."),
        Field("called_partner", choice(_SEATS, nullable=True), "At 5 players: the called partner."),
        Field("oudlers", integer(0, 3, nullable=True), "Oudlers in the attack's tricks."),
        Field(
            "attack_points",
            {"type": ["number", "null"], "minimum": 0, "maximum": TOTAL_POINTS, "multipleOf": 0.5},
            "Points in the attack's tricks (a half point at 3 and 5 players).",
        ),
        Field("poignees", array(ref(POIGNEE), nullable=True), "Poignées shown."),
        Field(
            "petit_au_bout", choice(_SIDES, nullable=True), "The side that took the petit au bout."
        ),
        Field("chelem_announced", boolean(nullable=True), "Chelem announced by the taker (false)."),
        Field("chelem_made_by", choice(_SIDES, nullable=True), "The side that took every trick."),
        Field("marks", ref(MARKS, nullable=True), "The marks as written."),
        Field("sitting_out", choice(_SEATS, nullable=True), "At a table of 5: the mort's seat."),
        Field("annulled", boolean(nullable=True), "Annulled by the arbiter (false)."),
        Field(
            "defence_revoke",
            ref(REVOKE, nullable=True),
            "A revoke in defence and the taker's choice.",
        ),
    ),
    rules=(  # a fact given names the contract
        {
            "anyOf": [
                {"required": ["contract"]},
                {"not": {"anyOf": [{"required": [f]} for f in DEAL_FACTS]}},
            ]
        },
    ),
)

SHEET = Shape(
    "ScoreSheet",
    "A table's feuille de marque for one position.",
    (
        Field("session", _SESSION_NUMBER, "The session.", required=True),
        Field("position", integer(1), "The position.", required=True),
        Field("table", integer(1), "The table.", required=True),
        Field("players", ref(SEATS), "Who sat where.", required=True),
        Field("deals", array(ref(DEAL), MAX_DEALS_PER_SHEET), "One line per deal.", required=True),
    ),
)

DECLARED_SESSION = Shape(
    "ScoreSheetsSession",
    "The deals the organiser declares for a session (the sheets decide).",
    (
        Field("number", _SESSION_NUMBER, "The session.", required=True),
        Field("deals", integer(0, MAX_COUNT), "Its deals played.", required=True),
    ),
)

SHEET_CUT = Shape(
    "ScoreSheetsCut",
    "With eliminations: a cut before a session or after one of its positions; the entries "
    "seated after it play on, carrying their score divided by its divisor.",
    (
        Field("session", _SESSION_NUMBER, "The session.", required=True),
        Field(
            "after_position",
            integer(0, MAX_COUNT),
            "The position it follows (0 or absent: before the session).",
        ),
        Field("points_divisor", integer(1, MAX_COUNT), "The divisor of the carried scores (1)."),
    ),
)

SCORE_SHEETS_DOCUMENT = Shape(
    "ScoreSheetsDocument",
    "A tournament's results as its score sheets, deal by deal (docs/results-format.md); "
    "sent with `source=sheets`.",
    (
        Field("format_version", _FORMAT_VERSION, f"{FORMAT_VERSION}.", required=True),
        Field(
            "score_sheets",
            array(ref(SHEET), MAX_SHEETS),
            "One sheet per table per position.",
            required=True,
        ),
        Field(
            "entries",
            array(ref(SHEET_ENTRY), MAX_ENTRIES, nullable=True),
            "Who makes each entry (required for duo and team4).",
        ),
        _PENALTIES,
        Field(
            "sessions",
            array(ref(DECLARED_SESSION), MAX_DECLARED_SESSIONS, nullable=True),
            "The deals declared for each session.",
        ),
        Field(
            "cuts",
            array(ref(SHEET_CUT), MAX_SHEETS, nullable=True),
            "With eliminations: every cut, between sessions or positions (optional part).",
        ),
    ),
)

DOCUMENTS = (RESULTS_DOCUMENT, SCORE_SHEETS_DOCUMENT)


def _references(schema: object) -> Iterator[str]:
    if isinstance(schema, dict):
        target = schema.get("$ref")
        if isinstance(target, str) and target.startswith(_DEFS):
            yield target.removeprefix(_DEFS)
        for value in schema.values():
            yield from _references(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _references(value)


_SHAPES: Mapping[str, Shape] = {
    shape.name: shape
    for shape in (
        SESSION_ENTRY, POSITION_CUT, SESSION, POSITION, PLAYER, CONTRACTS_MADE, TIEBREAK,
        ENTRY, PENALTY, RESULTS_DOCUMENT, SHEET_PLAYER, SHEET_ENTRY, SEATS, MARKS, POIGNEE,
        REVOKE, DEAL, SHEET, DECLARED_SESSION, SHEET_CUT, SCORE_SHEETS_DOCUMENT,
    )
}  # fmt: skip


def shapes_of(root: Shape) -> dict[str, Shape]:
    """``root`` and every shape it refers to, by name."""
    found: dict[str, Shape] = {}
    waiting = [root]
    while waiting:
        shape = waiting.pop()
        if shape.name in found:
            continue
        found[shape.name] = shape
        waiting.extend(_SHAPES[name] for name in _references(shape.object_schema()))
    return found


def json_schema(root: Shape) -> Schema:
    """The standalone JSON Schema (draft 2020-12) of a document."""
    shapes = shapes_of(root)
    return {
        "$schema": SCHEMA_DIALECT,
        "title": root.name,
        **root.object_schema(),
        "$defs": {
            name: shape.object_schema()
            for name, shape in sorted(shapes.items())
            if name != root.name
        },
    }


def _openapi(schema: object) -> object:
    """A draft 2020-12 fragment in OpenAPI 3.0's dialect: ``nullable`` rather than a type
    ``null``, references to the components."""
    if isinstance(schema, list):
        return [_openapi(value) for value in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _openapi(value) for key, value in schema.items() if key != "propertyNames"}
    kind = out.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        out["type"] = kinds[0]
        out["nullable"] = True
        names = out.get("enum")
        if isinstance(names, list):
            out["enum"] = [value for value in names if value is not None] + [None]
    target = out.get("$ref")
    if isinstance(target, str):
        out["$ref"] = _COMPONENTS + target.removeprefix(_DEFS)
    options = out.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in schema.get("anyOf", []):
        rest = [option for option in options if option != {"type": "null"}]
        del out["anyOf"]
        out["allOf"] = rest
        out["nullable"] = True
    if "propertyNames" in schema and isinstance(schema.get("additionalProperties"), dict):
        # OpenAPI 3.0 has no propertyNames: the seats become optional properties.
        value = out.pop("additionalProperties")
        out["properties"] = dict.fromkeys(schema["propertyNames"]["enum"], value)
        out["additionalProperties"] = False
    return out


def openapi_components() -> dict[str, Schema]:
    """Every shape of both documents as OpenAPI 3.0 components, by name."""
    shapes: dict[str, Shape] = {}
    for root in DOCUMENTS:
        shapes |= shapes_of(root)
    return {
        name: cast(Schema, _openapi(shape.object_schema()))
        for name, shape in sorted(shapes.items())
    }
