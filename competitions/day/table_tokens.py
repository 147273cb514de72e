"""The table's QR code: a signed token that lets the players of one table enter that
table's deals at one position, without an account.

The token is ``<tournament>.<session>.<position>.<table>`` signed with the site's secret
(``django.core.signing``, a salt of its own: no other signed value of the site is a valid
token). It names one table at one position of one session: nothing else can be reached
with it, and changing any number breaks the signature. It holds no date: it is refused,
whatever it says, once the tournament's results are sent (the tournament is no longer
« déclaré ») or once the tournament's day is over (after midnight, local time, at the end
of its date).

A refusal says no more than the token's holder already knew: a token that does not verify,
or names a session or table that does not exist, is « inconnu » (404); a genuine token of a
closed table says that entry at the table is closed (403).

Every request of a table's phone starts here, fifty tables at once in a full room: the
session, its tournament and the key of the season's rulebook in force are read in one
statement with the table's deals at its position (no ORM query to build), the columns the
day's writes need only; the session's layout is parsed once per process for each distinct
plan (keyed on the plan's own text, so a session drawn again is parsed again). Any other
column of the tournament or the session is loaded if asked (Django's deferred fields).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any

from django.core import signing
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from competitions.models import (
    DealRecord,
    PlayedSession,
    RulebookVersion,
    Tournament,
    TournamentStatus,
)
from competitions.rules.day.layout import SessionLayout, TableAt, layout_from_json
from core import bulk_rows
from core.errors import NotFound, PermissionDenied
from core.problems import RuleViolation

SALT = "competitions.day.table_tokens"


@dataclass(frozen=True, slots=True)
class TablePlace:
    """What a genuine, open table token reaches: one table at one position of a session."""

    tournament: Tournament
    session: PlayedSession
    layout: SessionLayout
    position: int
    table: TableAt
    rulebook: tuple[int, Any] | None = None
    """The season's rulebook version in force when the place was read (its key and creation
    time, ``competitions.rulebooks.rulebook_version``); None: not read with it."""
    deals: tuple[DealRecord, ...] | None = None
    """The table's deals at the position, in order, read with it; None: not read."""

    @property
    def where(self) -> dict[str, Any]:
        """The fields naming this table at this position on the day's rows (deals, totals,
        corrections)."""
        return {"session": self.session, "position": self.position, "table": self.table.table}

    @property
    def key(self) -> str:
        """The scope as text (one per table and position): what throttles count by."""
        return f"{self.tournament.pk}.{self.session.number}.{self.position}.{self.table.table}"


def _signer() -> signing.Signer:
    return signing.Signer(salt=SALT)


def table_token(session: PlayedSession, position: int, table: int) -> str:
    """The token of ``table`` at ``position`` of ``session``."""
    return _signer().sign(f"{session.tournament_id}.{session.number}.{position}.{table}")


def table_url(session: PlayedSession, position: int, table: int) -> str:
    """The path the table card's QR code carries (the site's address goes in front)."""
    return reverse("day-table", args=[table_token(session, position, table)])


def entry_closed(tournament: Tournament, *, now: dt.datetime | None = None) -> bool:
    """Is entry at the tables over: results sent, or the tournament's day over?"""
    if tournament.status != TournamentStatus.DECLARED:
        return True
    today = timezone.localdate(now or timezone.now())
    return today > tournament.date


def _unknown() -> NotFound:
    return NotFound(
        "This table link is unknown: scan the QR code of your table again.",
        code="table_link_unknown",
    )


def table_place(token: str, *, now: dt.datetime | None = None) -> TablePlace:
    """The table ``token`` reaches, if it is genuine and entry is open; else
    :class:`NotFound` (not a token of this site, or no such table) or
    :class:`PermissionDenied` (entry at the tables is over)."""
    try:
        value = _signer().unsign(token)
        numbers = [int(part) for part in value.split(".")]
    except (signing.BadSignature, ValueError):
        raise _unknown() from None
    if len(numbers) != 4:
        raise _unknown()
    tournament_pk, session_number, position, table = numbers
    found_row = _place_row(tournament_pk, session_number, position, table)
    if found_row is None:
        raise _unknown()
    tournament, session, plan, rulebook, deals = found_row
    if entry_closed(tournament, now=now):
        raise PermissionDenied(
            "Entry at the tables is closed for this tournament: ask the arbiter.",
            code="table_entry_closed",
        )
    layout = _layout(plan)
    try:
        found = layout.table(position, table)
    except RuleViolation:
        raise _unknown() from None
    return TablePlace(tournament, session, layout, position, found, rulebook, deals)


_TOURNAMENT_FIELDS = ("id", "season_id", "name", "status", "date", "position_totals")
_SESSION_FIELDS = ("id", "tournament_id", "number", "positions", "deals_per_position")
_DEAL_FIELDS = tuple(field.attname for field in DealRecord._meta.concrete_fields)


@lru_cache(maxsize=1)
def _place_sql() -> str:
    quote = connection.ops.quote_name
    tournaments, sessions = Tournament._meta.db_table, PlayedSession._meta.db_table
    rulebooks, deals = RulebookVersion._meta.db_table, DealRecord._meta.db_table
    return (
        f"SELECT {bulk_rows.columns(Tournament, _TOURNAMENT_FIELDS, 't')}, "
        f"{bulk_rows.columns(PlayedSession, _SESSION_FIELDS, 's')}, "
        f"{bulk_rows.columns(DealRecord, _DEAL_FIELDS, 'd')}, s.plan, r.id, r.created_at "
        f"FROM {quote(sessions)} s JOIN {quote(tournaments)} t ON t.id = s.tournament_id "
        f"LEFT JOIN {quote(rulebooks)} r ON r.id = (SELECT v.id FROM {quote(rulebooks)} v "
        "WHERE v.season_id = t.season_id ORDER BY v.version DESC LIMIT 1) "
        f"LEFT JOIN {quote(deals)} d ON d.session_id = s.id AND d.position = %s "
        f"AND d.{quote('table')} = %s "
        "WHERE s.tournament_id = %s AND s.number = %s ORDER BY d.deal"
    )


def _place_row(
    tournament_pk: int, session_number: int, position: int, table: int
) -> tuple[Tournament, PlayedSession, str, tuple[int, Any] | None, tuple[DealRecord, ...]] | None:
    """The tournament and the session (the fields the day's writes need, the others
    deferred), the session's plan as stored, its season's rulebook key, and the table's
    deals at the position (one row each, the others' columns repeated)."""
    with connection.cursor() as cursor:
        cursor.execute(_place_sql(), [position, table, tournament_pk, session_number])
        rows = cursor.fetchall()
    if not rows:
        return None
    first = rows[0]
    bounds = list(accumulate((len(_TOURNAMENT_FIELDS), len(_SESSION_FIELDS), len(_DEAL_FIELDS))))
    tournament = bulk_rows.instance(Tournament, _TOURNAMENT_FIELDS, first[: bounds[0]])
    session = bulk_rows.instance(PlayedSession, _SESSION_FIELDS, first[bounds[0] : bounds[1]])
    session.tournament = tournament
    deals = tuple(
        bulk_rows.instance(DealRecord, _DEAL_FIELDS, row[bounds[1] : bounds[2]])
        for row in rows
        if row[bounds[1]] is not None  # the deal's id: none kept yet is one row of nulls
    )
    plan, rulebook_pk, rulebook_at = first[-3:]
    rulebook = None if rulebook_pk is None else (rulebook_pk, rulebook_at)
    return tournament, session, plan, rulebook, deals


@lru_cache(maxsize=64)
def _parsed_layout(plan: str) -> SessionLayout:
    return layout_from_json(json.loads(plan))


def _layout(plan: object) -> SessionLayout:
    """The session's layout, parsed once per process for each plan's text."""
    if isinstance(plan, str):
        return _parsed_layout(plan)
    return layout_from_json(plan)  # type: ignore[arg-type]
