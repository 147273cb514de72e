"""The deals entered at the tables: each one checked by the engine at once, kept once, and
corrected only by those who run the day.

Who writes:

- **a table**, through its QR code (``table_tokens``): that table's deals at that position
  (or its position totals where the tournament allows them), until the results are sent or
  the day is over;
- **a runner of the day** (the accredited arbiter named on the tournament, the organiser's
  managers: ``competitions.day.access.may_run_day``), signed in: any table's deals while the
  tournament is declared, and the corrections.

Every deal is one line of the table's score sheet in the score-sheets document's deal form
(``competitions.rules.results.score_sheets``; docs/results-format.md), read by that format's
reader and checked by the engine (``competitions.rules.engine.sheets.total_sheet``): an
impossible deal is refused, located on its field (``line.oudlers``…), in French; the marks
are the engine's. At a table of 5 every line names its mort and the morts must follow the
rotation: the run of consecutive deals around the new one is checked as a sheet.

A deal is kept once per (session, position, table, deal). The same content sent again (a
phone that lost the network before it saw the acknowledgement) gets the same
acknowledgement and writes nothing; other content for a deal already kept is refused from a
table (409: only the arbiter corrects now) and goes through :func:`deal_correct` for a
runner, which logs before, after, who and why in :class:`DayCorrection`.

Concurrency: a deal is one row, unique per (session, position, table, deal): two phones
sending the same deal at once meet on that constraint, and the second is answered as a deal
sent again. Where other rows of the table decide whether a deal may be kept (a table of 5's
rotation; deals or totals where the tournament allows totals) and for every correction, the
writers of one table at one position first take that table's lock, alone (a PostgreSQL
advisory lock for the transaction, keyed by session, position and table; ``SELECT … FOR
UPDATE`` of the session row on another database), then read the table's rows. Nobody holds
two tables' locks, so no two writers wait on each other in a cycle; the fifty tables of a
session write side by side. A deal sent again is answered from a read, without a write.
"""

from __future__ import annotations

import datetime as dt
import json
import zlib
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from competitions.day.access import author, may_run_day, may_see_day
from competitions.day.table_tokens import TablePlace, entry_closed, table_place
from competitions.models import (
    DayCorrection,
    DealRecord,
    EntryMember,
    PlayedSession,
    Provenance,
    TableTotals,
    Tournament,
    TournamentStatus,
)
from competitions.rulebooks import rulebook_in_force, rulebook_version
from competitions.rules.day.layout import SHEET_ORDER, TableAt, layout_from_json, seating_from_json
from competitions.rules.engine.scoring import ScoringRules
from competitions.rules.engine.sheets import DealLine, ScoreSheet, total_sheet
from competitions.rules.results.score_sheets import read_deal_line
from core import bulk_rows
from core.errors import Conflict, NotFound, PermissionDenied
from core.problems import Problem, RuleViolation
from federation.access import Actor
from federation.models import User
from federation.public_names import public_name

TABLE_LOCK = 0x46465427  # first key of the tables' advisory locks (one purpose)
MAX_REASON = 300


# ----------------------------------------------------------------------------- reads


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat of the table: its orientation, the starting number sitting there, a name."""

    seat: str
    number: int
    name: str


@dataclass(frozen=True, slots=True)
class EnteredDeal:
    deal: int
    line: Mapping[str, Any]
    marks: Mapping[str, int]
    provenance: str
    changed_at: dt.datetime


@dataclass(frozen=True, slots=True)
class TableSheet:
    """What a table sees of its sheet at a position: its seats, the deals kept, the
    running totals (each seat's balance), and the position totals if entered instead."""

    tournament: Tournament
    session: PlayedSession
    position: int
    table: int
    seats: tuple[SeatView, ...]
    deals_per_position: int
    deals: tuple[EnteredDeal, ...]
    totals: Mapping[str, int]
    position_totals: Mapping[str, int] | None
    totals_allowed: bool
    open: bool

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def missing(self) -> tuple[int, ...]:
        entered = {d.deal for d in self.deals}
        return tuple(n for n in range(1, self.deals_per_position + 1) if n not in entered)


@dataclass(frozen=True, slots=True)
class DealAck:
    """The acknowledgement of a deal kept: its marks, and the table's running totals."""

    deal: int
    marks: Mapping[str, int]
    created: bool
    totals: Mapping[str, int]
    entered: tuple[int, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "marks": dict(self.marks),
            "created": self.created,
            "totals": dict(self.totals),
            "entered": list(self.entered),
        }


@dataclass(frozen=True, slots=True)
class GridCell:
    table: int
    size: int
    entered: int
    expected: int
    totals: bool

    @property
    def complete(self) -> bool:
        return self.totals or self.entered >= self.expected


@dataclass(frozen=True, slots=True)
class GridSession:
    session: PlayedSession
    positions: tuple[tuple[GridCell, ...], ...]


# ----------------------------------------------------------------------------- access


@dataclass(frozen=True, slots=True)
class _Writer:
    place: TablePlace
    provenance: Provenance
    user: User | None


def _runner_place(
    by: Actor, session: PlayedSession, position: int, table: int, *, write: bool
) -> TablePlace:
    tournament = session.tournament
    allowed = may_run_day(by, tournament) if write else may_see_day(by, tournament)
    if not allowed:
        raise NotFound("No such tournament.", code="not_found")
    if write and tournament.status != TournamentStatus.DECLARED:
        raise Conflict(
            "The results of this tournament are sent: its deals are corrected through "
            "the results now.",
            code="day_results_sent",
        )
    layout = layout_from_json(session.plan)
    return TablePlace(tournament, session, layout, position, layout.table(position, table))


def _writer(
    *,
    token: str | None,
    by: Actor | None,
    session: PlayedSession | None,
    position: int,
    table: int,
    write: bool = True,
) -> _Writer:
    if token is not None:
        return _Writer(table_place(token), Provenance.TABLE, None)
    if by is None or session is None:
        raise PermissionDenied("A table's link or a runner of the day is needed.")
    place = _runner_place(by, session, position, table, write=write)
    return _Writer(place, Provenance.ARBITER, author(by))


def _lock_table(session: PlayedSession, position: int, table: int) -> None:
    """This transaction's lock on one table at one position (see the module's note)."""
    if connection.vendor == "postgresql":
        key = zlib.crc32(f"{session.pk}.{position}.{table}".encode()) - 2**31
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [TABLE_LOCK, key])
    else:
        PlayedSession.objects.select_for_update().filter(pk=session.pk).exists()


# ----------------------------------------------------------------------------- checks


def _rules(place: TablePlace) -> ScoringRules:
    if place.rulebook is None:  # not read with the place (a runner's), or none stored yet
        rulebook = rulebook_in_force(season=place.tournament.season)[1]
    else:
        rulebook = rulebook_version(*place.rulebook)
    return rulebook.scoring.rules()


def _players(table: TableAt) -> dict[Any, str]:
    return {seat: str(number) for seat, number in table.seats.items()}


def _relocated(problems: Sequence[Problem], first: int, new_index: int) -> list[Problem]:
    """The engine's problems of a run of lines starting at deal ``first``, located on the
    new line (``line.…``) or on the deal they are about (``deals[n]…``)."""
    out = []
    for problem in problems:
        field = problem.field
        params = dict(problem.params)
        if field.startswith("deals["):
            index = int(field[6 : field.index("]")])
            rest = field[field.index("]") + 1 :]
            field = f"line{rest}" if index == new_index else f"deals[{first + index}]{rest}"
        number = params.get("deal")
        if isinstance(number, int):
            params["deal"] = first + number - 1
        out.append(Problem(field, problem.code, problem.message, params))
    return out


def _canonical(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The line as kept: its fields in a fixed order, defaults left out."""
    line: dict[str, Any] = {}
    for key in sorted(raw):
        value = raw[key]
        # ``is``/``==`` apart: 0 oudlers or 0 points is a value (0 == False in Python).
        if key == "contract" or not (value is None or value is False or value in ([], {})):
            line[key] = value
    if isinstance(line.get("poignees"), list):
        line["poignees"] = sorted(line["poignees"], key=lambda p: json.dumps(p, sort_keys=True))
    return line


def _read_line(raw: object, table: TableAt, deal: int) -> tuple[DealLine, dict[str, Any]]:
    if not isinstance(raw, Mapping):
        raise RuleViolation.single(
            "line", "wrong_type", "Expected the deal as an object.", {"expected": "object"}
        )
    try:
        line = read_deal_line(dict(raw), table.size)
    except RuleViolation as refused:
        raise RuleViolation(_relocated(refused.problems, deal, 0)) from None
    if table.size == 5 and line.sitting_out is None:
        raise RuleViolation.single(
            "line.sitting_out",
            "day_mort_missing",
            f"Deal {deal}: at a table of 5 one player (le mort) sits each deal out; say who.",
            {"deal": deal},
        )
    return line, _canonical(raw)


def _check_run(
    place: TablePlace,
    deal: int,
    line: DealLine,
    kept: Mapping[int, DealLine],
    rules: ScoringRules,
) -> Mapping[str, int]:
    """Check the new line (with the consecutive deals around it at a table of 5, for the
    mort's rotation) and give its marks."""
    lines = {**kept, deal: line}
    first = last = deal
    if place.table.size == 5:
        while first - 1 in lines:
            first -= 1
        while last + 1 in lines:
            last += 1
    run = tuple(lines[n] for n in range(first, last + 1))
    sheet = ScoreSheet(place.table.table, place.position, _players(place.table), run)
    try:
        totals = total_sheet(sheet, rules)
    except RuleViolation as refused:
        problems = _relocated(refused.problems, first, deal - first)
        raise RuleViolation([_blocked_by_later(p, deal) for p in problems]) from None
    marks = totals.deal_marks[deal - first]
    return {str(seat): int(mark) for seat, mark in marks.items()}


def _blocked_by_later(problem: Problem, deal: int) -> Problem:
    """A mort out of turn found on a deal kept after the new one: the table cannot fix that
    deal (only the arbiter corrects a kept deal), so the message says so."""
    later = problem.params.get("deal")
    if problem.code != "sitting_out_out_of_turn" or not isinstance(later, int) or later <= deal:
        return problem
    return Problem(
        problem.field,
        "day_mort_blocked_by_later_deal",
        f"Deal {deal}: its mort does not fit deal {later}, already kept ({problem.message}); "
        f"check this mort, and if it is right call the arbiter to correct deal {later}.",
        {**problem.params, "entered": deal},
    )


def _check_deal_number(place: TablePlace, deal: object) -> int:
    count = place.layout.deals_per_position
    if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= count:
        raise RuleViolation.single(
            "deal",
            "day_deal_out_of_range",
            f"A position has deals 1 to {count} here, not {deal!r}.",
            {"deals": count, "value": str(deal)},
        )
    return deal


def _kept_lines(rows: Sequence[DealRecord], size: int) -> dict[int, DealLine]:
    return {row.deal: read_deal_line(row.line, size) for row in rows}


def _running(rows: Sequence[DealRecord], table: TableAt) -> dict[str, int]:
    totals = {str(seat): 0 for seat in table.seats}
    for row in rows:
        for seat, mark in row.marks.items():
            totals[seat] = totals.get(seat, 0) + int(mark)
    return totals


def _table_rows(place: TablePlace, *, again: bool = True) -> list[DealRecord]:
    """The table's deals at its position, in order: those read with the place (a table's
    token, ``table_tokens``) unless asked ``again`` (under the table's lock)."""
    if not again and place.deals is not None:
        return list(place.deals)
    return list(DealRecord.objects.filter(**place.where).order_by("deal"))


# ----------------------------------------------------------------------------- writes


def deal_enter(
    *,
    deal: int,
    line: Mapping[str, Any],
    client_key: str = "",
    token: str | None = None,
    by: Actor | None = None,
    session: PlayedSession | None = None,
    position: int = 0,
    table: int = 0,
) -> DealAck:
    """Keep deal ``deal`` of a table at a position: from the table (``token``) or by a
    runner of the day (``by``, with ``session``, ``position`` and ``table``)."""
    writer = _writer(token=token, by=by, session=session, position=position, table=table)
    place = writer.place
    deal = _check_deal_number(place, deal)
    parsed, canonical = _read_line(line, place.table, deal)
    client_key = str(client_key or "")[:64]
    # Sent again (the phone did not see the acknowledgement): answered without a write.
    rows = _table_rows(place, again=False)
    known = _known(rows, deal, canonical, place.table)
    if known is not None:
        return known
    rules = _rules(place)
    guarded = place.table.size == 5 or place.tournament.position_totals
    # A plain table's deal is one statement, its own transaction; a guarded one is written
    # under the table's lock.
    with transaction.atomic() if guarded else nullcontext():
        if guarded:
            # Other rows of the table decide (the mort's rotation, totals or deals): read
            # them again under the table's lock.
            _lock_table(place.session, place.position, place.table.table)
            if (
                place.tournament.position_totals
                and TableTotals.objects.filter(**place.where).exists()
            ):
                raise Conflict(
                    "This table entered its position totals: ask the arbiter.",
                    code="day_totals_already_entered",
                )
            rows = _table_rows(place)
            known = _known(rows, deal, canonical, place.table)
            if known is not None:
                return known
        kept = _kept_lines(rows, place.table.size) if place.table.size == 5 else {}
        marks = _check_run(place, deal, parsed, kept, rules)
        now = timezone.now()
        record = DealRecord(
            **place.where,
            deal=deal,
            line=canonical,
            marks=marks,
            client_key=client_key,
            provenance=writer.provenance,
            entered_by=writer.user,
            entered_at=now,
            changed_at=now,
        )
        if not _insert_once(record):
            # The same deal kept meanwhile by another phone of the table (one row per
            # deal): the same content is acknowledged, other content refused, as above.
            known = _known(_table_rows(place), deal, canonical, place.table)
            assert known is not None
            return known
    rows = sorted([*rows, record], key=lambda r: r.deal)
    return DealAck(deal, marks, True, _running(rows, place.table), tuple(r.deal for r in rows))


def _insert_once(record: DealRecord) -> bool:
    """Insert ``record`` unless its deal is kept already, in one statement (``INSERT … ON
    CONFLICT DO NOTHING RETURNING``: no round trip to open or close a transaction of its
    own); whether it was inserted."""
    fields = [field for field in DealRecord._meta.concrete_fields if not field.primary_key]
    columns = bulk_rows.columns(DealRecord, [field.attname for field in fields])
    sql = (
        f"INSERT INTO {connection.ops.quote_name(DealRecord._meta.db_table)} ({columns}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) "
        f"ON CONFLICT DO NOTHING RETURNING {bulk_rows.columns(DealRecord, ['id'])}"
    )
    values = [field.get_db_prep_save(field.pre_save(record, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        inserted = cursor.fetchone()
    if inserted is None:
        return False
    record.pk = inserted[0]
    record._state.adding = False
    record._state.db = connection.alias
    return True


def _known(
    rows: Sequence[DealRecord], deal: int, canonical: Mapping[str, Any], table: TableAt
) -> DealAck | None:
    """The acknowledgement of ``deal`` if it is kept with this content; a 409 if it is kept
    with other content; None if it is not kept."""
    existing = next((row for row in rows if row.deal == deal), None)
    if existing is None:
        return None
    if existing.line != canonical:
        raise Conflict(
            f"Deal {deal} of this table is already kept with other content: only the "
            "arbiter corrects it now.",
            code="day_deal_already_kept",
            params={"deal": deal},
        )
    return DealAck(deal, existing.marks, False, _running(rows, table), tuple(r.deal for r in rows))


def totals_enter(
    *,
    totals: Mapping[str, Any],
    client_key: str = "",
    token: str | None = None,
    by: Actor | None = None,
    session: PlayedSession | None = None,
    position: int = 0,
    table: int = 0,
) -> dict[str, int]:
    """Keep a table's position totals (each seat's score) where the tournament lets tables
    enter totals instead of every deal; they must sum to zero."""
    writer = _writer(token=token, by=by, session=session, position=position, table=table)
    place = writer.place
    if not place.tournament.position_totals:
        raise Conflict(
            "This tournament has every deal entered, not position totals.",
            code="day_totals_not_allowed",
        )
    checked = _checked_totals(totals, place.table)
    with transaction.atomic():
        _lock_table(place.session, place.position, place.table.table)
        if DealRecord.objects.filter(**place.where).exists():
            raise Conflict(
                "This table has entered deals at this position: ask the arbiter.",
                code="day_deals_already_entered",
            )
        existing = TableTotals.objects.filter(**place.where).first()
        if existing is not None:
            if existing.totals == checked:
                return dict(existing.totals)
            raise Conflict(
                "This table's totals are already kept with other figures: only the arbiter "
                "corrects them now.",
                code="day_totals_already_kept",
            )
        TableTotals.objects.create(
            **place.where,
            totals=checked,
            client_key=str(client_key or "")[:64],
            provenance=writer.provenance,
            entered_by=writer.user,
        )
        return checked


def _checked_totals(totals: object, table: TableAt) -> dict[str, int]:
    if not isinstance(totals, Mapping):
        raise RuleViolation.single(
            "totals", "wrong_type", "Expected each seat's score.", {"expected": "object"}
        )
    problems = []
    seats = [str(seat) for seat in SHEET_ORDER if seat in table.seats]
    checked: dict[str, int] = {}
    for key in totals:
        if key not in seats:
            problems.append(
                Problem(
                    f"totals.{key}",
                    "day_seat_not_at_table",
                    f"{key} is not a seat of this table ({', '.join(seats)}).",
                    {"seat": str(key), "seats": ", ".join(seats)},
                )
            )
    for seat in seats:
        value = totals.get(seat)
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(
                Problem(
                    f"totals.{seat}",
                    "day_total_not_an_integer",
                    f"The score at {seat} must be a whole number.",
                    {"seat": seat},
                )
            )
        else:
            checked[seat] = value
    if not problems and sum(checked.values()) != 0:
        total = sum(checked.values())
        problems.append(
            Problem(
                "totals",
                "day_totals_do_not_sum_to_zero",
                f"The table's scores sum to {total:+d}; they must sum to zero.",
                {"total": f"{total:+d}"},
            )
        )
    if problems:
        raise RuleViolation(problems)
    return checked


def _correcting(
    by: Actor, session: PlayedSession, position: int, table: int, reason: str
) -> tuple[TablePlace, User | None, str]:
    """What every correction of the day starts with: the table a runner of the day may
    write (else not found; refused once the results are sent), who corrects, and the
    reason, required."""
    place = _runner_place(by, session, position, table, write=True)
    reason = (reason or "").strip()
    if not reason:
        raise RuleViolation.single(
            "reason", "day_reason_required", "Say why this is corrected.", {}
        )
    if len(reason) > MAX_REASON:
        raise RuleViolation.single(
            "reason",
            "day_correction_reason_too_long",
            f"The reason is at most {MAX_REASON} characters.",
            {"limit": MAX_REASON},
        )
    return place, author(by), reason


def _logged(
    place: TablePlace,
    deal: int,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    reason: str,
    user: User | None,
    now: dt.datetime,
) -> DayCorrection:
    """The correction's log line: what it was, what it became (None: removed), who, why."""
    return DayCorrection.objects.create(
        **place.where,
        deal=deal,
        before=before,
        after=after,
        reason=reason,
        corrected_by=user,
        corrected_at=now,
    )


def deal_correct(
    *,
    by: Actor,
    session: PlayedSession,
    position: int,
    table: int,
    deal: int,
    line: Mapping[str, Any] | None,
    reason: str,
) -> DayCorrection:
    """A runner of the day changes (or, with ``line`` None, removes) a kept deal, or enters
    a missing one, with a reason; the correction is logged with before, after and who."""
    place, user, reason = _correcting(by, session, position, table, reason)
    deal = _check_deal_number(place, deal)
    parsed = canonical = None
    if line is not None:
        parsed, canonical = _read_line(line, place.table, deal)
    rules = _rules(place)
    with transaction.atomic():
        _lock_table(place.session, place.position, place.table.table)
        rows = _table_rows(place)
        existing = next((row for row in rows if row.deal == deal), None)
        if existing is None and parsed is None:
            raise NotFound(
                f"Deal {deal} of this table is not kept.",
                code="day_deal_not_kept",
                params={"deal": deal},
            )
        before = None if existing is None else {"line": existing.line, "marks": existing.marks}
        after = None
        now = timezone.now()
        if parsed is None:
            assert existing is not None
            existing.delete()
        else:
            others = [r for r in rows if r.deal != deal]
            kept = _kept_lines(others, place.table.size) if place.table.size == 5 else {}
            marks = _check_run(place, deal, parsed, kept, rules)
            after = {"line": canonical, "marks": marks}
            if existing is None:
                DealRecord.objects.create(
                    **place.where,
                    deal=deal,
                    line=canonical,
                    marks=marks,
                    provenance=Provenance.ARBITER,
                    entered_by=user,
                    entered_at=now,
                    changed_at=now,
                )
            else:
                existing.line = canonical
                existing.marks = marks
                existing.changed_at = now
                existing.save(update_fields=["line", "marks", "changed_at"])
        return _logged(place, deal, before, after, reason, user, now)


TOTALS_DEAL = 0
"""The ``deal`` of a correction of a table's position totals (``DayCorrection``)."""


def totals_correct(
    *,
    by: Actor,
    session: PlayedSession,
    position: int,
    table: int,
    totals: Mapping[str, Any] | None,
    reason: str,
) -> DayCorrection:
    """A runner of the day changes (or, with ``totals`` None, removes) a table's position
    totals, or enters missing ones, with a reason, where the tournament allows totals; the
    correction is logged as deal 0 with before, after and who."""
    place, user, reason = _correcting(by, session, position, table, reason)
    if not place.tournament.position_totals:
        raise Conflict(
            "This tournament has every deal entered, not position totals.",
            code="day_totals_not_allowed",
        )
    checked = None if totals is None else _checked_totals(totals, place.table)
    with transaction.atomic():
        _lock_table(place.session, place.position, place.table.table)
        existing = TableTotals.objects.filter(**place.where).first()
        if existing is None and checked is None:
            raise NotFound("This table's totals are not kept.", code="day_totals_not_kept")
        if existing is None and DealRecord.objects.filter(**place.where).exists():
            raise Conflict(
                "This table has deals kept at this position: remove them first.",
                code="day_totals_beside_deals",
            )
        before = None if existing is None else {"totals": existing.totals}
        after = None if checked is None else {"totals": checked}
        now = timezone.now()
        if existing is None:
            TableTotals.objects.create(
                **place.where, totals=checked, provenance=Provenance.ARBITER, entered_by=user
            )
        elif checked is None:
            existing.delete()
        else:
            existing.totals = checked
            existing.save(update_fields=["totals"])
        return _logged(place, TOTALS_DEAL, before, after, reason, user, now)


# ----------------------------------------------------------------------------- reads


def _names(tournament: Tournament, session: PlayedSession, numbers: Sequence[int]) -> dict:
    seating = seating_from_json(session.seating or {})
    wanted = {n: seating[n] for n in numbers if n in seating}
    members = EntryMember.objects.filter(
        tournament=tournament, entry__number__in={h.entry for h in wanted.values()}
    ).select_related("player", "entry")
    by_holder = {(m.entry.number, m.order): m for m in members}
    names = {}
    for number, holder in wanted.items():
        member = by_holder.get((holder.entry, holder.member))
        if member is None:
            continue
        names[number] = public_name(member.player) if member.player is not None else member.name
    return names


def table_sheet(
    *,
    token: str | None = None,
    by: Actor | None = None,
    session: PlayedSession | None = None,
    position: int = 0,
    table: int = 0,
) -> TableSheet:
    """A table's sheet at a position, for the table (``token``) or those who see the day."""
    writer = _writer(
        token=token, by=by, session=session, position=position, table=table, write=False
    )
    place = writer.place
    rows = _table_rows(place, again=False)
    numbers = [place.table.seats[seat] for seat in SHEET_ORDER if seat in place.table.seats]
    names = _names(place.tournament, place.session, numbers)
    seats = tuple(
        SeatView(str(seat), number, names.get(number, f"n° {number}"))
        for seat in SHEET_ORDER
        if (number := place.table.seats.get(seat)) is not None
    )
    totals_row = TableTotals.objects.filter(**place.where).first()
    return TableSheet(
        tournament=place.tournament,
        session=place.session,
        position=place.position,
        table=place.table.table,
        seats=seats,
        deals_per_position=place.layout.deals_per_position,
        deals=tuple(EnteredDeal(r.deal, r.line, r.marks, r.provenance, r.changed_at) for r in rows),
        totals=_running(rows, place.table),
        position_totals=None if totals_row is None else dict(totals_row.totals),
        totals_allowed=place.tournament.position_totals,
        open=not entry_closed(place.tournament),
    )


def scores_grid(*, by: Actor, tournament: Tournament) -> tuple[GridSession, ...]:
    """Every table at every position of every session: how many deals are kept."""
    if not may_see_day(by, tournament):
        raise NotFound("No such tournament.", code="not_found")
    sessions = list(PlayedSession.objects.filter(tournament=tournament).order_by("number"))
    counts = {
        (c["session_id"], c["position"], c["table"]): c["n"]
        for c in DealRecord.objects.filter(session__tournament=tournament)
        .values("session_id", "position", "table")
        .annotate(n=Count("id"))
    }
    totals = set(
        TableTotals.objects.filter(session__tournament=tournament).values_list(
            "session_id", "position", "table"
        )
    )
    grid = []
    for session in sessions:
        layout = layout_from_json(session.plan)
        grid.append(
            GridSession(
                session,
                tuple(
                    tuple(
                        GridCell(
                            t.table,
                            t.size,
                            counts.get((session.pk, t.position, t.table), 0),
                            layout.deals_per_position,
                            (session.pk, t.position, t.table) in totals,
                        )
                        for t in tables
                    )
                    for tables in layout.positions
                ),
            )
        )
    return tuple(grid)


def day_corrections(*, by: Actor, tournament: Tournament) -> list[DayCorrection]:
    """The corrections of the day, latest first."""
    if not may_see_day(by, tournament):
        raise NotFound("No such tournament.", code="not_found")
    return list(
        DayCorrection.objects.filter(session__tournament=tournament)
        .select_related("session", "corrected_by")
        .order_by("-corrected_at")
    )
