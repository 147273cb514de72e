"""Entries of a stage: players, duos and teams checked for eligibility on the stage's day,
entered by those who may, withdrawn before the stage is played."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from competitions.championships import selectors
from competitions.championships.facts import RegistryFacts, facts_to_json, players_facts
from competitions.championships.preconditions import (
    locked_stage,
    refuse,
    require,
    stage_not_played,
)
from competitions.championships.qualification_status import (
    entry_key,
    qualification_status,
    regional_champions,
)
from competitions.championships.settings_versions import (
    championship_rules_in_force,
    pure_season,
)
from competitions.models import (
    REGIONAL_STAGE_KINDS,
    ChampionshipEntry,
    ChampionshipStage,
    ChampionshipStageKind,
    EntryPlayer,
    EntryRight,
    EntryStatus,
    TeamFlag,
)
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.eligibility import check_entry
from competitions.rules.championships.team_composition import (
    effective_series,
)
from core.errors import Conflict
from core.problems import Problem, RuleViolation
from core.vocabulary import ChampionshipKind, championship_stage
from federation.access import Scope, scope_of
from federation.models import (
    Club,
    Player,
)


@dataclass(frozen=True)
class EntryRequest:
    licence_numbers: tuple[int, ...]
    team_name: str = ""


@dataclass(frozen=True)
class EntryMade:
    entry: ChampionshipEntry
    warnings: tuple[Problem, ...] = ()


def _may_enter(scope: Scope, stage: ChampionshipStage, licences: list) -> bool:
    """May this scope enter these players (their licences this season, or None) here?"""
    if stage.kind in REGIONAL_STAGE_KINDS:
        if scope.covers_committee(stage.regional.committee):  # type: ignore[union-attr]  # regional stage: regional is set (CheckConstraint)
            return True
        return bool(scope.club_ids and licences) and all(
            licence is not None and licence.club_id in scope.club_ids for licence in licences
        )
    if stage.kind == ChampionshipStageKind.NATIONAL_QUALIFIER:
        return scope.national or (
            scope.is_staff
            and all(
                licence is not None and scope.covers_committee(licence.club.committee)
                for licence in licences
            )
        )
    return False


def may_enter_stage(scope: Scope, stage: ChampionshipStage) -> bool:
    """May this scope enter anyone at all in this stage? Asked before a request's body is
    read, so that anyone else gets a 403 whatever they send; the players are then checked
    one request at a time (:func:`_may_enter`)."""
    if stage.kind in REGIONAL_STAGE_KINDS:
        committee = stage.regional.committee  # type: ignore[union-attr]  # regional stage: regional is set (CheckConstraint)
        return (
            scope.covers_committee(committee)
            or Club.objects.filter(pk__in=scope.club_ids, committee=committee).exists()
        )
    if stage.kind == ChampionshipStageKind.NATIONAL_QUALIFIER:
        return scope.is_staff
    return scope.national


def _named(problem: Problem, prefix: str, players: Mapping[str, Player]) -> Problem:
    """Locate a pure problem in the request and name the player it concerns."""
    field_ = problem.field.replace("entrants", "licence_numbers", 1)
    message = problem.message
    for number, player in players.items():
        if f"licence {number}" in message:
            message = message.replace(
                f"licence {number}",
                f"licence {number} ({player.first_name} {player.last_name.upper()})",
                1,
            )
    return Problem(
        f"{prefix}.{field_}" if field_ else prefix, problem.code, message, problem.params
    )


def entry_problems(
    stage: ChampionshipStage,
    numbers: Sequence[int],
    facts: RegistryFacts,
    rules: ChampionshipRules,
    prefix: str,
) -> list[Problem]:
    """Why these players cannot enter the stage (eligibility and the committee's own)."""
    problems = []
    for j, n in enumerate(numbers):
        if n not in facts.players:
            problems.append(
                Problem(
                    f"{prefix}.licence_numbers[{j}]",
                    "unknown_player",
                    f"licence {n}: no such player in the federation's registry.",
                    {"licence": n},
                )
            )
    if problems:
        return problems
    tournament = stage.tournament
    entrants = [facts.facts[n] for n in numbers]
    found = check_entry(
        ChampionshipKind(stage.championship.kind),
        championship_stage(stage.kind),
        entrants,
        pure_season(tournament.season),
        rules,
        as_of=tournament.date,
    )
    names = {str(n): facts.players[n] for n in numbers}
    problems = [_named(p, prefix, names) for p in found]
    if stage.kind in REGIONAL_STAGE_KINDS:
        committee = stage.regional.committee.number  # type: ignore[union-attr]  # regional stage: regional is set (CheckConstraint)
        for j, n in enumerate(numbers):
            licence = facts.licences.get(n)
            if licence is not None and licence.club.committee.number != committee:
                problems.append(
                    _named(
                        Problem(
                            f"licence_numbers[{j}].licence",
                            "wrong_committee",
                            f"licence {n}: licensed in committee "
                            f"{licence.club.committee.number} (club {licence.club.number}); the "
                            f"regional championship of committee {committee} is for its own "
                            "licensees.",
                            {
                                "licence": n,
                                "committee": licence.club.committee.number,
                                "club": licence.club.number,
                                "regional_committee": committee,
                            },
                        ),
                        prefix,
                        names,
                    )
                )
    return problems


@transaction.atomic
def entries_register(
    *, stage: ChampionshipStage, requests: Sequence[EntryRequest], by
) -> list[EntryMade]:
    """Enter players, duos or teams in a stage, each checked for eligibility on the stage's
    day; all or nothing: any refusal lists every problem and stores nothing."""
    stage = locked_stage(stage)
    scope = scope_of(by)
    championship = stage.championship
    _version, rules = championship_rules_in_force(
        season=championship.season, kind=championship.kind
    )
    if stage.kind == ChampionshipStageKind.NATIONAL_FINAL:
        require(scope.national, "The national final's field is registered by the CCN.")
        raise RuleViolation.single(
            "stage",
            "national_final_by_qualification",
            "The national final's entries are registered from the qualifications "
            "(POST …/national-final/register/).",
            {},
        )
    numbers = sorted({n for r in requests for n in r.licence_numbers})
    facts = players_facts(season=stage.tournament.season, licence_numbers=numbers)
    for request in requests:
        require(
            _may_enter(scope, stage, [facts.licences.get(n) for n in request.licence_numbers]),
            "You may not enter these players in this stage.",
        )
    problems = stage_not_played(stage)
    if not requests:
        problems.append(Problem("entries", "required", "Enter at least one entry.", {}))
    entered = selectors.entries_by_players(stage)
    already = {n: e for key, e in entered.items() for n in key}
    counts = Counter(n for r in requests for n in set(r.licence_numbers))
    for i, request in enumerate(requests):
        prefix = f"entries[{i}]"
        for j, n in enumerate(request.licence_numbers):
            if n in already:
                problems.append(
                    Problem(
                        f"{prefix}.licence_numbers[{j}]",
                        "already_entered",
                        f"licence {n} is already in entry {already[n].number} of this stage.",
                        {"licence": n, "entry": already[n].number},
                    )
                )
            elif counts[n] > 1:
                problems.append(
                    Problem(
                        f"{prefix}.licence_numbers[{j}]",
                        "duplicate_player",
                        f"licence {n} appears in several entries of this request.",
                        {"licence": n},
                    )
                )
        problems += entry_problems(stage, list(request.licence_numbers), facts, rules, prefix)
    refuse(problems)

    warnings_for = _entry_warnings(stage, requests)
    champions = _regional_champions(stage)
    last = stage.entries.order_by("-number").first()
    number = last.number if last else 0
    made = []
    for i, request in enumerate(requests):
        number += 1
        entry = store_entry(stage, number, request, facts, rules, by)
        if entry_key(request.licence_numbers) in champions:
            entry.right = EntryRight.REGIONAL_CHAMPION
            entry.save(update_fields=["right"])
        made.append(EntryMade(entry, tuple(warnings_for.get(i, ()))))
    return made


def store_entry(
    stage: ChampionshipStage,
    number: int,
    request: EntryRequest,
    facts: RegistryFacts,
    rules: ChampionshipRules,
    by,
    **fields,
) -> ChampionshipEntry:
    """Store an entry already checked, with its players' facts (and, in the interclubs, their
    series) as on the day it was entered; inside the caller's transaction. Also used for a
    forfeit's substitute and the national final's field."""
    kind = ChampionshipKind(stage.championship.kind)
    licences = [facts.licences[n] for n in request.licence_numbers]
    club = licences[0].club if kind is ChampionshipKind.INTERCLUBS else None
    series = (
        [effective_series(facts.facts[n], rules) for n in request.licence_numbers]
        if kind is ChampionshipKind.INTERCLUBS
        else []
    )
    entry = ChampionshipEntry(
        stage=stage,
        number=number,
        committee=licences[0].club.committee,
        club=club,
        team_name=request.team_name or (f"{club.name} {number}" if club is not None else ""),
        facts=[facts_to_json(facts.facts[n]) for n in request.licence_numbers],
        series=series,
        entered_by=by,
        **fields,
    )
    entry._history_user = by
    entry.save()
    EntryPlayer.objects.bulk_create(
        EntryPlayer(entry=entry, stage=stage, player=facts.players[n], order=k + 1)
        for k, n in enumerate(request.licence_numbers)
    )
    return entry


def _regional_champions(stage: ChampionshipStage) -> set[str]:
    """Keys of last season's regional champions carried over to this regional final."""
    if stage.kind != ChampionshipStageKind.REGIONAL_FINAL:
        return set()
    committee = str(stage.regional.committee.number)  # type: ignore[union-attr]  # regional stage: regional is set (CheckConstraint)
    return {
        entry_key(q.entry.licence_numbers)
        for q in regional_champions(stage.championship).qualified
        if q.committee == committee
    }


def _entry_warnings(
    stage: ChampionshipStage, requests: Sequence[EntryRequest]
) -> dict[int, list[Problem]]:
    """At the national qualifier: a qualified player who plays it loses the qualification."""
    if stage.kind != ChampionshipStageKind.NATIONAL_QUALIFIER:
        return {}
    status = qualification_status(stage.championship)
    if status.national is None:
        return {}
    holders = {int(n): q for q in status.national.qualified for n in q.entry.licence_numbers}
    warnings: dict[int, list[Problem]] = {}
    for i, request in enumerate(requests):
        for j, n in enumerate(request.licence_numbers):
            q = holders.get(n)
            if q is not None:
                warnings.setdefault(i, []).append(
                    Problem(
                        f"entries[{i}].licence_numbers[{j}]",
                        "loses_qualification",
                        f"licence {n} is qualified for the national final ({q.right}); by "
                        "playing the national qualifier the entry loses that qualification and "
                        "the place is reattributed at the qualifier.",
                        {"licence": n, "right": q.right},
                    )
                )
    return warnings


@transaction.atomic
def entry_withdraw(*, entry: ChampionshipEntry, by) -> ChampionshipEntry:
    """Withdraw an entry before its stage is played (those who may enter it)."""
    stage = locked_stage(entry.stage)
    entry = ChampionshipEntry.objects.select_for_update(of=("self",)).get(pk=entry.pk)
    # Who may withdraw is decided on the entry's players whatever its state: a withdrawn
    # entry has no active player left, and an empty list must not let anyone through.
    players = list(EntryPlayer.objects.filter(entry=entry).select_related("player"))
    if any(p.active for p in players):
        players = [p for p in players if p.active]
    facts = players_facts(
        season=stage.tournament.season, licence_numbers=[p.player.licence_number for p in players]
    )
    scope = scope_of(by)
    require(
        _may_enter(scope, stage, [facts.licences.get(p.player.licence_number) for p in players])
        or (stage.kind == ChampionshipStageKind.NATIONAL_FINAL and scope.national),
        "You may not withdraw this entry.",
    )
    refuse(stage_not_played(stage))
    if entry.status in (EntryStatus.WITHDRAWN, EntryStatus.FORFEIT):
        raise Conflict(
            f"Entry {entry.number} is already {entry.status}.",
            code="entry_not_active",
            params={"entry": entry.number, "status": entry.get_status_display()},
        )
    deactivate_entry(entry, EntryStatus.WITHDRAWN, by)
    return entry


def deactivate_entry(entry: ChampionshipEntry, status: str, by) -> None:
    """Take an entry out of its stage (withdrawn, forfeit): its players are free to enter
    again and its open team flags are settled; inside the caller's transaction."""
    EntryPlayer.objects.filter(entry=entry, active=True).update(active=False)
    TeamFlag.objects.filter(entry=entry, resolved_at=None).update(resolved_at=timezone.now())
    entry.status = status
    entry._history_user = by
    entry.save(update_fields=["status"])
