"""The likely duplicates at national scale (docs/duplicates.md): what federation staff
wait for when they open /bureau/doublons/.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_merge_bench \\
        .venv/bin/python benchmarks/duplicates.py [--players 150000] [--runs 5]

Writes once (COPY), in the database of ``DATABASE_URL`` (use one of its own, migrated):
two seasons, 20 committees, 300 clubs and ``--players`` players with names drawn so that
a few thousand pairs share a name by chance, and 1 % of people who came back under a
new licence number (same name and birth date, same committee, seasons apart); 90 % of
players are licensed in both seasons. Then times, medians of ``--runs``:

- ``likely_duplicate_pairs`` (portal/merging.py): the names held twice or more found
  by a GROUP BY in PostgreSQL, then only those records and their licences read and
  compared by name group;
- the same run's naive alternative: every player and every licence read into Python,
  then the same pure rules on all of them (the same pairs: checked).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from demo.management.commands.generate_ranking_season import (  # noqa: E402
    FIRST_NAMES,
    LAST_NAMES,
    _copy,
)
from federation.models import Club, Committee, Licence, Player, Season, User, Zone  # noqa: E402
from federation.rules.duplicates import PlayerFacts, likely_duplicates  # noqa: E402
from portal.merging import likely_duplicate_pairs  # noqa: E402

FIRST_LICENCE = 60_000_000


def build(players: int, seed: int = 7) -> None:
    ours = Player.objects.filter(licence_number__gte=FIRST_LICENCE)
    if ours.count() == players:
        return
    Licence.objects.filter(player__in=ours).delete()  # another size: written again
    ours.delete()
    rng = random.Random(seed)
    previous, _ = Season.objects.get_or_create(
        name="2088-2089",
        defaults={"start_date": dt.date(2088, 7, 1), "end_date": dt.date(2089, 6, 30)},
    )
    season, _ = Season.objects.get_or_create(
        name="2089-2090",
        defaults={"start_date": dt.date(2089, 7, 1), "end_date": dt.date(2090, 6, 30)},
    )
    zone, _ = Zone.objects.get_or_create(number=900, defaults={"name": "Zone D"})
    clubs: list[tuple[int, int]] = []
    for c in range(20):
        committee, _ = Committee.objects.get_or_create(
            number=900 + c, defaults={"name": f"Comité D{c}", "zone": zone}
        )
        for k in range(15):
            club, _ = Club.objects.get_or_create(
                number=900_000 + c * 100 + k,
                defaults={"name": f"Club D{c}-{k}", "committee": committee},
            )
            clubs.append((club.pk, committee.pk))
    people = []
    for _ in range(players):
        last = f"{rng.choice(LAST_NAMES)}{rng.randrange(players // 8)}"
        born = dt.date(1940, 1, 1) + dt.timedelta(days=rng.randrange(60 * 365))
        people.append((last, rng.choice(FIRST_NAMES), born))
    twins = set(rng.sample(range(players), players // 100))
    rows = []
    for i, (last, first, born) in enumerate(people):
        if i in twins:  # the same person as player i - 1, under a new number
            last, first, born = people[i - 1]
        rows.append((FIRST_LICENCE + i, last, first, born, "", ""))
    _copy(Player, ["licence_number", "last_name", "first_name", "birth_date", "email", "phone"],
          rows)  # fmt: skip
    ids = dict(
        Player.objects.filter(licence_number__gte=FIRST_LICENCE).values_list("licence_number", "pk")
    )
    licences = []
    for i in range(players):
        pk = ids[FIRST_LICENCE + i]
        club = clubs[rng.randrange(len(clubs))][0]
        if i in twins:
            licences.append((pk, season.pk, clubs[(i - 1) % len(clubs)][0]))
        elif i + 1 in twins:
            licences.append((pk, previous.pk, clubs[i % len(clubs)][0]))
        else:
            licences.append((pk, season.pk, club))
            if rng.random() < 0.9:
                licences.append((pk, previous.pk, club))
    _copy(Licence, ["player_id", "season_id", "club_id"], licences)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE federation_player")
        cursor.execute("ANALYZE federation_licence")


def naive() -> int:
    """Every player and licence into Python, then the same pure rules."""
    committees: dict[int, dict[int, int]] = {}
    for player_id, season_id, committee_id in Licence.objects.values_list(
        "player_id", "season_id", "club__committee_id"
    ):
        committees.setdefault(player_id, {})[season_id] = committee_id
    facts = [
        PlayerFacts(pk, name, born, committees.get(pk, {}))
        for pk, name, born in Player.objects.filter(merged_into=None).values_list(
            "pk", "search_name", "birth_date"
        )
    ]
    return len(likely_duplicates(facts))


def timed(function, runs: int) -> tuple[float, int]:
    times, result = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=150_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    build(args.players)
    print(f"data ready in {time.perf_counter() - started:.1f} s")
    staff, _ = User.objects.get_or_create(username="bench_duplicates", is_superuser=True)
    print(f"players: {Player.objects.count()}, licences: {Licence.objects.count()}")
    reset_queries()  # the query log is capped: an empty one counts from zero
    with CaptureQueriesContext(connection) as captured:
        pairs = likely_duplicate_pairs(by=staff)
    queries = len(captured.captured_queries)
    for query in captured.captured_queries:
        print(f"  {float(query['time']) * 1000:6.0f} ms  {query['sql'][:90]}")
    sql, found = timed(lambda: len(likely_duplicate_pairs(by=staff)), args.runs)
    python, naive_found = timed(naive, args.runs)
    assert found == naive_found == len(pairs), (found, naive_found, len(pairs))
    both = sum(1 for p in pairs if len(p.criteria) == 2)
    print(f"likely pairs: {found} ({both} meeting both criteria), queries: {queries}")
    print(f"likely_duplicate_pairs, median of {args.runs}: {sql * 1000:.0f} ms")
    print(f"naive (everything into Python), median of {args.runs}: {python * 1000:.0f} ms")
    print(f"ratio naive / grouped in SQL: {python / sql:.1f}")


if __name__ == "__main__":
    main()
