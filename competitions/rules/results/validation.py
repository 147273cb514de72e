"""Checking a results document whole, before anything is stored.

:func:`validate` takes a parsed :class:`ResultsDocument`, the tournament's
format (declared separately) and the licence status of every licence number
(filled by the caller from the registry), and either returns
:class:`ValidatedResults` (with its warnings) or raises
:class:`~core.problems.RuleViolation` with *every* error found.

Sources: Fascicule 2, ch. 1 (*La marque*, *Le classement en donnes libres*,
*Le jeu à 3 / à 5 joueurs*, *Le tournoi libre par équipes*), ch. 2
(*Etablissement des résultats*: each position's scores balance), ch. 3 art. 27
(abandon) and 29 (*ex-æquo*), ch. 5 (*Conditions pour l'homologation*, several
sessions: tables summed, beneficiaries counted on the first session).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from competitions.rules.engine.penalties import (
    CURRENT_SCHEDULE,
    Penalty,
    PenaltyKind,
    PenaltySchedule,
    penalty_problems,
)
from competitions.rules.results.canonical import results_sha256
from competitions.rules.results.document import (
    CONTRACTS,
    EntryResult,
    PlayerResult,
    PositionScore,
    ResultsDocument,
    SessionResult,
)
from core.problems import Problem, RuleViolation
from core.vocabulary import Format
from rankings.rules.rulebook import Rulebook


class LicenceStatus(StrEnum):
    """What the registry says of a licence number, for the tournament's season."""

    LICENSED = "licensed"
    """Licensed for the tournament's season: may receive points."""
    NOT_LICENSED_THIS_SEASON = "not_licensed_this_season"
    """A known player without a licence for that season: ranked, no points."""
    UNKNOWN = "unknown"
    """No such licence number: ranked, no points."""


_FORMAT_NAMES = {Format.INDIVIDUAL: "individual", Format.DUO: "duo", Format.TEAM4: "team-of-4"}


@dataclass(frozen=True, slots=True)
class ValidatedResults:
    """A document that passed every check, with what storing and allocating need."""

    document: ResultsDocument
    format: Format
    warnings: tuple[Problem, ...]
    first_session_players: int
    """Players seated on the first session: everyone in the entries."""
    first_session_entries: int
    """Entries (players, duos, teams) on the first session: beneficiaries count from these."""
    total_tables: int
    """Sum of every session's tables: the number of tables of the PCN scale (ch. 5)."""
    places: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    """Entry number → place."""
    licensed: frozenset[int] = frozenset()
    """Licence numbers licensed for the season: the players who may receive points."""

    @property
    def sha256(self) -> str:
        """The canonical hash of the document (see :mod:`competitions.rules.results.canonical`)."""
        return results_sha256(self.document)


@dataclass(frozen=True, slots=True)
class _Figures:
    """An entry's article 29 figures, compared in this order."""

    best_position_score: int
    contracts_made: int
    garde_contre_made: int
    garde_sans_made: int

    def key(self) -> tuple[int, int, int, int]:
        return (
            self.best_position_score,
            self.contracts_made,
            self.garde_contre_made,
            self.garde_sans_made,
        )

    def __str__(self) -> str:
        return (
            f"best position {self.best_position_score}, {self.contracts_made} contracts made, "
            f"{self.garde_contre_made} garde contre, {self.garde_sans_made} garde sans"
        )


class _Check:
    """One run of the checks over one document."""

    def __init__(
        self,
        document: ResultsDocument,
        fmt: Format,
        licences: Mapping[int, LicenceStatus | str],
        schedule: PenaltySchedule,
    ) -> None:
        self.document = document
        self.format = fmt
        self.licences = licences
        self.schedule = schedule
        self.errors: list[Problem] = []
        self.warnings: list[Problem] = []
        self.sessions: dict[int, tuple[int, SessionResult]] = {}
        self.penalty_points: dict[int, int] = defaultdict(int)
        self.player_at: dict[int, str] = {}  # licence number → path of the player
        self.entry_best: dict[int, int] = {}  # entry index → best position score, from positions

    def error(self, where: str, code: str, message: str) -> None:
        self.errors.append(Problem(self.document.locate(where), code, message))

    def warn(self, where: str, code: str, message: str) -> None:
        self.warnings.append(Problem(self.document.locate(where), code, message))

    def shown(self, where: str) -> str:
        """A path for a message: a CSV line for a CSV document."""
        return self.document.locate(where)


def validate(
    document: ResultsDocument,
    *,
    format: Format | str,
    licences: Mapping[int, LicenceStatus | str],
    planned_sessions: int | None = None,
    minimum_entries: int | None = None,
    penalty_schedule: PenaltySchedule = CURRENT_SCHEDULE,
) -> ValidatedResults:
    """Check ``document`` whole; raise RuleViolation with every error, else return it validated.

    ``licences`` maps licence numbers to their status for the tournament's
    season; a number absent from it is :attr:`LicenceStatus.UNKNOWN`.
    ``planned_sessions`` (from the declaration), when given, must equal the
    sessions played. ``minimum_entries`` is the minimum participation for
    homologation (ch. 5), from the season's rulebook in force; when omitted, the
    current regulation's (:meth:`Rulebook.default`: 11 players, 6 duos, 5 teams
    of 4). Unknown or unlicensed players
    and penalty amounts outside ``penalty_schedule`` are warnings, not errors.
    """
    try:
        fmt = Format(format)
    except ValueError:
        raise RuleViolation.single(
            "format",
            "unknown_format",
            f"{format!r} is not a tournament format; one of: {', '.join(f.value for f in Format)}.",
        ) from None
    check = _Check(document, fmt, licences, penalty_schedule)
    _check_sessions(check, planned_sessions)
    _check_players(check)
    _check_penalties(check)
    _check_positions(check)
    _check_totals(check)
    _check_first_session(check)
    _check_tiebreaks(check)
    _check_places(check)
    if minimum_entries is None:
        minimum_entries = Rulebook.default().formats.of(fmt).minimum_entries
    _check_participation(check, minimum_entries)
    if check.errors:
        raise RuleViolation(check.errors)
    return ValidatedResults(
        document=document,
        format=fmt,
        warnings=tuple(check.warnings),
        first_session_players=sum(len(e.players) for e in document.entries),
        first_session_entries=len(document.entries),
        total_tables=sum(s.tables for s in document.sessions),
        places=MappingProxyType({e.number: e.place for e in document.entries}),
        licensed=frozenset(
            n for n in check.player_at if _status(licences, n) is LicenceStatus.LICENSED
        ),
    )


def _status(licences: Mapping[int, LicenceStatus | str], number: int) -> LicenceStatus:
    value = licences.get(number, LicenceStatus.UNKNOWN)
    try:
        return LicenceStatus(value)
    except ValueError:
        return LicenceStatus.UNKNOWN


def _who(player: PlayerResult) -> str:
    if player.licence_number is None:
        return f"'{player.name}' (no licence number)"
    return f"{player.licence_number} ({player.name})" if player.name else str(player.licence_number)


# ---------------------------------------------------------------------------
# Sessions
# ---------------------------------------------------------------------------


def _check_sessions(check: _Check, planned_sessions: int | None) -> None:
    sessions = check.document.sessions
    if not sessions:
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
            )
            continue
        check.sessions[session.number] = (i, session)
        if not 1 <= session.number <= count:
            check.error(
                f"{at}.number",
                "session_numbers_not_consecutive",
                f"{count} sessions are declared, so they are numbered 1 to {count} without "
                f"gaps; {session.number} is not.",
            )
        if session.tables < 1:
            check.error(
                f"{at}.tables",
                "no_tables",
                f"Session {session.number} must have at least one table, not {session.tables}.",
            )
        if session.deals < 1:
            check.error(
                f"{at}.deals",
                "no_deals",
                f"Session {session.number} must have at least one deal played, "
                f"not {session.deals}.",
            )
        if session.tables_of_three < 0:
            check.error(
                f"{at}.tables_of_three",
                "negative_number",
                f"Session {session.number} cannot have {session.tables_of_three} tables of 3.",
            )
        elif session.tables_of_three > max(session.tables, 0):
            check.error(
                f"{at}.tables_of_three",
                "tables_of_three_exceed_tables",
                f"Session {session.number} has {session.tables} tables, so it cannot have "
                f"{session.tables_of_three} tables of 3 players.",
            )
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
                )
    if planned_sessions is not None and count != planned_sessions:
        check.error(
            "sessions",
            "sessions_differ_from_declaration",
            f"The tournament was declared with {planned_sessions} session(s) but the results "
            f"have {count}; correct the results or the declaration.",
        )


def _check_first_session(check: _Check) -> None:
    found = check.sessions.get(1)
    entries = check.document.entries
    if found is None or not entries:
        return
    i, session = found
    players = sum(len(e.players) for e in entries)
    if players == session.players or session.tables_of_three > session.tables:
        return
    message = (
        f"Session 1 declares {session.tables} table(s), {session.tables_of_three} of them of "
        f"3 players, which seat {session.players} players, but the entries name {players}."
    )
    tables = math.ceil(players / 4)
    if tables and 4 * tables - players <= tables:
        message += (
            f" {players} players sit at {tables} table(s), {4 * tables - players} of them of 3."
        )
    if players > 4 * session.tables:
        message += " Tables of 5 players are not homologable (chapter 1, 'Le jeu à 5 joueurs')."
    check.error(f"sessions[{i}].tables", "first_session_players_mismatch", message)


# ---------------------------------------------------------------------------
# Entries and players
# ---------------------------------------------------------------------------


def _check_players(check: _Check) -> None:
    team = check.format.team_size
    numbers: dict[int, int] = {}
    for i, entry in enumerate(check.document.entries):
        at = f"entries[{i}]"
        if entry.number in numbers:
            check.error(
                f"{at}.number",
                "duplicate_entry_number",
                f"Entry number {entry.number} is already used at "
                f"{check.shown(f'entries[{numbers[entry.number]}]')}.",
            )
        else:
            numbers[entry.number] = i
        if len(entry.players) != team:
            check.error(
                f"{at}.players",
                "wrong_team_size",
                f"Entry {entry.number} has {len(entry.players)} player(s); an entry of a "
                f"{_FORMAT_NAMES[check.format]} tournament has {team}.",
            )
        for j, player in enumerate(entry.players):
            _check_player(check, entry, player, f"{at}.players[{j}]")


def _check_player(check: _Check, entry: EntryResult, player: PlayerResult, where: str) -> None:
    number = player.licence_number
    if number is None:
        if not player.name.strip():
            check.error(
                f"{where}.name",
                "unidentified_player",
                f"A player of entry {entry.number} has neither licence number nor name.",
            )
        else:
            check.warn(
                f"{where}.licence_number",
                "no_licence_number",
                f"Player '{player.name}' of entry {entry.number} has no licence number: "
                f"ranked, but will get no points.",
            )
        return
    if number in check.player_at:
        check.error(
            f"{where}.licence_number",
            "duplicate_licence_number",
            f"Licence number {number} is entered twice (also at "
            f"{check.shown(check.player_at[number])}); a player takes part once.",
        )
        return
    check.player_at[number] = where
    status = _status(check.licences, number)
    if status is LicenceStatus.UNKNOWN:
        check.warn(
            f"{where}.licence_number",
            "unknown_licence_number",
            f"Licence number {_who(player)} is not in the registry: the player is ranked "
            f"but will get no points.",
        )
    elif status is LicenceStatus.NOT_LICENSED_THIS_SEASON:
        check.warn(
            f"{where}.licence_number",
            "not_licensed_this_season",
            f"Player {_who(player)} has no licence for the tournament's season: ranked, but "
            f"will get no points.",
        )


def _check_penalties(check: _Check) -> None:
    for k, penalty in enumerate(check.document.penalties):
        at = f"penalties[{k}]"
        if penalty.licence_number not in check.player_at:
            check.error(
                f"{at}.licence_number",
                "penalty_player_not_in_results",
                f"The penalty hits licence number {penalty.licence_number}, who is not a player "
                f"of these results.",
            )
        if penalty.points < 0:
            check.error(
                f"{at}.points",
                "negative_number",
                f"A penalty takes points off a total, so it cannot be {penalty.points}.",
            )
            continue
        check.penalty_points[penalty.licence_number] += penalty.points
        try:
            kind = PenaltyKind(penalty.kind)
        except ValueError:
            check.error(
                f"{at}.kind",
                "unknown_penalty_kind",
                f"{penalty.kind!r} is not a kind of penalty; the kinds are: "
                f"{', '.join(k.value for k in PenaltyKind)}.",
            )
            continue
        record = Penalty(str(penalty.licence_number), kind, penalty.points, penalty.reason or "-")
        for problem in penalty_problems(record, check.schedule, at):
            if problem.code == "amount_not_in_schedule":
                check.warn(
                    f"{at}.points",
                    "penalty_amount_not_in_schedule",
                    f"{problem.message} The amount is kept as recorded by the arbiter.",
                )


# ---------------------------------------------------------------------------
# Position scores
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Seat:
    entry: int
    player: PlayerResult
    where: str  # path of the position score
    score: int


def _check_positions(check: _Check) -> None:
    entries = check.document.entries
    if not any(player.positions for entry in entries for player in entry.players):
        return
    tables: dict[tuple[int, int, int], list[_Seat]] = defaultdict(list)
    played: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)  # round → players
    entry_rounds: dict[int, dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))
    for i, entry in enumerate(entries):
        for j, player in enumerate(entry.players):
            at = f"entries[{i}].players[{j}]"
            if not player.positions:
                if not entry.abandoned:
                    check.error(
                        f"{at}.positions",
                        "missing_position_scores",
                        f"Player {_who(player)} has no position scores while other players "
                        f"have; give them for every player or for none.",
                    )
                continue
            seated: dict[tuple[int, int], int] = {}
            for k, score in enumerate(player.positions):
                where = f"{at}.positions[{k}]"
                if not _position_fits(check, score, where):
                    continue
                round_ = (score.session, score.position)
                if round_ in seated:
                    if seated[round_] != score.table:
                        check.error(
                            f"{where}.table",
                            "player_at_two_tables",
                            f"Player {_who(player)} is at table {seated[round_]} and at table "
                            f"{score.table} in session {score.session}, position "
                            f"{score.position}; a player sits at one table per position.",
                        )
                    else:
                        check.error(
                            where,
                            "duplicate_position_score",
                            f"Player {_who(player)} has two scores for session {score.session}, "
                            f"position {score.position}, table {score.table}.",
                        )
                    continue
                seated[round_] = score.table
                tables[(score.session, score.position, score.table)].append(
                    _Seat(i, player, where, score.score)
                )
                played[round_].add((i, j))
                entry_rounds[i][round_] += score.score
    for i, rounds in entry_rounds.items():
        check.entry_best[i] = max(rounds.values())
    _check_tables(check, tables)
    _check_rounds_played(check, played)
    _check_session_players(check, played)
    _check_tables_of_three(check, tables)


def _position_fits(check: _Check, score: PositionScore, where: str) -> bool:
    fits = True
    for name in ("position", "table"):
        if getattr(score, name) < 1:
            check.error(f"{where}.{name}", "number_too_small", f"A {name} number is 1 or more.")
            fits = False
    found = check.sessions.get(score.session)
    if found is None:
        check.error(
            f"{where}.session",
            "position_session_not_declared",
            f"Session {score.session} is not among the sessions declared "
            f"({', '.join(str(n) for n in sorted(check.sessions)) or 'none'}).",
        )
        return False
    session = found[1]
    if score.table > session.tables:
        check.error(
            f"{where}.table",
            "table_out_of_range",
            f"Session {score.session} has {session.tables} table(s), so there is no "
            f"table {score.table}.",
        )
        fits = False
    return fits


def _check_tables(check: _Check, tables: dict[tuple[int, int, int], list[_Seat]]) -> None:
    team = check.format.team_size
    for (session, position, table), seats in tables.items():
        place = f"Session {session}, position {position}, table {table}"
        names = ", ".join(f"{_who(seat.player)} {seat.score:+d}" for seat in seats)
        first = seats[0].where
        if len(seats) == 5:
            check.error(
                f"{first}.table",
                "table_of_five_not_homologable",
                f"{place} seats 5 players ({names}); tournaments with tables of 5 are not "
                f"homologable (chapter 1, 'Le jeu à 5 joueurs').",
            )
        elif len(seats) not in (3, 4):
            check.error(
                f"{first}.table",
                "wrong_table_size",
                f"{place} seats {len(seats)} player(s) ({names}); a table seats 4 players, "
                f"or 3 when the number of players is not a multiple of 4.",
            )
        total = sum(seat.score for seat in seats)
        if total != 0:
            check.error(
                f"{first}.score",
                "table_scores_do_not_sum_to_zero",
                f"{place}: the scores ({names}) sum to {total:+d}, not 0; the scores of a "
                f"table balance at each position (chapter 1, 'La marque'; chapter 2, "
                f"'Etablissement des résultats').",
            )
        if team > 1:
            entries = Counter(seat.entry for seat in seats)
            for entry, count in entries.items():
                if count > 1:
                    number = check.document.entries[entry].number
                    check.warn(
                        first,
                        "teammates_at_same_table",
                        f"{place} seats {count} players of entry {number}; the players of a "
                        f"team do not meet during the tournament (chapter 2, 'Tournoi en "
                        f"donnes libres par équipes').",
                    )


def _check_rounds_played(
    check: _Check, played: dict[tuple[int, int], set[tuple[int, int]]]
) -> None:
    rounds = sorted(played)
    for i, entry in enumerate(check.document.entries):
        if entry.abandoned:
            continue  # an entry that left the event did not play the last positions
        for j, player in enumerate(entry.players):
            if not player.positions:
                continue
            missing = [r for r in rounds if (i, j) not in played[r]]
            if not missing:
                continue
            shown = ", ".join(f"session {s} position {p}" for s, p in missing[:5])
            if len(missing) > 5:
                shown += f" and {len(missing) - 5} more"
            check.error(
                f"entries[{i}].players[{j}].positions",
                "missing_position_score",
                f"Player {_who(player)} has no score for {shown}, which other players played; "
                f"only an entry that abandoned (article 27) may miss positions.",
            )


def _check_session_players(
    check: _Check, played: dict[tuple[int, int], set[tuple[int, int]]]
) -> None:
    by_session: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for (session_number, _), players in played.items():
        by_session[session_number] |= players
    for number, (i, session) in check.sessions.items():
        if number == 1 or session.tables_of_three > session.tables:
            continue  # the first session is counted from the entries
        seated = len(by_session.get(number, ()))
        if seated != session.players:
            check.error(
                f"sessions[{i}].tables",
                "session_players_mismatch",
                f"Session {number} declares {session.tables} table(s), "
                f"{session.tables_of_three} of them of 3 players, which seat {session.players} "
                f"players, but {seated} players have position scores in it.",
            )


def _check_tables_of_three(check: _Check, tables: dict[tuple[int, int, int], list[_Seat]]) -> None:
    """The first position of each session is played at the tables the session declares.

    Later positions may lose players who abandoned (article 27), so only the
    first is compared with the declaration.
    """
    counts: dict[tuple[int, int], Counter[int]] = defaultdict(Counter)
    for (session_number, position, _), seats in tables.items():
        counts[(session_number, position)][len(seats)] += 1
    seen: set[int] = set()
    for (number, position), sizes in sorted(counts.items()):
        if number in seen:
            continue
        seen.add(number)
        i, session = check.sessions[number]
        if sizes.total() == session.tables and sizes[3] != session.tables_of_three:
            check.error(
                f"sessions[{i}].tables_of_three",
                "tables_of_three_mismatch",
                f"Session {number} declares {session.tables_of_three} table(s) of 3 players but "
                f"its first position, {position}, has {sizes[3]}.",
            )


# ---------------------------------------------------------------------------
# Totals
# ---------------------------------------------------------------------------


def _check_totals(check: _Check) -> None:
    for i, entry in enumerate(check.document.entries):
        known: list[int | None] = []
        for j, player in enumerate(entry.players):
            penalties = (
                check.penalty_points.get(player.licence_number, 0)
                if player.licence_number is not None
                else 0
            )
            total = player.total
            if player.positions:
                scored = sum(score.score for score in player.positions)
                derived = scored - penalties
                if total is not None and total != derived:
                    check.error(
                        f"entries[{i}].players[{j}].total",
                        "player_total_mismatch",
                        f"Player {_who(player)}'s total is {total}, but the position scores "
                        f"sum to {scored} and the penalties to {penalties}: the total is "
                        f"{derived}.",
                    )
                total = derived if total is None else total
            known.append(total)
        if known and None not in known:
            summed = sum(known)  # type: ignore[arg-type]
            if summed != entry.total:
                check.error(
                    f"entries[{i}].total",
                    "entry_total_mismatch",
                    f"Entry {entry.number}'s total is {entry.total}, but its players' totals "
                    f"(after penalties) sum to {summed}.",
                )
    entries = check.document.entries
    if entries and not any(p.code == "entry_total_mismatch" for p in check.errors):
        totals = sum(entry.total for entry in entries)
        penalties = sum(points for points in check.penalty_points.values())
        if totals + penalties != 0:
            check.error(
                "entries",
                "totals_do_not_sum_to_zero",
                f"The entries' totals sum to {totals:+d} and the penalties to {penalties}; "
                f"every table balances at every position, so the totals plus the penalties "
                f"sum to 0, not {totals + penalties:+d} (chapter 2, 'Etablissement des "
                f"résultats').",
            )


def _check_tiebreaks(check: _Check) -> None:
    deals = sum(max(s.deals, 0) for s in check.document.sessions)
    for i, entry in enumerate(check.document.entries):
        tiebreak = entry.tiebreak
        if tiebreak is None:
            continue
        at = f"entries[{i}].tiebreak"
        for key, count in tiebreak.contracts_made.items():
            if key not in CONTRACTS:
                check.error(
                    f"{at}.contracts_made.{key}",
                    "unknown_contract",
                    f"'{key}' is not a contract; the contracts are "
                    f"{', '.join(c.value for c in CONTRACTS)}.",
                )
            elif count < 0:
                check.error(
                    f"{at}.contracts_made.{key}",
                    "negative_number",
                    f"A number of contracts made cannot be {count}.",
                )
        made = sum(tiebreak.contracts_made.get(c, 0) for c in CONTRACTS)
        if deals and made > deals * len(entry.players):
            check.error(
                f"{at}.contracts_made",
                "too_many_contracts_made",
                f"Entry {entry.number}'s players made {made} contracts, more than the "
                f"{deals * len(entry.players)} deals they played in all.",
            )
        best = tiebreak.best_position_score
        derived = check.entry_best.get(i)
        if best is not None and derived is not None and best != derived:
            check.error(
                f"{at}.best_position_score",
                "best_position_score_mismatch",
                f"Entry {entry.number}'s best position score is given as {best}, but its "
                f"position scores give {derived}.",
            )


# ---------------------------------------------------------------------------
# Places
# ---------------------------------------------------------------------------


def _rank_key(entry: EntryResult) -> tuple[bool, int]:
    """Lower is better: entries that abandoned after all others, then by decreasing total."""
    return (entry.abandoned, -entry.total)


def _figures(check: _Check, i: int) -> _Figures | None:
    entry = check.document.entries[i]
    if entry.tiebreak is None:
        return None
    best = entry.tiebreak.best_position_score
    if best is None:
        best = check.entry_best.get(i)
    if best is None:
        return None
    made = entry.tiebreak.contracts_made
    return _Figures(
        best_position_score=best,
        contracts_made=sum(made.get(c, 0) for c in CONTRACTS),
        garde_contre_made=made.get(CONTRACTS[3], 0),
        garde_sans_made=made.get(CONTRACTS[2], 0),
    )


def _check_places(check: _Check) -> None:
    entries = check.document.entries
    count = len(entries)
    by_place: dict[int, list[int]] = defaultdict(list)
    for i, entry in enumerate(entries):
        if not 1 <= entry.place <= count:
            check.error(
                f"entries[{i}].place",
                "place_out_of_range",
                f"Entry {entry.number} is placed {entry.place}, but places run from 1 to the "
                f"{count} entries.",
            )
            continue
        by_place[entry.place].append(i)
    ahead = 0
    previous: list[int] | None = None
    for place in sorted(by_place):
        group = by_place[place]
        if place != ahead + 1:
            for i in group:
                check.error(
                    f"entries[{i}].place",
                    "place_sequence_broken",
                    f"Entry {entries[i].number} is placed {place}, but {ahead} entries are placed "
                    f"before it: in the standard competition convention ('1224', entries "
                    f"sharing a place take up as many places) it is placed {ahead + 1}.",
                )
        ahead += len(group)
        _check_shared_place(check, place, group)
        if previous is not None:
            _check_neighbours(check, previous, group)
        previous = group


def _check_shared_place(check: _Check, place: int, group: list[int]) -> None:
    entries = check.document.entries
    best = min(group, key=lambda i: _rank_key(entries[i]))
    for i in group:
        if _rank_key(entries[i]) == _rank_key(entries[best]):
            continue
        entry, other = entries[i], entries[best]
        if entry.abandoned != other.abandoned:
            message = (
                f"Entry {entry.number} abandoned and entry {other.number} did not, yet they "
                f"share place {place}; an entry that abandons is ranked after all the others "
                f"(article 27)."
            )
            code = "abandoned_entry_ranked_ahead"
        else:
            message = (
                f"Entry {entry.number} (total {entry.total}) shares place {place} with entry "
                f"{other.number} (total {other.total}); only equal totals share a place."
            )
            code = "shared_place_unequal_totals"
        check.error(f"entries[{i}].place", code, message)


def _check_neighbours(check: _Check, above: list[int], below: list[int]) -> None:
    """Entries of two consecutive places: the upper must rank at least as well as the lower."""
    entries = check.document.entries
    worst_above = max(above, key=lambda i: _rank_key(entries[i]))
    best_below = min(below, key=lambda i: _rank_key(entries[i]))
    upper, lower = entries[worst_above], entries[best_below]
    if _rank_key(upper) > _rank_key(lower):
        if upper.abandoned and not lower.abandoned:
            check.error(
                f"entries[{best_below}].place",
                "abandoned_entry_ranked_ahead",
                f"Entry {lower.number} is placed {lower.place}, behind entry {upper.number} "
                f"(placed {upper.place}), which abandoned; an entry that abandons is ranked "
                f"after all the others whatever its total (article 27).",
            )
        else:
            check.error(
                f"entries[{best_below}].place",
                "place_contradicts_total",
                f"Entry {lower.number} (total {lower.total}) is placed {lower.place}, behind "
                f"entry {upper.number} (total {upper.total}, placed {upper.place}); an entry "
                f"with a higher total is never placed behind one with a lower total.",
            )
        return
    if _rank_key(upper) < _rank_key(lower):
        return
    # Level entries split over two places: article 29 must separate them, in that order.
    key = _rank_key(upper)
    level_above = [i for i in above if _rank_key(entries[i]) == key]
    level_below = [i for i in below if _rank_key(entries[i]) == key]
    figures = {i: _figures(check, i) for i in (*level_above, *level_below)}
    missing = [i for i, f in figures.items() if f is None]
    if missing:
        for i in missing:
            check.error(
                f"entries[{i}].tiebreak",
                "tie_split_without_tiebreak",
                f"Entries {entries[level_above[0]].number} (placed {upper.place}) and "
                f"{entries[level_below[0]].number} (placed {lower.place}) are level on "
                f"{upper.total}; level entries share a place unless article 29 separates them, "
                f"which needs the tie-break data (best position score, contracts made) of "
                f"entry {entries[i].number}.",
            )
        return
    weakest = min(level_above, key=lambda i: figures[i].key())  # type: ignore[union-attr]
    strongest = max(level_below, key=lambda i: figures[i].key())  # type: ignore[union-attr]
    up, down = figures[weakest], figures[strongest]
    if up is None or down is None or up.key() > down.key():
        return
    if up.key() == down.key():
        code = "tie_split_on_equal_tiebreak"
        verdict = "and on every figure of article 29, so they share a place"
    else:
        code = "tiebreak_contradicts_places"
        verdict = f"and article 29 ranks entry {entries[strongest].number} ahead"
    check.error(
        f"entries[{strongest}].place",
        code,
        f"Entries {entries[weakest].number} (placed {entries[weakest].place}; {up}) and "
        f"{entries[strongest].number} (placed {entries[strongest].place}; {down}) are level "
        f"on {upper.total}, {verdict} (best position score, then contracts made, then garde "
        f"contre, then garde sans).",
    )


def _check_participation(check: _Check, minimum: int) -> None:
    count = len(check.document.entries)
    if count < minimum:
        check.error(
            "entries",
            "below_minimum_participation",
            f"{count} entries took part; a {_FORMAT_NAMES[check.format]} tournament is "
            f"homologated from {minimum} (chapter 5, 'Conditions pour l'homologation').",
        )
