"""The migrations that moved the four settings versions onto ``core.versioned_settings``
keep every row: versions written before them (through the historical models) read the
same after them, the regional rules' ``published_by`` / ``published_at`` included, in the
table and in its history."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("rankings", "0002_national_ranking"), ("competitions", "0002_championships")]
AFTER = [("rankings", "0003_settings_versions"), ("competitions", "0003_settings_versions")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_every_version_survives_the_migrations(registry):
    from competitions.models import Championship, RegionalChampionship

    staff = registry.users["federation_staff"]
    committee = registry.committees[min(registry.committees)]
    championship = Championship.objects.create(season=registry.season, kind="duo")
    regional = RegionalChampionship.objects.create(championship=championship, committee=committee)
    published = dt.datetime(2026, 9, 1, 12, 30, tzinfo=dt.UTC)
    try:
        old = _migrate(BEFORE)
        season = {"season_id": registry.season.pk}
        old.get_model("rankings", "RulebookVersion").objects.create(
            **season, version=1, data={"floor": 50}, note="rulebook", created_by_id=staff.pk
        )
        old.get_model("rankings", "SeriesPolicyVersion").objects.create(
            **season, version=1, data={"entry_step": "4T"}, note="policy", created_by_id=None
        )
        old.get_model("competitions", "ChampionshipRulesVersion").objects.create(
            **season, kind="duo", version=1, data={"kind": "duo"}, note="settings",
            created_by_id=staff.pk,
        )  # fmt: skip
        old_regional = old.get_model("competitions", "RegionalRulesVersion")
        row = old_regional.objects.create(
            regional_id=regional.pk, version=1, data={"stages": []}, note="regional",
            published_by_id=staff.pk,
        )  # fmt: skip
        old_regional.objects.filter(pk=row.pk).update(published_at=published)
        old.get_model("competitions", "HistoricalRegionalRulesVersion").objects.create(
            id=row.pk, regional_id=regional.pk, version=1, data={"stages": []}, note="regional",
            published_by_id=staff.pk, published_at=published, history_date=published,
            history_type="+", history_user_id=staff.pk,
        )  # fmt: skip

        new = _migrate(AFTER)
        rulebook = new.get_model("rankings", "RulebookVersion").objects.get()
        assert (rulebook.version, rulebook.data, rulebook.note, rulebook.created_by_id) == (
            1, {"floor": 50}, "rulebook", staff.pk,
        )  # fmt: skip
        policy = new.get_model("rankings", "SeriesPolicyVersion").objects.get()
        assert (policy.data, policy.note, policy.created_by_id) == (
            {"entry_step": "4T"}, "policy", None,
        )  # fmt: skip
        settings = new.get_model("competitions", "ChampionshipRulesVersion").objects.get()
        assert (settings.kind, settings.data, settings.created_by_id) == (
            "duo", {"kind": "duo"}, staff.pk,
        )  # fmt: skip
        rules = new.get_model("competitions", "RegionalRulesVersion").objects.get()
        assert (rules.regional_id, rules.data, rules.note) == (
            regional.pk, {"stages": []}, "regional",
        )  # fmt: skip
        assert (rules.created_by_id, rules.created_at) == (staff.pk, published)
        history = new.get_model("competitions", "HistoricalRegionalRulesVersion").objects.get()
        assert (history.created_by_id, history.created_at) == (staff.pk, published)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
