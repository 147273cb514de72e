"""Who is qualified, by which right, and what is still open: computed live.

Everything is read from what is stored (quotas set by the CCN, stages whose tournament is
homologated, the entries as entered, the outgoing champion) and handed to the pure
``qualify_for_national_final`` and ``carry_over_regional_champions``; nothing is written
here. A regional final (or national qualifier) counts only once its tournament is
homologated and its results comply with the championship's rules
(:mod:`stage_compliance`); otherwise its places stay open and the reason is listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from competitions.championships import selectors
from competitions.championships.facts import players_facts, previous_season
from competitions.championships.settings_versions import (
    championship_rules_in_force,
)
from competitions.championships.zone_approval import void_stage_problem
from competitions.models import (
    Championship,
    ChampionshipEntry,
    ChampionshipStage,
    ChampionshipStageKind,
)
from competitions.rulebooks import rulebook_in_force
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.qualification import (
    Entry,
    NationalFinalQualification,
    RegionalFinalCarryOver,
    RegionalTitle,
    Standing,
    carry_over_regional_champions,
    qualify_for_national_final,
    regional_title,
)
from competitions.rules.championships.regional_rules import RegionalRules
from competitions.rules.championships.stage_compliance import StageResults, stage_results_problems
from competitions.rules.championships.team_composition import TeamSnapshot, effective_series
from competitions.rules.rulebook import Rulebook
from core.problems import Problem, RuleViolation
from core.vocabulary import ChampionshipKind, StageKind, championship_stage
from federation.models import Player


def entry_key(numbers) -> str:
    """An entry's identity: its sorted licence numbers joined by '-'."""
    return "-".join(str(n) for n in sorted(int(n) for n in numbers))


@dataclass(frozen=True)
class RankedStage:
    """A stage's final ranking as the qualification reads it, or why it cannot be used."""

    stage: ChampionshipStage
    standings: tuple[Standing, ...]
    problems: tuple[Problem, ...]
    """Non-empty: the stage's results do not comply; its ranking is not used."""


@dataclass(frozen=True)
class ChampionshipQualification:
    """The state of a championship's qualifications at the time of reading."""

    championship: Championship
    rules_version: int
    national: NationalFinalQualification | None
    carry_over: RegionalFinalCarryOver
    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    regional_finals: Mapping[str, ChampionshipStage]
    """Committee number → its regional final stage (the source of committee places)."""
    qualifier: ChampionshipStage | None
    previous_finals: Mapping[str, ChampionshipStage]
    """Committee number → last season's regional final (the source of regional titles)."""
    players: Mapping[int, Player] = field(default_factory=dict)

    def holders(self) -> dict[str, str]:
        """Entry key → right, for every entry qualified for the national final now."""
        if self.national is None:
            return {}
        return {entry_key(q.entry.licence_numbers): str(q.right) for q in self.national.qualified}


def _stage_kind(stage: ChampionshipStage) -> StageKind:
    return championship_stage(stage.kind)


def ranked_stages(
    stages: list[ChampionshipStage], rules: ChampionshipRules
) -> dict[int, RankedStage]:
    """The homologated stages among ``stages``, ranked and checked (a fixed number of queries)."""
    results = selectors.homologated_results(stages)
    done = [s for s in stages if s.pk in results]
    registered = selectors.registered_entries(s.pk for s in done)
    penalties = selectors.recorded_penalties(s.pk for s in done)
    teams = _team_snapshots(done) if rules.kind == ChampionshipKind.INTERCLUBS else {}
    rulebooks: dict[int, Rulebook] = {}
    ranked = {}
    for stage in done:
        kind = ChampionshipKind(stage.championship.kind)
        problems = stage_results_problems(
            kind=kind,
            stage=_stage_kind(stage),
            rules=rules,
            results=results[stage.pk],
            entries=registered.get(stage.pk, []),
            plan=published_plan(stage),
            penalties=penalties.get(stage.pk, []),
        )
        season = stage.championship.season
        if season.pk not in rulebooks:
            rulebooks[season.pk] = rulebook_in_force(season=season)[1]
        void = void_stage_problem(stage, rulebooks[season.pk])
        if void is not None:  # held without the zone's approval: it counts for nothing
            problems = [*problems, void]
        standings = () if problems else _standings(results[stage.pk], teams.get(stage.pk, {}))
        ranked[stage.pk] = RankedStage(stage, standings, tuple(problems))
    return ranked


def published_plan(stage: ChampionshipStage):
    """The published stage (of the rules version the stage was created under)."""
    if stage.rules_version is None or not stage.rules_stage:
        return None
    rules = RegionalRules.from_dict(stage.rules_version.data)
    return next((s for s in rules.stages if s.name == stage.rules_stage), None)


def _standings(
    results: StageResults, teams: Mapping[frozenset[int], TeamSnapshot]
) -> tuple[Standing, ...]:
    standings = []
    for played in results.entries:
        numbers = frozenset(n for n in played.licence_numbers if n is not None)
        standings.append(
            Standing(
                Entry(
                    entry_key(numbers),
                    tuple(str(n) for n in sorted(numbers)),
                    teams.get(numbers),
                ),
                played.place,
            )
        )
    return tuple(standings)


def _team_snapshots(
    stages: list[ChampionshipStage],
) -> dict[int, dict[frozenset[int], TeamSnapshot]]:
    """Stage id → each entered team's snapshot: its club, committee and series as entered
    (kept up to date by the re-check until the stage is played), on the stage's day."""
    found: dict[int, dict[frozenset[int], TeamSnapshot]] = {}
    day = {s.pk: s.tournament.date for s in stages}
    entries = (
        ChampionshipEntry.objects.filter(stage__in=stages, status__in=["eligible", "flagged"])
        .select_related("club", "committee")
        .prefetch_related(selectors.active_players())
    )
    for entry in entries:
        if entry.club is None or entry.committee is None or not entry.series:
            continue
        numbers = frozenset(p.player.licence_number for p in entry.active_players)
        found.setdefault(entry.stage_id, {})[numbers] = TeamSnapshot(
            club=str(entry.club.number),
            committee=str(entry.committee.number),
            series=tuple(entry.series),
            taken_on=day[entry.stage_id],
        )
    return found


def _previous_championship(championship: Championship) -> Championship | None:
    before = previous_season(championship.season)
    if before is None:
        return None
    return Championship.objects.filter(season=before, kind=championship.kind).first()


def outgoing_champion_numbers(
    championship: Championship,
) -> tuple[list[int] | None, ChampionshipStage | None, list[Problem]]:
    """The outgoing national champion's licence numbers: set by the CCN, else the single
    entry placed 1st at the previous season's national final (with that stage)."""
    if championship.outgoing_champion is not None:
        return [int(n) for n in championship.outgoing_champion] or None, None, []
    previous = _previous_championship(championship)
    if previous is None:
        return None, None, []
    final = (
        selectors.stages()
        .filter(championship=previous, kind=ChampionshipStageKind.NATIONAL_FINAL)
        .first()
    )
    if final is None:
        return None, None, []
    results = selectors.homologated_results([final]).get(final.pk)
    if results is None:
        return None, final, []
    first = [e for e in results.entries if e.place == 1]
    if len(first) != 1 or None in first[0].licence_numbers:
        return (
            None,
            final,
            [
                Problem(
                    "outgoing_champion",
                    "no_single_champion",
                    f"the {previous} national final has no single entry placed 1st; the CCN sets "
                    "the outgoing champion.",
                    {"season": previous},
                )
            ],
        )
    # Every player of a national final's entry is licensed (no unknown player).
    return [int(n) for n in first[0].licence_numbers], final, []  # type: ignore[arg-type]


def _outgoing_entry(
    championship: Championship, rules: ChampionshipRules
) -> tuple[Entry | None, list[Problem]]:
    numbers, final, problems = outgoing_champion_numbers(championship)
    if not numbers:
        return None, problems
    kind = ChampionshipKind(championship.kind)
    if len(set(numbers)) != kind.team_size:
        return None, [
            *problems,
            Problem(
                "outgoing_champion",
                "wrong_team_size",
                f"the outgoing champion has {len(set(numbers))} player(s); a {kind} entry has "
                f"{kind.team_size}.",
                {"players": len(set(numbers)), "size": kind.team_size},
            ),
        ]
    team = None
    if kind is ChampionshipKind.INTERCLUBS:
        team, team_problems = _current_team(championship, numbers, final, rules)
        if team is None:
            return None, [*problems, *team_problems]
    entry = Entry(entry_key(numbers), tuple(str(n) for n in sorted(numbers)), team)
    return entry, problems


def _current_team(
    championship: Championship,
    numbers: list[int],
    final: ChampionshipStage | None,
    rules: ChampionshipRules,
) -> tuple[TeamSnapshot | None, list[Problem]]:
    """The outgoing champion team as it stands now: its players' current series (article 16,
    « sous réserve de respecter les critères de composition d'équipe »)."""
    found = players_facts(season=championship.season, licence_numbers=numbers)
    series = []
    for n in numbers:
        facts = found.facts.get(n)
        s = effective_series(facts, rules) if facts is not None else None
        if s is None:
            return None, [
                Problem(
                    "outgoing_champion",
                    "series_unknown",
                    f"outgoing champion team: licence {n} has no known series this season, so "
                    "its composition cannot be checked; it is not directly qualified.",
                    {"licence": n},
                )
            ]
        series.append(s)
    licences = [found.licences.get(n) for n in numbers]
    club = licences[0].club if all(licences) else None  # type: ignore[union-attr]  # all() holds
    if club is None and final is not None:
        entry = (
            ChampionshipEntry.objects.filter(
                stage=final, players__player__licence_number=numbers[0]
            )
            .select_related("club__committee")
            .first()
        )
        club = entry.club if entry else None
    if club is None:
        return None, [
            Problem(
                "outgoing_champion",
                "club_unknown",
                "outgoing champion team: its club cannot be established.",
                {},
            )
        ]
    return TeamSnapshot(
        club=str(club.number),
        committee=str(club.committee.number),
        series=tuple(series),
        taken_on=championship.season.start_date,
    ), []


def _carry_over(
    championship: Championship, rules: ChampionshipRules
) -> tuple[RegionalFinalCarryOver, dict[str, ChampionshipStage], list[Problem]]:
    """Last season's regional champions, qualified for this season's regional final."""
    previous = _previous_championship(championship)
    empty = RegionalFinalCarryOver((), ())
    if previous is None:
        return empty, {}, []
    _version, previous_rules = championship_rules_in_force(
        season=previous.season, kind=previous.kind
    )
    finals = list(
        selectors.stages().filter(championship=previous, kind=ChampionshipStageKind.REGIONAL_FINAL)
    )
    ranked = ranked_stages(finals, previous_rules)
    titles: list[RegionalTitle] = []
    sources: dict[str, ChampionshipStage] = {}
    problems: list[Problem] = []
    for stage in finals:
        committee = str(stage.regional.committee.number)  # type: ignore[union-attr]  # regional stage: regional is set (CheckConstraint)
        result = ranked.get(stage.pk)
        if result is None or result.problems:
            continue
        title = regional_title(committee, result.standings)
        if title is None:
            problems.append(
                Problem(
                    f"regional_champions.{committee}",
                    "no_single_champion",
                    f"committee {committee}: last season's regional final has no single entry "
                    "placed 1st, so no regional champion is carried over.",
                    {"committee": committee},
                )
            )
            continue
        titles.append(title)
        sources[committee] = stage
    if not titles:
        return empty, sources, problems
    numbers = [int(n) for t in titles for n in t.entry.licence_numbers]
    now = players_facts(season=championship.season, licence_numbers=numbers).facts
    players_now = {str(n): f for n, f in now.items()}
    return (
        # ``kind`` holds a ChampionshipKind value; the stubs type a CharField as str.
        carry_over_regional_champions(championship.kind, rules, titles, players_now),  # type: ignore[arg-type]
        sources,
        (problems),
    )


def regional_champions(championship: Championship) -> RegionalFinalCarryOver:
    """Last season's regional champions qualified (or refused) for this season's finals."""
    _version, rules = championship_rules_in_force(
        season=championship.season, kind=championship.kind
    )
    return _carry_over(championship, rules)[0]


def qualification_status(championship: Championship) -> ChampionshipQualification:
    """Who is qualified for the national final and for this season's regional finals, by
    which right, which places are open and why; problems for staff to settle."""
    version, rules = championship_rules_in_force(season=championship.season, kind=championship.kind)
    kind = ChampionshipKind(championship.kind)
    problems: list[Problem] = []
    warnings: list[Problem] = []
    stages = list(selectors.stages().filter(championship=championship))
    finals = [s for s in stages if s.kind == ChampionshipStageKind.REGIONAL_FINAL]
    qualifier = next(
        (s for s in stages if s.kind == ChampionshipStageKind.NATIONAL_QUALIFIER), None
    )
    ranked = ranked_stages(finals + ([qualifier] if qualifier else []), rules)
    quotas = {str(c): n for c, n in selectors.quotas(championship).items()}

    regional_finals: dict[str, tuple[Standing, ...]] = {}
    final_stages: dict[str, ChampionshipStage] = {}
    for stage in finals:
        committee = str(stage.regional.committee.number)  # type: ignore[union-attr]  # regional stage: regional is set (CheckConstraint)
        final_stages[committee] = stage
        result = ranked.get(stage.pk)
        if result is None:
            continue
        if result.problems:
            problems += [
                Problem(
                    f"regional_finals.{committee}.{p.field}",
                    p.code,
                    f"committee {committee} regional final (not counted): {p.message}",
                    p.params,
                )
                for p in result.problems
            ]
            continue
        if committee not in quotas:
            problems.append(
                Problem(
                    f"quotas.{committee}",
                    "no_quota",
                    f"committee {committee} has played its regional final but the CCN has set "
                    "no quota for it.",
                    {"committee": committee},
                )
            )
            continue
        regional_finals[committee] = result.standings

    national_qualifier = None
    if qualifier is not None and rules.national_qualifier_quota is not None:
        result = ranked.get(qualifier.pk)
        if result is not None and result.problems:
            problems += [
                Problem(
                    f"national_qualifier.{p.field}",
                    p.code,
                    f"national qualifier (not counted): {p.message}",
                    p.params,
                )
                for p in result.problems
            ]
        elif result is not None:
            national_qualifier = result.standings

    champion, champion_problems = _outgoing_entry(championship, rules)
    problems += champion_problems
    national = None
    try:
        national = qualify_for_national_final(
            kind, rules, quotas, regional_finals, champion, national_qualifier
        )
    except RuleViolation as refused:
        problems += list(refused.problems)
    carry, previous_finals, carry_problems = _carry_over(championship, rules)
    problems += carry_problems
    warnings += _approval_warnings(championship)

    numbers = set()
    if national is not None:
        numbers |= {int(n) for q in national.qualified for n in q.entry.licence_numbers}
        numbers |= {int(n) for q in national.lost for n in q.qualification.entry.licence_numbers}
    numbers |= {int(n) for q in carry.qualified for n in q.entry.licence_numbers}
    players = {p.licence_number: p for p in Player.objects.filter(licence_number__in=numbers)}
    return ChampionshipQualification(
        championship=championship,
        rules_version=version.version,
        national=national,
        carry_over=carry,
        problems=tuple(problems),
        warnings=tuple(warnings),
        regional_finals=final_stages,
        qualifier=qualifier,
        previous_finals=previous_finals,
        players=players,
    )


def _approval_warnings(championship: Championship) -> list[Problem]:
    warnings = []
    for regional in selectors.regionals().filter(championship=championship):
        versions = list(regional.rules_versions.all())
        committee = regional.committee.number
        if not versions:
            warnings.append(
                Problem(
                    f"regionals.{committee}",
                    "regional_rules_not_published",
                    f"committee {committee} has not published its regional rules.",
                    {"committee": committee},
                )
            )
        elif versions[0].approved_at is None:
            warnings.append(
                Problem(
                    f"regionals.{committee}",
                    "regional_rules_not_approved",
                    f"committee {committee}: version {versions[0].version} of its regional "
                    "rules has no approval of the zone yet (« aval du responsable de zone »).",
                    {"committee": committee, "version": versions[0].version},
                )
            )
    return warnings
