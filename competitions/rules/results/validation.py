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
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from competitions.rules.engine.eliminations import EliminatedOrder, divided
from competitions.rules.engine.penalties import (
    CURRENT_SCHEDULE,
    EarlierOffence,
    Penalty,
    PenaltyKind,
    PenaltySchedule,
    RepeatScope,
    penalty_problems,
    repeat_problems,
)
from competitions.rules.engine.standings import (
    Contender,
    TieBreakFigures,
    article_29_places,
)
from competitions.rules.results.canonical import results_sha256
from competitions.rules.results.document import (
    CONTRACTS,
    MAX_ENTRIES,
    EntryResult,
    PlayerResult,
    PositionScore,
    ResultsDocument,
    SessionEntry,
    SessionResult,
)
from competitions.rules.results.names import same_name
from competitions.rules.rulebook import Eliminations, Rulebook
from core.problems import Problem, RuleViolation
from core.vocabulary import Format


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
class NameConfirmation:
    """A licence number under a name the registry spells differently, confirmed."""

    licence_number: int
    name_in_file: str
    registry_name: str


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
    confirmations: tuple[NameConfirmation, ...] = ()
    """The licence numbers whose name differs from the registry's, confirmed by the
    submitter as the right person (to be recorded with the results)."""

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
        registry_names: Mapping[int, str] | None,
        confirmed: frozenset[int],
    ) -> None:
        self.document = document
        self.gaps = document.gaps
        self.registry_names = registry_names
        self.confirmed = confirmed
        self.confirmations: list[NameConfirmation] = []
        self.unbalanced: set[tuple[int, int]] = set()  # players (entry, player) at such tables
        self.format = fmt
        self.licences = licences
        self.schedule = schedule
        self.repeat_scope = RepeatScope.SAME_FAULT_SAME_TOURNAMENT
        self.earlier_offences: Mapping[int, Sequence[EarlierOffence]] = {}
        self.errors: list[Problem] = []
        self.warnings: list[Problem] = []
        self.sessions: dict[int, tuple[int, SessionResult]] = {}
        self.penalty_points: dict[int, int] = defaultdict(int)
        self.player_at: dict[int, str] = {}  # licence number → path of the player
        self.entry_best: dict[int, int] = {}  # entry index → best position score, from positions
        self.tie_break_rules = False
        self.eliminations = Rulebook.default().eliminations
        self.staged = document.with_eliminations
        self.session_entries: dict[int, dict[int, SessionEntry]] = {
            session.number: {e.number: e for e in session.entries} for session in document.sessions
        }
        """Session number → entry number → what it did there (tournaments with eliminations)."""

    def plays(self, entry: int, session: int) -> bool:
        """Whether entry number ``entry`` plays ``session`` (always, without eliminations)."""
        if not self.staged:
            return True
        return entry in self.session_entries.get(session, {})

    def last_session(self, entry: int) -> int:
        """The last session entry number ``entry`` played (with eliminations)."""
        return max((n for n, listed in self.session_entries.items() if entry in listed), default=0)

    def error(self, where: str, code: str, message: str, **params: object) -> None:
        self.errors.append(Problem(self.document.locate(where), code, message, params))

    def warn(self, where: str, code: str, message: str, **params: object) -> None:
        self.warnings.append(Problem(self.document.locate(where), code, message, params))

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
    registry_names: Mapping[int, str] | None = None,
    confirmed: frozenset[int] = frozenset(),
    more_problems: Sequence[Problem] = (),
    tie_break_rules: bool = False,
    eliminations: Eliminations | None = None,
    repeat_scope: RepeatScope = RepeatScope.SAME_FAULT_SAME_TOURNAMENT,
    earlier_offences: Mapping[int, Sequence[EarlierOffence]] | None = None,
) -> ValidatedResults:
    """Check ``document`` whole; raise RuleViolation with every error, else return it validated.

    ``licences`` maps licence numbers to their status for the tournament's
    season; a number absent from it is :attr:`LicenceStatus.UNKNOWN`.
    ``planned_sessions`` (from the declaration), when given, must equal the
    sessions played. ``minimum_entries`` is the minimum participation for
    homologation (ch. 5), from the season's rulebook in force; when omitted, the
    current regulation's (:meth:`Rulebook.default`: 11 players, 6 duos, 5 teams
    of 4). A licence number the registry does not know is an error (a player without
    licence number is written without one); a known player without a licence for the
    season and penalty amounts outside ``penalty_schedule`` are warnings.

    ``registry_names`` (licence number → the registry's name), when given, is compared
    with each player's name (:func:`~competitions.rules.results.names.same_name`): a
    different name is an error unless the number is in ``confirmed`` (the submitter said
    it is the right person), when it is returned in ``confirmations``.
    ``more_problems`` (the reader's, found before) are reported with the errors found
    here, in one refusal; the document then holds only what was read (its ``gaps``)
    and the checks that a missing part would fail are skipped.

    ``tie_break_rules``: the competition has its own tie-break rules (article 29, every
    championship stage): level entries are placed by their tie-break data, and only those
    level on every figure share a place. ``eliminations``: the season's choices for
    sessions with eliminations (:class:`~competitions.rules.rulebook.Eliminations`; the
    current regulation's when omitted), used when the sessions list their entries.
    ``repeat_scope`` (the season's ``arbitration.repeat_scope``) and ``earlier_offences``
    (licence number → the player's offences in the season's earlier tournaments, read only
    under ``same_fault_same_season``): a first-offence amount on a repeat, or a repeat
    amount with no first offence, is a warning (:func:`repeat_problems`).
    """
    try:
        fmt = Format(format)
    except ValueError:
        raise RuleViolation.single(
            "format",
            "unknown_format",
            f"{format!r} is not a tournament format; one of: {', '.join(f.value for f in Format)}.",
            {"value": str(format), "formats": ", ".join(f.value for f in Format)},
        ) from None
    check = _Check(document, fmt, licences, penalty_schedule, registry_names, confirmed)
    check.repeat_scope = repeat_scope
    check.earlier_offences = earlier_offences or {}
    check.tie_break_rules = tie_break_rules
    if eliminations is not None:
        check.eliminations = eliminations
    _check_sessions(check, planned_sessions)
    _check_players(check)
    _check_penalties(check)
    _check_positions(check)
    _check_totals(check)
    _check_first_session(check)
    if check.staged:
        _check_eliminations(check)
    _check_tiebreaks(check)
    if check.staged:
        _check_staged_places(check)
    else:
        _check_places(check)
        if check.tie_break_rules:
            _check_article_29(check)
    if minimum_entries is None:
        minimum_entries = Rulebook.default().formats.of(fmt).minimum_entries
    _check_participation(check, minimum_entries)
    if more_problems or check.errors:
        raise RuleViolation((*more_problems, *check.errors))
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
        confirmations=tuple(check.confirmations),
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


def _named(player: PlayerResult) -> str:
    """A player for a message in any language: name (licence number), or either."""
    if player.licence_number is None:
        return player.name
    return f"{player.name} ({player.licence_number})" if player.name else str(player.licence_number)


def _scores(seats: list[_Seat]) -> str:
    return ", ".join(f"{_named(seat.player)} {seat.score:+d}" for seat in seats)


# ---------------------------------------------------------------------------
# Sessions
# ---------------------------------------------------------------------------


def _check_sessions(check: _Check, planned_sessions: int | None) -> None:
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


def _check_tables_of_five(check: _Check, session: SessionResult, at: str) -> None:
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


def _check_first_session(check: _Check) -> None:
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
                entry=entry.number,
            )
        else:
            numbers[entry.number] = i
        if len(entry.players) != team and not check.gaps.entry_incomplete(entry.number):
            check.error(
                f"{at}.players",
                "wrong_team_size",
                f"Entry {entry.number} has {len(entry.players)} player(s); an entry of a "
                f"{_FORMAT_NAMES[check.format]} tournament has {team}.",
                entry=entry.number,
                players=len(entry.players),
                team=team,
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
                entry=entry.number,
            )
        else:
            check.warn(
                f"{where}.licence_number",
                "no_licence_number",
                f"Player '{player.name}' of entry {entry.number} has no licence number: "
                f"ranked, but will get no points.",
                entry=entry.number,
                name=player.name,
            )
        return
    if number in check.player_at:
        check.error(
            f"{where}.licence_number",
            "duplicate_licence_number",
            f"Licence number {number} is entered twice (also at "
            f"{check.shown(check.player_at[number])}); a player takes part once.",
            licence_number=number,
        )
        return
    check.player_at[number] = where
    status = _status(check.licences, number)
    if status is LicenceStatus.UNKNOWN:
        check.error(
            f"{where}.licence_number",
            "unknown_licence_number",
            f"Licence number {_who(player)} is not in the registry: correct it, or leave it "
            f"empty for a player without a licence (ranked, no points).",
            licence_number=number,
            name=player.name or "?",
        )
        return
    _check_name(check, player, number, where)
    if status is LicenceStatus.NOT_LICENSED_THIS_SEASON:
        check.warn(
            f"{where}.licence_number",
            "not_licensed_this_season",
            f"Player {_who(player)} has no licence for the tournament's season: ranked, but "
            f"will get no points.",
            licence_number=number,
            name=player.name or "?",
        )


def _check_name(check: _Check, player: PlayerResult, number: int, where: str) -> None:
    """The name next to a licence number is the registry's (folded), or confirmed."""
    if check.registry_names is None or not player.name.strip():
        return
    registered = check.registry_names.get(number)
    if registered is None or same_name(player.name, registered):
        return
    if number in check.confirmed:
        check.confirmations.append(NameConfirmation(number, player.name, registered))
        return
    check.error(
        f"{where}.licence_number",
        "licence_name_mismatch",
        f"Licence number {number} is {registered}'s in the registry, not {player.name}'s: "
        f"correct the number, or confirm that it is this person.",
        licence_number=number,
        name=player.name,
        registry_name=registered,
    )


def _check_penalties(check: _Check) -> None:
    judged: list[tuple[int, Penalty]] = []  # penalties of a known kind, for the repeats
    for k, penalty in enumerate(check.document.penalties):
        at = f"penalties[{k}]"
        if penalty.licence_number not in check.player_at and not check.gaps.entries_incomplete:
            check.error(
                f"{at}.licence_number",
                "penalty_player_not_in_results",
                f"The penalty hits licence number {penalty.licence_number}, who is not a player "
                f"of these results.",
                licence_number=penalty.licence_number,
            )
        if penalty.points < 0:
            check.error(
                f"{at}.points",
                "negative_number",
                f"A penalty takes points off a total, so it cannot be {penalty.points}.",
                value=penalty.points,
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
                value=str(penalty.kind),
                kinds=", ".join(k.value for k in PenaltyKind),
            )
            continue
        record = Penalty(str(penalty.licence_number), kind, penalty.points, penalty.reason or "-")
        judged.append((k, record))
        for problem in penalty_problems(record, check.schedule, at):
            if problem.code == "amount_not_in_schedule":
                check.warn(
                    f"{at}.points",
                    "penalty_amount_not_in_schedule",
                    f"{problem.message} The amount is kept as recorded by the arbiter.",
                    points=penalty.points,
                    kind=str(kind),
                )
    earlier = {str(n): offences for n, offences in check.earlier_offences.items()}
    records = [record for _, record in judged]
    for problem in repeat_problems(
        records, scope=check.repeat_scope, earlier=earlier, schedule=check.schedule
    ):
        index = int(problem.field.split("[", 1)[1].split("]", 1)[0])
        k = judged[index][0]
        check.warn(
            f"penalties[{k}].points",
            problem.code,
            f"{problem.message} The amount is kept as recorded by the arbiter.",
            **problem.params,
        )


# ---------------------------------------------------------------------------
# Position scores
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Seat:
    entry: int
    index: int  # of the player in the entry
    player: PlayerResult
    at: str  # path of the player
    k: int  # of the position score in the player's
    score: int

    @property
    def where(self) -> str:
        """Path of the position score (built only for a problem)."""
        return f"{self.at}.positions[{self.k}]"


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
                if not entry.abandoned and not check.gaps.positions:
                    check.error(
                        f"{at}.positions",
                        "missing_position_scores",
                        f"Player {_who(player)} has no position scores while other players "
                        f"have; give them for every player or for none.",
                        who=_named(player),
                    )
                continue
            seated: dict[tuple[int, int], int] = {}
            sessions = check.sessions
            for k, score in enumerate(player.positions):
                found = sessions.get(score.session)
                if (
                    found is None or score.position < 1 or not 1 <= score.table <= found[1].tables
                ) and not _position_fits(check, score, f"{at}.positions[{k}]"):
                    continue  # (what fits, the common case, is judged without a path)
                round_ = (score.session, score.position)
                if round_ in seated:
                    where = f"{at}.positions[{k}]"
                    if seated[round_] != score.table:
                        check.error(
                            f"{where}.table",
                            "player_at_two_tables",
                            f"Player {_who(player)} is at table {seated[round_]} and at table "
                            f"{score.table} in session {score.session}, position "
                            f"{score.position}; a player sits at one table per position.",
                            who=_named(player),
                            table=seated[round_],
                            other_table=score.table,
                            session=score.session,
                            position=score.position,
                        )
                    else:
                        check.error(
                            where,
                            "duplicate_position_score",
                            f"Player {_who(player)} has two scores for session {score.session}, "
                            f"position {score.position}, table {score.table}.",
                            who=_named(player),
                            session=score.session,
                            position=score.position,
                            table=score.table,
                        )
                    continue
                seated[round_] = score.table
                tables[(score.session, score.position, score.table)].append(
                    _Seat(i, j, player, at, k, score.score)
                )
                played[round_].add((i, j))
                entry_rounds[i][round_] += score.score
    for i, rounds in entry_rounds.items():
        check.entry_best[i] = max(rounds.values())
    gaps = check.gaps
    if gaps.positions or gaps.entries_incomplete:
        return  # a table or a position misses a score that could not be read
    _check_tables(check, tables)
    _check_rounds_played(check, played)
    if not gaps.sessions:
        _check_session_players(check, played)
        _check_tables_of_three(check, tables)


def _position_fits(check: _Check, score: PositionScore, where: str) -> bool:
    fits = True
    for name in ("position", "table"):
        if getattr(score, name) < 1:
            check.error(
                f"{where}.{name}",
                "number_too_small",
                f"A {name} number is 1 or more.",
                minimum=1,
                value=getattr(score, name),
            )
            fits = False
    found = check.sessions.get(score.session)
    if found is None:
        if check.gaps.sessions:
            return False  # its session's line could not be read
        check.error(
            f"{where}.session",
            "position_session_not_declared",
            f"Session {score.session} is not among the sessions declared "
            f"({', '.join(str(n) for n in sorted(check.sessions)) or 'none'}).",
            session=score.session,
            sessions=", ".join(str(n) for n in sorted(check.sessions)) or "–",
        )
        return False
    session = found[1]
    if score.table > session.tables:
        check.error(
            f"{where}.table",
            "table_out_of_range",
            f"Session {score.session} has {session.tables} table(s), so there is no "
            f"table {score.table}.",
            session=score.session,
            tables=session.tables,
            table=score.table,
        )
        fits = False
    return fits


def _check_tables(check: _Check, tables: dict[tuple[int, int, int], list[_Seat]]) -> None:
    team = check.format.team_size
    for (session, position, table), seats in tables.items():
        place = f"Session {session}, position {position}, table {table}"
        names = ", ".join(f"{_who(seat.player)} {seat.score:+d}" for seat in seats)
        first = seats[0].where
        declared = check.sessions.get(session)
        if len(seats) == 5 and (declared is None or not declared[1].tables_of_five):
            check.error(
                f"{first}.table",
                "table_of_five_not_homologable",
                f"{place} seats 5 players ({names}), but session {session} declares no table "
                f"of 5 (tables_of_five: one player sits out each deal in turn, le mort); the "
                f"5-player game is not homologable (chapter 1, 'Le jeu à 5 joueurs').",
                session=session,
                position=position,
                table=table,
                scores=_scores(seats),
            )
        elif len(seats) not in (3, 4, 5):
            check.error(
                f"{first}.table",
                "wrong_table_size",
                f"{place} seats {len(seats)} player(s) ({names}); a table seats 4 players, "
                f"or 3 when the number of players is not a multiple of 4.",
                session=session,
                position=position,
                table=table,
                players=len(seats),
                scores=_scores(seats),
            )
        total = sum(seat.score for seat in seats)
        if total != 0:
            check.unbalanced.update((seat.entry, seat.index) for seat in seats)
            check.error(
                f"{first}.score",
                "table_scores_do_not_sum_to_zero",
                f"{place}: the scores ({names}) sum to {total:+d}, not 0; the scores of a "
                f"table balance at each position (chapter 1, 'La marque'; chapter 2, "
                f"'Etablissement des résultats').",
                session=session,
                position=position,
                table=table,
                scores=_scores(seats),
                sum=f"{total:+d}",
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
                        session=session,
                        position=position,
                        table=table,
                        count=count,
                        entry=number,
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
            missing = [
                r for r in rounds if (i, j) not in played[r] and check.plays(entry.number, r[0])
            ]
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
                who=_named(player),
                missing=", ".join(f"{s}/{p}" for s, p in missing[:5])
                + (f" (+{len(missing) - 5})" if len(missing) > 5 else ""),
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
                session=number,
                tables=session.tables,
                tables_of_three=session.tables_of_three,
                seats=session.players,
                players=seated,
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
        if sizes.total() == session.tables and sizes[5] != session.tables_of_five:
            check.error(
                f"sessions[{i}].tables_of_five",
                "tables_of_five_mismatch",
                f"Session {number} declares {session.tables_of_five} table(s) of 5 players but "
                f"its first position, {position}, has {sizes[5]}.",
                session=number,
                tables_of_five=session.tables_of_five,
                position=position,
                found=sizes[5],
            )
        if sizes.total() == session.tables and sizes[3] != session.tables_of_three:
            check.error(
                f"sessions[{i}].tables_of_three",
                "tables_of_three_mismatch",
                f"Session {number} declares {session.tables_of_three} table(s) of 3 players but "
                f"its first position, {position}, has {sizes[3]}.",
                session=number,
                tables_of_three=session.tables_of_three,
                position=position,
                found=sizes[3],
            )


# ---------------------------------------------------------------------------
# Totals
# ---------------------------------------------------------------------------


def _check_totals(check: _Check) -> None:
    if check.staged:
        _check_staged_totals(check)
        return
    gaps = check.gaps
    scores_missing = gaps.positions or gaps.penalties  # a derived total would be wrong
    for i, entry in enumerate(check.document.entries):
        known: list[int | None] = []
        explained = gaps.entry_incomplete(entry.number)  # by a mistake reported elsewhere
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
                at_unbalanced_table = (i, j) in check.unbalanced
                if total is None and (scores_missing or at_unbalanced_table):
                    explained = True
                # At a table that does not balance, the table's mistake, reported there.
                if total not in (None, derived) and not (scores_missing or at_unbalanced_table):
                    check.error(
                        f"entries[{i}].players[{j}].total",
                        "player_total_mismatch",
                        f"Player {_who(player)}'s total is {total}, but the position scores "
                        f"sum to {scored} and the penalties to {penalties}: the total is "
                        f"{derived}.",
                        who=_named(player),
                        total=total,
                        scored=scored,
                        penalties=penalties,
                        derived=derived,
                    )
                total = derived if total is None else total
            known.append(total)
        if known and None not in known and not explained:
            summed = sum(known)  # type: ignore[arg-type]
            if summed != entry.total:
                check.error(
                    f"entries[{i}].total",
                    "entry_total_mismatch",
                    f"Entry {entry.number}'s total is {entry.total}, but its players' totals "
                    f"(after penalties) sum to {summed}.",
                    entry=entry.number,
                    total=entry.total,
                    summed=summed,
                )
    entries = check.document.entries
    if gaps.any:
        return  # an entry or a penalty could not be read: the sum cannot balance
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
                totals=f"{totals:+d}",
                penalties=penalties,
                sum=f"{totals + penalties:+d}",
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
                    value=str(key),
                    contracts=", ".join(c.value for c in CONTRACTS),
                )
            elif count < 0:
                check.error(
                    f"{at}.contracts_made.{key}",
                    "negative_number",
                    f"A number of contracts made cannot be {count}.",
                    value=count,
                )
        made = sum(tiebreak.contracts_made.get(c, 0) for c in CONTRACTS)
        if deals and made > deals * len(entry.players):
            check.error(
                f"{at}.contracts_made",
                "too_many_contracts_made",
                f"Entry {entry.number}'s players made {made} contracts, more than the "
                f"{deals * len(entry.players)} deals they played in all.",
                entry=entry.number,
                made=made,
                deals=deals * len(entry.players),
            )
        best = tiebreak.best_position_score
        derived = check.entry_best.get(i)
        unbalanced = any(
            (i, j) in check.unbalanced for j in range(len(entry.players))
        )  # its scores' mistake is the table's, reported there
        if (
            best is not None
            and derived is not None
            and best != derived
            and not (unbalanced or check.gaps.positions)
        ):
            check.error(
                f"{at}.best_position_score",
                "best_position_score_mismatch",
                f"Entry {entry.number}'s best position score is given as {best}, but its "
                f"position scores give {derived}.",
                entry=entry.number,
                best=best,
                derived=derived,
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


def _entries_missing(check: _Check) -> int | None:
    """How many entries could not be read at all (``None``: an unknown number of them)."""
    gaps = check.gaps
    if gaps.unnumbered_entry:
        return None
    read = {entry.number for entry in check.document.entries}
    return sum(1 for number in gaps.entries if number not in read)


def _entry_missing(check: _Check) -> bool:
    """An entry could not be read at all: the places and the count cannot be checked."""
    return _entries_missing(check) != 0


def _check_places(check: _Check) -> None:
    entries = check.document.entries
    count = len(entries)
    by_place: dict[int, list[int]] = defaultdict(list)
    missing = _entry_missing(check)
    out_of_range: set[int] = set()
    for i, entry in enumerate(entries):
        if not 1 <= entry.place <= count and not missing:
            out_of_range.add(i)
            check.error(
                f"entries[{i}].place",
                "place_out_of_range",
                f"Entry {entry.number} is placed {entry.place}, but places run from 1 to the "
                f"{count} entries.",
                entry=entry.number,
                place=entry.place,
                count=count,
            )
            continue
        by_place[entry.place].append(i)
    if _wrong_places(check, out_of_range):
        return  # each misplaced entry reported once; its neighbours' places follow from it
    ahead = 0
    previous: list[int] | None = None
    for place in sorted(by_place):
        group = by_place[place]
        if place != ahead + 1 and not missing:
            for i in group:
                check.error(
                    f"entries[{i}].place",
                    "place_sequence_broken",
                    f"Entry {entries[i].number} is placed {place}, but {ahead} entries are placed "
                    f"before it: in the standard competition convention ('1224', entries "
                    f"sharing a place take up as many places) it is placed {ahead + 1}.",
                    entry=entries[i].number,
                    place=place,
                    ahead=ahead,
                    expected=ahead + 1,
                )
        ahead += len(group)
        if previous is not None:
            _check_neighbours(check, previous, group)
        previous = group


def _wrong_places(check: _Check, out_of_range: set[int]) -> bool:
    """Report every entry placed where no reading of its total puts it: behind the
    entries that rank strictly better, and at most behind the level ones (article 29
    may order those); entries that could not be read may stand anywhere. Whether any
    was reported."""
    entries = check.document.entries
    keys = sorted(_rank_key(entry) for entry in entries)
    slack = _entries_missing(check)
    found = False
    for i, entry in enumerate(entries):
        key = _rank_key(entry)
        first, last = bisect_left(keys, key) + 1, bisect_right(keys, key)
        latest = MAX_ENTRIES if slack is None else last + slack
        if i in out_of_range or first <= entry.place <= latest:
            continue
        found = True
        expected = str(first) if first == last else f"{first}–{last}"
        check.error(
            f"entries[{i}].place",
            "wrong_place",
            f"Entry {entry.number} (total {entry.total}"
            f"{', abandoned' if entry.abandoned else ''}) is placed {entry.place}, but its "
            f"total places it {expected} ('1224': 1 + the entries ranked strictly ahead; "
            f"an entry that abandoned after all the others, article 27).",
            entry=entry.number,
            total=entry.total,
            place=entry.place,
            expected=expected,
        )
    return found


def _check_neighbours(check: _Check, above: list[int], below: list[int]) -> None:
    """Level entries on two consecutive places: article 29 must separate them."""
    entries = check.document.entries
    worst_above = max(above, key=lambda i: _rank_key(entries[i]))
    best_below = min(below, key=lambda i: _rank_key(entries[i]))
    upper, lower = entries[worst_above], entries[best_below]
    if _rank_key(upper) != _rank_key(lower):
        return  # in total order (every entry is placed where its total allows)
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
                entry=entries[level_above[0]].number,
                place=upper.place,
                other=entries[level_below[0]].number,
                other_place=lower.place,
                total=upper.total,
                missing=entries[i].number,
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
        entry=entries[weakest].number,
        place=entries[weakest].place,
        other=entries[strongest].number,
        other_place=entries[strongest].place,
        total=upper.total,
    )


def _check_participation(check: _Check, minimum: int) -> None:
    count = len(check.document.entries)
    if count < minimum and not _entry_missing(check):
        check.error(
            "entries",
            "below_minimum_participation",
            f"{count} entries took part; a {_FORMAT_NAMES[check.format]} tournament is "
            f"homologated from {minimum} (chapter 5, 'Conditions pour l'homologation').",
            count=count,
            minimum=minimum,
        )


# ---------------------------------------------------------------------------
# Article 29: the tie-break data decides level entries' places
# ---------------------------------------------------------------------------


def _article_29_figures(check: _Check, i: int) -> TieBreakFigures | None:
    figures = _figures(check, i)
    if figures is None:
        return None
    return TieBreakFigures(
        best_position_score=figures.best_position_score,
        contracts_made=figures.contracts_made,
        garde_contre_made=figures.garde_contre_made,
        garde_sans_made=figures.garde_sans_made,
    )


def _compare_places(
    check: _Check, contenders: Sequence[Contender], decided: Sequence[bool], code: str
) -> None:
    """Report every entry placed elsewhere than ``contenders`` put it ("1224", article 29
    within each group), and the level entries without tie-break data where article 29
    must decide (``decided[i]``: the entry's group is one article 29 orders)."""
    entries = check.document.entries
    expected = article_29_places(contenders)
    sizes = Counter(c.group for c in contenders)
    lacking = {
        i
        for i, c in enumerate(contenders)
        if decided[i] and c.figures is None and sizes[c.group] > 1
    }
    for i in sorted(lacking):
        level = [
            entries[k].number
            for k, c in enumerate(contenders)
            if c.group == contenders[i].group and k != i
        ]
        shown = ", ".join(str(n) for n in level[:5]) + (" …" if len(level) > 5 else "")
        check.error(
            f"entries[{i}].tiebreak",
            "tie_needs_tiebreak_data",
            f"Entry {entries[i].number} is level on {entries[i].total} with entry(ies) "
            f"{shown}; in a competition with tie-break rules, article 29 decides their places "
            f"and needs entry {entries[i].number}'s tie-break data (best position score, "
            f"contracts made).",
            entry=entries[i].number,
            total=entries[i].total,
            others=shown,
        )
    groups_lacking = {contenders[i].group for i in lacking}
    for i, entry in enumerate(entries):
        if contenders[i].group in groups_lacking or entry.place == expected[i]:
            continue
        figures = contenders[i].figures
        shown = f"; {_Figures(*_figures_tuple(figures))}" if figures else ""
        check.error(
            f"entries[{i}].place",
            code,
            f"Entry {entry.number} (total {entry.total}{shown}) is placed {entry.place}, but "
            f"the rules place it {expected[i]}: by total, then article 29 (best position "
            f"score, contracts made, garde contre, garde sans); only entries level on every "
            f"figure share a place.",
            entry=entry.number,
            total=entry.total,
            place=entry.place,
            expected=expected[i],
        )


def _figures_tuple(figures: TieBreakFigures) -> tuple[int, int, int, int]:
    return (
        figures.best_position_score,
        figures.contracts_made,
        figures.garde_contre_made,
        figures.garde_sans_made,
    )


def _check_article_29(check: _Check) -> None:
    """In a competition with tie-break rules, level entries are placed by article 29 (after
    the checks of the places by total, which report each misplaced entry once)."""
    if any(p.code in _PLACE_CODES for p in check.errors) or _entry_missing(check):
        return
    contenders = _plain_contenders(check)
    _compare_places(check, contenders, [True] * len(contenders), "place_contradicts_article_29")


def _plain_contenders(check: _Check) -> list[Contender]:
    return [
        Contender((int(e.abandoned), -e.total), _article_29_figures(check, i))
        for i, e in enumerate(check.document.entries)
    ]


def ties_survive(
    document: ResultsDocument,
    *,
    format: Format,
    tie_break_rules: bool,
    eliminations: Eliminations | None = None,
) -> bool:
    """Whether every place ``document`` shares is one the rules leave shared: level entries
    that article 29 does not separate (in a competition with tie-break rules), or entries
    eliminated at one cut that the season shares (``eliminations``). True for a document
    :func:`validate` accepted with the same arguments; the homologation tells the
    allocation so (only those ties share their points). Pure."""
    check = _Check(document, Format(format), {}, CURRENT_SCHEDULE, None, frozenset())
    check.tie_break_rules = tie_break_rules
    if eliminations is not None:
        check.eliminations = eliminations
    for number, session in enumerate(document.sessions):
        check.sessions.setdefault(session.number, (number, session))
    _check_positions(check)  # the best position scores the figures may need
    if check.staged:
        contenders, _decided = _staged_contenders(check)
    else:
        contenders = _plain_contenders(check)
    expected = article_29_places(contenders)
    return all(entry.place == expected[i] for i, entry in enumerate(document.entries))


# ---------------------------------------------------------------------------
# Sessions with eliminations and divided scores (chapter 3, art. 3; chapter 2)
# ---------------------------------------------------------------------------


def _check_eliminations(check: _Check) -> None:
    """Each session lists the entries that play it: the first every entry, each later one
    entries of the one before, carrying in their score at its end divided by the session's
    divisor (rounded as the season's rulebook says); the scores of a session sum to zero
    among those who play it, and no entry eliminated before it had a better score than an
    entry that plays it."""
    if check.gaps.sessions or check.gaps.entries_incomplete:
        return
    entries = check.document.entries
    numbers = {e.number: i for i, e in enumerate(entries)}
    rounding = check.eliminations.halving_rounding
    previous: dict[int, SessionEntry] | None = None
    for number, (i, session) in sorted(check.sessions.items()):
        at = f"sessions[{i}]"
        if not session.entries:
            check.error(
                f"{at}.entries",
                "session_entries_missing",
                f"Session {number} does not list the entries that play it, while other "
                f"sessions do; with eliminations every session lists them.",
                session=number,
            )
            previous = None
            continue
        listed: dict[int, SessionEntry] = {}
        for j, played in enumerate(session.entries):
            where = f"{at}.entries[{j}]"
            if played.number in listed:
                check.error(
                    f"{where}.number",
                    "duplicate_session_entry",
                    f"Entry {played.number} is listed twice in session {number}.",
                    entry=played.number,
                    session=number,
                )
                continue
            if played.number not in numbers:
                check.error(
                    f"{where}.number",
                    "session_entry_unknown",
                    f"Session {number} lists entry {played.number}, which is not an entry of "
                    f"these results.",
                    entry=played.number,
                    session=number,
                )
                continue
            listed[played.number] = played
            if number == 1:
                if played.carried != 0:
                    check.error(
                        f"{where}.carried",
                        "carried_into_first_session",
                        f"Entry {played.number} carries {played.carried} into session 1; no "
                        f"score is carried into the first session.",
                        entry=played.number,
                        carried=played.carried,
                    )
            elif previous is not None:
                before = previous.get(played.number)
                if before is None:
                    check.error(
                        f"{where}.number",
                        "session_entry_not_in_previous",
                        f"Entry {played.number} plays session {number} but not session "
                        f"{number - 1}; an entry eliminated does not come back.",
                        entry=played.number,
                        session=number,
                    )
                    continue
                expected = divided(before.end, session.points_divisor, rounding)
                if played.carried != expected:
                    check.error(
                        f"{where}.carried",
                        "carried_score_mismatch",
                        f"Entry {played.number} carries {played.carried} into session {number}"
                        f", but it ended session {number - 1} on {before.end}, divided by "
                        f"{session.points_divisor} ({rounding.value}): {expected}.",
                        entry=played.number,
                        session=number,
                        carried=played.carried,
                        end=before.end,
                        divisor=session.points_divisor,
                        expected=expected,
                    )
        if number == 1:
            if session.points_divisor != 1:
                check.error(
                    f"{at}.points_divisor",
                    "first_session_divisor",
                    "No score is carried into the first session, so none is divided; its "
                    "divisor is 1.",
                    divisor=session.points_divisor,
                )
            missing = [e.number for e in entries if e.number not in listed]
            if missing:
                shown = ", ".join(str(n) for n in missing[:10])
                check.error(
                    f"{at}.entries",
                    "session_entry_missing",
                    f"Session 1 is played by every entry; it does not list entry(ies) {shown}.",
                    entries=shown,
                )
        seats = len(listed) * check.format.team_size
        if number > 1 and seats != session.players and session.tables_of_three <= session.tables:
            check.error(
                f"{at}.tables",
                "session_entries_seats_mismatch",
                f"Session {number} lists {len(listed)} entries ({seats} players) but declares "
                f"{session.tables} table(s), {session.tables_of_three} of them of 3 players, "
                f"which seat {session.players}.",
                session=number,
                entries=len(listed),
                players=seats,
                seats=session.players,
            )
        scored = sum(p.score for p in listed.values())
        if scored != 0:
            check.error(
                f"{at}.entries",
                "session_scores_do_not_sum_to_zero",
                f"The scores of session {number} sum to {scored:+d}, not 0: every table "
                f"balances at every position among the entries that play it (chapter 2, "
                f"'Etablissement des résultats').",
                session=number,
                sum=f"{scored:+d}",
            )
        if previous is not None and number > 1:
            _check_cut(check, number, at, previous, listed)
        previous = listed
    _check_session_scores(check)


def _check_cut(
    check: _Check,
    number: int,
    at: str,
    previous: Mapping[int, SessionEntry],
    listed: Mapping[int, SessionEntry],
) -> None:
    """The entries that play on are the best of the previous session (art. 29 « pour le
    tour suivant » orders the level ones; the document does not carry their figures at the
    cut, so only a better score left out is refused). An entry that abandoned is not
    eliminated."""
    entries = check.document.entries
    abandoned = {e.number for e in entries if e.abandoned}
    out = [n for n in previous if n not in listed and n not in abandoned]
    kept = [n for n in listed if n in previous]
    if not out or not kept:
        return
    best_out = max(out, key=lambda n: previous[n].end)
    worst_in = min(kept, key=lambda n: previous[n].end)
    if previous[best_out].end > previous[worst_in].end:
        check.error(
            f"{at}.entries",
            "eliminated_ahead_of_continuing",
            f"Entry {best_out} ended session {number - 1} on {previous[best_out].end} and is "
            f"eliminated, while entry {worst_in}, on {previous[worst_in].end}, plays session "
            f"{number}; the entries that play on are the best of the session before.",
            eliminated=best_out,
            eliminated_score=previous[best_out].end,
            kept=worst_in,
            kept_score=previous[worst_in].end,
            session=number,
        )


def _check_session_scores(check: _Check) -> None:
    """When position scores are given, an entry's session score is its players' scores in
    that session, and an entry has none in a session it does not play."""
    if check.gaps.positions:
        return
    index_of = {session.number: i for i, session in enumerate(check.document.sessions)}
    for i, entry in enumerate(check.document.entries):
        if any((i, j) in check.unbalanced for j in range(len(entry.players))):
            continue  # the table's mistake, reported there
        scored: dict[int, int] = defaultdict(int)
        for j, player in enumerate(entry.players):
            for k, position in enumerate(player.positions):
                scored[position.session] += position.score
                if position.session in index_of and not check.plays(entry.number, position.session):
                    check.error(
                        f"entries[{i}].players[{j}].positions[{k}].session",
                        "score_in_session_not_played",
                        f"Entry {entry.number} has a score in session {position.session}, "
                        f"which it does not play (its session list).",
                        entry=entry.number,
                        session=position.session,
                    )
        if not any(player.positions for player in entry.players):
            continue
        for number, listed in check.session_entries.items():
            played = listed.get(entry.number)
            if played is None or played.score == scored.get(number, 0):
                continue
            j = next(k for k, e in enumerate(check.sessions[number][1].entries) if e is played)
            check.error(
                f"sessions[{index_of[number]}].entries[{j}].score",
                "session_score_mismatch",
                f"Entry {entry.number} scores {played.score} in session {number}, but its "
                f"position scores there sum to {scored.get(number, 0)}.",
                entry=entry.number,
                session=number,
                score=played.score,
                positions=scored.get(number, 0),
            )


def _check_staged_totals(check: _Check) -> None:
    """With eliminations, an entry's total is its score at the end of the last session it
    played (carried in + scored there) less its players' penalties; its players' totals,
    when given, sum to it."""
    if check.gaps.any:
        return
    for i, entry in enumerate(check.document.entries):
        totals = [player.total for player in entry.players]
        if totals and None not in totals and sum(totals) != entry.total:  # type: ignore[arg-type]
            check.error(
                f"entries[{i}].total",
                "entry_total_mismatch",
                f"Entry {entry.number}'s total is {entry.total}, but its players' totals "
                f"(after penalties) sum to {sum(totals)}.",  # type: ignore[arg-type]
                entry=entry.number,
                total=entry.total,
                summed=sum(totals),  # type: ignore[arg-type]
            )
        last = check.last_session(entry.number)
        if last == 0:
            continue  # in no session: reported on the first session's list
        end = check.session_entries[last][entry.number].end
        penalties = sum(
            check.penalty_points.get(p.licence_number, 0)
            for p in entry.players
            if p.licence_number is not None
        )
        if entry.total != end - penalties:
            check.error(
                f"entries[{i}].total",
                "staged_total_mismatch",
                f"Entry {entry.number}'s total is {entry.total}, but it ended session {last} "
                f"(the last it played) on {end} and its penalties come to {penalties}: "
                f"{end - penalties}.",
                entry=entry.number,
                total=entry.total,
                session=last,
                end=end,
                penalties=penalties,
                expected=end - penalties,
            )


def _check_staged_places(check: _Check) -> None:
    """With eliminations: the entries that played further rank ahead, whatever their
    totals; then by total (and article 29 in a competition with tie-break rules); the
    entries eliminated at one cut as the season's rulebook says; an entry that abandoned
    after all the others (art. 27)."""
    if any(p.code in _SESSION_LIST_CODES for p in check.errors) or check.gaps.any:
        return  # who played what is not known
    contenders, decided = _staged_contenders(check)
    _compare_places(check, contenders, decided, "place_contradicts_sessions")


def _staged_contenders(check: _Check) -> tuple[list[Contender], list[bool]]:
    entries = check.document.entries
    final = max(check.session_entries, default=0)
    shared = check.eliminations.eliminated_order is EliminatedOrder.SHARED
    contenders: list[Contender] = []
    decided: list[bool] = []
    for i, entry in enumerate(entries):
        last = check.last_session(entry.number)
        eliminated = last < final and not entry.abandoned
        if entry.abandoned:
            group: tuple[int, ...] = (1, 0, -entry.total)
        elif eliminated and shared:
            group = (0, -last, 0)
        else:
            group = (0, -last, -entry.total)
        by_article_29 = check.tie_break_rules and not (eliminated and shared)
        figures = _article_29_figures(check, i) if by_article_29 else None
        contenders.append(Contender(group, figures))
        decided.append(by_article_29)
    return contenders, decided


_PLACE_CODES = frozenset(
    {
        "place_out_of_range",
        "wrong_place",
        "place_sequence_broken",
        "tie_split_without_tiebreak",
        "tiebreak_contradicts_places",
        "tie_split_on_equal_tiebreak",
    }
)
_SESSION_LIST_CODES = frozenset(
    {
        "session_entries_missing",
        "duplicate_session_entry",
        "session_entry_unknown",
        "session_entry_not_in_previous",
        "session_entry_missing",
    }
)
