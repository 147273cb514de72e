"""The results of a tournament day as a score-sheets document: what the tables entered,
written in the format an organiser would upload (``docs/results-format.md``, « Score sheets »,
read by :func:`competitions.rules.results.score_sheets.parse_score_sheets`), so that the end
of the day goes through the same check, preview and submission as an upload.

From the sessions as drawn (layout and seating), the entries and their players, the deals
entered (each line as the table entered it), the position totals where the organiser allows
them, the penalties and the abandons:

- one sheet per table and position that has anything entered; its players are the holders of
  the starting numbers seated there (a licence number, or a non-licensee's name), less those
  whose entry had abandoned before that position;
- a table's position totals (« bilans ») become one line of marks followed by lines of zero
  marks, so that the position still counts its deals (the session's deals are those played);
- an entry that abandoned is ``abandoned`` (article 27: « le joueur défaillant est classé
  dernier de l'épreuve », with or without the arbiter's accord: the accord spares the
  sanction, not the place);
- the penalties, each on a licence number (the results register penalties by licence);
- a championship stage's cuts (eliminations between sessions or positions: the committee's
  table), each with its divisor; the sheets of each phase seat only the entries that play
  it, which is how the document says who played on.

Pure: no Django.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from competitions.rules.day.layout import Holder, SessionLayout, TableAt
from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.engine.tables import TableSize, seats
from competitions.rules.results.document import FORMAT_VERSION

PlayerKey = int | str
"""How a score sheet names a player: a licence number, or a non-licensee's name."""

Round = tuple[int, int]
"""(session, position)."""


@dataclass(frozen=True, slots=True)
class Cut:
    """Before session ``session`` (``after_position`` 0) or after position
    ``after_position`` of it: the best ``entries`` play on (None: every entry still in),
    their scores divided by ``divisor`` (the committee's table for the field present)."""

    session: int
    entries: int | None
    divisor: int = 1
    after_position: int = 0

    @property
    def starts(self) -> Round:
        """The first (session, position) played after the cut."""
        return (self.session, self.after_position + 1)


@dataclass(frozen=True, slots=True)
class DayMember:
    """A player of an entry: ``order`` is the member number a seating's holder names."""

    order: int
    licence_number: int | None
    name: str

    @property
    def key(self) -> PlayerKey:
        return self.licence_number if self.licence_number is not None else self.name


@dataclass(frozen=True, slots=True)
class DayEntry:
    """An entry that played: its number, its players and, if it abandoned, after which
    (session, position)."""

    number: int
    members: tuple[DayMember, ...]
    abandoned_after: tuple[int, int] | None = None

    def member(self, order: int) -> DayMember | None:
        return next((m for m in self.members if m.order == order), None)

    def plays(self, session: int, position: int) -> bool:
        """Still in the tournament at (session, position)?"""
        return self.abandoned_after is None or (session, position) <= self.abandoned_after


@dataclass(frozen=True, slots=True)
class DaySession:
    number: int
    layout: SessionLayout
    seating: Mapping[int, Holder]


@dataclass(frozen=True, slots=True)
class DayDeal:
    """A deal as a table entered it: ``line`` is the score-sheets document's deal object,
    ``marks`` each seat's mark as the engine computed it when the deal was entered."""

    session: int
    position: int
    table: int
    deal: int
    line: Mapping[str, Any]
    marks: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DayTotals:
    """A table's position totals by seat (where the organiser lets tables enter totals)."""

    session: int
    position: int
    table: int
    totals: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class DayPenalty:
    """A penalty of the day; ``after``: the (session, position) it was recorded at, if any
    (the standings after an earlier position do not count it)."""

    licence_number: int
    kind: PenaltyKind
    points: int
    reason: str
    after: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class DayResults:
    """Everything the day entered that the results are made of."""

    entries: tuple[DayEntry, ...]
    sessions: tuple[DaySession, ...]
    deals: tuple[DayDeal, ...] = ()
    totals: tuple[DayTotals, ...] = ()
    penalties: tuple[DayPenalty, ...] = ()

    def entry(self, number: int) -> DayEntry | None:
        return next((e for e in self.entries if e.number == number), None)


@dataclass(frozen=True, slots=True)
class TableSheet:
    """One table at one position as the document writes it: its seats and its lines."""

    session: int
    position: int
    table: int
    players: Mapping[str, PlayerKey]
    lines: tuple[Mapping[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "position": self.position,
            "table": self.table,
            "players": dict(self.players),
            "deals": [dict(line) for line in self.lines],
        }


def seated_players(
    day: DayResults,
    session: DaySession,
    table: TableAt,
    entries: Mapping[int, DayEntry] | None = None,
) -> dict[str, PlayerKey]:
    """Sheet seat → the player holding that seat's starting number, for the players still in.

    The sheet's seats are the engine's seats for the number of players at the table
    (:func:`competitions.rules.engine.tables.seats`: a table of 3 is S, E, W), given in the
    layout's order: a table of 3 drawn at N, E, W writes its sheet at S, E, W. The lines a
    table enters name these seats."""
    present: list[PlayerKey] = []
    for number in table.seats.values():
        holder = session.seating.get(number)
        if holder is None:
            entry = None
        else:
            entry = entries.get(holder.entry) if entries is not None else day.entry(holder.entry)
        member = entry.member(holder.member) if entry is not None and holder else None
        if entry is None or member is None or not entry.plays(session.number, table.position):
            continue
        present.append(member.key)
    if not 3 <= len(present) <= 5:
        return {seat.value: key for seat, key in zip(table.seats, present, strict=False)}
    return {
        seat.value: key for seat, key in zip(seats(TableSize(len(present))), present, strict=True)
    }


def table_sheets(day: DayResults) -> tuple[TableSheet, ...]:
    """Every table's sheet at every position where it entered anything, in order."""
    deals: dict[tuple[int, int, int], list[DayDeal]] = defaultdict(list)
    for deal in day.deals:
        deals[(deal.session, deal.position, deal.table)].append(deal)
    totals = {(t.session, t.position, t.table): t for t in day.totals}
    entries = {e.number: e for e in day.entries}
    sheets = []
    for session in sorted(day.sessions, key=lambda s: s.number):
        for tables in session.layout.positions:
            for table in tables:
                key = (session.number, table.position, table.table)
                entered = sorted(deals.get(key, ()), key=lambda d: d.deal)
                lines: list[Mapping[str, Any]] = [dict(d.line) for d in entered]
                if not lines and key in totals:
                    lines = _totals_lines(totals[key], session.layout.deals_per_position)
                if not lines:
                    continue
                sheets.append(
                    TableSheet(
                        session.number,
                        table.position,
                        table.table,
                        seated_players(day, session, table, entries),
                        tuple(lines),
                    )
                )
    return tuple(sheets)


def _totals_lines(totals: DayTotals, deals: int) -> list[Mapping[str, Any]]:
    """Position totals as sheet lines: the totals, then zero marks for the position's other
    deals (every deal of the position was played; the sheet keeps only the balances)."""
    first: dict[str, Any] = {"marks": {seat: int(v) for seat, v in totals.totals.items()}}
    rest = [{"marks": dict.fromkeys(totals.totals, 0)} for _ in range(deals - 1)]
    return [first, *rest]


def score_sheets_document(day: DayResults, cuts: Sequence[Cut] = ()) -> dict[str, Any]:
    """The day's results as a score-sheets document (JSON-able); ``cuts``: the stage's
    eliminations (the committee's table), written as the document's ``cuts`` (the sheets
    say who played each phase)."""
    sheets = table_sheets(day)
    seated = {key for sheet in sheets for key in sheet.players.values()}
    entries = []
    for entry in sorted(day.entries, key=lambda e: e.number):
        members = [m for m in sorted(entry.members, key=lambda m: m.order) if m.key in seated]
        if not members:
            continue  # entered but never seated: not in the results
        entries.append(
            {
                "number": entry.number,
                "players": [{"licence_number": m.licence_number, "name": m.name} for m in members],
                "abandoned": entry.abandoned_after is not None,
            }
        )
    document: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "entries": entries,
        "score_sheets": [sheet.to_json() for sheet in sheets],
        "penalties": [
            {
                "licence_number": p.licence_number,
                "kind": p.kind.value,
                "points": p.points,
                "reason": p.reason,
            }
            for p in day.penalties
        ],
    }
    if cuts:
        document["cuts"] = [
            {"session": c.session, "points_divisor": c.divisor}
            | ({"after_position": c.after_position} if c.after_position else {})
            for c in sorted(cuts, key=lambda c: c.starts)
        ]
    return document
