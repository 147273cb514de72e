"""Writing a results document as the CSV :mod:`competitions.rules.results.csv_format` reads
(pure): the form the demo's samples and the tests send, and what a club's software may
write. See ``docs/results-format.md``, « CSV results »."""

from __future__ import annotations

import csv
import io

from competitions.rules.results.csv_format import (
    ACCORD_COLUMNS,
    COLUMNS,
    CUT_COLUMNS,
    ELIMINATION_COLUMNS,
    RecordType,
)
from competitions.rules.results.document import CONTRACTS, ResultsDocument


def write_csv(document: ResultsDocument, *, delimiter: str = ",") -> str:
    """``document`` in the CSV form :func:`parse_csv` reads (every column of :data:`COLUMNS`).

    Lines come in the order sessions (each followed by the entries that play it, with
    eliminations, then by each of its cuts between positions and the entries that play on
    after it), players (each followed by its position scores), penalties. The
    :data:`ELIMINATION_COLUMNS` are written only for a document that has eliminations, the
    :data:`CUT_COLUMNS` only for one with cuts between positions, the :data:`ACCORD_COLUMNS`
    only for one that says whether an abandon had the arbiter's accord.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    staged = any(s.entries or s.points_divisor != 1 or s.cuts for s in document.sessions)
    columns = COLUMNS
    if staged:
        with_cuts = any(s.cuts for s in document.sessions)
        columns = (*COLUMNS, *ELIMINATION_COLUMNS, *(CUT_COLUMNS if with_cuts else ()))
    if any(entry.arbiter_accord is not None for entry in document.entries):
        columns = (*columns, *ACCORD_COLUMNS)
    writer.writerow(columns)

    def row(record: RecordType, **cells: object) -> None:
        writer.writerow([record.value if c == "record" else _cell(cells.get(c)) for c in columns])

    for session in document.sessions:
        row(
            RecordType.SESSION,
            session=session.number,
            tables=session.tables,
            tables_of_three=session.tables_of_three,
            deals=session.deals,
            points_divisor=session.points_divisor if staged else None,
        )
        for played in session.entries:
            row(
                RecordType.SESSION_ENTRY,
                session=session.number,
                entry=played.number,
                score=played.score,
                carried=played.carried,
            )
        for cut in session.cuts:
            row(
                RecordType.POSITION_CUT,
                session=session.number,
                after_position=cut.after_position,
                tables=cut.tables,
                tables_of_three=cut.tables_of_three,
                points_divisor=cut.points_divisor,
            )
            for played in cut.entries:
                row(
                    RecordType.SESSION_ENTRY,
                    session=session.number,
                    after_position=cut.after_position,
                    entry=played.number,
                    score=played.score,
                    carried=played.carried,
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
                arbiter_accord=None if entry.arbiter_accord is None else int(entry.arbiter_accord),
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
