"""Dry-run checks for clubs' software and staff: the same rules core and the
same services' checks as the real writes, nothing stored.

- :func:`team_check`: is this interclubs team composition allowed this season (the series
  of the four players, their product, the exception used, why not);
- :func:`entry_check`: may these players enter this stage (every reason, the private ones
  of players outside the caller's scope reduced to their kind: "not eligible: age");
- :func:`tournament_homologation_check` and :func:`plan_homologation_check`: can this
  tournament be homologated (chapter 5), from a declared tournament or from a posted plan.

Each check runs inside a transaction that is rolled back (``transaction.set_rollback``):
reading the season's rulebook or championship rules creates their first version when none
exists, and a dry run must leave the database as it found it. See docs/dry-run-checks.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction

from competitions.championships import selectors
from competitions.championships.entries import entry_problems
from competitions.championships.facts import players_facts
from competitions.championships.preconditions import stage_not_played
from competitions.championships.settings_versions import championship_rules_in_force
from competitions.models import Championship, ChampionshipKindChoice, ChampionshipStage, Tournament
from competitions.rulebooks import rulebook_in_force
from competitions.rules.championships.eligibility import same_place_problems
from competitions.rules.championships.team_composition import (
    composition_problems,
    effective_series,
)
from competitions.rules.homologation import TournamentFacts, check_homologation
from competitions.tournaments.homologation_conditions import homologation_facts, planned_facts
from core.problems import Problem, RuleViolation
from federation.access import Scope
from federation.models import Season
from federation.selectors import private_data_visible

# ---------------------------------------------------------------------------------------------
# Interclubs team composition


@dataclass(frozen=True)
class TeamPlayer:
    licence_number: int
    club: int | None
    """The club of the player's licence this season (None: not licensed)."""
    series: int | None
    """The series the player counts for in a team (None: unknown)."""


@dataclass(frozen=True)
class TeamCheck:
    season: str
    players: tuple[TeamPlayer, ...]
    product: int | None
    threshold: int
    exception: bool
    """Allowed only as one of the regulation's exceptions (product not above the threshold)."""
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems


def team_check(*, championship: Championship, licence_numbers: Sequence[int]) -> TeamCheck:
    """Would these four players make an allowed interclubs team this season? Every player's
    series and club are public facts (the national ranking, the club's page)."""
    if championship.kind != ChampionshipKindChoice.INTERCLUBS:
        raise RuleViolation.single(
            "championship",
            "not_interclubs",
            f"Championship {championship.pk} is the {championship.kind} championship; team "
            "compositions are checked on the interclubs championship.",
            {"kind": championship.kind},
        )
    with transaction.atomic():
        _version, rules = championship_rules_in_force(
            season=championship.season, kind=championship.kind
        )
        facts = players_facts(season=championship.season, licence_numbers=licence_numbers)
        transaction.set_rollback(True)
    problems = _unknown_players(licence_numbers, facts.players, "licence_numbers")
    players: list[TeamPlayer] = []
    for n in licence_numbers:
        licence = facts.licences.get(n)
        fact = facts.facts.get(n)
        players.append(
            TeamPlayer(
                n,
                None if licence is None else licence.club.number,
                None if fact is None else effective_series(fact, rules),
            )
        )
    if not problems:
        entrants = [facts.facts[n] for n in licence_numbers]
        for i, fact in enumerate(entrants):
            if fact.licence is None:
                problems.append(
                    Problem(
                        f"licence_numbers[{i}]",
                        "team_player_not_licensed",
                        f"licence {fact.licence_number}: no licence this season; a team is "
                        "four players licensed in the same club.",
                        {"licence": fact.licence_number},
                    )
                )
        if not problems:
            problems += same_place_problems(entrants, "club", "interclubs teams")
        problems += [
            Problem(p.field.replace("entrants", "licence_numbers", 1), p.code, p.message, p.params)
            for p in composition_problems(entrants, rules)
        ]
    known = [p.series for p in players]
    product = math.prod(s for s in known if s is not None) if None not in known else None
    return TeamCheck(
        season=championship.season.name,
        players=tuple(players),
        product=product,
        threshold=rules.series_product_threshold,
        exception=not problems
        and product is not None
        and product <= rules.series_product_threshold,
        problems=tuple(problems),
    )


def _unknown_players(numbers: Sequence[int], known, field_: str) -> list[Problem]:
    return [
        Problem(
            f"{field_}[{j}]",
            "unknown_player",
            f"licence {n}: no such player in the federation's registry.",
            {"licence": n},
        )
        for j, n in enumerate(numbers)
        if n not in known
    ]


# ---------------------------------------------------------------------------------------------
# Eligibility for a stage


PRIVATE_REASONS: dict[str, str] = {
    "too_young": "not_eligible_age",
    "birth_date_unknown": "not_eligible_age",
    "player_suspended": "not_eligible_suspension",
    "licence_not_yet_valid": "not_eligible_licence_date",
    "licence_not_valid_on_final_day": "not_eligible_licence_date",
}
"""Refusals that rest on a private fact of the player (birth date, sanction, the day the
licence took effect), and the code they become for a caller who may not see that player's
private data: the kind of reason, without the fact."""


@dataclass(frozen=True)
class EntryCheck:
    stage: int
    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...] = ()
    hidden: tuple[int, ...] = field(default=())
    """Licence numbers whose private reasons were reduced to their kind."""

    @property
    def eligible(self) -> bool:
        return not self.problems


def entry_check(
    *, stage: ChampionshipStage, licence_numbers: Sequence[int], scope: Scope
) -> EntryCheck:
    """Every reason these players (one entry: 1, 2 or 4) may not enter ``stage``, as the
    entry service would find them on the stage's day; nothing stored."""
    problems = stage_not_played(stage)
    entered = selectors.entries_by_players(stage)
    already = {n: e for key, e in entered.items() for n in key}
    for j, n in enumerate(licence_numbers):
        if n in already:
            problems.append(
                Problem(
                    f"licence_numbers[{j}]",
                    "already_entered",
                    f"licence {n} is already in entry {already[n].number} of this stage.",
                    {"licence": n, "entry": already[n].number},
                )
            )
    championship = stage.championship
    with transaction.atomic():
        _version, rules = championship_rules_in_force(
            season=championship.season, kind=championship.kind
        )
        facts = players_facts(season=stage.tournament.season, licence_numbers=licence_numbers)
        found = entry_problems(stage, list(licence_numbers), facts, rules, "entry")
        transaction.set_rollback(True)
    visible = private_data_visible(scope, licence_numbers)
    hidden: set[int] = set()
    for p in found:
        located = Problem(p.field.removeprefix("entry."), p.code, p.message, p.params)
        licence = _licence_of(p)
        if p.code in PRIVATE_REASONS and licence is not None and licence not in visible:
            hidden.add(licence)
            code = PRIVATE_REASONS[p.code]
            located = Problem(
                _player_field(located.field),
                code,
                f"licence {licence}: not eligible ({code.removeprefix('not_eligible_')}).",
                {"licence": licence},
            )
        problems.append(located)
    return EntryCheck(stage.pk, tuple(problems), hidden=tuple(sorted(hidden)))


def _player_field(field_: str) -> str:
    """``licence_numbers[1].birth_date`` → ``licence_numbers[1]``: the player, not the fact."""
    head, sep, _rest = field_.partition("].")
    return f"{head}]" if sep else field_


def _licence_of(problem: Problem) -> int | None:
    value = problem.params.get("licence")
    if isinstance(value, int | str) and str(value).isdigit():
        return int(value)
    return None


# ---------------------------------------------------------------------------------------------
# Homologation


@dataclass(frozen=True)
class HomologationCheck:
    source: str
    """``plan`` (the figures posted), ``revision`` (the latest results stored)."""
    rulebook_version: int
    facts: TournamentFacts
    problems: tuple[Problem, ...]
    revision: int | None = None

    @property
    def homologable(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class PlannedFigures:
    entries: int
    tables: int
    tables_of_three: int = 0


def tournament_homologation_check(
    *, tournament: Tournament, figures: PlannedFigures | None
) -> HomologationCheck:
    """The conditions of chapter 5 on a declared tournament: with the figures posted (its
    first session: entries, tables, tables of 3) or, without them, its latest results."""
    with transaction.atomic():
        version, rulebook = rulebook_in_force(season=tournament.season)
        revision = None
        if figures is not None:
            facts = planned_facts(
                tournament,
                arbiter_played=False,
                entries=figures.entries,
                first_session=(figures.tables, figures.tables_of_three),
            )
        else:
            revision = tournament.revisions.order_by("-number").first()
            if revision is None:
                raise RuleViolation.single(
                    "entries",
                    "no_results_to_check",
                    "No results were submitted for this tournament: post its planned "
                    "figures (entries, tables, tables_of_three).",
                    {},
                )
            facts = homologation_facts(tournament, revision)
        problems = check_homologation(facts, rulebook)
        transaction.set_rollback(True)
    return HomologationCheck(
        source="plan" if figures is not None else "revision",
        rulebook_version=version.version,
        facts=facts,
        problems=tuple(problems),
        revision=None if revision is None else revision.number,
    )


def plan_homologation_check(*, season: Season, facts: TournamentFacts) -> HomologationCheck:
    """The conditions of chapter 5 on a tournament described whole (nothing declared)."""
    with transaction.atomic():
        version, rulebook = rulebook_in_force(season=season)
        transaction.set_rollback(True)
    problems = check_homologation(facts, rulebook)
    return HomologationCheck("plan", version.version, facts, tuple(problems))
