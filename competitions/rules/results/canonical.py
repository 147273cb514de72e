"""The canonical form of a results document and its SHA-256, for idempotent submissions.

The canonical form is the JSON format itself with every optional field written
out and everything in a fixed order: sessions by number, entries by number, an
entry's players by licence number (players without one last, by name), a
player's position scores by session, position and table, penalties by licence
number, kind, points and reason; tie-break contracts always list the four
contracts; a session's eliminations (``points_divisor``, ``entries`` by number) are
written only when it has any, and its cuts between positions (``cuts``, by position, each
with every field) only when it has some; an entry's ``arbiter_accord`` only when the
results say it. Object keys are sorted, separators compact, text UTF-8 (not escaped). The
same results therefore hash the same whether submitted as JSON (in any order, with or
without the optional fields) or as CSV, and
``parse_json(canonical_dict(document))`` reads the document back.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from competitions.rules.results.document import (
    CONTRACTS,
    EntryResult,
    PenaltyRecord,
    PlayerResult,
    ResultsDocument,
    SessionEntry,
    SessionResult,
    TieBreakData,
)


def canonical_dict(document: ResultsDocument) -> dict[str, Any]:
    """The document as plain JSON values, in canonical order."""
    sessions = sorted(document.sessions, key=lambda s: (s.number, s.tables, s.tables_of_three))
    entries = [_entry(entry) for entry in document.entries]
    if len({e["number"] for e in entries}) == len(entries):
        entries.sort(key=lambda e: e["number"])  # the same order, without a dump per entry
    else:
        entries.sort(key=lambda e: (e["number"], _dumps(e)))
    penalties = [_penalty(p) for p in document.penalties]
    penalties.sort(key=lambda p: (p["licence_number"], p["kind"], p["points"], p["reason"]))
    return {
        "format_version": document.format_version,
        "sessions": [_session(s) for s in sessions],
        "entries": entries,
        "penalties": penalties,
    }


def canonical_json(document: ResultsDocument) -> bytes:
    """The canonical form as UTF-8 bytes: sorted keys, no spaces."""
    return _dumps(canonical_dict(document)).encode("utf-8")


def results_sha256(document: ResultsDocument) -> str:
    """The hex SHA-256 of :func:`canonical_json`: equal for the same results, however sent."""
    return canonical_sha256(canonical_dict(document))


def canonical_sha256(canonical: dict[str, Any]) -> str:
    """:func:`results_sha256` of the document whose :func:`canonical_dict` is ``canonical``
    (a caller that stores the canonical form computes it once)."""
    return text_sha256(canonical_text(canonical))


def canonical_text(canonical: dict[str, Any]) -> str:
    """The canonical form as JSON text (what is hashed; a caller may store it as is)."""
    return _dumps(canonical)


def text_sha256(text: str) -> str:
    """The hex SHA-256 of :func:`canonical_text`'s text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _session(session: SessionResult) -> dict[str, Any]:
    """A session; its eliminations (divisor, entries) only when it has any, so that a
    document without them hashes as it always did."""
    written: dict[str, Any] = {
        "number": session.number,
        "tables": session.tables,
        "tables_of_three": session.tables_of_three,
        "deals": session.deals,
    }
    if session.tables_of_five:  # only when there are some: a document without keeps its hash
        written["tables_of_five"] = session.tables_of_five
    if session.points_divisor != 1 or session.entries:
        written["points_divisor"] = session.points_divisor
        written["entries"] = _session_entries(session.entries)
    if session.cuts:  # only when there are some: a document without keeps its hash
        written["cuts"] = [
            {
                "after_position": cut.after_position,
                "tables": cut.tables,
                "tables_of_three": cut.tables_of_three,
                "points_divisor": cut.points_divisor,
                "entries": _session_entries(cut.entries),
            }
            for cut in sorted(
                session.cuts, key=lambda c: (c.after_position, c.tables, c.tables_of_three)
            )
        ]
    return written


def _session_entries(entries: tuple[SessionEntry, ...]) -> list[dict[str, int]]:
    return [
        {"number": e.number, "score": e.score, "carried": e.carried}
        for e in sorted(entries, key=lambda e: (e.number, e.score, e.carried))
    ]


def _entry(entry: EntryResult) -> dict[str, Any]:
    players = sorted(
        entry.players,
        key=lambda p: (p.licence_number is None, p.licence_number or 0, p.name, p.total or 0),
    )
    written = {
        "number": entry.number,
        "place": entry.place,
        "total": entry.total,
        "abandoned": entry.abandoned,
        "players": [_player(player) for player in players],
        "tiebreak": _tiebreak(entry.tiebreak),
    }
    if entry.arbiter_accord is not None:  # only when said: a document without keeps its hash
        written["arbiter_accord"] = entry.arbiter_accord
    return written


def _player(player: PlayerResult) -> dict[str, Any]:
    positions = sorted(player.positions, key=lambda p: (p.session, p.position, p.table, p.score))
    return {
        "licence_number": player.licence_number,
        "name": player.name,
        "total": player.total,
        "positions": [
            {"session": p.session, "position": p.position, "table": p.table, "score": p.score}
            for p in positions
        ],
    }


def _tiebreak(tiebreak: TieBreakData | None) -> dict[str, Any] | None:
    if tiebreak is None:
        return None
    return {
        "best_position_score": tiebreak.best_position_score,
        "contracts_made": {c.value: tiebreak.contracts_made.get(c, 0) for c in CONTRACTS},
    }


def _penalty(penalty: PenaltyRecord) -> dict[str, Any]:
    return {
        "licence_number": penalty.licence_number,
        "points": penalty.points,
        "kind": str(penalty.kind),
        "reason": penalty.reason,
    }
