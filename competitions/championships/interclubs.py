"""Interclubs teams re-checked against the current series after each official ranking."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from competitions.championships import selectors
from competitions.championships.facts import players_facts
from competitions.championships.preconditions import (
    require,
)
from competitions.championships.settings_versions import (
    championship_rules_in_force,
)
from competitions.models import (
    ChampionshipEntry,
    ChampionshipKindChoice,
    ChampionshipStageKind,
    EntryStatus,
    TeamFlag,
    TournamentStatus,
)
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.team_composition import (
    RegisteredTeam,
    effective_series,
    flag_invalid_teams,
)
from federation.access import scope_of
from federation.models import (
    Season,
)


@dataclass(frozen=True)
class Recheck:
    checked: int
    flagged: list[ChampionshipEntry]
    resolved: list[ChampionshipEntry]


@transaction.atomic
def interclubs_teams_recheck(*, season: Season, by=None) -> Recheck:
    """Re-check every interclubs team entered in a stage not yet played (the national final
    excepted: the team keeps its qualification-day series, article 16) against the current
    series; flag the teams whose composition is no longer allowed, clear the flags of those
    valid again, and keep each team's series current. ``by`` None: the background task."""
    if by is not None:
        require(scope_of(by).national, "Only federation staff (CCN) re-check the teams.")
    entries = list(
        ChampionshipEntry.objects.select_for_update(of=("self",))
        .filter(
            stage__championship__kind=ChampionshipKindChoice.INTERCLUBS,
            stage__tournament__season=season,
            stage__tournament__status=TournamentStatus.DECLARED,
            status__in=[EntryStatus.ELIGIBLE, EntryStatus.FLAGGED],
        )
        .exclude(stage__kind=ChampionshipStageKind.NATIONAL_FINAL)
        .select_related("stage__championship__season")
        .prefetch_related(selectors.active_players())
    )
    numbers = {p.player.licence_number for e in entries for p in e.active_players}
    facts = players_facts(season=season, licence_numbers=numbers).facts
    rules_of: dict[int, ChampionshipRules] = {}
    for e in entries:
        championship = e.stage.championship
        if championship.pk not in rules_of:
            rules_of[championship.pk] = championship_rules_in_force(
                season=championship.season, kind=championship.kind
            )[1]
    open_flags = {
        f.entry_id: f for f in TeamFlag.objects.filter(entry__in=entries, resolved_at=None)
    }
    flagged, resolved = [], []
    now = timezone.now()
    for e in entries:
        rules = rules_of[e.stage.championship_id]
        team = [p.player.licence_number for p in e.active_players]
        current = {
            str(n): (effective_series(facts[n], rules) if n in facts else None) for n in team
        }
        flags = flag_invalid_teams(
            [RegisteredTeam(str(e.pk), tuple(str(n) for n in team))], current, rules
        )
        series = [current[str(n)] for n in team]
        old = open_flags.get(e.pk)
        if flags:
            flag = flags[0]
            if old is not None and old.code == flag.code and old.series == series:
                continue
            if old is not None:
                old.resolved_at = now
                old.save(update_fields=["resolved_at"])
            TeamFlag.objects.create(entry=e, code=flag.code, message=flag.message, series=series)
            e.status = EntryStatus.FLAGGED
            e._history_user = by
            e.save(update_fields=["status"])
            flagged.append(e)
            continue
        if old is not None:
            old.resolved_at = now
            old.save(update_fields=["resolved_at"])
            resolved.append(e)
        if e.status != EntryStatus.ELIGIBLE or e.series != series:
            e.status = EntryStatus.ELIGIBLE
            e.series = series
            e._history_user = by
            e.save(update_fields=["status", "series"])
    return Recheck(len(entries), flagged, resolved)
