"""The sessions of a results document: numbered 1 to n, each with tables and deals, its
tables of 3 and of 5 within its tables (of 5 only in an individual tournament), no later
session with more tables than the first, as many as declared; the first session seats
the players the entries name.

Sources: Fascicule 2, ch. 1 (*Le jeu à 3 / à 5 joueurs*), ch. 5 (several sessions).
"""

from __future__ import annotations

import math

from competitions.rules.results.checks.run import CheckRun
from competitions.rules.results.document import SessionResult
from core.vocabulary import Format


def check_sessions(check: CheckRun, planned_sessions: int | None) -> None:
    sessions = check.document.sessions
    if not sessions:
        if not check.gaps.sessions:
            check.error("sessions", "no_sessions", "The results must declare at least one session.")
        return
    count = len(sessions)
    for i, session in enumerate(sessions):
        at = f"sessions[{i}]"
        if session.number in check.sessions:
            other = check.sessions[session.number][0]
            check.error(
                f"{at}.number",
                "duplicate_session_number",
                f"Session {session.number} is declared twice (also at "
                f"{check.shown(f'sessions[{other}]')}).",
                session=session.number,
            )
            continue
        check.sessions[session.number] = (i, session)
        if not 1 <= session.number <= count and not check.gaps.sessions:
            check.error(
                f"{at}.number",
                "session_numbers_not_consecutive",
                f"{count} sessions are declared, so they are numbered 1 to {count} without "
                f"gaps; {session.number} is not.",
                count=count,
                session=session.number,
            )
        if session.tables < 1:
            check.error(
                f"{at}.tables",
                "no_tables",
                f"Session {session.number} must have at least one table, not {session.tables}.",
                session=session.number,
            )
        if session.deals < 1:
            check.error(
                f"{at}.deals",
                "no_deals",
                f"Session {session.number} must have at least one deal played, "
                f"not {session.deals}.",
                session=session.number,
            )
        if session.tables_of_three < 0:
            check.error(
                f"{at}.tables_of_three",
                "negative_number",
                f"Session {session.number} cannot have {session.tables_of_three} tables of 3.",
                value=session.tables_of_three,
            )
        elif session.tables_of_three > max(session.tables, 0):
            check.error(
                f"{at}.tables_of_three",
                "tables_of_three_exceed_tables",
                f"Session {session.number} has {session.tables} tables, so it cannot have "
                f"{session.tables_of_three} tables of 3 players.",
                session=session.number,
                tables=session.tables,
                tables_of_three=session.tables_of_three,
            )
        _check_tables_of_five(check, session, at)
    first = check.sessions.get(1)
    if first is not None:
        for number, (i, session) in check.sessions.items():
            if number != 1 and session.tables > first[1].tables:
                check.error(
                    f"sessions[{i}].tables",
                    "more_tables_than_first_session",
                    f"Session {number} has {session.tables} tables but session 1 had "
                    f"{first[1].tables}; the players of a later session are players of the "
                    f"first, so it cannot have more tables.",
                    session=number,
                    tables=session.tables,
                    first_tables=first[1].tables,
                )
    if planned_sessions is not None and count != planned_sessions:
        check.error(
            "sessions",
            "sessions_differ_from_declaration",
            f"The tournament was declared with {planned_sessions} session(s) but the results "
            f"have {count}; correct the results or the declaration.",
            planned=planned_sessions,
            count=count,
        )


def _check_tables_of_five(check: CheckRun, session: SessionResult, at: str) -> None:
    """Tables of 5 with a mort: within the session's tables, in an individual tournament."""
    five = session.tables_of_five
    if five == 0:
        return
    if check.format is not Format.INDIVIDUAL:
        check.error(
            f"{at}.tables_of_five",
            "tables_of_five_individual_only",
            f"Session {session.number} declares {five} table(s) of 5 players, but only an "
            f"individual tournament seats a fifth player who sits out each deal in turn "
            f"(chapter 1, 'Le jeu à 5 joueurs'); a {check.format.value} tournament cannot.",
            session=session.number,
            tables_of_five=five,
            format=check.format.value,
        )
    elif five + max(session.tables_of_three, 0) > max(session.tables, 0):
        check.error(
            f"{at}.tables_of_five",
            "tables_of_five_exceed_tables",
            f"Session {session.number} has {session.tables} tables, {session.tables_of_three} "
            f"of them of 3 players, so it cannot have {five} tables of 5 players.",
            session=session.number,
            tables=session.tables,
            tables_of_three=session.tables_of_three,
            tables_of_five=five,
        )


def check_first_session(check: CheckRun) -> None:
    found = check.sessions.get(1)
    entries = check.document.entries
    if found is None or not entries or check.gaps.entries_incomplete:
        return
    i, session = found
    players = sum(len(e.players) for e in entries)
    if players == session.players or session.tables_of_three > session.tables:
        return
    five = f", {session.tables_of_five} of 5" if session.tables_of_five else ""
    message = (
        f"Session 1 declares {session.tables} table(s), {session.tables_of_three} of them of "
        f"3 players{five}, which seat {session.players} players, but the entries name {players}."
    )
    tables = math.ceil(players / 4)
    if tables and 4 * tables - players <= tables:
        message += (
            f" {players} players sit at {tables} table(s), {4 * tables - players} of them of 3."
        )
    if players > 4 * session.tables and not session.tables_of_five:
        message += (
            " A table of 5 is declared in tables_of_five (a player sits out each deal in turn);"
            " the 5-player game is not homologable (chapter 1, 'Le jeu à 5 joueurs')."
        )
    check.error(
        f"sessions[{i}].tables",
        "first_session_players_mismatch",
        message,
        tables=session.tables,
        tables_of_three=session.tables_of_three,
        seats=session.players,
        players=players,
    )
