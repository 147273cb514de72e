"""Running a stage: the first-session seating (article 25), late arrivals and forfeits
(article 26), by the stage's arbiter or the staff covering its organiser."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from dataclasses import dataclass

from django.db import transaction

from competitions.championships import selectors
from competitions.championships.entries import (
    EntryRequest,
    deactivate_entry,
    entry_problems,
    store_entry,
)
from competitions.championships.facts import facts_to_json, players_facts
from competitions.championships.preconditions import (
    locked_stage,
    refuse,
    require,
    stage_not_played,
)
from competitions.championships.qualification_status import (
    outgoing_champion_numbers,
    regional_champions,
)
from competitions.championships.settings_versions import (
    championship_rules_in_force,
)
from competitions.models import (
    NATIONAL_STAGE_KINDS,
    ChampionshipEntry,
    ChampionshipStage,
    EntryPlayer,
    EntryStatus,
    StagePenalty,
    StageSeating,
)
from competitions.rules.championships.team_composition import (
    effective_series,
)
from competitions.rules.engine.movements.planning import plan_movement
from competitions.rules.engine.penalties import late_arrival
from competitions.rules.engine.seating import Entrant, championship_seating
from competitions.tournaments import access
from core.problems import Problem
from core.vocabulary import ChampionshipKind
from federation.access import Scope, scope_of
from federation.models import (
    Player,
)


def may_run(scope: Scope, user, stage: ChampionshipStage) -> bool:
    """The stage's arbiter, or the staff covering its organiser (who run the stage: seating,
    penalties). The API asks it before reading a request's body too."""
    player_id = getattr(user, "player_id", None)
    return (player_id is not None and player_id == stage.tournament.arbiter_id) or (
        access.may_homologate(scope, stage.tournament)
    )


def champion_of(stage: ChampionshipStage) -> frozenset[int] | None:
    """The outgoing champion article 25 seats at table 1: the national champion at the
    national stages, last season's regional champion of the committee at its stages."""
    if stage.kind in NATIONAL_STAGE_KINDS:
        numbers, _final, _problems = outgoing_champion_numbers(stage.championship)
        return frozenset(numbers) if numbers else None
    committee = str(stage.regional.committee.number)  # type: ignore[union-attr]  # regional stage: regional is set (CheckConstraint)
    for q in regional_champions(stage.championship).qualified:
        if q.committee == committee:
            return frozenset(int(n) for n in q.entry.licence_numbers)
    return None


@transaction.atomic
def seating_draw(*, stage: ChampionshipStage, seed: int | None = None, by) -> StageSeating:
    """Draw the first-session seating of a stage (article 25), before it is played."""
    stage = locked_stage(stage)
    require(
        may_run(scope_of(by), by, stage),
        "Only the stage's arbiter or the staff covering its organiser seat the players.",
    )
    problems = stage_not_played(stage)
    entries = list(selectors.stage_entries(stage))
    flagged = [e for e in entries if e.status == EntryStatus.FLAGGED]
    problems += [
        Problem(
            f"entries[{e.number}]",
            "team_flagged",
            f"team {e.number} ({e.team_name}) is flagged: its composition is no longer valid; "
            "withdraw it or settle the flag before seating.",
            {"team": e.number, "name": e.team_name},
        )
        for e in flagged
    ]
    playing = [e for e in entries if e.status == EntryStatus.ELIGIBLE]
    refuse(problems)
    kind = ChampionshipKind(stage.championship.kind)
    champion = champion_of(stage)
    entrants = []
    champion_id = None
    for e in playing:
        numbers = tuple(str(p.player.licence_number) for p in e.active_players)
        entrant_id = numbers[0] if kind.team_size == 1 else f"E{e.number}"
        if champion is not None and frozenset(int(n) for n in numbers) == champion:
            champion_id = entrant_id
        entrants.append(
            Entrant(
                entrant_id,
                numbers if kind.team_size > 1 else (),
                committee=str(e.committee.number) if e.committee else "",
                zone=str(e.committee.zone_id) if e.committee else "",
            )
        )
    players = sum(len(e.players) for e in entrants)
    plan = plan_movement(players, 1, kind.format)
    seed = secrets.randbits(62) if seed is None else seed
    seating = championship_seating(plan, entrants, random.Random(seed), champion=champion_id)
    entry_numbers = {
        (str(p.player.licence_number) if kind.team_size == 1 else f"E{e.number}"): e.number
        for e in playing
        for p in e.active_players
    }
    assignments = [
        {
            "number": a.number,
            "table": a.table,
            "orientation": str(a.orientation),
            "licence_number": int(a.player),
            "entry": entry_numbers[a.entrant],
        }
        for a in seating.assignments
    ]
    stored = StageSeating.objects.filter(stage=stage).first() or StageSeating(stage=stage)
    stored.seed = seed
    stored.tables = seating.tables
    stored.champion = champion_id or ""
    stored.assignments = assignments
    stored.drawn_by = by
    stored._history_user = by
    stored.save()
    return stored


@dataclass(frozen=True)
class LateArrivalRequest:
    licence_number: int
    lateness: dt.timedelta
    reason: str
    forfeit: bool = False
    substitute_licence_number: int | None = None


@transaction.atomic
def late_arrival_record(
    *, stage: ChampionshipStage, request: LateArrivalRequest, by
) -> StagePenalty:
    """Record a late arrival (article 26): 100 points per started 5 minutes, or, past 15
    minutes, the forfeit the arbiter may declare, with the planned substitute if any (who
    is checked for eligibility like any entry)."""
    stage = locked_stage(stage)
    require(
        may_run(scope_of(by), by, stage),
        "Only the stage's arbiter or the staff covering its organiser record penalties.",
    )
    problems = stage_not_played(stage)
    entered = selectors.entries_by_players(stage)
    entry = next((e for key, e in entered.items() if request.licence_number in key), None)
    if entry is None:
        problems.append(
            Problem(
                "licence_number",
                "not_entered",
                f"licence {request.licence_number} is not in an entry of this stage.",
                {"licence": request.licence_number, "licences": request.licence_number},
            )
        )
    if not request.reason.strip():
        problems.append(Problem("reason", "required", "A penalty is recorded with its reason.", {}))
    refuse(problems)
    cost = late_arrival(request.lateness)  # refuses a negative lateness
    if request.substitute_licence_number is not None and not request.forfeit:
        problems.append(
            Problem(
                "substitute_licence_number",
                "substitute_without_forfeit",
                "A substitute plays only for a player declared forfeit.",
                {},
            )
        )
    if request.forfeit and not cost.forfeit_allowed:
        problems.append(
            Problem(
                "forfeit",
                "forfeit_not_allowed",
                f"{request.lateness} late: the arbiter may declare a forfeit only after 15 "
                "minutes of lateness (article 26).",
                {"lateness": request.lateness},
            )
        )
    refuse(problems)
    player = Player.objects.get(licence_number=request.licence_number)
    substitute = None
    if request.forfeit:
        # ``entry`` is set: refuse() raised on "not_entered" otherwise.
        substitute = _forfeit(stage, entry, player, request.substitute_licence_number, by)  # type: ignore[arg-type]
    penalty = StagePenalty(
        stage=stage,
        entry=entry,
        player=player,
        lateness=request.lateness,
        points=0 if request.forfeit else cost.points,
        forfeit=request.forfeit,
        substitute=substitute,
        reason=request.reason.strip(),
        recorded_by=by,
    )
    penalty._history_user = by
    penalty.save()
    return penalty


def _forfeit(
    stage: ChampionshipStage,
    entry: ChampionshipEntry,
    player: Player,
    substitute_number: int | None,
    by,
) -> Player | None:
    """Declare ``player`` forfeit: an individual entry is replaced by the substitute's own
    entry; in a duo or team the substitute takes the player's place (the composition is
    checked again); without a substitute a duo or team is forfeit as a whole."""
    kind = ChampionshipKind(stage.championship.kind)
    _version, rules = championship_rules_in_force(
        season=stage.championship.season, kind=stage.championship.kind
    )
    current = [p.player.licence_number for p in entry.active_players]
    if substitute_number is None:
        deactivate_entry(entry, EntryStatus.FORFEIT, by)
        return None
    if kind.team_size == 1:
        numbers = [substitute_number]
    else:
        numbers = [substitute_number if n == player.licence_number else n for n in current]
    facts = players_facts(season=stage.tournament.season, licence_numbers=numbers)
    problems = entry_problems(stage, numbers, facts, rules, "substitute")
    others = {n for key in selectors.entries_by_players(stage) for n in key}
    if substitute_number in others:
        problems.append(
            Problem(
                "substitute_licence_number",
                "already_entered",
                f"licence {substitute_number} already plays in this stage.",
                {"licence": substitute_number},
            )
        )
    refuse(problems)
    substitute = facts.players[substitute_number]
    if kind.team_size == 1:
        deactivate_entry(entry, EntryStatus.FORFEIT, by)
        last = stage.entries.order_by("-number").first()  # the forfeiting entry at least
        next_number = last.number + 1  # type: ignore[union-attr]
        store_entry(stage, next_number, EntryRequest((substitute_number,)), facts, rules, by)
        return substitute
    row = EntryPlayer.objects.get(entry=entry, player=player, active=True)
    row.active = False
    row.save(update_fields=["active"])
    EntryPlayer.objects.create(entry=entry, stage=stage, player=substitute, order=row.order)
    entry.facts = [facts_to_json(facts.facts[n]) for n in numbers]
    if kind is ChampionshipKind.INTERCLUBS:
        entry.series = [effective_series(facts.facts[n], rules) for n in numbers]
    entry._history_user = by
    entry.save(update_fields=["facts", "series"])
    return substitute
