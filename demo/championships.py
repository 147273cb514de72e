"""Demo championships: the current season's four championships under way, through their
services (docs/championships-service.md).

The CCN (`admin`) creates the season's championships and sets committee 1's quotas; the
CCR of committee 1 (`ccr`) opens its four regional championships and publishes their
rules (a semi-final, then the regional final), which the zone (`zone`) approves — all but
the interclubs' rules, left awaiting the zone's approval on the championships desk; the
CCR creates the stages and enters players (by their eligibility, checked by the service:
seniors are 60 or more, a DUO is of one committee, a team of 4 of one club). The DUO
semi-final and regional final (8 and 15 November) have their results submitted and
homologated through the stage's checks: the final's qualification (committee 1's three
places) is left for `ccr` to record on the desk; the other stages are still to come.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any

from competitions.championships.championship_settings import championships_create, quotas_set
from competitions.championships.entries import EntryRequest, entries_register
from competitions.championships.regional import (
    regional_create,
    regional_rules_approve,
    regional_rules_publish,
)
from competitions.championships.stages import StageRequest, stage_create
from competitions.homologation import results_submit, tournament_homologate
from competitions.models import ChampionshipStage
from core.vocabulary import ChampionshipKind
from demo.play import Participant, play
from demo.registry import DemoRegistry
from demo.tournaments import results_name
from federation.models import ArbiterGrade, Club, Player

QUOTA = 3  # committee 1's places at each national final
SENIOR_AGE = 60


@dataclass
class DemoChampionships:
    """What was created: stages by name, entries by stage."""

    entries: dict[str, int] = field(default_factory=dict)
    homologated: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        counts = {"championships": len(ChampionshipKind)}
        counts |= {f"entries: {stage}": n for stage, n in self.entries.items()}
        counts["championship stages homologated"] = len(self.homologated)
        return counts


def _rules(kind: ChampionshipKind, year: int) -> dict[str, Any]:
    """Committee 1's published rules for a season starting in ``year``: a semi-final of one
    session (12 deals at least), then the regional final (two sessions of 20 deals)."""
    next_year = year + 1
    semi, final = {
        ChampionshipKind.DUO: (("11-01", "11-10", year), ("11-11", "11-30", year)),
        ChampionshipKind.INTERCLUBS: (("04-01", "04-30", next_year), ("05-01", "06-15", next_year)),
    }.get(kind, (("02-01", "02-28", next_year), ("03-01", "03-31", next_year)))
    minimum = {ChampionshipKind.DUO: 10, ChampionshipKind.INTERCLUBS: 5}.get(kind, 20)
    two_sessions = [{"deals": 20}, {"deals": 20}]
    semi_bracket = (
        {"min_entries": minimum, "max_entries": None, "sessions": two_sessions}
        if kind is ChampionshipKind.SENIORS  # every seniors stage is played as a final
        else {"min_entries": 1, "max_entries": None, "sessions": [{"deals": 12}]}
    )
    return {
        "stages": [
            {
                "name": "Demi-finale régionale",
                "kind": "regional_semi_final",
                "start": f"{semi[2]}-{semi[0]}",
                "end": f"{semi[2]}-{semi[1]}",
                "brackets": [semi_bracket],
            },
            {
                "name": "Finale régionale",
                "kind": "regional_final",
                "start": f"{final[2]}-{final[0]}",
                "end": f"{final[2]}-{final[1]}",
                "brackets": [
                    {"min_entries": minimum, "max_entries": None, "sessions": two_sessions}
                ],
            },
        ]
    }


def build_demo_championships(registry: DemoRegistry) -> DemoChampionships:
    rng = random.Random(f"{registry.seed}-championships")
    users = {name: demo.user for name, demo in registry.users.items()}
    admin, ccr, zone = users["admin"], users["ccr"], users["zone"]
    season = registry.current_season
    year = season.start_date.year
    committee = next(c for c in registry.committees if c.number == 1)
    made = DemoChampionships()

    members: dict[Club, list[Player]] = {}
    for licence in registry.licences_of(season):
        if licence.club.committee_id == committee.pk:
            members.setdefault(licence.club, []).append(licence.player)
    licensees = sorted((p for ps in members.values() for p in ps), key=lambda p: p.licence_number)
    grades = {a.player: a.grade for a in registry.arbiters[season.name]}
    arbiters = sorted(
        (p for p in licensees if grades.get(p) in (ArbiterGrade.REGIONAL, ArbiterGrade.NATIONAL)),
        key=lambda p: p.licence_number,
    ) or sorted(
        (p for p, g in grades.items() if g != ArbiterGrade.CLUB), key=lambda p: p.licence_number
    )
    arbiter = arbiters[0]
    players = [p for p in licensees if p != arbiter]

    championships = {
        ChampionshipKind(c.kind): c for c, _ in championships_create(season=season, by=admin)
    }
    for kind, championship in championships.items():
        regional, _ = regional_create(championship=championship, committee=committee, by=ccr)
        version = regional_rules_publish(
            regional=regional, data=_rules(kind, year), note="Règlement régional (démo)", by=ccr
        )
        if kind is not ChampionshipKind.INTERCLUBS:  # left for `zone` on the desk
            regional_rules_approve(version=version, by=zone)
        quotas_set(championship=championship, quotas={committee.number: QUOTA}, by=admin)

    def stage(kind: ChampionshipKind, stage_kind: str, day: dt.date) -> ChampionshipStage:
        created, _ = stage_create(
            championship=championships[kind],
            request=StageRequest(
                kind=stage_kind,
                date=day,
                venue=f"Maison du tarot, {committee.name}",
                arbiter_licence_number=arbiter.licence_number,
                committee=committee.number,
                reference=f"DEMO-{kind.value}-{stage_kind}",
            ),
            by=ccr,
        )
        return created

    def enter(target: ChampionshipStage, groups: list[list[Player]]) -> None:
        if not groups:  # a registry too small for this stage: it stays without entries
            return
        entries_register(
            stage=target,
            requests=[EntryRequest(tuple(p.licence_number for p in g)) for g in groups],
            by=ccr,
        )
        made.entries[target.tournament.name] = len(groups)

    # DUO: the semi-final played early in November and homologated (from 6 duos, the minimum
    # field), the final played in November by 10 duos (the minimum) and homologated: its
    # qualification is left for `ccr` to record.
    pool = rng.sample(players, min(len(players), 24))
    duos = [pool[i : i + 2] for i in range(0, len(pool) - 1, 2)]
    semi = stage(ChampionshipKind.DUO, "regional_semi_final", dt.date(year, 11, 8))
    enter(semi, duos)
    if len(duos) >= 6:
        played = play(
            rng,
            [[Participant(p.licence_number, results_name(p)) for p in duo] for duo in duos],
            positions=3,
            deals=4,
        )
        document = played.results_document()
        results_submit(tournament=semi.tournament, content=document, source="json", by=ccr)
        tournament_homologate(tournament=semi.tournament, by=ccr)
        made.homologated.append(semi.tournament.name)
    final = stage(ChampionshipKind.DUO, "regional_final", dt.date(year, 11, 15))
    enter(final, duos[:10])
    if len(duos) >= 10:
        played = play(
            rng,
            [[Participant(p.licence_number, results_name(p)) for p in duo] for duo in duos[:10]],
            sessions=2,
            positions=5,
            deals=4,
        )
        results_submit(
            tournament=final.tournament,
            content=played.results_document(),
            source="json",
            by=ccr,
        )
        tournament_homologate(tournament=final.tournament, by=ccr)
        made.homologated.append(final.tournament.name)

    # Individual: semi-final in February (`joueur` entered), final in March, entries open.
    joueur = registry.users["joueur"].user.player
    others = [p for p in players if p != joueur]
    field_ = ([joueur] if joueur in players else []) + rng.sample(others, min(len(others), 27))
    individual = stage(ChampionshipKind.INDIVIDUAL, "regional_semi_final", dt.date(year + 1, 2, 7))
    enter(individual, [[p] for p in field_])
    stage(ChampionshipKind.INDIVIDUAL, "regional_final", dt.date(year + 1, 3, 14))

    # Seniors: the regional final in March, those 60 or more on 31 December.
    new_year = dt.date(year, 12, 31)
    seniors = [p for p in players if p.birth_date and _age(p.birth_date, new_year) >= SENIOR_AGE]
    final = stage(ChampionshipKind.SENIORS, "regional_final", dt.date(year + 1, 3, 21))
    enter(final, [[p] for p in rng.sample(seniors, min(len(seniors), 24))])

    # Interclubs: teams of four of one club, for the final in May.
    teams = [ps[4 * k : 4 * k + 4] for ps in members.values() for k in range(len(ps) // 4)]
    teams = [t for t in teams if arbiter not in t]
    interclubs = stage(ChampionshipKind.INTERCLUBS, "regional_final", dt.date(year + 1, 5, 15))
    enter(interclubs, teams[:6])
    return made


def _age(born: dt.date, day: dt.date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))
