"""Demo tournaments: two seasons of results, loaded through the services real results take.

``build_demo_tournaments(registry, tournaments=N)`` plans N ordinary tournaments over the
previous and the current season (individual, DUO and teams of 4, each homologable:
minimum field, tables of 4 and 3, an official arbiter), plays them deal by deal
(:mod:`demo.play`), then for each one calls what a club and the staff call:
``tournament_declare``, then the homologation's doors (:mod:`competitions.homologation`):
``results_submit`` (JSON or CSV), and ``tournament_homologate``, ``tournament_refuse`` or
``tournament_correct``; a few are left with their results awaiting
homologation and a few only declared. The `club` demo user's club gets its own dozen
(homologated, corrected, refused, awaiting, declared, and the two tournaments the samples
of ``docs/samples`` are for). Then the rankings, by the calls production makes: the
previous season's official ranking published (``official_ranking_publish``), the current
season fully recomputed with its live ranking (``full_recompute``).

Deterministic: the same registry and seed give the same tournaments, results and points.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from django.test.utils import override_settings
from django.utils import timezone, translation

from competitions.homologation import (
    results_submit,
    tournament_correct,
    tournament_homologate,
    tournament_refuse,
)
from competitions.models import (
    Allocation,
    Championship,
    ChampionshipEntry,
    ChampionshipRulesVersion,
    ChampionshipStage,
    ChampionshipTitle,
    CommitteeQuota,
    DayCorrection,
    DayPenalty,
    DealRecord,
    EntryMember,
    OrganizerKind,
    PlayedSession,
    Qualification,
    RegionalChampionship,
    RegionalRulesVersion,
    ResultRevision,
    RulebookVersion,
    StagePenalty,
    StageSeating,
    SuspensionProposal,
    TableTotals,
    TeamFlag,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from competitions.rules.results.csv_writer import write_csv
from competitions.rules.results.json_format import parse_json
from competitions.tournaments.declaration import Declaration, tournament_declare
from competitions.tournaments.homologation import ranking_updates_deferred
from core.vocabulary import Format
from demo.french_names import FEMALE_FIRST_NAMES, LAST_NAMES, MALE_FIRST_NAMES
from demo.play import Participant, play
from demo.registry import DemoRegistry
from federation.models import Club, Committee, Player, Season, User
from rankings.models import (
    ManualPlacement,
    PlayerSeasonTotal,
    RankingEntry,
    RankingSnapshot,
    RecomputeRun,
    SeasonRanking,
    SeasonStanding,
    SeriesPolicyVersion,
)
from rankings.reads import selectors
from rankings.season.as_of import PARIS
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import full_recompute

DEFAULT_TOURNAMENTS = 300
PREVIOUS_SEASON_SHARE = 0.55  # of the tournaments: the previous season is a whole season
CURRENT_SEASON_PLAYED_DAYS = 135  # the current season's tournaments so far: July to mid-November

FORMAT_WEIGHTS = ((Format.INDIVIDUAL, 70), (Format.DUO, 20), (Format.TEAM4, 10))
# Entries a tournament draws (the rulebook's minimum participation is 11, 6 and 5).
ENTRIES = {
    Format.INDIVIDUAL: (12, 13, 14, 16, 16, 18, 20, 20, 22, 24, 26, 28, 32, 36, 40),
    Format.DUO: (6, 7, 8, 8, 9, 10, 12, 14),
    Format.TEAM4: (5, 5, 6, 6, 7, 8),
}
COMMITTEE_ORGANISED_SHARE = 0.10
FROM_ELSEWHERE_SHARE = 0.12  # players from outside the organiser's committee
GUEST_SHARE = 0.2  # individual tournaments with one or two players without licence

# Outcomes by season: (outcome, weight). The current season's last ones are still open.
PREVIOUS_OUTCOMES = (("homologated", 93), ("corrected", 4), ("refused", 3))
CURRENT_OUTCOMES = (
    ("homologated", 72),
    ("corrected", 5),
    ("refused", 5),
    ("submitted", 9),
    ("declared", 9),
)
REFUSAL_REASONS = (
    "Le classement envoyé ne correspond pas à la feuille de marque signée par l'arbitre.",
    "Résultats envoyés plus de huit jours après le tournoi, sans justification.",
    "L'arbitre déclaré n'était pas présent : joindre le rapport de l'arbitre remplaçant.",
    "Deux joueurs apparaissent sous le même numéro de licence sur la feuille papier.",
)
CORRECTION_REASONS = (
    "Marques de deux joueurs inversées à une table (feuille de marque vérifiée).",
    "Erreur de saisie d'une marque de position signalée par l'arbitre.",
    "Réclamation d'un joueur acceptée : marque corrigée d'après la feuille signée.",
)

SAMPLE_REFERENCES = {
    Format.INDIVIDUAL: "DEMO-EXEMPLE-INDIVIDUEL",
    Format.DUO: "DEMO-EXEMPLE-DUO",
}
"""The `club`'s declared tournaments the files of ``docs/samples`` are for (see demo.samples)."""


@dataclass
class _Plan:
    """One tournament to load: its declaration, who plays, how it ends."""

    season: Season
    date: dt.date
    format: Format
    organizer: Club | Committee
    arbiter: Player
    entries: list[list[Participant]]
    outcome: str
    sessions: int = 1
    positions: int = 4
    deals: int = 5
    name: str = ""
    reference: str = ""
    declared_by: str = "admin"


@dataclass
class DemoTournaments:
    """What was loaded: tournaments by season and final state, and the rankings."""

    by_state: Counter[tuple[str, str]] = field(default_factory=Counter)
    official: dict[str, int] = field(default_factory=dict)
    """Season name → players in its published official ranking."""
    live: dict[str, int] = field(default_factory=dict)
    """Season name → players in its live ranking."""

    def counts(self) -> dict[str, int]:
        counts = {f"tournaments {s} {state}": n for (s, state), n in sorted(self.by_state.items())}
        for season, n in self.official.items():
            counts[f"official ranking {season}"] = n
        for season, n in self.live.items():
            counts[f"live ranking {season}"] = n
        return counts


def build_demo_tournaments(
    registry: DemoRegistry, *, tournaments: int = DEFAULT_TOURNAMENTS
) -> DemoTournaments:
    """Load ``tournaments`` ordinary tournaments over the registry's two seasons (plus the
    `club`'s own) through the services, then publish and refresh the rankings."""
    planner = _Planner(registry)
    plans = planner.club_plans() + planner.plans(tournaments)
    loaded = DemoTournaments()
    users = {name: demo.user for name, demo in registry.users.items()}
    committee_1 = next(c.pk for c in registry.committees if c.number == 1)
    # The ranking updates homologation would queue one by one are left to the full
    # recompute and the official ranking below, which rebuild every total anyway.
    with ranking_updates_deferred():
        for plan in sorted(plans, key=lambda p: (p.date, p.reference)):
            state = _load(plan, users, committee_1, planner.rng)
            loaded.by_state[(plan.season.name, state)] += 1
    previous, current = registry.previous_season, registry.current_season
    official = official_ranking_publish(
        season=previous, by=users["admin"], note="Classement officiel de la saison (démo)"
    )
    loaded.official[previous.name] = RankingEntry.objects.filter(snapshot=official).count()
    full_recompute(season=current)
    live = selectors.ranking_for_season(current, selectors.LIVE)
    loaded.live[current.name] = live.player_count if live is not None else 0
    return loaded


def _load(plan: _Plan, users: dict[str, User], committee_1: int, rng: random.Random) -> str:
    """Declare, submit and judge one tournament as its organiser and the staff would."""
    organizer = plan.organizer
    declarer = users[plan.declared_by]
    tournament, _created = tournament_declare(
        declaration=Declaration(
            name=plan.name,
            date=plan.date,
            venue=(
                f"Salle des fêtes, {organizer.city}"
                if isinstance(organizer, Club)
                else f"Maison des comités, {organizer.name}"
            ),
            format=plan.format.value,
            organizer_kind=(
                OrganizerKind.CLUB if isinstance(organizer, Club) else OrganizerKind.COMMITTEE
            ),
            organizer_number=organizer.number,
            arbiter_licence_number=plan.arbiter.licence_number,
            planned_sessions=plan.sessions,
            reference=plan.reference,
        ),
        by=declarer,
    )
    if plan.outcome == "declared":
        return TournamentStatus.DECLARED
    played = play(
        rng, plan.entries, sessions=plan.sessions, positions=plan.positions, deals=plan.deals
    )
    document = played.results_document()
    if rng.random() < 0.15:  # some clubs send the CSV their software exports
        results_submit(
            tournament=tournament,
            content=write_csv(parse_json(document), delimiter=";").encode(),
            source="csv",
            by=declarer,
        )
    else:
        results_submit(tournament=tournament, content=document, source="json", by=declarer)
    committee_id = organizer.committee_id if isinstance(organizer, Club) else organizer.pk
    staff = users["ccr"] if committee_id == committee_1 else users["admin"]
    if plan.outcome == "submitted":
        return TournamentStatus.RESULTS_SUBMITTED
    if plan.outcome == "refused":
        tournament_refuse(tournament=tournament, reasons=[rng.choice(REFUSAL_REASONS)], by=staff)
        return TournamentStatus.REFUSED
    tournament_homologate(tournament=tournament, by=staff)
    _homologated_back_then(tournament, plan.date)
    if plan.outcome == "corrected":
        tournament_correct(
            tournament=tournament,
            content=played.corrected(rng).results_document(),
            source="json",
            reason=rng.choice(CORRECTION_REASONS),
            by=staff,
        )
        return "corrected"
    return TournamentStatus.HOMOLOGATED


def _homologated_back_then(tournament: Tournament, played: dt.date) -> None:
    """The demo's tournaments are loaded today but were played over the season: each
    counts in the ranking as of a date (rankings/season/as_of.py) from two days after it was
    played, at 20:00 in Paris (never later than now)."""
    at = dt.datetime.combine(played + dt.timedelta(days=2), dt.time(20), tzinfo=PARIS)
    Tournament.objects.filter(pk=tournament.pk).update(homologated_at=min(at, timezone.now()))


def results_name(player: Player) -> str:
    """A player's name as results files write it: « DURAND Jean »."""
    return f"{player.last_name.upper()} {player.first_name}"


class _Planner:
    """Draws the tournaments: dates, organisers, fields, arbiters, outcomes."""

    def __init__(self, registry: DemoRegistry) -> None:
        self.registry = registry
        self.rng = random.Random(f"{registry.seed}-tournaments")
        self.pools = {season.name: _SeasonPool(registry, season) for season in registry.seasons}

    # -- the `club` demo user's own tournaments --------------------------------------

    def club_plans(self) -> list[_Plan]:
        """The demo club's tournaments, `joueur` in every one played: the club manager
        finds each state in « Mes tournois »."""
        registry = self.registry
        club = registry.users["club"].user.roles.get(club__isnull=False).club
        assert club is not None
        joueur = registry.users["joueur"].user.player
        plans = []
        outcomes = {
            registry.previous_season.name: ["homologated"] * 4 + ["corrected"],
            registry.current_season.name: ["homologated"] * 3
            + ["corrected", "refused", "submitted", "declared"],
        }
        for season in registry.seasons:
            pool = self.pools[season.name]
            days = 330 if season == registry.previous_season else CURRENT_SEASON_PLAYED_DAYS
            for k, outcome in enumerate(outcomes[season.name]):
                fmt = Format.DUO if k == 1 else Format.INDIVIDUAL
                day = season.start_date + dt.timedelta(days=20 + k * days // 8)
                if outcome == "declared":
                    day = season.start_date + dt.timedelta(days=CURRENT_SEASON_PLAYED_DAYS + 30)
                must = [joueur] if joueur is not None and pool.licensed(joueur) else []
                plans.append(
                    self.plan(
                        season,
                        club,
                        fmt,
                        day,
                        outcome,
                        must_play=must,
                        name=f"Tournoi du club n° {k + 1} – {club.name}",
                        reference=f"DEMO-CLUB-{season.name}-{k + 1}",
                        declared_by="club",
                    )
                )
        current = registry.current_season
        for fmt, reference in SAMPLE_REFERENCES.items():
            label = "individuel" if fmt is Format.INDIVIDUAL else "DUO"
            plans.append(
                _Plan(
                    season=current,
                    date=current.start_date + dt.timedelta(days=CURRENT_SEASON_PLAYED_DAYS - 5),
                    format=fmt,
                    organizer=club,
                    arbiter=self.pools[current.name].arbiter(club.committee_id, set()),
                    entries=[],
                    outcome="declared",
                    sessions=2 if fmt is Format.INDIVIDUAL else 1,
                    name=f"Tournoi {label} d'exemple – {club.name}",
                    reference=reference,
                    declared_by="club",
                )
            )
        return plans

    # -- the federation's tournaments ------------------------------------------------

    def plans(self, count: int) -> list[_Plan]:
        rng = self.rng
        registry = self.registry
        previous_count = round(count * PREVIOUS_SEASON_SHARE)
        plans = []
        for season, n, outcomes in (
            (registry.previous_season, previous_count, PREVIOUS_OUTCOMES),
            (registry.current_season, count - previous_count, CURRENT_OUTCOMES),
        ):
            pool = self.pools[season.name]
            kinds = [o for o, _ in outcomes]
            cum = list(accumulate(w for _, w in outcomes))
            for k in range(n):
                outcome = rng.choices(kinds, cum_weights=cum)[0]
                if season == registry.previous_season:
                    day = season.start_date + dt.timedelta(days=rng.randrange(350))
                elif outcome == "declared":  # coming up
                    day = season.start_date + dt.timedelta(
                        days=CURRENT_SEASON_PLAYED_DAYS + rng.randrange(5, 200)
                    )
                elif outcome == "submitted":  # played lately
                    day = season.start_date + dt.timedelta(
                        days=CURRENT_SEASON_PLAYED_DAYS - rng.randrange(12)
                    )
                else:
                    day = season.start_date + dt.timedelta(
                        days=rng.randrange(CURRENT_SEASON_PLAYED_DAYS - 10)
                    )
                fmt = rng.choices(
                    [f for f, _ in FORMAT_WEIGHTS], weights=[w for _, w in FORMAT_WEIGHTS]
                )[0]
                organizer: Club | Committee
                if rng.random() < COMMITTEE_ORGANISED_SHARE:
                    organizer = pool.committee()
                else:
                    organizer = pool.club()
                plans.append(
                    self.plan(
                        season,
                        organizer,
                        fmt,
                        day,
                        outcome,
                        reference=f"DEMO-{season.name}-{k + 1:04d}",
                    )
                )
        return plans

    def plan(
        self,
        season: Season,
        organizer: Club | Committee,
        fmt: Format,
        day: dt.date,
        outcome: str,
        *,
        must_play: Sequence[Player] = (),
        name: str = "",
        reference: str,
        declared_by: str = "admin",
    ) -> _Plan:
        rng = self.rng
        pool = self.pools[season.name]
        committee_id = organizer.committee_id if isinstance(organizer, Club) else organizer.pk
        big = isinstance(organizer, Committee)
        entries = rng.choice(ENTRIES[fmt]) + (8 if big and fmt is Format.INDIVIDUAL else 0)
        arbiter = pool.arbiter(committee_id, set(must_play))
        players = pool.field(
            committee_id, entries * fmt.team_size, must_play=must_play, exclude={arbiter}
        )
        participants = [Participant(p.licence_number, results_name(p)) for p in players]
        if fmt is Format.INDIVIDUAL and not must_play and rng.random() < GUEST_SHARE:
            for k in range(rng.choice((1, 1, 2))):
                participants[-1 - k] = Participant(None, self.guest_name())
        size = fmt.team_size
        two_sessions = big or rng.random() < 0.15
        if not name:
            where = organizer.city if isinstance(organizer, Club) else organizer.name
            kind = {Format.INDIVIDUAL: "", Format.DUO: "DUO ", Format.TEAM4: "par équipes "}[fmt]
            event = rng.choice(("Tournoi", "Open", "Challenge", "Trophée", "Grand prix"))
            name = f"{event} {kind}de {where} – {_MONTHS[day.month - 1]} {day.year}"
        return _Plan(
            season=season,
            date=day,
            format=fmt,
            organizer=organizer,
            arbiter=arbiter,
            entries=[participants[i : i + size] for i in range(0, len(participants), size)],
            outcome=outcome,
            sessions=2 if two_sessions else 1,
            positions=3 if two_sessions else rng.choice((4, 4, 5)),
            deals=rng.choice((5, 6)),
            name=name,
            reference=reference,
            declared_by=declared_by,
        )

    def guest_name(self) -> str:
        rng = self.rng
        names = rng.choice((MALE_FIRST_NAMES, FEMALE_FIRST_NAMES))["middle"]
        return f"{rng.choice(LAST_NAMES).upper()} {rng.choice(names)}"


_MONTHS = (
    "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
    "octobre", "novembre", "décembre",
)  # fmt: skip


class _SeasonPool:
    """A season's licensees by committee (with how keen each one is), its affiliated clubs
    and its arbiters."""

    def __init__(self, registry: DemoRegistry, season: Season) -> None:
        rng = random.Random(f"{registry.seed}-{season.name}-activity")
        self.rng = random.Random(f"{registry.seed}-{season.name}-fields")
        licences = registry.licences_of(season)
        self.players: dict[int, list[Player]] = defaultdict(list)  # committee id → players
        self.weights: dict[int, float] = {}  # player id → keenness
        size: Counter[Club] = Counter()
        committee_of: dict[int, int] = {}
        for licence in licences:
            committee_id = licence.club.committee_id
            self.players[committee_id].append(licence.player)
            # A fifth hardly ever play; the keenest play ten times as often as most.
            self.weights[licence.player.pk] = (
                0.05 if rng.random() < 0.2 else min(rng.paretovariate(1.6), 10.0)
            )
            size[licence.club] += 1
            committee_of[licence.player.pk] = committee_id
        affiliated = {a.club_id for a in registry.affiliations if a.season_id == season.pk}
        self.clubs = [club for club in registry.clubs if club.pk in affiliated and size[club] >= 4]
        self.club_weights = list(accumulate(size[club] for club in self.clubs))
        self.committees = [c for c in registry.committees if self.players[c.pk]]
        self.arbiters: dict[int, list[Player]] = defaultdict(list)
        for accreditation in registry.arbiters[season.name]:
            player = accreditation.player
            if player.pk in committee_of:
                self.arbiters[committee_of[player.pk]].append(player)
        self.everyone = [p for players in self.players.values() for p in players]
        self.cum_weights = {
            committee_id: list(accumulate(self.weights[p.pk] for p in players))
            for committee_id, players in self.players.items()
        }
        self.everyone_cum_weights = list(accumulate(self.weights[p.pk] for p in self.everyone))

    def licensed(self, player: Player) -> bool:
        return player.pk in self.weights

    def club(self) -> Club:
        return self.rng.choices(self.clubs, cum_weights=self.club_weights)[0]

    def committee(self) -> Committee:
        return self.rng.choice(self.committees)

    def arbiter(self, committee_id: int, exclude: set[Player]) -> Player:
        local = [p for p in self.arbiters[committee_id] if p not in exclude]
        anywhere = [p for ps in self.arbiters.values() for p in ps if p not in exclude]
        return self.rng.choice(local or anywhere)

    def field(
        self, committee_id: int, count: int, *, must_play: Sequence[Player], exclude: set[Player]
    ) -> list[Player]:
        """``count`` distinct players, mostly of the committee, the keenest more often."""
        chosen: list[Player] = list(must_play)
        taken = set(chosen) | exclude
        local = self.players[committee_id]
        while len(chosen) < count:
            if self.rng.random() < FROM_ELSEWHERE_SHARE or len(local) < 2 * count:
                pool, cum_weights = self.everyone, self.everyone_cum_weights
            else:
                pool, cum_weights = local, self.cum_weights[committee_id]
            player = self.rng.choices(pool, cum_weights=cum_weights)[0]
            if player not in taken:
                taken.add(player)
                chosen.append(player)
        self.rng.shuffle(chosen)
        return chosen


def reset_competitions() -> dict[str, int]:
    """Delete every tournament, championship and ranking row (and their history), so the
    registry can be reset after them. Demo only: called by ``seed_demo --reset``."""
    deleted: dict[str, int] = {}
    models = (
        SeasonRanking, RankingEntry, RankingSnapshot, RecomputeRun, ManualPlacement,
        SeasonStanding, PlayerSeasonTotal, Allocation,
        DayPenalty, DayCorrection, DealRecord, TableTotals, PlayedSession, EntryMember,
        TournamentEntry, SuspensionProposal,
        ChampionshipTitle, StagePenalty, StageSeating, TeamFlag, Qualification, ChampionshipEntry,
        CommitteeQuota,
        ChampionshipStage, RegionalRulesVersion, RegionalChampionship, Championship,
        ChampionshipRulesVersion, ResultRevision, Tournament, RulebookVersion, SeriesPolicyVersion,
    )  # fmt: skip
    with override_settings(SIMPLE_HISTORY_ENABLED=False):
        # A homologated tournament points at its revision, which points back at it.
        Tournament.objects.update(homologated_revision=None, status=TournamentStatus.DECLARED)
        for model in models:
            _total, per_model = model.objects.all().delete()
            with translation.override("en"):  # as the registry's counts
                label = str(model._meta.verbose_name_plural)
            deleted[label] = per_model.get(model._meta.label, 0)
            history = getattr(model, "history", None)
            if history is not None:
                history.all().delete()
    return deleted
