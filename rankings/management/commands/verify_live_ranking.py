"""``manage.py verify_live_ranking``: check the live ranking read from the Redis store
against the full computation from the database.

Under the season's writer lock (writers wait for the few seconds it takes), reads
every standing, the policy and the placements, computes the ranking with the pure core,
and compares it line by line with what readers get from the store (places overall, in
committee and club, totals, steps, series, source), plus the sizes of every committee's
and club's sorted set. Exit status 1 and the first differences when they disagree.

It also checks the database against itself where both would be equally wrong: a
current allocation on a retired record (a player merged into another,
``portal/merging.py``) counts for nobody in the ranking, and is reported as a
difference (with the record it should be on).

``--rebuild`` rebuilds the store from the database first; ``--season`` (default the
current one).
"""

from __future__ import annotations

from collections import Counter
from itertools import islice
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from competitions.models import Allocation
from rankings.reads import selectors
from rankings.season import live_reads, live_store
from rankings.season.locks import season_writer_lock
from rankings.season.ranking_state import season_ranking
from rankings.season.snapshots import compute, load_inputs

FIELDS = ("committee", "club", "season_pcn", "season_pp", "carried_pcn", "carried_pp",
          "total_pcn", "total_pp", "place", "place_in_committee", "place_in_club",
          "season_step", "points_step", "step", "series", "step_source")  # fmt: skip
CHUNK = 2000


class Command(BaseCommand):
    help = "Compare the live ranking in Redis with the full computation from the database."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--season", help="season name (default: the current season)")
        parser.add_argument("--rebuild", action="store_true", help="rebuild the store first")

    def handle(self, *args: Any, **options: Any) -> None:
        if not live_store.enabled():
            raise CommandError("No live store: RANKING_STORE_URL (or CACHE_URL) is not set.")
        season = selectors.season_named(options.get("season"))
        if season is None:
            raise CommandError("Unknown season.")
        with transaction.atomic():
            season_writer_lock(season.pk)
            if options["rebuild"]:
                live_store.rebuild(season=season)
            state = season_ranking(season.pk)
            expected = {
                e.player: e
                for e in compute(
                    load_inputs(season=season, inputs_version=state.inputs_version)
                ).entries
            }
            ranking = live_reads.live_ranking(season, state)
            if ranking is None:  # lost, damaged or ahead: brought back first
                live_store.restore(season=season)
                ranking = live_reads.live_ranking(season, state)
            if ranking is None:
                raise CommandError("The live store cannot answer for this season.")
            policy = ranking.rules()
            index_of = live_store.ladder_index(policy)
            key = ranking.meta.key("all")
            numbers = live_reads.merged_members(ranking, [key], CHUNK)
            seen: set[int] = set()
            differences: list[str] = []
            groups: Counter[str] = Counter()
            while chunk := list(islice(numbers, CHUNK)):
                for entry in live_reads.lines(ranking, chunk):
                    seen.add(entry.licence_number)
                    line = entry.line
                    groups[f"c:{line.committee}"] += 1
                    if line.club is not None:
                        groups[f"k:{line.club}"] += 1
                    groups[f"b:{entry.stored.band(policy, index_of)}"] += 1
                    want = expected.get(entry.licence_number)
                    if want is None:
                        differences.append(f"{entry.licence_number}: in the store only")
                        continue
                    for name in FIELDS:
                        if getattr(line, name) != getattr(want, name):
                            differences.append(
                                f"{entry.licence_number}: {name} {getattr(line, name)!r} "
                                f"(database: {getattr(want, name)!r})"
                            )
            differences += [f"{n}: in the database only" for n in sorted(set(expected) - seen)]
            differences += retired_allocations(season)
            redis_client = live_store.client()
            for name, count in sorted(groups.items()):
                stored = redis_client.zcard(ranking.meta.key(name))
                if stored != count:
                    differences.append(f"sorted set {name}: {stored} members, expected {count}")
        self.stdout.write(
            f"Season {season.name}: {len(expected)} players in the database, {len(seen)} in "
            f"the store (version {ranking.meta.version}, inputs {state.inputs_version}); "
            f"{len(differences)} differences."
        )
        if differences:
            for difference in differences[:20]:
                self.stdout.write(f"  {difference}")
            raise CommandError("The live store disagrees with the database.")


def retired_allocations(season: Any) -> list[str]:
    """A difference for each current allocation of ``season`` on a retired record."""
    return [
        f"{number}: an allocation of tournament {tournament} on a record merged into "
        f"{kept} (its points count for nobody)"
        for number, tournament, kept in Allocation.objects.filter(
            season=season, current=True, player__merged_into__isnull=False
        )
        .order_by("player__licence_number", "tournament_id")
        .values_list(
            "player__licence_number", "tournament_id", "player__merged_into__licence_number"
        )
    ]
