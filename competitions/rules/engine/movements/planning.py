"""Planning a movement: :func:`plan_movement`, the one door to a plan, and
:func:`max_positions`, the most positions it accepts.

The rows come from the printed movements (:mod:`.printed`), the seats removed for tables of
3 from :mod:`.tables_of_three`, the fifth players of tables of 5 from :mod:`.tables_of_five`;
every plan is checked (:func:`~.checker.check_plan`) before it is returned, and a request
the regulations cannot honour is refused with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from competitions.rules.engine.movements.checker import check_plan
from competitions.rules.engine.movements.plan import (
    MovementPlan,
    PositionSeats,
    TableSeats,
    repeats_of,
)
from competitions.rules.engine.movements.printed import (
    HowellTable,
    MovementKind,
    Moves,
    normal_rows,
    special_case,
    tables_for,
)
from competitions.rules.engine.movements.settings import (
    MovementSettings,
    ShortTableRule,
    TeamPositionLimit,
)
from competitions.rules.engine.movements.tables_of_five import with_fifth_players
from competitions.rules.engine.movements.tables_of_three import choose_vacancies
from core.problems import Problem, RuleViolation
from core.vocabulary import Format


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
        # ``players // 4`` full tables play their own movement (refused as it would be for
        # that many players); the others are the fifth players of tables of 5.
        _check_fives_request(players, positions, format, settings)
        base = plan_movement(
            4 * (players // 4),
            positions,
            Format.INDIVIDUAL,
            replace(settings, tables_of_five=False),
        )
        return with_fifth_players(base, players)
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
        rows, moves = normal_rows(tables, last_row, settings.base_moves, settings.special_cases)
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
        vacant = choose_vacancies(played, tables, short, strict=strict)
    if vacant is None:
        if strict and choose_vacancies(played, tables, short, strict=False) is not None:
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
    special = special_case(tables, settings.special_cases)
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


def _uncapitalised(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]
