"""How long the licence-registry import takes for a big file (default 50,000 lines).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench \
        .venv/bin/python benchmarks/import_licences.py [--rows 50000] [--runs 3]

Creates the schema if needed and a benchmark season, zone, committees and clubs
if absent, generates the CSV in memory, then for each run times (wall clock):

1. the first import (every player and licence is new),
2. a re-import of the same file (nothing changes),
3. the import of an updated file (1 line in 10 renamed, 1 in 7 moved to another club),

and deletes what the run imported. Prints the median of each; asserts nothing.

The floor, timed in the same run (PostgreSQL only): what a first import cannot do with
less — the file loaded as it is with ``COPY`` into a temporary table (the database
parses the dates), then set-based ``INSERT … SELECT`` of the players, their history
rows, the licences and theirs, and the audit record, in one transaction with the
season locked; no check of the file. Its rows are verified identical to the import's
(players, licences, both histories, compared with ``EXCEPT ALL`` both ways, keys and
dates aside), and the first import is printed as a ratio of it.
Use a database of its own: the script writes to it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from federation.licence_registry import import_licences  # noqa: E402
from federation.models import Club, Committee, Licence, LicenceImport, Player, Season, Zone  # noqa: E402

SEASON = "2090-2091"
FIRST_LICENCE = 90_000_000
CLUBS = list(range(90_001, 90_201))  # 200 clubs in 10 committees
FIRST_NAMES = ["Élise", "Jérôme", "Anaïs", "François", "Maëlle", "Loïc", "Hélène", "Noël"]
LAST_NAMES = ["Lefèvre", "Quéré", "Dubœuf", "Müller", "Le Gall", "Gaël-Côté", "Martin", "Ñúñez"]


def create_database_if_absent() -> None:
    """On PostgreSQL, create the benchmark database named in DATABASE_URL if needed."""
    if connection.vendor != "postgresql":
        return
    name = connection.settings_dict["NAME"]
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{name}"')


def set_up() -> Season:
    create_database_if_absent()
    call_command("migrate", verbosity=0)
    season, _ = Season.objects.get_or_create(
        name=SEASON,
        defaults={"start_date": dt.date(2090, 7, 1), "end_date": dt.date(2091, 6, 30)},
    )
    zone, _ = Zone.objects.get_or_create(number=90, defaults={"name": "Zone de banc d'essai"})
    for index, number in enumerate(CLUBS):
        committee, _ = Committee.objects.get_or_create(
            number=900 + index % 10, defaults={"name": f"Comité d'essai {index % 10}", "zone": zone}
        )
        Club.objects.get_or_create(
            number=number, defaults={"name": f"Club d'essai {number}", "committee": committee}
        )
    return season


def licence_csv(rows: int, *, updated: bool = False) -> bytes:
    out = ["licence_number;last_name;first_name;birth_date;club_number"]
    for i in range(rows):
        last = LAST_NAMES[i % len(LAST_NAMES)] + f"-{i}"
        if updated and i % 10 == 0:
            last += "-Renommé"
        club = CLUBS[(i + (1 if updated and i % 7 == 0 else 0)) % len(CLUBS)]
        born = dt.date(1940, 1, 1) + dt.timedelta(days=(i * 37) % 25_000)
        first = FIRST_NAMES[i % len(FIRST_NAMES)]
        out.append(f"{FIRST_LICENCE + i};{last};{first};{born:%d/%m/%Y};{club}")
    return ("\n".join(out) + "\n").encode()


def clean_up(season: Season) -> None:
    """Delete what the runs imported (raw deletes: Django's cascade collector is slow)."""
    by_season = [season.pk]
    by_number = [FIRST_LICENCE]
    with transaction.atomic(), connection.cursor() as cursor:
        for model, where, params in [
            (Licence.history.model, "season_id = %s", by_season),
            (Licence, "season_id = %s", by_season),
            (Player.history.model, "licence_number >= %s", by_number),
            (Player, "licence_number >= %s", by_number),
            (LicenceImport, "season_id = %s", by_season),
        ]:
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"DELETE FROM {table} WHERE {where}", params)
    if connection.vendor == "postgresql":  # every run starts from comparable tables
        with connection.cursor() as cursor:
            for model in (Licence.history.model, Licence, Player.history.model, Player):
                cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


SNAPSHOTS = {
    "players": """
        SELECT licence_number, last_name, first_name, birth_date, email, phone, name_hidden,
               name_hidden_changed_at, name_hidden_changed_by_id, merged_into_id
        FROM federation_player WHERE licence_number >= %(first)s""",
    "licences": """
        SELECT p.licence_number, c.number, l.issued_on
        FROM federation_licence l
        JOIN federation_player p ON p.id = l.player_id
        JOIN federation_club c ON c.id = l.club_id
        WHERE l.season_id = %(season)s""",
    "player history": """
        SELECT h.licence_number, h.last_name, h.first_name, h.birth_date, h.name_hidden,
               h.name_hidden_changed_at, h.name_hidden_changed_by_id, h.merged_into_id,
               h.history_type, h.history_user_id, h.history_change_reason LIKE 'licence import #%%'
        FROM federation_historicalplayer h WHERE h.licence_number >= %(first)s""",
    "licence history": """
        SELECT p.licence_number, c.number, h.issued_on, h.history_type, h.history_user_id,
               h.history_change_reason LIKE 'licence import #%%'
        FROM federation_historicallicence h
        JOIN federation_player p ON p.id = h.player_id
        JOIN federation_club c ON c.id = h.club_id
        WHERE h.season_id = %(season)s""",
}


def snapshot(season: Season, suffix: str) -> None:
    """Copy what is imported now into temporary tables ``floor_<table>_<suffix>``."""
    with connection.cursor() as cursor:
        for name, sql in SNAPSHOTS.items():
            table = f"floor_{name.replace(' ', '_')}_{suffix}"
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
            cursor.execute(
                f"CREATE TEMPORARY TABLE {table} AS {sql}",
                {"first": FIRST_LICENCE, "season": season.pk},
            )


def differences() -> dict[str, int]:
    """Rows of the import missing from the floor's, and the other way round, per table."""
    counts = {}
    with connection.cursor() as cursor:
        for name in SNAPSHOTS:
            table = f"floor_{name.replace(' ', '_')}"
            cursor.execute(
                f"SELECT (SELECT count(*) FROM (TABLE {table}_import EXCEPT ALL "
                f"TABLE {table}_floor) a) + (SELECT count(*) FROM (TABLE {table}_floor "
                f"EXCEPT ALL TABLE {table}_import) b), (SELECT count(*) FROM {table}_import)"
            )
            different, rows = cursor.fetchone()
            counts[f"{name} ({rows:,} rows)"] = different
    return counts


@transaction.atomic
def floor_first_import(season: Season, content: bytes, name: str) -> None:
    """The first import at the floor: COPY, then set-based inserts with history rows."""
    list(Season.objects.select_for_update().filter(pk=season.pk).values_list("pk"))
    rows = content.count(b"\n") - 1  # every line new: the counts are known
    record = LicenceImport.objects.create(
        season=season,
        imported_by=None,
        file_name=name,
        sha256="floor",
        rows=rows,
        players_created=rows,
        players_updated=0,
        licences_created=rows,
        licences_updated=0,
    )
    reason = f"licence import #{record.pk}"
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL datestyle = 'ISO, DMY'")
        cursor.execute(
            "CREATE TEMPORARY TABLE floor_file (licence_number integer, last_name text, "
            "first_name text, birth_date date, club_number integer) ON COMMIT DROP"
        )
        with cursor.cursor.copy(
            "COPY floor_file FROM STDIN WITH (FORMAT csv, DELIMITER ';', HEADER true)"
        ) as copy:
            copy.write(content)
        cursor.execute(
            "INSERT INTO federation_player "
            "(licence_number, last_name, first_name, birth_date, email, phone, name_hidden) "
            "SELECT licence_number, last_name, first_name, birth_date, '', '', false "
            "FROM floor_file"
        )
        cursor.execute(
            "INSERT INTO federation_historicalplayer (id, licence_number, last_name, "
            "first_name, birth_date, name_hidden, history_date, history_user_id, "
            "history_change_reason, history_type) SELECT p.id, p.licence_number, p.last_name, "
            "p.first_name, p.birth_date, p.name_hidden, now(), NULL, %s, '+' "
            "FROM federation_player p "
            "JOIN floor_file f USING (licence_number)",
            [reason],
        )
        cursor.execute(
            "INSERT INTO federation_licence (player_id, season_id, club_id, issued_on) "
            "SELECT p.id, %s, c.id, NULL FROM floor_file f "
            "JOIN federation_player p USING (licence_number) "
            "JOIN federation_club c ON c.number = f.club_number",
            [season.pk],
        )
        cursor.execute(
            "INSERT INTO federation_historicallicence (id, player_id, season_id, club_id, "
            "issued_on, history_date, history_user_id, history_change_reason, history_type) "
            "SELECT l.id, l.player_id, l.season_id, l.club_id, l.issued_on, now(), NULL, %s, "
            "'+' FROM federation_licence l JOIN federation_player p ON p.id = l.player_id "
            "JOIN floor_file f USING (licence_number) WHERE l.season_id = %s",
            [reason, season.pk],
        )


def timed(season: Season, content: bytes, name: str) -> tuple[float, object]:
    started = time.perf_counter()
    result = import_licences(season=season, content=content, file_name=name, by=None)
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    season = set_up()
    first_file = licence_csv(args.rows)
    updated_file = licence_csv(args.rows, updated=True)
    print(
        f"{connection.vendor} database {connection.settings_dict['NAME']}, "
        f"{args.rows:,} lines ({len(first_file) / 1e6:.1f} MB), {args.runs} runs"
    )
    timings: dict[str, list[float]] = {
        "first import": [],
        "same file again": [],
        "updated file": [],
    }
    floors: list[float] = []
    ratios: list[float] = []
    postgresql = connection.vendor == "postgresql"
    for run in range(1, args.runs + 1):
        if postgresql:
            clean_up(season)
            started = time.perf_counter()
            floor_first_import(season, first_file, "licences.csv")
            floors.append(time.perf_counter() - started)
            if run == 1:
                snapshot(season, "floor")
        clean_up(season)
        first, created = timed(season, first_file, "licences.csv")
        if postgresql:
            ratios.append(first / floors[-1])
            if run == 1:
                snapshot(season, "import")
                print("floor's rows against the import's (rows that differ):", differences())
        again, same = timed(season, first_file, "licences.csv")
        update, changed = timed(season, updated_file, "licences-updated.csv")
        timings["first import"].append(first)
        timings["same file again"].append(again)
        timings["updated file"].append(update)
        if postgresql:
            print(f"run {run}: floor {floors[-1]:.2f} s (first import: {ratios[-1]:.1f}×)")
        print(
            f"run {run}: first {first:.2f} s ({created.players_created} players created), "
            f"again {again:.2f} s ({same.players_unchanged} unchanged), "
            f"updated {update:.2f} s ({changed.players_updated} players, "
            f"{changed.licences_updated} licences updated)"
        )
    clean_up(season)
    for label, values in timings.items():
        print(f"median {label:<16} {statistics.median(values):6.2f} s")
    if postgresql:
        print(f"median floor            {statistics.median(floors):6.2f} s")
        print(f"median first import / floor, same run: {statistics.median(ratios):.2f}×")


if __name__ == "__main__":
    main()
