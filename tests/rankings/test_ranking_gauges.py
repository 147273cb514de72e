"""The ranking's gauges on GET /metrics (rankings/gauges.py): the live ranking's lag
behind the database, in the Redis store or as a provisional snapshot, and the official
rankings' publications."""

from __future__ import annotations

import time

import pytest

from rankings import tasks
from rankings.models import SeasonRanking
from rankings.season.ranking_state import inputs_changed
from rankings.season.recompute import full_recompute
from tests.core.test_metrics import metrics_token, scrape, value  # noqa: F401 (a fixture)
from tests.rankings.season.test_standings_replay import publish_previous

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("metrics_token")]


def test_the_live_stores_lag_behind_the_database(client, live_store_redis, federation):
    season = federation.registry.season
    full_recompute(season=season)  # the store is built at the season's inputs version
    samples = scrape(client)
    labels = {"season": season.name, "engine": "store"}
    assert value(samples, "fft_live_ranking_lag_versions", **labels) == 0
    updated = value(samples, "fft_live_ranking_updated_timestamp_seconds", **labels)
    assert updated is not None
    assert updated <= time.time()
    inputs_changed(season_id=season.pk)  # a change the store has not seen yet
    inputs_changed(season_id=season.pk)
    assert value(scrape(client), "fft_live_ranking_lag_versions", **labels) == 2
    tasks.refresh_live_ranking(season.pk)  # the store catches up
    assert value(scrape(client), "fft_live_ranking_lag_versions", **labels) == 0


def test_without_the_store_the_provisional_snapshots_lag(client, registry):
    labels = {"season": registry.season.name, "engine": "snapshot"}
    assert value(scrape(client), "fft_live_ranking_lag_versions", **labels) == 0
    SeasonRanking.objects.create(season=registry.season, inputs_version=7, live_version=4)
    samples = scrape(client)
    assert value(samples, "fft_live_ranking_lag_versions", **labels) == 3
    assert value(samples, "fft_live_ranking_updated_timestamp_seconds", **labels) is None
    assert value(samples, "fft_metrics_source_up", source="live_ranking") == 1


def test_the_official_publications(client, federation, add_tournament):
    previous = federation.registry.previous  # ended on 30 June 2026, not published yet
    samples = scrape(client)
    assert value(samples, "fft_official_ranking_overdue_seconds") > 0
    assert (
        value(samples, "fft_official_ranking_published_timestamp_seconds", season=previous.name)
        is None
    )
    snapshot = publish_previous(federation, add_tournament)
    samples = scrape(client)
    assert value(samples, "fft_official_ranking_overdue_seconds") == 0
    assert value(
        samples, "fft_official_ranking_published_timestamp_seconds", season=previous.name
    ) == pytest.approx(snapshot.computed_at.timestamp())
