"""Interclubs team composition: the series-product rule and its two exceptions.

Fascicule 2, chapter 3, « Règles applicables au championnat Interclubs »: a team is four
players licensed in the same club, and « le produit des séries des joueurs de l'équipe au
Classement National de l'année en cours doit être strictement supérieur à 16 », except
that two 1st-series players may play « soit avec 2 joueurs de 4ème série, soit avec un
joueur de 3ème série et 1 joueur de 4ème série ». « Vingt-trois compositions d'équipes
sont ainsi possibles ».
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import combinations_with_replacement

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.player_facts import PlayerFacts
from core.problems import Problem, RuleViolation
from core.vocabulary import ChampionshipKind

INTERCLUBS_RULES = ChampionshipRules.current(ChampionshipKind.INTERCLUBS)


def composition_allowed(series: Sequence[int], rules: ChampionshipRules = INTERCLUBS_RULES) -> bool:
    """Whether four series (in any order) make an allowed interclubs team."""
    if len(series) != ChampionshipKind.INTERCLUBS.team_size:
        return False
    if not all(1 <= s <= rules.lowest_series for s in series):
        return False
    if math.prod(series) > rules.series_product_threshold:
        return True
    return tuple(sorted(series)) in {tuple(sorted(e)) for e in rules.series_product_exceptions}


def allowed_compositions(
    rules: ChampionshipRules = INTERCLUBS_RULES,
) -> tuple[tuple[int, ...], ...]:
    """Every allowed multiset of series, as sorted tuples, in the order of the printed table."""
    size = ChampionshipKind.INTERCLUBS.team_size
    return tuple(
        combo
        for combo in combinations_with_replacement(range(1, rules.lowest_series + 1), size)
        if composition_allowed(combo, rules)
    )


def effective_series(
    player: PlayerFacts, rules: ChampionshipRules = INTERCLUBS_RULES
) -> int | None:
    """The series a player counts for in a team.

    The series of the current national ranking if the player has one (the caller applies
    the assimilation of articles 7 and 12 of fascicule 1, which is not available);
    otherwise 4th series for a player not licensed the previous season; otherwise unknown.
    """
    if player.series is not None:
        return player.series
    if not player.licensed_previous_season:
        return rules.unlicensed_previous_season_series
    return None


def composition_problems(
    players: Sequence[PlayerFacts],
    rules: ChampionshipRules = INTERCLUBS_RULES,
    field: str = "entrants",
) -> list[Problem]:
    """Why four players cannot form a team on their series (empty list: they can)."""
    problems: list[Problem] = []
    series: list[int] = []
    for i, player in enumerate(players):
        s = effective_series(player, rules)
        if s is None:
            problems.append(
                Problem(
                    f"{field}[{i}].series",
                    "series_unknown",
                    f"licence {player.licence_number}: no series in the current national "
                    "ranking although licensed the previous season; the composition of "
                    "the team cannot be checked.",
                    {"licence": player.licence_number},
                )
            )
        elif not 1 <= s <= rules.lowest_series:
            problems.append(
                Problem(
                    f"{field}[{i}].series",
                    "series_out_of_range",
                    f"licence {player.licence_number}: series {s} is not in "
                    f"1..{rules.lowest_series}.",
                    {"licence": player.licence_number, "series": s, "lowest": rules.lowest_series},
                )
            )
        else:
            series.append(s)
    if not problems and not composition_allowed(series, rules):
        problems.append(
            Problem(
                field,
                "composition_not_allowed",
                _refusal_message(series, rules),
                {
                    "series": "×".join(str(s) for s in sorted(series)),
                    "product": math.prod(series),
                    "threshold": rules.series_product_threshold,
                },
            )
        )
    return problems


def _refusal_message(series: Sequence[int], rules: ChampionshipRules) -> str:
    shown = "×".join(str(s) for s in sorted(series))
    return (
        f"series {shown} = {math.prod(series)}: the product of the four series must be "
        f"strictly greater than {rules.series_product_threshold}, and the composition is "
        "not one of the allowed exceptions "
        f"({', '.join('-'.join(map(str, e)) for e in rules.series_product_exceptions)})."
    )


@dataclass(frozen=True, slots=True)
class TeamSnapshot:
    """An interclubs team as it stood on the day it qualified (article 16).

    « Les joueurs gardent le classement, le comité et le club d'appartenance du jour de
    leur qualification. »
    """

    club: str
    committee: str
    series: tuple[int, ...]
    taken_on: date


def snapshot_team(
    players: Sequence[PlayerFacts], on: date, rules: ChampionshipRules = INTERCLUBS_RULES
) -> TeamSnapshot:
    """Freeze a team's club, committee and effective series on ``on``.

    Raises ``RuleViolation`` if the four players are not licensed in one club or if a
    series is unknown.
    """
    problems: list[Problem] = []
    licences = [p.licence for p in players]
    if len(players) != ChampionshipKind.INTERCLUBS.team_size:
        problems.append(
            Problem(
                "players",
                "wrong_team_size",
                f"A team has 4 players, got {len(players)}.",
                {"size": 4, "players": len(players)},
            )
        )
    if any(licence is None for licence in licences):
        problems.append(
            Problem("players", "not_licensed", "Every player must hold a licence to be frozen.", {})
        )
    series = [effective_series(p, rules) for p in players]
    if any(s is None for s in series):
        problems.append(Problem("players", "series_unknown", "A player has no known series.", {}))
    clubs = {licence.club for licence in licences if licence is not None}
    committees = {licence.committee for licence in licences if licence is not None}
    if len(clubs) > 1 or len(committees) > 1:
        problems.append(
            Problem(
                "players",
                "mixed_clubs",
                f"The four players must be licensed in one club, got {sorted(clubs)}.",
                {"listed": ", ".join(str(c) for c in sorted(clubs))},
            )
        )
    if problems:
        raise RuleViolation(problems)
    return TeamSnapshot(
        club=clubs.pop(),
        committee=committees.pop(),
        series=tuple(s for s in series if s is not None),
        taken_on=on,
    )


@dataclass(frozen=True, slots=True)
class RegisteredTeam:
    """A team known to the service, by its players' licence numbers."""

    team_id: str
    licence_numbers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TeamFlag:
    """A registered team whose composition is no longer valid, and why."""

    team_id: str
    series: tuple[int | None, ...]
    code: str
    message: str


def flag_invalid_teams(
    teams: Sequence[RegisteredTeam],
    current_series: Mapping[str, int | None],
    rules: ChampionshipRules = INTERCLUBS_RULES,
) -> list[TeamFlag]:
    """Flag every team whose players' current series no longer make an allowed composition.

    ``current_series`` maps a licence number to the player's effective series (see
    :func:`effective_series`). A team that qualified for a national final keeps the
    series of its qualification day (article 16) and should not be passed here for it.
    """
    flags: list[TeamFlag] = []
    size = ChampionshipKind.INTERCLUBS.team_size
    for team in teams:
        series = tuple(current_series.get(n) for n in team.licence_numbers)
        known = [s for s in series if s is not None]
        missing = [n for n, s in zip(team.licence_numbers, series, strict=True) if s is None]
        if len(team.licence_numbers) != size:
            flags.append(
                TeamFlag(
                    team.team_id,
                    series,
                    "wrong_team_size",
                    f"team {team.team_id}: {len(team.licence_numbers)} players, "
                    f"an interclubs team has {size}.",
                )
            )
        elif missing:
            flags.append(
                TeamFlag(
                    team.team_id,
                    series,
                    "series_unknown",
                    f"team {team.team_id}: no current series for licence(s) "
                    f"{', '.join(missing)}; the composition cannot be confirmed.",
                )
            )
        elif not composition_allowed(known, rules):
            flags.append(
                TeamFlag(
                    team.team_id,
                    series,
                    "composition_not_allowed",
                    f"team {team.team_id}: {_refusal_message(known, rules)}",
                )
            )
    return flags
