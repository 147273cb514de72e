"""The benchmarks' database: created if absent, migrated, holding the synthetic season of
``manage.py generate_ranking_season``, and the tournaments they homologate into it.

Imported by the scripts after ``django.setup()``.
"""

from __future__ import annotations

import sys

from django.core.management import call_command
from django.db import connection, transaction

from competitions.models import Allocation, ResultRevision, Tournament
from competitions.rulebooks import rulebook_in_force
from demo.management.commands.generate_ranking_season import season_names
from federation.models import Season

YEAR = 2090
ALLOCATIONS_PER_PLAYER = 40 / 3  # 2,000,000 for 150,000 players, as the default season


def create_database_if_absent() -> None:
    """The database of ``DATABASE_URL`` (PostgreSQL only), created if absent, migrated."""
    if connection.vendor != "postgresql":
        sys.exit("Run this benchmark on PostgreSQL (DATABASE_URL=postgres://…).")
    name = connection.settings_dict["NAME"]
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)


def synthetic_season(
    *, players: int = 150_000, year: int = YEAR, allocations: int | None = None
) -> Season:
    """The benchmark season of ``players`` licensees (generated if absent, with 13⅓
    allocations a player unless ``allocations`` is given), in a database of its own."""
    create_database_if_absent()
    if allocations is None:
        allocations = int(players * ALLOCATIONS_PER_PLAYER)
    call_command("generate_ranking_season", year=year, players=players, allocations=allocations)
    return Season.objects.get(name=season_names(year)[1])


def generated_season_with_standings() -> Season:
    """The synthetic season already generated in this database (PostgreSQL only), its
    standings written first if it has none."""
    from rankings.models import SeasonStanding
    from rankings.standings import standings_write

    if connection.vendor != "postgresql":
        sys.exit("Run this benchmark on PostgreSQL (DATABASE_URL=postgres://…).")
    season = Season.objects.filter(name=season_names(YEAR)[1]).first()
    if season is None:
        sys.exit("No synthetic season here: run manage.py generate_ranking_season first.")
    if not SeasonStanding.objects.filter(season=season).exists():
        standings_write(season=season, player_ids=None)
    return season


def tournament_write(season: Season, players: list[int], *, name: str, first_pcn: int) -> None:
    """A homologated individual tournament of ``players`` (in their order of places), as
    homologation stores it (allocations of ``first_pcn`` − 10 per place, at least 50),
    in the caller's transaction; the ranking's update is the caller's to send."""
    version, _rulebook = rulebook_in_force(season=season)
    tournament = Tournament.objects.create(
        season=season, name=name, date=season.start_date, venue="Salle",
        format="individual", organizer_kind="federation", arbiter_id=players[0],
    )  # fmt: skip
    revision = ResultRevision.objects.create(
        tournament=tournament, number=1, document={}, sha256="0" * 64, source="json"
    )
    Allocation.objects.bulk_create(
        Allocation(season=season, tournament=tournament, revision=revision, rulebook=version,
                   player_id=pk, place=place, pcn=max(50, first_pcn - 10 * place), pp=0)
        for place, pk in enumerate(players, 1)
    )  # fmt: skip


def tournaments_remove(season: Season, name_prefix: str) -> list[int]:
    """Delete the season's tournaments written by :func:`tournament_write` under names
    starting with ``name_prefix``, with their allocations and history (raw deletes: no
    cascade collector), in one transaction; the players they allocated to (for the
    caller to update their standings)."""
    tournaments = list(
        Tournament.objects.filter(season=season, name__startswith=name_prefix).values_list(
            "pk", flat=True
        )
    )
    if not tournaments:
        return []
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {Allocation._meta.db_table} WHERE tournament_id = ANY(%s) "
            "RETURNING player_id",
            [tournaments],
        )
        players = sorted({row[0] for row in cursor.fetchall()})
        cursor.execute(
            f"UPDATE {Tournament._meta.db_table} SET homologated_revision_id = NULL "
            "WHERE id = ANY(%s)",
            [tournaments],
        )
        cursor.execute(
            f"DELETE FROM {ResultRevision._meta.db_table} WHERE tournament_id = ANY(%s)",
            [tournaments],
        )
        cursor.execute(
            f"DELETE FROM {Tournament.history.model._meta.db_table} "
            "WHERE season_id = %s AND name LIKE %s",
            [season.pk, name_prefix.replace("%", r"\%") + "%"],
        )
        cursor.execute(f"DELETE FROM {Tournament._meta.db_table} WHERE id = ANY(%s)", [tournaments])
    return players
