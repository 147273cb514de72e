"""``manage.py generate_ranking_season``: a synthetic national-scale season for the
ranking benchmarks (PostgreSQL only, written with COPY).

Creates, if absent, in the database of ``DATABASE_URL`` (use one of its own):

- seasons ``<year-1>-<year>`` (previous) and ``<year>-<year+1>`` (the benchmark season);
- 10 zones, 100 committees, 1,500 clubs;
- ``--players`` players (default 150,000), all licensed in the benchmark season,
  93 % of them in the previous season too (the others are new);
- a published **official ranking of the previous season**, computed by the pure
  core from synthetic previous-season points (so carry-over, previous steps and
  the demotion limit are exercised);
- ``--allocations`` allocations (default 2,000,000) in tournaments of 100
  players (20,000 tournaments), places 1–100 with the chapter-5 scale of
  25 tables (first 1,000 PCN, coefficient 0.91, half paid, floor 50); one
  tournament in 100 also gives PP. Players' activity is skewed: a fifth never
  play, some play far more than others.

Deterministic for a given ``--seed``. Each part (registry, previous official
ranking, allocations) is skipped when already there.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Iterator

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, models, transaction
from django.utils import timezone
from psycopg.types.json import Jsonb

from competitions.models import Allocation, ResultRevision, Tournament
from competitions.rulebooks import rulebook_in_force
from federation.models import Club, Committee, Licence, Player, Season, Zone
from rankings.models import RankingKind, SeasonRanking
from rankings.rules.national_ranking import PlayerStanding
from rankings.series_policies import series_policy_in_force
from rankings.snapshots import PlayerFacts, RankingInputs, compute, fold, write_snapshot

FIRST_LICENCE = 80_000_000
LAST_NAMES = ["Martin", "Lefèvre", "Dubœuf", "Quéré", "Le Gall", "Müller", "Bernard", "Petit",
              "Durand", "Leroy", "Moreau", "Simon", "Laurent", "Michel", "Garcia", "Roux",
              "Fournier", "Girard", "Bonnet", "Dupont", "Lambert", "Fontaine", "Rousseau",
              "Vincent", "Mercier", "Blanc", "Guérin", "Boyer", "Chevalier",
              "François"]  # fmt: skip
FIRST_NAMES = ["Élise", "Jérôme", "Anaïs", "François", "Maëlle", "Loïc", "Hélène", "Noël",
               "Camille", "Julien", "Chloé", "Nicolas", "Léa", "Thomas", "Zoé", "Hugo"]  # fmt: skip
PLAYERS_PER_TOURNAMENT = 100


def season_names(year: int) -> tuple[str, str]:
    return f"{year - 1}-{year}", f"{year}-{year + 1}"


def _copy(model: type[models.Model], columns: list[str], rows) -> int:
    """COPY rows (tuples in the order of ``columns``, database column names)."""
    count = 0
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(
            f"COPY {model._meta.db_table} ({', '.join(columns)}) FROM STDIN"
        ) as copy,
    ):
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def scale_value(place: int) -> int:
    """Chapter 5, 25 tables: ⌊1000 × 0.91^(place−1)⌋, floor 50, half of 100 paid."""
    if place > PLAYERS_PER_TOURNAMENT // 2:
        return 0
    return max(50, int(1000 * 0.91 ** (place - 1)))


def _homologated_at(played: dt.date) -> dt.datetime:
    """A synthetic tournament is homologated two days after it is played, at 19:00 UTC
    (the ranking as of a date counts it from that day)."""
    return dt.datetime.combine(played + dt.timedelta(days=2), dt.time(19), tzinfo=dt.UTC)


class Command(BaseCommand):
    help = "Generate a synthetic national-scale season for the ranking benchmarks (COPY)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=150_000)
        parser.add_argument("--allocations", type=int, default=2_000_000)
        parser.add_argument("--year", type=int, default=2090, help="year the season starts")
        parser.add_argument("--seed", type=int, default=2090)

    def handle(self, *args, players: int, allocations: int, year: int, seed: int, **options):
        if connection.vendor != "postgresql":
            raise CommandError("The synthetic season is written with COPY: use PostgreSQL.")
        previous_name, season_name = season_names(year)
        rng = random.Random(seed)
        started = time.perf_counter()
        with transaction.atomic():
            previous, season = self._seasons(year, previous_name, season_name)
            clubs = self._clubs()
            player_ids = self._players(rng, players)
            if Licence.objects.filter(season=season, player_id__in=player_ids[-1:]).exists():
                self.stdout.write("registry already generated")
            else:
                self._licences(rng, previous, season, player_ids, clubs)
                self.stdout.write(f"registry: {time.perf_counter() - started:.1f} s")
        state = SeasonRanking.objects.filter(season=previous, official__isnull=False).first()
        if state is None:
            with transaction.atomic():
                self._previous_official(rng, previous)
            self.stdout.write(f"previous official ranking: {time.perf_counter() - started:.1f} s")
        if Allocation.objects.filter(season=season).exists():
            self.stdout.write(f"season {season_name} already has its allocations")
        else:
            with transaction.atomic():
                written = self._allocations(rng, season, player_ids, clubs, allocations)
            self.stdout.write(f"{written} allocations in season {season_name}")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        self.stdout.write(f"synthetic season ready: {time.perf_counter() - started:.1f} s")

    def _seasons(self, year, previous_name, season_name):
        previous, _ = Season.objects.get_or_create(
            name=previous_name,
            defaults={"start_date": dt.date(year - 1, 7, 1), "end_date": dt.date(year, 6, 30)},
        )
        season, _ = Season.objects.get_or_create(
            name=season_name,
            defaults={"start_date": dt.date(year, 7, 1), "end_date": dt.date(year + 1, 6, 30)},
        )
        return previous, season

    def _clubs(self) -> list[int]:
        for z in range(1, 11):
            zone, _ = Zone.objects.get_or_create(number=800 + z, defaults={"name": f"Zone B{z}"})
            for c in range(10):
                number = 8000 + (z - 1) * 10 + c
                committee, _ = Committee.objects.get_or_create(
                    number=number, defaults={"name": f"Comité B{number}", "zone": zone}
                )
                for k in range(15):
                    Club.objects.get_or_create(
                        number=800_000 + number * 100 + k,
                        defaults={"name": f"Club B{number}-{k}", "committee": committee},
                    )
        return list(
            Club.objects.filter(number__gte=800_000).order_by("number").values_list("pk", flat=True)
        )

    def _players(self, rng, count: int) -> list[int]:
        existing = Player.objects.filter(licence_number__gte=FIRST_LICENCE).count()
        if existing < count:
            _copy(
                Player,
                ["licence_number", "last_name", "first_name", "email", "phone", "name_hidden"],
                (
                    (FIRST_LICENCE + i, f"{rng.choice(LAST_NAMES)}-{i}", rng.choice(FIRST_NAMES),
                     "", "", False)
                    for i in range(existing, count)
                ),
            )  # fmt: skip
        return list(
            Player.objects.filter(licence_number__gte=FIRST_LICENCE)
            .order_by("licence_number")
            .values_list("pk", flat=True)[:count]
        )

    def _licences(self, rng, previous, season, player_ids, clubs) -> None:
        Licence.objects.filter(season__in=[previous, season], player_id__in=player_ids).delete()
        club_of = {pk: clubs[i * len(clubs) // len(player_ids)] for i, pk in enumerate(player_ids)}
        _copy(Licence, ["player_id", "season_id", "club_id"],
              ((pk, season.pk, club_of[pk]) for pk in player_ids))  # fmt: skip
        kept = [pk for pk in player_ids if rng.random() < 0.93]
        _copy(Licence, ["player_id", "season_id", "club_id"],
              ((pk, previous.pk, club_of[pk]) for pk in kept))  # fmt: skip

    def _previous_official(self, rng, previous) -> None:
        """The previous season's official ranking, computed by the pure core from
        synthetic points and published (no allocations needed for it)."""
        policy_version, policy = series_policy_in_force(season=previous)
        rows = list(
            Licence.objects.filter(season=previous, player__licence_number__gte=FIRST_LICENCE)
            .values_list("player_id", "player__licence_number", "player__last_name",
                         "player__first_name", "club__committee_id", "club_id")
        )  # fmt: skip
        standings, facts = [], {}
        for player_id, licence, last, first, committee, club in rows:
            active = rng.random() < 0.8
            pcn = min(int(rng.paretovariate(1.3) * 400), 40_000) if active else 0
            pp = rng.randint(1, 30) if active and rng.random() < 0.03 else 0
            standings.append(PlayerStanding(licence, committee, club, pcn, pp))
            name = fold(f"{last} {first}")
            facts[licence] = PlayerFacts(player_id, 10 if active else 0, "", name)
        inputs = RankingInputs(previous, policy_version, policy, 0, standings, facts, [])
        snapshot = write_snapshot(
            inputs=inputs, ranking=compute(inputs), kind=RankingKind.OFFICIAL,
            note="Synthetic (benchmark)",
        )  # fmt: skip
        state, _ = SeasonRanking.objects.get_or_create(season=previous)
        state.official = snapshot
        state.save(update_fields=["official"])

    def _allocations(self, rng, season, player_ids, clubs, target: int) -> int:
        version, _rulebook = rulebook_in_force(season=season)
        arbiter = player_ids[0]
        now = timezone.now()
        tournaments = max(1, target // PLAYERS_PER_TOURNAMENT)
        first_tournament = (Tournament.objects.order_by("-pk").values_list("pk", flat=True)
                            .first() or 0) + 1  # fmt: skip
        _copy(
            Tournament,
            ["season_id", "name", "date", "venue", "format", "stage", "organizer_kind",
             "organizer_club_id", "arbiter_id", "arbiter_plays", "planned_sessions", "reference",
             "status", "refusal_reasons", "declared_at", "homologated_at", "placements"],
            (
                (season.pk, f"Tournoi B{t}", season.start_date + dt.timedelta(days=t % 360),
                 "Salle", "individual", "ordinary", "club", clubs[t % len(clubs)], arbiter,
                 False, 1, f"bench-{t}", "results_submitted", Jsonb([]), now,
                 _homologated_at(season.start_date + dt.timedelta(days=t % 360)), Jsonb([]))
                for t in range(tournaments)
            ),
        )  # fmt: skip
        tournament_ids = list(
            Tournament.objects.filter(season=season, reference__startswith="bench-")
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        _copy(
            ResultRevision,
            ["tournament_id", "number", "document", "sha256", "source", "reason",
             "submitted_at", "warnings"],
            ((t, 1, Jsonb({}), f"{t:064d}", "json", "", now, Jsonb([])) for t in tournament_ids),
        )  # fmt: skip
        revision_of = dict(
            ResultRevision.objects.filter(tournament_id__in=tournament_ids).values_list(
                "tournament_id", "pk"
            )
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Tournament._meta.db_table} t SET status = 'homologated', "
                f"homologated_revision_id = r.id FROM {ResultRevision._meta.db_table} r "
                "WHERE r.tournament_id = t.id AND t.id >= %s",
                [first_tournament],
            )
        # Skewed activity: a fifth never play; the others weigh 1 to 12 (Pareto, capped:
        # most play a few tournaments, the keenest about a hundred).
        active = [pk for pk in player_ids if rng.random() >= 0.2]
        weights = [min(rng.paretovariate(1.5), 12.0) for _ in active]
        cumulative, total = [], 0.0
        for weight in weights:
            total += weight
            cumulative.append(total)

        def rows() -> Iterator[tuple[object, ...]]:
            for index, tournament in enumerate(tournament_ids):
                chosen: set[int] = set()
                while len(chosen) < PLAYERS_PER_TOURNAMENT:
                    chosen.update(rng.choices(active, cum_weights=cumulative,
                                              k=PLAYERS_PER_TOURNAMENT - len(chosen)))  # fmt: skip
                national = index % 100 == 0
                for place, player in enumerate(sorted(chosen, key=lambda _: rng.random()), 1):
                    pcn = scale_value(place)
                    pp = max(0, 20 - place) if national else 0
                    yield (season.pk, tournament, revision_of[tournament], version.pk, player,
                           place, pcn, pp, True, now)  # fmt: skip

        return _copy(
            Allocation,
            ["season_id", "tournament_id", "revision_id", "rulebook_id", "player_id", "place",
             "pcn", "pp", "current", "created_at"],
            rows(),
        )  # fmt: skip
