"""The cuts a score sheets document declares (eliminations, between sessions or between two
positions of a session): read and checked here, applied by :mod:`.score_sheets`."""

from __future__ import annotations

from dataclasses import dataclass

from competitions.rules.results import schema as shapes
from competitions.rules.results.document import MAX_COUNT, SessionResult
from competitions.rules.results.json_format import MISSING, JsonReader

MAX_SHEETS = shapes.MAX_SHEETS


@dataclass(frozen=True, slots=True)
class SheetCut:
    """A cut the score sheets declare: before ``session`` (``after_position`` 0) or after a
    position of it, the scores carried past it divided by ``points_divisor``; the entries
    that play on are those seated after it."""

    session: int
    after_position: int
    points_divisor: int
    where: str


def read_cuts(reader: JsonReader, value: object) -> list[SheetCut]:
    """The optional ``cuts`` of a score sheets document (eliminations)."""
    if value is MISSING or value is None:
        return []
    items = reader.array(value, "cuts", limit=MAX_SHEETS, what="cuts")
    cuts: list[SheetCut] = []
    seen: dict[tuple[int, int], str] = {}
    for i, item in enumerate(items):
        where = f"cuts[{i}]"
        obj = reader.object(
            item,
            where,
            required=shapes.SHEET_CUT.required,
            optional=shapes.SHEET_CUT.optional,
            what="a cut",
        )
        if obj is None:
            continue
        session = reader.integer(
            obj.get("session", MISSING), f"{where}.session", minimum=1, maximum=99
        )
        after = reader.integer(
            obj.get("after_position", 0), f"{where}.after_position", minimum=0, maximum=MAX_COUNT
        )
        divisor = reader.integer(
            obj.get("points_divisor", 1), f"{where}.points_divisor", minimum=1, maximum=MAX_COUNT
        )
        if session is None or after is None or divisor is None:
            continue
        if session == 1 and after == 0:
            reader.report(
                f"{where}.session",
                "cut_before_first_session",
                "Every entry plays the first session: no cut comes before it (give "
                "after_position for a cut between two of its positions).",
            )
            continue
        if (session, after) in seen:
            reader.report(
                where,
                "duplicate_cut",
                f"Session {session} already has this cut ({seen[(session, after)]}).",
                session=session,
                position=after,
            )
            continue
        seen[(session, after)] = where
        cuts.append(SheetCut(session, after, divisor, where))
    return cuts


def check_cut_sessions(
    reader: JsonReader, cuts: list[SheetCut], counted: tuple[SessionResult, ...]
) -> None:
    numbers = {session.number for session in counted}
    for cut in cuts:
        if cut.session not in numbers:
            reader.report(
                f"{cut.where}.session",
                "session_without_score_sheets",
                f"Session {cut.session} is declared but no score sheet is for it.",
                session=cut.session,
            )
