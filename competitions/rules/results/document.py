"""The results of a tournament as submitted: sessions, entries, players, penalties.

A tournament is declared separately (its format, its planned sessions); a
results document carries only what happened. It is read from JSON
(:mod:`competitions.rules.results.json_format`), CSV
(:mod:`competitions.rules.results.csv_format`) or deal-by-deal score sheets
(:mod:`competitions.rules.results.score_sheets`), checked by
:mod:`competitions.rules.results.validation` and hashed by
:mod:`competitions.rules.results.canonical`.

Every total in a document is *after* penalties: a player's total is the sum of
his position scores (*bilans*) less the points of his penalties, and an entry's
total is the sum of its players' totals. This is the number the ranking orders. With
eliminations (sessions listing their entries, and cuts between the positions of a
session), an entry's total is its score at the end of the last phase it played (the score
carried in, after division, plus its score in that phase) less its players' penalties; a
phase is a session, or the positions of a session between two of its cuts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.engine.scoring import Contract
from core.problems import Problem, RuleViolation

FORMAT_VERSION = 1
"""The only version of the interchange format this code reads."""

# Sizes a document may not exceed (a national final has a few hundred players).
MAX_SESSIONS = 20
MAX_ENTRIES = 5_000
MAX_PLAYERS_PER_ENTRY = 10  # above any team size: a wrong team size is reported, not cut
MAX_POSITIONS_PER_PLAYER = 200
MAX_PENALTIES = 5_000
MAX_NAME_LENGTH = 200
MAX_REASON_LENGTH = 300
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
MAX_LICENCE_NUMBER = 2_147_483_647  # the registry stores licence numbers as 32-bit integers
MAX_SCORE = 10_000_000  # far above anything a tournament can produce; keeps totals in 32 bits
MAX_COUNT = 32_767  # tables, deals, positions, places... (16-bit columns of the registry)

CONTRACTS: tuple[Contract, ...] = tuple(Contract)
"""The contracts counted for article 29, lowest first: prise, garde, garde sans, garde contre."""


def _no_contracts() -> Mapping[Contract, int]:
    return MappingProxyType(dict.fromkeys(CONTRACTS, 0))


@dataclass(frozen=True, slots=True)
class SessionEntry:
    """An entry that plays a session of a tournament with eliminations: its score in the
    session (its players' position scores there, before penalties) and the score it
    carries in from the previous session, after division (0 in the first session)."""

    number: int
    score: int
    carried: int = 0

    @property
    def end(self) -> int:
        """The entry's score at the end of the session: carried in + scored in it."""
        return self.carried + self.score


@dataclass(frozen=True, slots=True)
class PositionCut:
    """A cut between two positions of a session with eliminations (chapter 3, art. 3, 9, 15:
    « la division ou non des points entre chaque séance ou position »; chapter 2 « abattre
    les scores entre 2 positions »): after position ``after_position`` only ``entries`` play
    on, at ``tables`` tables (``tables_of_three`` of them of 3), each carrying in its score
    at the cut divided by ``points_divisor`` (1: not divided) and scoring ``score`` from the
    next position to the session's next cut or its end."""

    after_position: int
    tables: int
    entries: tuple[SessionEntry, ...]
    tables_of_three: int = 0
    points_divisor: int = 1

    @property
    def players(self) -> int:
        """Players seated after the cut: 4 per table, less one per table of 3."""
        return 4 * self.tables - self.tables_of_three


@dataclass(frozen=True, slots=True)
class SessionResult:
    """A session (*séance*): how many tables played it, how many of them at 3, how many deals.

    In a tournament with eliminations (chapter 3, art. 3), every session lists the
    ``entries`` that play it (the others were eliminated before it) and divides the
    scores carried in from the previous one by ``points_divisor`` (1: not divided).
    Without ``entries`` (every other tournament), every entry plays every session and
    totals are plain sums. ``cuts``: the session's cuts between positions, in order; its
    ``entries`` then score only the positions before its first cut.

    ``tables_of_five``: tables of 5 where one player (*le mort*) sits out each deal and the
    four others play the 4-player game (chapter 1, "Le jeu à 5 joueurs", preamble); never
    the 5-player game, which is not homologable. ``deals``: the deals played (chapter 4:
    an annulled deal is not one).
    """

    number: int
    tables: int
    tables_of_three: int
    deals: int
    points_divisor: int = 1
    entries: tuple[SessionEntry, ...] = ()
    tables_of_five: int = 0
    cuts: tuple[PositionCut, ...] = ()

    @property
    def players(self) -> int:
        """Players seated: 4 per table, less one per table of 3, one more per table of 5."""
        return 4 * self.tables - self.tables_of_three + self.tables_of_five


@dataclass(frozen=True, slots=True)
class PositionScore:
    """A player's score (*bilan*) at one table for one position of one session."""

    session: int
    position: int
    table: int
    score: int


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A player of an entry.

    ``licence_number`` is ``None`` for a player without one (ranked, but gets no
    points); such a player must then be named. ``total`` is optional (after
    penalties); ``positions`` are optional, but given for every player or none.
    """

    licence_number: int | None
    name: str = ""
    total: int | None = None
    positions: tuple[PositionScore, ...] = ()


@dataclass(frozen=True, slots=True)
class TieBreakData:
    """An entry's figures for article 29 (*ex-æquo*).

    ``best_position_score``: the entry's best score on one position (for a team,
    the best sum of its players' scores on the same position); ``None`` if not
    given (it is then computed from the position scores, when given).
    ``contracts_made``: contracts made by the entry's players as takers, by
    contract; always holds the four contracts (missing ones count 0).
    """

    best_position_score: int | None = None
    contracts_made: Mapping[Contract, int] = field(default_factory=_no_contracts)

    def __post_init__(self) -> None:
        given = dict(self.contracts_made)
        counts = {contract: given.get(contract, 0) for contract in CONTRACTS}
        extra = {key: value for key, value in given.items() if key not in counts}
        object.__setattr__(self, "contracts_made", MappingProxyType({**counts, **extra}))


@dataclass(frozen=True, slots=True)
class EntryResult:
    """A line of the final ranking: one player, a duo or a team of four."""

    number: int
    place: int
    total: int
    players: tuple[PlayerResult, ...]
    abandoned: bool = False  # left before the end (article 27): ranked after everyone else
    tiebreak: TieBreakData | None = None
    arbiter_accord: bool | None = None
    """For an entry that abandoned: whether it left with the arbiter's accord (chapter 4:
    « La personne qui quitte un tournoi en cours sans accord de l'arbitre sera suspendue …
    pour une durée de 12 mois »); None when the results do not say."""

    @property
    def left_without_accord(self) -> bool:
        """The results record an abandon without the arbiter's accord."""
        return self.abandoned and self.arbiter_accord is False


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    """A penalty in points the arbiter recorded against a player (already in the totals)."""

    licence_number: int
    points: int
    kind: PenaltyKind
    reason: str


@dataclass(frozen=True, slots=True)
class SourceMap:
    """Where the parts of a document were read, to locate problems in what was submitted.

    ``parts`` maps the path of a part of the document (``sessions[0]``,
    ``entries[3]``, ``entries[3].players[1]``,
    ``entries[3].players[1].positions[2]``, ``penalties[0]``) to where it was
    read: a CSV line (``lines[12]``, header = line 1) or a score sheet
    (``score_sheets[4]``); the lists themselves (``sessions``...) may be mapped
    too (``lines``: the whole file). With ``columns``, the rest of a path is translated to
    the CSV column (``entries[3].total`` → ``lines[9].entry_total``).
    """

    parts: Mapping[str, str]
    columns: bool = True
    renumbered: bool = False
    """JSON read with its unreadable items left out: ``parts`` maps each kept item
    (``entries[3]``) to its index as sent (``entries[4]``); the rest of a path is kept."""

    def locate(self, path: str) -> str:
        """Where ``path`` is in what was submitted; unchanged when no part of it was mapped."""
        if self.renumbered:
            item = _ITEM.match(path)
            if item is None:
                return path
            return self.parts.get(item.group(1), item.group(1)) + item.group(2)
        for pattern, columns in _PARTS:
            match = pattern.match(path)
            if match is None:
                continue
            where = self.parts.get(match.group(1))
            if where is None:
                return path
            rest = match.group(2)
            if rest is None or not self.columns:
                return where
            column = columns.get(rest, columns.get(rest.split(".")[0]))
            return f"{where}.{column}" if column else where
        return self.parts.get(path, path)  # a whole list: "sessions", "entries", "penalties"


_ITEM = re.compile(r"^((?:sessions|entries|penalties)\[\d+\])(.*)$")
_CONTRACT_COLUMNS = {f"tiebreak.contracts_made.{c.value}": c.value for c in CONTRACTS}
_PARTS: tuple[tuple[re.Pattern[str], Mapping[str, str]], ...] = (
    (
        re.compile(r"^(entries\[\d+\]\.players\[\d+\]\.positions\[\d+\])(?:\.(.+))?$"),
        {"session": "session", "position": "position", "table": "table", "score": "score"},
    ),
    (
        re.compile(r"^(entries\[\d+\]\.players\[\d+\])(?:\.(.+))?$"),
        {
            "licence_number": "licence_number",
            "name": "name",
            "total": "player_total",
            "positions": "licence_number",
        },
    ),
    (
        re.compile(r"^(entries\[\d+\])(?:\.(.+))?$"),
        {
            "number": "entry",
            "place": "place",
            "total": "entry_total",
            "abandoned": "abandoned",
            "players": "entry",
            "tiebreak": "best_position_score",
            "tiebreak.best_position_score": "best_position_score",
            **_CONTRACT_COLUMNS,
        },
    ),
    (
        re.compile(r"^(sessions\[\d+\]\.cuts\[\d+\]\.entries\[\d+\])(?:\.(.+))?$"),
        {"number": "entry", "score": "score", "carried": "carried"},
    ),
    (
        re.compile(r"^(sessions\[\d+\]\.cuts\[\d+\])(?:\.(.+))?$"),
        {
            "after_position": "after_position",
            "tables": "tables",
            "tables_of_three": "tables_of_three",
            "points_divisor": "points_divisor",
            "entries": "after_position",
        },
    ),
    (
        re.compile(r"^(sessions\[\d+\]\.entries\[\d+\])(?:\.(.+))?$"),
        {"number": "entry", "score": "score", "carried": "carried"},
    ),
    (
        re.compile(r"^(sessions\[\d+\])(?:\.(.+))?$"),
        {
            "number": "session",
            "tables": "tables",
            "tables_of_three": "tables_of_three",
            "deals": "deals",
            "points_divisor": "points_divisor",
            "entries": "session",
            "cuts": "session",
        },
    ),
    (
        re.compile(r"^(penalties\[\d+\])(?:\.(.+))?$"),
        {
            "licence_number": "licence_number",
            "points": "points",
            "kind": "kind",
            "reason": "reason",
        },
    ),
)


@dataclass(frozen=True, slots=True)
class Gaps:
    """The parts of a submission its reader could not read (each reported where it is).

    The document holds what was read; :func:`~competitions.rules.results.validation.validate`
    checks it all, but skips the checks a missing part would make fail, so that one
    mistake is reported once (a score line that cannot be read is not also a table that
    does not balance)."""

    sessions: bool = False
    """A session could not be read."""
    entries: frozenset[int] = frozenset()
    """Entries (by number) with a player that could not be read."""
    unnumbered_entry: bool = False
    """A player (or an entry) could not be read, nor could its entry's number."""
    positions: bool = False
    """A position score could not be read or given to its player."""
    penalties: bool = False
    """A penalty could not be read."""

    @property
    def entries_incomplete(self) -> bool:
        return bool(self.entries) or self.unnumbered_entry

    def entry_incomplete(self, number: int) -> bool:
        return number in self.entries or self.unnumbered_entry

    @property
    def any(self) -> bool:
        return self.sessions or self.entries_incomplete or self.positions or self.penalties


COMPLETE = Gaps()


@dataclass(frozen=True, slots=True)
class ResultsDocument:
    """The results of one tournament, in the order they were given.

    ``source`` is set when the document was read from CSV, so that problems
    found later name the file's lines; it takes no part in comparisons.
    """

    format_version: int
    sessions: tuple[SessionResult, ...]
    entries: tuple[EntryResult, ...]
    penalties: tuple[PenaltyRecord, ...] = ()
    source: SourceMap | None = field(default=None, compare=False, repr=False)
    gaps: Gaps = field(default=COMPLETE, compare=False, repr=False)
    """What its reader could not read (nothing, for a document read without problems)."""

    def locate(self, path: str) -> str:
        """Where ``path`` is in what was submitted (itself for JSON, a CSV cell for CSV)."""
        return path if self.source is None else self.source.locate(path)

    @property
    def with_eliminations(self) -> bool:
        """Its sessions list the entries that play them (eliminations, divided scores)."""
        return any(session.entries or session.cuts for session in self.sessions)


@dataclass(frozen=True, slots=True)
class Reading:
    """A submission read as far as it could be: the document of every part that was read
    (``None`` when nothing could be, e.g. not a CSV file) and the problems of the rest."""

    document: ResultsDocument | None
    problems: tuple[Problem, ...] = ()

    def document_or_raise(self) -> ResultsDocument:
        """The document, when it was read without any problem; else RuleViolation."""
        if self.problems or self.document is None:
            raise RuleViolation(self.problems)
        return self.document
