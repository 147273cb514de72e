"""Player movements (mouvements des joueurs): which table and seat every player takes at each
position of a tournament.

Chapter 2 of the regulations ("Mouvements des joueurs", pages 25-27 of Fascicule 2) gives:

* the Howell FFT movement for 3 and 4 tables, printed as tables of player numbers;
* the normal FFT movement for 5 tables and more: North stays, South moves up one table,
  East up two, West down two, with special cases for 6, 8, 9, 10, 12, 14, 15, 16, 18 and 20
  tables;
* tables of 3 players when the number of entrants is not a multiple of 4 (the North seat of
  the highest tables is removed), page 17 ("Accueil des joueurs"); whether a player may sit
  at one twice is the season's :class:`ShortTableRule`, and every repeat is reported;
* team tournaments (duo and teams of 4), whose first played position is the second position
  of the movement, page 27.

Players are numbered by their starting seat, as the Howell tables do: table 1 North is 1,
South 2, East 3, West 4, table 2 North is 5, and so on. A plan is built from the printed data
then checked by :func:`check_plan`; a request the regulations cannot honour is refused with a
:class:`~core.problems.RuleViolation` saying why.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations

from competitions.rules.engine.tables import Orientation
from core.problems import Problem, RuleViolation
from core.vocabulary import Format

SEAT_ORDER: tuple[Orientation, ...] = (Orientation.N, Orientation.S, Orientation.E, Orientation.W)
"""The four seats of a table in numbering and printing order (Nord, Sud, Est, Ouest)."""


class MovementKind(StrEnum):
    """Which movement of chapter 2 a plan follows."""

    HOWELL = "howell"  # Mouvement Howell FFT : 3 et 4 tables
    FFT_NORMAL = "fft_normal"  # Mouvement normal FFT : 5 tables et plus


class ShortTableRule(StrEnum):
    """How a plan treats a player sitting at a table of 3 players more than once ("veillez à
    supprimer les joueurs NORD correctement de façon à ce qu'un joueur ne repasse une nouvelle
    fois à une table à 3 joueurs", page 17). A per-season setting (the season's rulebook)."""

    STRICT = "strict"
    """Never: a plan that cannot avoid it is refused, so fewer positions are allowed."""
    BEST_EFFORT = "best_effort"
    """As few players as possible, nobody three times when avoidable, every repeat reported."""


class TeamPositionLimit(StrEnum):
    """What « dans la limite de 7 positions jouées » (page 26) limits in a team tournament,
    which starts at the movement's second row (a rulebook setting,
    ``movements.team_position_limit``; ``docs/rulebook-settings.md``)."""

    MOVEMENT_ROWS = "movement_rows"
    """The movement's rows: a team tournament plays rows 2–7, so at most 6 positions."""
    PLAYED_POSITIONS = "played_positions"
    """The positions played: a team tournament may play rows 2–8 of the FFT movement (7
    positions); the printed Howell tables and special cases keep their printed rows."""


class RepeatKind(StrEnum):
    """What a plan's repeat report lists."""

    SHORT_TABLE = "short_table"
    """One player at a table of 3 players at more than one position."""
    MEETING = "meeting"
    """Two players at one table at more than one position (the printed 3-table Howell, and
    the fifth player of a table of 5)."""
    TABLE_OF_FIVE = "table_of_five"
    """One player at a table of 5 (with a mort) at more than one position."""


@dataclass(frozen=True, slots=True)
class Moves:
    """Tables each orientation moves by to reach a position (North stays: "NORD reste fixe")."""

    south: int
    east: int
    west: int

    def of(self, orientation: Orientation) -> int:
        return {
            Orientation.N: 0,
            Orientation.S: self.south,
            Orientation.E: self.east,
            Orientation.W: self.west,
        }[orientation]

    def replaced(self, orientation: Orientation, tables: int) -> Moves:
        if orientation is Orientation.S:
            return Moves(tables, self.east, self.west)
        if orientation is Orientation.E:
            return Moves(self.south, tables, self.west)
        if orientation is Orientation.W:
            return Moves(self.south, self.east, tables)
        raise ValueError("North never moves in the FFT movement")


@dataclass(frozen=True, slots=True)
class HowellTable:
    """A printed Howell movement: for each position, the player numbers seated at table 1
    North, South, East, West, then table 2 North, ..., in printing order."""

    tables: int
    rows: tuple[tuple[int, ...], ...]
    repeats_allowed: bool
    """True when the printed movement itself makes players meet more than once."""
    duo_teams: tuple[tuple[int, int], ...] = ()
    """Partners of a duo tournament when they are not (1, 2), (3, 4), ...: pairs of numbers
    who start at one table and never share a table in the played rows (from the second)."""


@dataclass(frozen=True, slots=True)
class SpecialCase:
    """A table count whose normal movement is changed ("mouvements spéciaux")."""

    tables: tuple[int, ...]
    base: Moves
    """The movement between positions not listed in ``deviations`` (the table's header)."""
    deviations: tuple[tuple[int, Orientation, int], ...]
    """``(position, orientation, tables)``: to reach that position, that orientation moves by
    that many tables instead of its base move."""
    max_positions: int | None
    """The printed "(n positions maximum)", when the regulations print one."""


# Howell FFT, 3 tables, 12 players numbered 1 to 12: Fascicule 2, chapter 2, page 25,
# "3 TABLES : 12 JOUEURS NUMEROTES DE 1 à 12". This printed movement makes players meet up
# to four times (11 opponents cannot fill 6 positions of 3 opponents each).
HOWELL_3_TABLES = HowellTable(
    tables=3,
    rows=(
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
        (1, 2, 7, 12, 5, 6, 11, 3, 9, 10, 4, 8),
        (1, 8, 7, 10, 5, 2, 11, 12, 9, 3, 4, 6),
        (1, 8, 6, 11, 5, 2, 4, 10, 9, 3, 12, 7),
        (1, 9, 5, 3, 7, 11, 4, 10, 2, 6, 12, 8),
        (1, 9, 7, 2, 5, 11, 4, 12, 10, 6, 3, 8),
    ),
    repeats_allowed=True,
    # Six duos: these pairs start at one table and never share one in rows 2 to 6 (the
    # usual pairs (1, 2), (3, 4), ... sit together again at row 2).
    duo_teams=((1, 4), (2, 3), (5, 8), (6, 7), (9, 11), (10, 12)),
)

# Howell FFT, 4 tables, 16 players numbered 1 to 16: Fascicule 2, chapter 2, page 26,
# "4 TABLES : 16 JOUEURS NUMEROTES DE 1 à 16". Every pair of players meets exactly once.
HOWELL_4_TABLES = HowellTable(
    tables=4,
    rows=(
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16),
        (1, 8, 10, 15, 16, 9, 7, 2, 6, 3, 13, 12, 11, 14, 4, 5),
        (1, 7, 12, 14, 15, 9, 6, 4, 8, 2, 13, 11, 10, 16, 3, 5),
        (1, 6, 11, 16, 14, 9, 8, 3, 7, 4, 13, 10, 12, 15, 2, 5),
        (1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 16),
    ),
    repeats_allowed=False,
)

# "MOUVEMENT DE BASE PRECONISE PAR LA F.F.T.": page 26.
BASE_MOVES = Moves(south=+1, east=+2, west=-2)

_WEST_DOWN_ONE = Moves(south=+1, east=+2, west=-1)  # "ATTENTION : OUEST (-1)"

# The special-case tables, page 27. A row "3ème | | | +3 |" under "EST (+2)" means that to
# reach the 3rd position East moves 3 tables up instead of 2 (see docs/engine-movements.md
# for why the row is the position reached, not the one left).
SPECIAL_CASES: tuple[SpecialCase, ...] = (
    SpecialCase(
        tables=(6,),
        base=_WEST_DOWN_ONE,
        deviations=((3, Orientation.E, +3), (4, Orientation.W, -2)),
        max_positions=5,
    ),
    SpecialCase(
        tables=(8,),
        base=_WEST_DOWN_ONE,
        deviations=((5, Orientation.S, +2), (5, Orientation.E, +3), (6, Orientation.E, +4)),
        max_positions=6,
    ),
    SpecialCase(
        tables=(9,),
        base=BASE_MOVES,
        deviations=(
            (4, Orientation.E, +3),
            (4, Orientation.W, -3),
            (5, Orientation.E, +3),
            (5, Orientation.W, -3),
        ),
        max_positions=None,
    ),
    SpecialCase(
        tables=(10,),
        base=_WEST_DOWN_ONE,
        deviations=((6, Orientation.E, +3), (6, Orientation.W, -2)),
        max_positions=None,
    ),
    SpecialCase(
        tables=(12,),
        base=BASE_MOVES,
        deviations=((4, Orientation.W, -3), (7, Orientation.E, +3)),
        max_positions=None,
    ),
    SpecialCase(
        tables=(14, 15),
        base=BASE_MOVES,
        deviations=((5, Orientation.W, -3),),
        max_positions=None,
    ),
    SpecialCase(
        tables=(16,),
        base=BASE_MOVES,
        deviations=((5, Orientation.W, -3), (6, Orientation.W, -3)),
        max_positions=None,
    ),
    SpecialCase(
        tables=(18, 20),
        base=BASE_MOVES,
        deviations=((6, Orientation.W, -3),),
        max_positions=None,
    ),
)


@dataclass(frozen=True, slots=True)
class MovementSettings:
    """What the federation could change between seasons; defaults are the current text."""

    min_tables: int = 3  # the movements start at 3 tables (Howell FFT : 3 et 4 tables)
    max_tables: int = 150  # "et jusqu'à 150 TABLES"
    max_positions: int = 7  # "dans la limite de 7 positions jouées"
    howell: tuple[HowellTable, ...] = (HOWELL_3_TABLES, HOWELL_4_TABLES)
    base_moves: Moves = BASE_MOVES
    special_cases: tuple[SpecialCase, ...] = SPECIAL_CASES
    short_table_rule: ShortTableRule = ShortTableRule.BEST_EFFORT
    """The season's choice (rulebook ``movements.short_table_rule``); best effort by default."""
    team_position_limit: TeamPositionLimit = TeamPositionLimit.MOVEMENT_ROWS
    """The season's choice (rulebook ``movements.team_position_limit``)."""
    tables_of_five: bool = False
    """The organiser's choice for one tournament (fasc. 457: « certains petits tournois
    libres dont le nombre de joueurs n'est pas multiple de 4 peuvent inclure des tables de 5
    joueurs »): an individual field not a multiple of 4 seats its extra players as the fifth
    of a table (one of them, le mort, sits out each deal in turn) instead of removing seats
    for tables of 3."""


@dataclass(frozen=True, slots=True)
class TableSeats:
    """Who sits where at one table for one position; ``None`` is an empty seat."""

    table: int
    north: int | None
    south: int | None
    east: int | None
    west: int | None
    fifth: int | None = None
    """The fifth player of a table of 5 (a mort sits out each deal in turn), if any."""

    def number_at(self, orientation: Orientation) -> int | None:
        if orientation is Orientation.FIFTH:
            return self.fifth
        return self.seats[SEAT_ORDER.index(orientation)]

    @property
    def seats(self) -> tuple[int | None, int | None, int | None, int | None]:
        """The four seats in N, S, E, W order."""
        return (self.north, self.south, self.east, self.west)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The players seated, in N, S, E, W (then fifth) order."""
        return tuple(n for n in (*self.seats, self.fifth) if n is not None)

    @property
    def is_short(self) -> bool:
        """A table of 3 players (table à 3 joueurs)."""
        return len(self.numbers) == 3


@dataclass(frozen=True, slots=True)
class PositionSeats:
    """The seats of every table for one played position."""

    position: int
    """Played position, from 1."""
    row: int
    """Row of the printed movement: the position itself, or position + 1 in a team tournament
    (its first played position is the movement's second)."""
    moves: Moves | None
    """Normal movement: how S, E, W moved to reach this row (announced by the arbiter);
    ``None`` for the movement's first row and for Howell movements."""
    tables: tuple[TableSeats, ...]


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of a player's personal sheet (fiche individuelle / fiche personnelle)."""

    position: int
    table: int
    orientation: Orientation


@dataclass(frozen=True, slots=True)
class Repeat:
    """Who sits again at a table of 3 players, or meets an opponent again, and when."""

    kind: RepeatKind
    players: tuple[int, ...]
    """One starting number (a table of 3) or two (a meeting)."""
    positions: tuple[int, ...]
    """Every played position where it happens, in order (at least two)."""
    tables: tuple[int, ...]
    """The table at each of those positions."""


@dataclass(frozen=True, slots=True)
class MovementPlan:
    """Every position of a tournament, by starting number."""

    format: Format
    kind: MovementKind
    tables: int
    players: int
    vacant: tuple[int, ...]
    """Starting numbers with no player: the North seats removed for tables of 3 players (with
    an odd number of duos, the last duo's two seats)."""
    teams: tuple[tuple[int, ...], ...]
    """Partners by starting number (duo: N/S or E/W of a table; team of 4: a whole table);
    a removed duo is not listed."""
    repeats_allowed: bool
    """True only for the printed 3-table Howell, which itself repeats meetings."""
    short_table_rule: ShortTableRule
    """Whether a player may sit at a table of 3 more than once (then reported)."""
    positions: tuple[PositionSeats, ...]
    repeats: tuple[Repeat, ...]
    """Every player at a table of 3 more than once, every player at a table of 5 more than
    once, then every pair meeting more than once (:func:`repeats_of`)."""
    fifth_players: tuple[int, ...] = ()
    """With tables of 5: the starting numbers after ``4 × tables``, each the fifth player of
    a table at every position (:attr:`MovementSettings.tables_of_five`)."""
    fifth_step: int = 0
    """With tables of 5: the tables the fifth players move up by between positions."""

    @property
    def numbers(self) -> tuple[int, ...]:
        """The starting numbers of the players present."""
        vacant = set(self.vacant)
        return (
            *(n for n in range(1, 4 * self.tables + 1) if n not in vacant),
            *self.fifth_players,
        )

    @property
    def homologable(self) -> bool:
        """Always true: a table of 5 with a mort plays the 4-player game and keeps the
        tournament homologable (docs/rankings-pcn.md R17); « les tournois à 5 joueurs ne
        sont pas homologables » (fasc. 461) is the called-king game, which no plan seats."""
        return True

    def starting_seat_of(self, number: int) -> tuple[int, Orientation]:
        """The table and seat of ``number`` at the plan's first row (a fifth player's
        table at the first played position)."""
        if number in self.fifth_players:
            first = self.positions[0]
            return next(t.table for t in first.tables if t.fifth == number), Orientation.FIFTH
        return starting_seat(number)

    def position(self, position: int) -> PositionSeats:
        if not 1 <= position <= len(self.positions):
            raise RuleViolation.single(
                "position",
                "unknown_position",
                f"Position {position} is not in this plan, which has "
                f"{len(self.positions)} positions.",
                {"position": position, "positions": len(self.positions)},
            )
        return self.positions[position - 1]

    def short_tables(self, position: int) -> tuple[int, ...]:
        """Tables played by 3 players at ``position``."""
        return tuple(t.table for t in self.position(position).tables if t.is_short)

    def personal_sheet(self, number: int) -> tuple[SheetLine, ...]:
        """The fiche individuelle of player ``number``: table and orientation at each position."""
        if number not in self.numbers:
            raise RuleViolation.single(
                "number",
                "unknown_number",
                f"No player has starting number {number}: this plan seats numbers 1 to "
                f"{4 * self.tables + len(self.fifth_players)}"
                + (f" except {_listed(self.vacant)}." if self.vacant else "."),
                {"number": number, "last": 4 * self.tables + len(self.fifth_players)},
            )
        lines = []
        for seats in self.positions:
            for table in seats.tables:
                if number in table.seats:
                    orientation = SEAT_ORDER[table.seats.index(number)]
                    lines.append(SheetLine(seats.position, table.table, orientation))
                elif table.fifth == number:
                    lines.append(SheetLine(seats.position, table.table, Orientation.FIFTH))
        return tuple(lines)


def seat_number(table: int, orientation: Orientation) -> int:
    """The starting number of a seat: table 1 North is 1, South 2, East 3, West 4, table 2
    North 5, ... (the Howell tables' numbering)."""
    return 4 * (table - 1) + SEAT_ORDER.index(orientation) + 1


def starting_seat(number: int) -> tuple[int, Orientation]:
    """The table and orientation of starting number ``number`` at the movement's first row."""
    return (number - 1) // 4 + 1, SEAT_ORDER[(number - 1) % 4]


def tables_for(players: int) -> int:
    """Tables needed: 4 players a table, the last ones at 3 when ``players`` is not a multiple
    of 4."""
    return -(-players // 4)


# ---------------------------------------------------------------------------------------------
# Planning


def plan_movement(
    players: int,
    positions: int,
    format: Format = Format.INDIVIDUAL,
    settings: MovementSettings | None = None,
) -> MovementPlan:
    """The FFT movement for ``players`` players over ``positions`` played positions.

    Refuses (``RuleViolation``) an entry count with no movement, a team entry that does not
    fill its tables, and more positions than the movement allows without a repeated meeting,
    partners meeting or two removed seats at one table (and, when ``settings.short_table_rule``
    is strict, a player sitting twice at a table of 3). The plan's ``repeats`` lists every
    player who sits at a table of 3 more than once and every pair who meet more than once.
    """
    settings = settings or MovementSettings()
    format = Format(format)
    if settings.tables_of_five and players % 4:
        return _plan_with_fives(players, positions, format, settings)
    _check_request(players, positions, format, settings)
    attempt = _attempt(players, positions, format, settings)
    if isinstance(attempt, MovementPlan):
        return attempt
    allowed = max_positions(players, format, settings)
    first_failure = _attempt(players, allowed + 1, format, settings)
    assert not isinstance(first_failure, MovementPlan)
    reason = first_failure[0]
    tables = tables_for(players)
    if allowed == 0:
        raise RuleViolation.single(
            "format",
            "no_movement",
            f"No {format} movement is possible at {tables} tables: "
            f"{_uncapitalised(reason.message)}",
            {"tables": tables},
        )
    raise RuleViolation.single(
        "positions",
        "too_many_positions",
        f"{positions} positions requested but at {tables} tables the {format} movement allows "
        f"at most {allowed}{_WITHOUT.get(reason.code, '')}: at {allowed + 1} positions, "
        f"{_uncapitalised(reason.message)}",
        {"positions": positions, "tables": tables, "allowed": allowed},
    )


def max_positions(
    players: int,
    format: Format = Format.INDIVIDUAL,
    settings: MovementSettings | None = None,
) -> int:
    """The most played positions :func:`plan_movement` accepts for ``players`` (0 if none)."""
    settings = settings or MovementSettings()
    format = Format(format)
    if settings.tables_of_five and players % 4:
        # The fifth players never make a plan impossible (their meetings are reported): the
        # limit is that of the full tables' movement.
        _check_fives_request(players, 1, format, settings)
        return max_positions(4 * (players // 4), format, replace(settings, tables_of_five=False))
    _check_request(players, 1, format, settings)
    tables = tables_for(players)
    howell = next((h for h in settings.howell if h.tables == tables), None)
    first_row = 1 if format is Format.INDIVIDUAL else 2
    rows, _ = _row_limit(tables, howell, settings, first_row)
    # Whatever works at p positions works at fewer (the first rows of the same plan), so the
    # first success counting down from the rows the regulations print is the maximum.
    for positions in range(rows - first_row + 1, 0, -1):
        if isinstance(_attempt(players, positions, format, settings), MovementPlan):
            return positions
    return 0


_WITHOUT = {
    "repeated_meeting": " without a repeated meeting",
    "partners_meet": " without partners meeting",
    "no_short_table_choice": " without a player sitting twice at a table of 3",
    "removed_seats_meet": " without two removed seats at one table",
}


def _check_request(
    players: int, positions: int, format: Format, settings: MovementSettings
) -> None:
    problems = []
    tables = tables_for(players)
    if tables < settings.min_tables:
        problems.append(
            Problem(
                "players",
                "too_few_players",
                f"{players} players cannot play a movement: the regulations' movements start "
                f"at {settings.min_tables} tables ({4 * settings.min_tables - 3} players).",
                {
                    "players": players,
                    "min_tables": settings.min_tables,
                    "min_players": 4 * settings.min_tables - 3,
                },
            )
        )
    elif tables > settings.max_tables:
        problems.append(
            Problem(
                "players",
                "too_many_players",
                f"{players} players need {tables} tables but the FFT movement is given for "
                f"at most {settings.max_tables} tables.",
                {"players": players, "tables": tables, "max_tables": settings.max_tables},
            )
        )
    if format is Format.DUO and players % 2:
        problems.append(
            Problem(
                "players",
                "incomplete_duos",
                f"{players} players do not make whole duos: a duo tournament seats an even "
                "number of players.",
                {"players": players},
            )
        )
    elif format is Format.TEAM4 and players % 4:
        problems.append(
            Problem(
                "players",
                "incomplete_team_tables",
                f"{players} players do not fill whole tables of 4: in a {format} tournament "
                "each team of 4 starts together at one table and the regulations give no "
                "table of 3 players for team tournaments.",
                {"players": players},
            )
        )
    problems += _positions_problems(positions)
    if problems:
        raise RuleViolation(problems)


def _positions_problems(positions: int) -> list[Problem]:
    if positions >= 1:
        return []
    return [
        Problem(
            "positions",
            "no_positions",
            f"{positions} positions requested: a tournament plays at least 1 position.",
            {"positions": positions},
        )
    ]


def _check_fives_request(
    players: int, positions: int, format: Format, settings: MovementSettings
) -> None:
    """Tables of 5 seat an individual field of at least ``4 × min_tables + 1`` players."""
    problems = []
    if format is not Format.INDIVIDUAL:
        problems.append(
            Problem(
                "tables_of_five",
                "movement_tables_of_five_individual_only",
                f"A {format} tournament cannot seat tables of 5: only an individual "
                "tournament seats a fifth player who is « mort » in turn (partners start "
                "and move together).",
                {"format": str(format)},
            )
        )
    tables = players // 4
    if tables < settings.min_tables:
        problems.append(
            Problem(
                "players",
                "too_few_players_for_tables_of_five",
                f"{players} players make {tables} tables of 4 and {players % 4} fifth "
                f"player(s): the movements start at {settings.min_tables} tables, so tables "
                f"of 5 need at least {4 * settings.min_tables + 1} players.",
                {
                    "players": players,
                    "min_tables": settings.min_tables,
                    "min_players": 4 * settings.min_tables + 1,
                },
            )
        )
    elif tables > settings.max_tables:
        problems.append(
            Problem(
                "players",
                "too_many_players",
                f"{players} players need {tables} tables but the FFT movement is given for "
                f"at most {settings.max_tables} tables.",
                {"players": players, "tables": tables, "max_tables": settings.max_tables},
            )
        )
    problems += _positions_problems(positions)
    if problems:
        raise RuleViolation(problems)


def _plan_with_fives(
    players: int, positions: int, format: Format, settings: MovementSettings
) -> MovementPlan:
    """``players // 4`` full tables play their own movement (refused as it would be for
    that many players); the ``players % 4`` others are fifth players who start at the
    highest tables (or spread over the room) and all move up by one step a position, so
    that two of them never share a table. Among the steps and the two starts, the plan
    takes the one making the fewest pairs meet again, then the fewest players sit at a
    table of 5 twice, then three times (first step and start on a tie). Every repeat is
    reported; a fifth player's meetings are never a fault of the plan (as far as possible,
    not always: 4 new opponents at each position cannot always be found)."""
    _check_fives_request(players, positions, format, settings)
    tables, extra = divmod(players, 4)
    base = plan_movement(
        4 * tables, positions, Format.INDIVIDUAL, replace(settings, tables_of_five=False)
    )
    fifth = tuple(range(4 * tables + 1, 4 * tables + extra + 1))
    at_tables = [tuple(t.numbers for t in seats.tables) for seats in base.positions]
    starts_options = [
        tuple(tables - j for j in range(extra)),
        tuple(tables - j * (tables // extra) for j in range(extra)),
    ]
    best: tuple[tuple[int, int, int], int, tuple[int, ...]] | None = None
    for step in range(1, tables):
        for starts in dict.fromkeys(starts_options):
            cost = _fifth_cost(at_tables, starts, step, tables)
            if best is None or cost < best[0]:
                best = (cost, step, starts)
    assert best is not None  # tables >= 3: at least two steps
    _, step, starts = best
    seats = tuple(
        PositionSeats(
            position=position.position,
            row=position.row,
            moves=position.moves,
            tables=tuple(
                replace(
                    table,
                    fifth=next(
                        (
                            number
                            for number, start in zip(fifth, starts, strict=True)
                            if _fifth_table(start, step, p, tables) == table.table
                        ),
                        None,
                    ),
                )
                for table in position.tables
            ),
        )
        for p, position in enumerate(base.positions)
    )
    plan = replace(
        base,
        players=players,
        positions=seats,
        repeats=repeats_of(seats),
        fifth_players=fifth,
        fifth_step=step,
    )
    problems = check_plan(plan)
    if problems:  # pragma: no cover - a fifth seat never breaks the full tables' plan
        raise RuleViolation(problems)
    return plan


def _fifth_table(start: int, step: int, index: int, tables: int) -> int:
    """The table of a fifth player starting at ``start`` at the ``index``-th position (from 0)."""
    return (start - 1 + step * index) % tables + 1


def _fifth_cost(
    at_tables: Sequence[tuple[tuple[int, ...], ...]],
    starts: tuple[int, ...],
    step: int,
    tables: int,
) -> tuple[int, int, int]:
    """Pairs meeting again, players at a table of 5 twice, three times or more."""
    meetings: Counter[tuple[int, int]] = Counter()
    at_five: Counter[int] = Counter()
    for index, row in enumerate(at_tables):
        for j, start in enumerate(starts):
            for number in row[_fifth_table(start, step, index, tables) - 1]:
                meetings[(j, number)] += 1
                at_five[number] += 1
    return (
        sum(1 for n in meetings.values() if n > 1),
        sum(1 for n in at_five.values() if n > 1),
        sum(1 for n in at_five.values() if n > 2),
    )


def _attempt(
    players: int, positions: int, format: Format, settings: MovementSettings
) -> MovementPlan | tuple[Problem, ...]:
    """The plan, or the problems that make it impossible."""
    tables = tables_for(players)
    first_row = 1 if format is Format.INDIVIDUAL else 2
    last_row = first_row + positions - 1
    howell = next((h for h in settings.howell if h.tables == tables), None)
    rows: Sequence[tuple[int, ...]]
    moves: Sequence[Moves | None]
    limit, source = _row_limit(tables, howell, settings, first_row)
    if last_row > limit:
        team_note = (
            ""
            if first_row == 1
            else " and a team tournament starts at the movement's second position"
        )
        return (
            Problem(
                "positions",
                "beyond_printed_movement",
                f"{source}{team_note}.",
                {"tables": tables, "limit": limit},
            ),
        )
    if howell is not None:
        kind, rows, moves, repeats_allowed = (
            MovementKind.HOWELL,
            howell.rows[:last_row],
            (None,) * last_row,
            howell.repeats_allowed,
        )
    else:
        kind, repeats_allowed = MovementKind.FFT_NORMAL, False
        rows, moves = _normal_rows(tables, last_row, settings)
    played = rows[first_row - 1 :]
    short = 4 * tables - players
    strict = settings.short_table_rule is ShortTableRule.STRICT and not repeats_allowed
    teams = _teams(tables, format, howell)
    vacant: tuple[int, ...] | None
    if format is Format.DUO and short:
        # An odd number of duos: the last duo (East/West of the highest table) is removed.
        # Its seats move apart (+2, -2), which seats fewer players twice at a table of 3
        # than removing North/South (North's empty seat stays while South's visits).
        vacant = teams[-1]
    else:
        vacant = _choose_vacancies(played, tables, short, strict=strict)
    if vacant is None:
        if strict and _choose_vacancies(played, tables, short, strict=False) is not None:
            return (
                Problem(
                    "players",
                    "no_short_table_choice",
                    f"with {players} players, {short} tables play at 3 and no choice "
                    f"of North seats to remove (table {tables} first) keeps every player from a "
                    "second table of 3.",
                    {"players": players, "short_tables": short},
                ),
            )
        return (
            Problem(
                "players",
                "removed_seats_meet",
                f"with {players} players, {short} tables play at 3 and every choice of North "
                f"seats to remove (table {tables} first) brings two removed seats to one table, "
                "a table of 2 players.",
                {"players": players, "short_tables": short},
            ),
        )
    seats = tuple(
        _position_seats(position, row, rows[row - 1], moves[row - 1], set(vacant))
        for position, row in enumerate(range(first_row, last_row + 1), start=1)
    )
    plan = MovementPlan(
        format=format,
        kind=kind,
        tables=tables,
        players=players,
        vacant=tuple(sorted(vacant)),
        teams=tuple(team for team in teams if set(vacant).isdisjoint(team)),
        repeats_allowed=repeats_allowed,
        short_table_rule=settings.short_table_rule,
        positions=seats,
        repeats=repeats_of(seats),
    )
    problems = check_plan(plan)
    return problems or plan


def _row_limit(
    tables: int, howell: HowellTable | None, settings: MovementSettings, first_row: int = 1
) -> tuple[int, str]:
    if howell is not None:
        limit = len(howell.rows)
        return limit, f"the {tables}-table Howell movement is printed for {limit} positions"
    special = _special_case(tables, settings)
    if special is not None and special.max_positions is not None:
        limit = min(special.max_positions, settings.max_positions)
        return limit, f"the regulations limit the {tables}-table movement to {limit} positions"
    if settings.team_position_limit is TeamPositionLimit.PLAYED_POSITIONS:
        # The limit counts played positions: a team tournament skips the first row.
        return settings.max_positions + first_row - 1, (
            f"the regulations give the FFT movement for at most {settings.max_positions} "
            "played positions"
        )
    return settings.max_positions, (
        f"the regulations give the FFT movement for at most {settings.max_positions} positions"
    )


def _special_case(tables: int, settings: MovementSettings) -> SpecialCase | None:
    return next((s for s in settings.special_cases if tables in s.tables), None)


def _normal_rows(
    tables: int, rows: int, settings: MovementSettings
) -> tuple[list[tuple[int, ...]], list[Moves | None]]:
    """Rows of the normal movement in Howell printing order, and the moves reaching each."""
    special = _special_case(tables, settings)
    base = special.base if special else settings.base_moves
    offsets = dict.fromkeys(SEAT_ORDER, 0)
    all_rows: list[tuple[int, ...]] = []
    all_moves: list[Moves | None] = [None]
    for row in range(1, rows + 1):
        if row > 1:
            moves = base
            for position, orientation, by in special.deviations if special else ():
                if position == row:
                    moves = moves.replaced(orientation, by)
            all_moves.append(moves)
            for orientation in SEAT_ORDER:
                offsets[orientation] += moves.of(orientation)
        shifts = [offsets[orientation] for orientation in SEAT_ORDER]
        all_rows.append(
            tuple(
                4 * ((table - shift) % tables) + seat + 1
                for table in range(tables)
                for seat, shift in enumerate(shifts)
            )
        )
    return all_rows, all_moves


def _choose_vacancies(
    rows: Sequence[tuple[int, ...]], tables: int, count: int, *, strict: bool
) -> tuple[int, ...] | None:
    """North seats to remove: that of the highest table, then others such that no two removed
    seats ever share a table (a table of 2 is no table). Among those, the choice seating the
    fewest players twice at a table of 3, then the fewest three times, then the highest
    tables; ``strict`` accepts only a choice seating nobody twice. ``None`` if none works."""
    if count == 0:
        return ()
    candidates = [seat_number(table, Orientation.N) for table in range(tables, 0, -1)]
    # For each candidate seat, how many positions each other number shares its table.
    company: dict[int, Counter[int]] = {c: Counter() for c in candidates}
    for row in rows:
        for start in range(0, len(row), 4):
            at_table = row[start : start + 4]
            for number in at_table:
                if number in company:
                    company[number].update(n for n in at_table if n != number)

    def apart(a: int, b: int) -> bool:
        return b not in company[a]

    def cost(chosen: tuple[int, ...]) -> tuple[int, int]:
        sittings: Counter[int] = Counter()
        for seat in chosen:
            sittings.update(company[seat])
        return (
            sum(1 for n in sittings.values() if n >= 2),
            sum(1 for n in sittings.values() if n >= 3),
        )

    def disjoint(a: int, b: int) -> bool:
        return company[a].keys().isdisjoint(company[b].keys())

    first = candidates[0]
    others = [c for c in candidates[1:] if apart(first, c)]
    # First the highest choice seating nobody twice (pairwise disjoint company), found by
    # pruning; only if there is none, every choice is weighed.
    clear = [c for c in others if disjoint(first, c)]
    for rest in combinations(clear, count - 1):
        if all(apart(a, b) and disjoint(a, b) for a, b in combinations(rest, 2)):
            chosen = (first, *rest)
            if cost(chosen) == (0, 0):
                return chosen
    if strict:
        return None
    best: tuple[int, ...] | None = None
    best_cost = (0, 0)
    for rest in combinations(others, count - 1):
        if all(apart(a, b) for a, b in combinations(rest, 2)):
            chosen = (first, *rest)
            chosen_cost = cost(chosen)
            if best is None or chosen_cost < best_cost:
                best, best_cost = chosen, chosen_cost
    return best


def _teams(tables: int, format: Format, howell: HowellTable | None) -> tuple[tuple[int, ...], ...]:
    size = format.team_size
    if size == 1:
        return ()
    if format is Format.DUO and howell is not None and howell.duo_teams:
        return howell.duo_teams
    return tuple(tuple(range(first, first + size)) for first in range(1, 4 * tables + 1, size))


def _position_seats(
    position: int, row: int, numbers: tuple[int, ...], moves: Moves | None, vacant: set[int]
) -> PositionSeats:
    seated = [None if n in vacant else n for n in numbers]
    return PositionSeats(
        position=position,
        row=row,
        moves=moves,
        tables=tuple(TableSeats(i // 4 + 1, *seated[i : i + 4]) for i in range(0, len(seated), 4)),
    )


def repeats_of(positions: Iterable[PositionSeats]) -> tuple[Repeat, ...]:
    """Every player seated at a table of 3 at more than one position (by number), every
    player at a table of 5 at more than one position, then every pair of players at one
    table at more than one position (by pair), with the positions and tables where it
    happens."""
    short: dict[int, list[tuple[int, int]]] = defaultdict(list)
    five: dict[int, list[tuple[int, int]]] = defaultdict(list)
    meetings: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for seats in positions:
        for table in seats.tables:
            present = table.numbers
            if len(present) == 3:
                for number in present:
                    short[number].append((seats.position, table.table))
            if len(present) == 5:
                for number in present:
                    five[number].append((seats.position, table.table))
            for pair in combinations(sorted(present), 2):
                meetings[pair].append((seats.position, table.table))
    found: list[tuple[RepeatKind, tuple[int, ...], list[tuple[int, int]]]] = sorted(
        (RepeatKind.SHORT_TABLE, (n,), seen) for n, seen in short.items() if len(seen) > 1
    )
    found += sorted(
        (RepeatKind.TABLE_OF_FIVE, (n,), seen) for n, seen in five.items() if len(seen) > 1
    )
    found += sorted(
        (RepeatKind.MEETING, pair, seen) for pair, seen in meetings.items() if len(seen) > 1
    )
    return tuple(
        Repeat(
            kind=kind,
            players=players,
            positions=tuple(position for position, _ in seen),
            tables=tuple(table for _, table in seen),
        )
        for kind, players, seen in found
    )


# ---------------------------------------------------------------------------------------------
# Checking


def check_plan(
    plan: MovementPlan, partners: Iterable[Collection[int]] | None = None
) -> tuple[Problem, ...]:
    """Every fault of ``plan``, located: a seat with an unknown or removed number, a player
    seated twice or missing at a position, a table of fewer than 3 players, partners at the same
    table, and, unless the plan's movement repeats meetings by design (3-table Howell), two
    players meeting twice or, when the plan is strict about tables of 3, a player sitting twice
    at a table of 3.

    ``partners`` defaults to the plan's teams.
    """
    problems: list[Problem] = []
    expected = set(plan.numbers)
    vacant = set(plan.vacant)
    team_of: dict[int, int] = {}
    for index, team in enumerate(plan.teams if partners is None else partners):
        for member in team:
            team_of[member] = index
    met: dict[tuple[int, int], tuple[int, int]] = {}
    first_short: dict[int, int] = {}
    fifth_players = set(plan.fifth_players)  # their meetings are reported, never a fault
    for p, seats in enumerate(plan.positions):
        where = f"positions[{p}]"
        if seats.position != p + 1:
            problems.append(
                Problem(
                    f"{where}.position",
                    "position_numbering",
                    f"Position at index {p} is numbered {seats.position}; positions are "
                    "numbered from 1 in order.",
                    {"index": p, "position": seats.position},
                )
            )
        if [t.table for t in seats.tables] != list(range(1, plan.tables + 1)):
            problems.append(
                Problem(
                    f"{where}.tables",
                    "table_numbering",
                    f"Position {seats.position} lists tables "
                    f"{[t.table for t in seats.tables]}, expected 1 to {plan.tables} in order.",
                    {"position": seats.position, "tables": plan.tables},
                )
            )
        seen: set[int] = set()
        for t, table in enumerate(seats.tables):
            at = f"{where}.tables[{t}]"
            for orientation, number in (
                *zip(SEAT_ORDER, table.seats, strict=True),
                (Orientation.FIFTH, table.fifth),
            ):
                if number is None:
                    continue
                if number in expected and number not in seen:
                    seen.add(number)
                    continue
                field = f"{at}.{_SEAT_FIELD[orientation]}"
                if number in vacant:
                    problems.append(
                        Problem(
                            field,
                            "vacant_number_seated",
                            f"Number {number} is seated at table {table.table} position "
                            f"{seats.position} but its seat was removed (table of 3 players).",
                            {"number": number, "table": table.table, "position": seats.position},
                        )
                    )
                elif number not in expected:
                    problems.append(
                        Problem(
                            field,
                            "unknown_number",
                            f"Number {number} at table {table.table} position {seats.position} "
                            f"is not a starting number of this {plan.tables}-table plan.",
                            {
                                "number": number,
                                "table": table.table,
                                "position": seats.position,
                                "tables": plan.tables,
                            },
                        )
                    )
                elif number in seen:
                    problems.append(
                        Problem(
                            field,
                            "number_seated_twice",
                            f"Player {number} is seated twice at position {seats.position}.",
                            {"number": number, "position": seats.position},
                        )
                    )
                seen.add(number)
            present = table.numbers
            if len(present) < 3:
                problems.append(
                    Problem(
                        at,
                        "table_too_short",
                        f"Table {table.table} has {len(present)} players at position "
                        f"{seats.position}; a table seats 4 players, or 3 at least.",
                        {"table": table.table, "players": len(present), "position": seats.position},
                    )
                )
            if (
                len(present) == 3
                and plan.short_table_rule is ShortTableRule.STRICT
                and not plan.repeats_allowed
            ):
                for number in present:
                    if number in first_short:
                        problems.append(
                            Problem(
                                at,
                                "short_table_twice",
                                f"Player {number} sits at a table of 3 again at position "
                                f"{seats.position} (table {table.table}) after position "
                                f"{first_short[number]}; nobody should play twice at a "
                                "table of 3.",
                                {
                                    "number": number,
                                    "position": seats.position,
                                    "table": table.table,
                                    "first": first_short[number],
                                },
                            )
                        )
                    else:
                        first_short[number] = seats.position
            for a, b in combinations(sorted(present), 2):
                if a in team_of and team_of[a] == team_of.get(b):
                    problems.append(
                        Problem(
                            at,
                            "partners_meet",
                            f"Partners {a} and {b} sit at the same table ({table.table}) at "
                            f"position {seats.position}; team-mates never play each other.",
                            {
                                "first": a,
                                "second": b,
                                "table": table.table,
                                "position": seats.position,
                            },
                        )
                    )
                elif (
                    (a, b) in met
                    and not plan.repeats_allowed
                    and a not in fifth_players
                    and b not in fifth_players
                ):
                    before_position, before_table = met[(a, b)]
                    problems.append(
                        Problem(
                            at,
                            "repeated_meeting",
                            f"Players {a} and {b} meet again at position {seats.position} "
                            f"(table {table.table}) after position {before_position} "
                            f"(table {before_table}); the FFT movement lets nobody meet an "
                            "opponent twice.",
                            {
                                "first": a,
                                "second": b,
                                "position": seats.position,
                                "table": table.table,
                                "before_position": before_position,
                                "before_table": before_table,
                            },
                        )
                    )
                else:
                    met.setdefault((a, b), (seats.position, table.table))
        missing = expected - seen
        if missing:
            problems.append(
                Problem(
                    where,
                    "player_missing",
                    f"Players {_listed(sorted(missing))} have no seat at position "
                    f"{seats.position}.",
                    {"players": _listed(sorted(missing)), "position": seats.position},
                )
            )
    return tuple(problems)


_SEAT_FIELD = {
    Orientation.N: "north",
    Orientation.S: "south",
    Orientation.E: "east",
    Orientation.W: "west",
    Orientation.FIFTH: "fifth",
}


def _listed(numbers: Iterable[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _uncapitalised(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]
