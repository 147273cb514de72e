"""Who may enter a championship stage, checked at entry, with the reason when refused.

Chapter 3 of the fascicule 2:

- « Seuls les joueurs licenciés à la FFT peuvent prétendre participer » (all
  championships); at a national final « les joueurs doivent avoir leur licence de la
  saison en cours à jour » on the day (articles 11 and 16);
- seniors: « au moins 60 ans le 31 décembre de la saison en cours »;
- DUO: « 2 joueurs licenciés dans le même comité sans contrainte d'appartenance à un
  club et sans restriction de classement »;
- interclubs: « 4 joueurs licenciés dans le même club » whose series make an allowed
  composition (see :mod:`team_composition`), except at the national final, where the
  team keeps the club and ranking of its qualification day (article 16).

Chapter 4 (the arbitration code): « La personne qui quitte un tournoi en cours sans accord
de l'arbitre sera suspendue de jeu en donnes libres (tournois et compétition) pour une
durée de 12 mois »: a player suspended on the stage's day may not enter it
(docs/sanctions.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.player_facts import PlayerFacts
from competitions.rules.championships.seasons import Season
from competitions.rules.championships.team_composition import composition_problems
from core.problems import Problem
from core.vocabulary import ChampionshipKind, StageKind, championship_stage


def age_on(birth_date: date, day: date) -> int:
    """Age in whole years on ``day``."""
    before_birthday = (day.month, day.day) < (birth_date.month, birth_date.day)
    return day.year - birth_date.year - before_birthday


def check_entry(
    kind: ChampionshipKind,
    stage: StageKind,
    entrants: Sequence[PlayerFacts],
    season: Season,
    rules: ChampionshipRules,
    as_of: date,
) -> list[Problem]:
    """Every reason the entry is refused; an empty list means it is eligible.

    ``entrants`` are the players of the entry (1, 2 or 4), their facts taken for
    ``season``. ``as_of`` is the day of the check; for a national final, check on the day
    of the final (« le jour de la finale nationale »).
    """
    kind, stage = ChampionshipKind(kind), championship_stage(stage)
    if rules.kind != kind:
        raise ValueError(f"rules for {rules.kind} given to check a {kind} entry")
    problems: list[Problem] = []
    if not season.contains(as_of):
        problems.append(
            Problem(
                "as_of",
                "outside_season",
                f"The entry is checked on {as_of}, outside season {season.label} "
                f"({season.start} – {season.end}).",
                {"date": as_of, "season": season.label, "start": season.start, "end": season.end},
            )
        )
    if stage is StageKind.NATIONAL_QUALIFIER and rules.national_qualifier_quota is None:
        problems.append(
            Problem(
                "stage",
                "no_national_qualifier",
                f"The {kind} championship has no national qualifier this season.",
                {"kind": kind},
            )
        )
    if len(entrants) != kind.team_size:
        problems.append(
            Problem(
                "entrants",
                "wrong_team_size",
                f"A {kind} entry has {kind.team_size} player(s), got {len(entrants)}.",
                {"size": kind.team_size, "players": len(entrants)},
            )
        )
    counts = Counter(p.licence_number for p in entrants)
    for i, player in enumerate(entrants):
        if counts[player.licence_number] > 1:
            problems.append(
                Problem(
                    f"entrants[{i}].licence_number",
                    "duplicate_player",
                    f"licence {player.licence_number}: appears {counts[player.licence_number]} "
                    "times in the same entry.",
                    {"licence": player.licence_number, "times": counts[player.licence_number]},
                )
            )
        problems += _licence_problems(player, f"entrants[{i}]", stage, season, as_of)
        problems += _suspension_problems(player, f"entrants[{i}]", as_of)
        if rules.minimum_age is not None:
            problems += _age_problems(player, f"entrants[{i}]", season, rules)
    if kind is ChampionshipKind.DUO:
        problems += same_place_problems(entrants, "committee", "DUO pairs")
    if kind is ChampionshipKind.INTERCLUBS and stage is not StageKind.NATIONAL_FINAL:
        problems += same_place_problems(entrants, "club", "interclubs teams")
        if len(entrants) == kind.team_size:
            problems += composition_problems(entrants, rules)
    return problems


def _licence_problems(
    player: PlayerFacts, field: str, stage: StageKind, season: Season, as_of: date
) -> list[Problem]:
    licence = player.licence
    if licence is None:
        return [
            Problem(
                f"{field}.licence",
                "not_licensed",
                f"licence {player.licence_number}: not licensed for season {season.label}; "
                "only licensed players may enter the championships.",
                {"licence": player.licence_number, "season": season.label},
            )
        ]
    if licence.since > as_of:
        if stage is StageKind.NATIONAL_FINAL:
            return [
                Problem(
                    f"{field}.licence.since",
                    "licence_not_valid_on_final_day",
                    f"licence {player.licence_number}: the {season.label} licence takes effect "
                    f"on {licence.since}, after the national final on {as_of}; the licence "
                    "of the current season must be valid on the day of the final.",
                    {
                        "licence": player.licence_number,
                        "season": season.label,
                        "since": licence.since,
                        "as_of": as_of,
                    },
                )
            ]
        return [
            Problem(
                f"{field}.licence.since",
                "licence_not_yet_valid",
                f"licence {player.licence_number}: the {season.label} licence takes effect "
                f"on {licence.since}, after the entry on {as_of}.",
                {
                    "licence": player.licence_number,
                    "season": season.label,
                    "since": licence.since,
                    "as_of": as_of,
                },
            )
        ]
    return []


def _suspension_problems(player: PlayerFacts, field: str, as_of: date) -> list[Problem]:
    """A suspended player may not play; the message names the end, never the reason."""
    ends = [s.ends for s in player.suspensions if s.covers(as_of)]
    if not ends:
        return []
    until = max(ends)
    return [
        Problem(
            field,
            "player_suspended",
            f"licence {player.licence_number}: suspended from play until {_long_date(until)} "
            f"(included); a suspended player may not enter on {_long_date(as_of)}.",
            {"licence": player.licence_number, "until": until, "as_of": as_of},
        )
    ]


def _age_problems(
    player: PlayerFacts, field: str, season: Season, rules: ChampionshipRules
) -> list[Problem]:
    minimum = rules.minimum_age
    assert minimum is not None
    reference = season.date_of(rules.age_reference_day)
    if player.birth_date is None:
        return [
            Problem(
                f"{field}.birth_date",
                "birth_date_unknown",
                f"licence {player.licence_number}: no date of birth on record; players must "
                f"be at least {minimum} on {_long_date(reference)} and may be asked for proof.",
                {"licence": player.licence_number, "minimum": minimum, "reference": reference},
            )
        ]
    if age_on(player.birth_date, reference) < minimum:
        # No birth date nor age in the message: it may reach someone who may not see
        # this player's private data.
        return [
            Problem(
                f"{field}.birth_date",
                "too_young",
                f"licence {player.licence_number}: not {minimum} on "
                f"{_long_date(reference)}, {minimum} required.",
                {"licence": player.licence_number, "minimum": minimum, "reference": reference},
            )
        ]
    return []


def same_place_problems(entrants: Sequence[PlayerFacts], attribute: str, who: str) -> list[Problem]:
    """A refusal when ``entrants`` are not all licensed in the same club or committee."""
    places = {
        p.licence_number: getattr(p.licence, attribute) for p in entrants if p.licence is not None
    }
    if len(set(places.values())) <= 1:
        return []
    listed = ", ".join(f"licence {n} in {attribute} {place}" for n, place in places.items())
    plural = "committees" if attribute == "committee" else "clubs"
    return [
        Problem(
            "entrants",
            f"mixed_{plural}",
            f"{who} must be licensed in the same {attribute}: {listed}.",
            {"listed": ", ".join(str(n) for n in places)},
        )
    ]


_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def _long_date(day: date) -> str:
    """« 31 December 2025 », whatever the process locale."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"
