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
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core import signing
from django.urls import reverse
from django.utils import timezone

from competitions.models import PlayedSession, Tournament, TournamentStatus
from competitions.rules.day.layout import SessionLayout, TableAt, layout_from_json
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
    session = (
        PlayedSession.objects.select_related("tournament__season")
        .filter(tournament_id=tournament_pk, number=session_number)
        .first()
    )
    if session is None:
        raise _unknown()
    if entry_closed(session.tournament, now=now):
        raise PermissionDenied(
            "Entry at the tables is closed for this tournament: ask the arbiter.",
            code="table_entry_closed",
        )
    layout = layout_from_json(session.plan)
    try:
        found = layout.table(position, table)
    except RuleViolation:
        raise _unknown() from None
    return TablePlace(session.tournament, session, layout, position, found)
