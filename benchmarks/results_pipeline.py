"""Results submission to stored allocations, and a season loaded through the same path.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_results \
        .venv/bin/python benchmarks/results_pipeline.py [--runs 5] [--season-tournaments 10000]

Prints (1) the median time, over ``--runs`` tournaments, of a 300-player,
3-session individual tournament (12 positions with every player's score per
position) going through ``results_submit`` (parse, validate against the
registry, store) and ``tournament_homologate`` (homologation conditions, PCN
allocation, stored allocations), split by step; and (2) the time to load a
season of ``--season-tournaments`` tournaments (12 to 120 players, 1 or 2
sessions) with ``manage.py load_results`` (declare, submit, homologate each,
ranking update included, Celery eager), and with ``--one-by-one N`` the same load of
N tournaments committed line by line (``--batch 1``) with the same-run ratio.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fft_bench_results")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

FIRST_LICENCE = 700_000


def ensure_database() -> None:
    settings = connection.settings_dict
    if "postgresql" in settings["ENGINE"]:
        import psycopg

        admin = psycopg.connect(
            host=settings["HOST"] or "127.0.0.1",
            port=settings["PORT"] or 5432,
            user=settings["USER"] or "postgres",
            dbname="postgres",
            autocommit=True,
        )
        exists = admin.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [settings["NAME"]]
        ).fetchone()
        if not exists:
            admin.execute(f'CREATE DATABASE "{settings["NAME"]}"')
        admin.close()
    call_command("migrate", verbosity=0)


def ensure_registry(players: int):
    from federation.models import (
        ArbiterAccreditation,
        Club,
        ClubAffiliation,
        Committee,
        Licence,
        Player,
        Role,
        RoleAssignment,
        Season,
        User,
        Zone,
    )

    season, _ = Season.objects.get_or_create(
        name="2030-2031",
        defaults={"start_date": dt.date(2030, 7, 1), "end_date": dt.date(2031, 6, 30)},
    )
    zone, _ = Zone.objects.get_or_create(number=99, defaults={"name": "Zone banc d'essai"})
    committee, _ = Committee.objects.get_or_create(
        number=99, defaults={"name": "Comité banc", "zone": zone}
    )
    club, _ = Club.objects.get_or_create(
        number=99_001, defaults={"name": "Club banc", "committee": committee}
    )
    ClubAffiliation.objects.get_or_create(club=club, season=season)
    have = Player.objects.filter(licence_number__gte=FIRST_LICENCE).count()
    if have < players:
        new = Player.objects.bulk_create(
            Player(licence_number=FIRST_LICENCE + i, last_name=f"Joueur{i}", first_name="Banc")
            for i in range(have, players)
        )
        Licence.objects.bulk_create(Licence(player=p, season=season, club=club) for p in new)
    arbiter = Player.objects.get(licence_number=FIRST_LICENCE)
    ArbiterAccreditation.objects.get_or_create(
        player=arbiter, season=season, defaults={"grade": "national"}
    )
    user, _ = User.objects.get_or_create(username="bench-ccn")
    RoleAssignment.objects.get_or_create(user=user, role=Role.FEDERATION_STAFF)
    return season, club, user


def document(rng: random.Random, licences: list[int], sessions: int, positions: int) -> dict:
    """Zero-sum scores per table and position; places in the 1224 convention."""
    tables = len(licences) // 4
    scores = {licence: [] for licence in licences}
    for session in range(1, sessions + 1):
        for position in range(1, positions + 1):
            seated = licences[:]
            rng.shuffle(seated)
            for table in range(tables):
                four = seated[table * 4 : (table + 1) * 4]
                marks = [rng.randrange(-60, 61) * 10 for _ in range(3)]
                marks.append(-sum(marks))
                for licence, mark in zip(four, marks, strict=True):
                    scores[licence].append(
                        {
                            "session": session,
                            "position": position,
                            "table": table + 1,
                            "score": mark,
                        }
                    )
    totals = {licence: sum(s["score"] for s in rows) for licence, rows in scores.items()}
    ordered = sorted(licences, key=lambda licence: -totals[licence])
    entries = []
    for number, licence in enumerate(ordered, start=1):
        place = 1 + sum(1 for other in totals.values() if other > totals[licence])
        entries.append(
            {
                "number": number,
                "place": place,
                "total": totals[licence],
                "players": [
                    {
                        "licence_number": licence,
                        "name": f"Joueur{licence - FIRST_LICENCE} Banc",  # the registry's name
                        "total": totals[licence],
                        "positions": scores[licence],
                    }
                ],
            }
        )
    return {
        "format_version": 1,
        "sessions": [
            {"number": n, "tables": tables, "tables_of_three": 0, "deals": 20}
            for n in range(1, sessions + 1)
        ],
        "entries": entries,
    }


def declaration(name: str, reference: str, day: dt.date) -> dict:
    return {
        "name": name,
        "date": day.isoformat(),
        "venue": "Salle du banc",
        "format": "individual",
        "organizer_kind": "club",
        "organizer_number": 99_001,
        "arbiter_licence_number": FIRST_LICENCE,
        "reference": reference,
    }


def mark(times: list[float]) -> None:
    times.append(time.perf_counter())


def one_tournament(runs: int) -> None:
    from django.db import transaction

    from competitions.homologation import results_submit, tournament_homologate
    from competitions.tournaments.declaration import Declaration, tournament_declare

    _season, _club, user = ensure_registry(301)
    rng = random.Random(300)
    licences = list(range(FIRST_LICENCE + 1, FIRST_LICENCE + 301))
    body = json.dumps(document(rng, licences, sessions=3, positions=4)).encode()
    submit_times, homologate_times, ranking_times = [], [], []
    stamp = time.time_ns()
    for run in range(runs):
        tournament, _ = tournament_declare(
            declaration=Declaration(
                **declaration("Grand tournoi", f"bench-300-{stamp}-{run}", dt.date(2030, 9, 1))
            ),
            by=user,
        )
        started = time.perf_counter()
        results_submit(tournament=tournament, content=body, source="json", by=user)
        submitted = time.perf_counter()
        committed_at: list[float] = []
        with transaction.atomic():
            # Registered first, so it runs right after the commit, before the
            # ranking update that homologation queues with on_commit.
            transaction.on_commit(partial(mark, committed_at))
            tournament_homologate(tournament=tournament, by=user)
        done = time.perf_counter()
        submit_times.append(submitted - started)
        homologate_times.append(committed_at[0] - submitted)
        ranking_times.append(done - committed_at[0])
    total = [a + b for a, b in zip(submit_times, homologate_times, strict=True)]
    print(f"300 players, 3 sessions, 12 positions ({len(body) / 1e6:.1f} MB JSON), {runs} runs:")
    for label, times in [
        ("submit (parse, validate, store) ", submit_times),
        ("homologate (conditions, PCN)    ", homologate_times),
        ("submission to stored allocations", total),
        ("then: ranking update (eager)    ", ranking_times),
    ]:
        print(f"  {label} median {statistics.median(times) * 1000:7.1f} ms")


def season_load(count: int, batch: int | None = None) -> float:
    season, _club, user = ensure_registry(10_001)
    rng = random.Random(2030)
    stamp = time.time_ns()
    pool = list(range(FIRST_LICENCE + 1, FIRST_LICENCE + 10_001))
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as out:
        for k in range(count):
            players = 4 * rng.randint(3, 30)
            day = season.start_date + dt.timedelta(days=rng.randrange(360))
            doc = document(rng, rng.sample(pool, players), sessions=rng.choice((1, 2)), positions=3)
            out.write(
                json.dumps(
                    {
                        "declaration": declaration(f"Tournoi {k}", f"season-{stamp}-{k}", day),
                        "results": doc,
                        "homologate": True,
                    }
                )
                + "\n"
            )
        path = out.name
    size = Path(path).stat().st_size / 1e6
    started = time.perf_counter()
    options = ["--batch", str(batch)] if batch else []
    call_command("load_results", path, "--as", user.username, "--quiet", *options)
    elapsed = time.perf_counter() - started
    how = f"--batch {batch}" if batch else "default batch"
    print(
        f"season of {count} tournaments ({size:.0f} MB JSONL, {how}) loaded in {elapsed:.1f} s "
        f"({elapsed / count * 1000:.1f} ms a tournament; {count / elapsed:.1f} tournaments/s)"
    )
    Path(path).unlink()
    return elapsed / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--season-tournaments", type=int, default=10_000)
    parser.add_argument(
        "--one-by-one",
        type=int,
        default=0,
        help="also load this many tournaments with --batch 1 (each line committed on its "
        "own) and print the same-run ratio",
    )
    args = parser.parse_args()
    ensure_database()
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    one_tournament(args.runs)
    if args.season_tournaments:
        batched = season_load(args.season_tournaments)
        if args.one_by_one:
            alone = season_load(args.one_by_one, batch=1)
            print(f"one by one / batched, same run: {alone / batched:.2f}× a tournament")


if __name__ == "__main__":
    main()
