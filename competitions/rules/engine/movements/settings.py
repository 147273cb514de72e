"""What the federation could change between seasons in the movements (the season's rulebook,
``movements.*``; ``docs/rulebook-settings.md``); the defaults are the current text."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from competitions.rules.engine.movements.printed import (
    BASE_MOVES,
    HOWELL_3_TABLES,
    HOWELL_4_TABLES,
    SPECIAL_CASES,
    HowellTable,
    Moves,
    SpecialCase,
)


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
