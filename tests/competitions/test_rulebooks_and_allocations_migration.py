"""The rulebook versions and the allocations moved from rankings to competitions in
Django's state only: rows written before the move (through the old historical models)
read the same after it, through the same tables, and their content types (so the
permissions granted on them) follow them."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("rankings", "0007_season_totals_unchecked"),
          ("competitions", "0009_tournament_homologated_at")]  # fmt: skip
AFTER = [("rankings", "0008_rulebooks_and_allocations_to_competitions"),
         ("competitions", "0010_rulebooks_and_allocations")]  # fmt: skip


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_rows_and_content_types_survive_the_move(registry):
    from competitions.models import Allocation, RulebookVersion, Tournament

    staff = registry.users["federation_staff"]
    player = registry.players[min(registry.players)]
    tournament = Tournament.objects.create(
        season=registry.season, name="Tournoi", date=registry.season.start_date,
        venue="Salle", format="individual", organizer_kind="club",
        organizer_club=registry.clubs[101], arbiter=player,
    )  # fmt: skip
    try:
        old = _migrate(BEFORE)
        content_types = old.get_model("contenttypes", "ContentType").objects
        old_type = content_types.get_or_create(app_label="rankings", model="allocation")[0]
        content_types.filter(app_label="competitions", model="allocation").delete()
        revision = old.get_model("competitions", "ResultRevision").objects.create(
            tournament_id=tournament.pk, number=1, document={}, sha256="0" * 64, source="json"
        )
        rulebook = old.get_model("rankings", "RulebookVersion").objects.create(
            season_id=registry.season.pk, version=1, data={"floor": 50}, note="before",
            created_by_id=staff.pk,
        )  # fmt: skip
        allocation = old.get_model("rankings", "Allocation").objects.create(
            season_id=registry.season.pk, tournament_id=tournament.pk, revision_id=revision.pk,
            rulebook_id=rulebook.pk, player_id=player.pk, place=1, pcn=120, pp=3,
        )  # fmt: skip

        new = _migrate(AFTER)
        moved = new.get_model("competitions", "Allocation").objects.get()
        assert (moved.pk, moved.rulebook_id, moved.tournament_id, moved.revision_id) == (
            allocation.pk, rulebook.pk, tournament.pk, revision.pk,
        )  # fmt: skip
        assert (moved.player_id, moved.place, moved.pcn, moved.pp, moved.current) == (
            player.pk, 1, 120, 3, True,
        )  # fmt: skip
        version = new.get_model("competitions", "RulebookVersion").objects.get()
        assert (version.pk, version.version, version.data, version.note) == (
            rulebook.pk, 1, {"floor": 50}, "before",
        )  # fmt: skip
        assert Allocation.objects.get().rulebook == RulebookVersion.objects.get()
        ContentType.objects.clear_cache()
        assert ContentType.objects.get_for_model(Allocation).pk == old_type.pk
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        ContentType.objects.clear_cache()
