"""One run of the checks over one results document: what they report and what they share.

Each check module reads the document and the indexes built by the checks before it
(the sessions by number, the players by licence number, the tables that do not
balance, ...), and reports into the run: an error refuses the document, a warning is
returned with it. A problem the reader already reported (the document's ``gaps``) is
not reported again by a check that the missing part would fail.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from competitions.rules.engine.eliminations import EliminatedOrder, HalvingRounding
from competitions.rules.engine.penalties import (
    CURRENT_SCHEDULE,
    EarlierOffence,
    PenaltySchedule,
    RepeatScope,
)
from competitions.rules.results.document import (
    PlayerResult,
    PositionCut,
    ResultsDocument,
    SessionEntry,
    SessionResult,
)
from competitions.rules.results.licences import LicenceStatus, NameConfirmation
from core.problems import Problem
from core.vocabulary import Format

FORMAT_NAMES = {Format.INDIVIDUAL: "individual", Format.DUO: "duo", Format.TEAM4: "team-of-4"}
"""A tournament format in a message."""


@dataclass(frozen=True, slots=True)
class Phase:
    """A stretch of a tournament with eliminations played by one list of entries: a session
    from its first position to its first cut (or its end), or the positions of a session
    after one of its cuts. Phases follow one another in the order of play; between two, the
    entries that play on carry their score divided by the later one's ``points_divisor``."""

    session: int
    after_position: int
    """0: from the session's first position; else the cut's position."""
    at: str
    """Its path: ``sessions[i]`` or ``sessions[i].cuts[c]``."""
    entries: Mapping[int, SessionEntry]
    listed: tuple[SessionEntry, ...]
    """Its entries in the order given (``entries[j]`` of its path)."""
    points_divisor: int
    cut: PositionCut | None = None

    def named(self) -> str:
        """The phase in a message: « session 2 » or « session 2 after position 3 »."""
        if self.cut is None:
            return f"session {self.session}"
        return f"session {self.session} after position {self.after_position}"


def phases_of(document: ResultsDocument) -> list[Phase]:
    """The phases of a document with eliminations, in the order of play (sessions by number,
    the first given of a number; a session's cuts as given)."""
    phases: list[Phase] = []
    seen: set[int] = set()
    ordered = sorted(enumerate(document.sessions), key=lambda item: item[1].number)
    for i, session in ordered:
        if session.number in seen:
            continue
        seen.add(session.number)
        phases.append(
            Phase(
                session.number,
                0,
                f"sessions[{i}]",
                {e.number: e for e in session.entries},
                session.entries,
                session.points_divisor,
            )
        )
        for c, cut in enumerate(session.cuts):
            phases.append(
                Phase(
                    session.number,
                    cut.after_position,
                    f"sessions[{i}].cuts[{c}]",
                    {e.number: e for e in cut.entries},
                    cut.entries,
                    cut.points_divisor,
                    cut,
                )
            )
    return phases


class CheckRun:
    """One run of the checks over one document."""

    def __init__(
        self,
        document: ResultsDocument,
        fmt: Format,
        *,
        halving_rounding: HalvingRounding,
        eliminated_order: EliminatedOrder,
        licences: Mapping[int, LicenceStatus | str] | None = None,
        schedule: PenaltySchedule = CURRENT_SCHEDULE,
        registry_names: Mapping[int, str] | None = None,
        names_shown: Mapping[int, str] | None = None,
        confirmed: frozenset[int] = frozenset(),
        tie_break_rules: bool = False,
        repeat_scope: RepeatScope = RepeatScope.SAME_FAULT_SAME_TOURNAMENT,
        earlier_offences: Mapping[int, Sequence[EarlierOffence]] | None = None,
    ) -> None:
        self.document = document
        self.gaps = document.gaps
        self.registry_names = registry_names
        self.names_shown: Mapping[int, str] = names_shown or {}
        """Licence number → the name a message gives in place of the registry's (a player
        whose name the reader may not read: their public name); the others: the registry's."""
        self.confirmed = confirmed
        self.confirmations: list[NameConfirmation] = []
        self.unbalanced: set[tuple[int, int]] = set()  # players (entry, player) at such tables
        self.format = fmt
        self.licences: Mapping[int, LicenceStatus | str] = licences or {}
        self.schedule = schedule
        self.repeat_scope = repeat_scope
        self.earlier_offences: Mapping[int, Sequence[EarlierOffence]] = earlier_offences or {}
        self.errors: list[Problem] = []
        self.warnings: list[Problem] = []
        self.sessions: dict[int, tuple[int, SessionResult]] = {}
        self.penalty_points: dict[int, int] = defaultdict(int)
        self.player_at: dict[int, str] = {}  # licence number → path of the player
        self.entry_best: dict[int, int] = {}  # entry index → best position score, from positions
        self.tie_break_rules = tie_break_rules
        self.halving_rounding = halving_rounding
        """How a carried score is rounded (the season's ``eliminations``)."""
        self.eliminated_order = eliminated_order
        """How the entries eliminated at one cut rank (the season's ``eliminations``)."""
        self.staged = document.with_eliminations
        self.phases: list[Phase] = phases_of(document) if self.staged else []
        """The phases of play, in order (tournaments with eliminations)."""

    def phase_at(self, session: int, position: int) -> int | None:
        """The index of the phase that plays ``position`` of ``session`` (with eliminations):
        the session's phase after its last cut before that position."""
        found = None
        for k, phase in enumerate(self.phases):
            if (
                phase.session == session
                and phase.after_position < position
                and (found is None or phase.after_position >= self.phases[found].after_position)
            ):
                found = k
        return found

    def plays(self, entry: int, session: int, position: int | None = None) -> bool:
        """Whether entry number ``entry`` plays ``session`` (at ``position``, when given):
        always, without eliminations."""
        if not self.staged:
            return True
        if position is None:
            return any(p.session == session and entry in p.entries for p in self.phases)
        k = self.phase_at(session, position)
        return k is not None and entry in self.phases[k].entries

    def last_phase(self, entry: int) -> int:
        """The index of the last phase entry number ``entry`` played (−1: none)."""
        return max((k for k, p in enumerate(self.phases) if entry in p.entries), default=-1)

    def entries_missing(self) -> int | None:
        """How many entries could not be read at all (``None``: an unknown number of them)."""
        gaps = self.gaps
        if gaps.unnumbered_entry:
            return None
        read = {entry.number for entry in self.document.entries}
        return sum(1 for number in gaps.entries if number not in read)

    def entry_missing(self) -> bool:
        """An entry could not be read at all: the places and the count cannot be checked."""
        return self.entries_missing() != 0

    def error(self, where: str, code: str, message: str, **params: object) -> None:
        self.errors.append(Problem(self.document.locate(where), code, message, params))

    def warn(self, where: str, code: str, message: str, **params: object) -> None:
        self.warnings.append(Problem(self.document.locate(where), code, message, params))

    def shown(self, where: str) -> str:
        """A path for a message: a CSV line for a CSV document."""
        return self.document.locate(where)


def licence_status(licences: Mapping[int, LicenceStatus | str], number: int) -> LicenceStatus:
    """The status of licence number ``number``: :attr:`LicenceStatus.UNKNOWN` when absent."""
    value = licences.get(number, LicenceStatus.UNKNOWN)
    try:
        return LicenceStatus(value)
    except ValueError:
        return LicenceStatus.UNKNOWN


def who(player: PlayerResult) -> str:
    """A player for a message: licence number (name), or the name without a number."""
    if player.licence_number is None:
        return f"'{player.name}' (no licence number)"
    return f"{player.licence_number} ({player.name})" if player.name else str(player.licence_number)


def named(player: PlayerResult) -> str:
    """A player for a message in any language: name (licence number), or either."""
    if player.licence_number is None:
        return player.name
    return f"{player.name} ({player.licence_number})" if player.name else str(player.licence_number)
