"""The ranking's gauges, read at scrape time (docs/observability.md).

- the live ranking's lag behind the database, for the current season: the season's
  ``SeasonRanking.inputs_version`` (bumped in every transaction that changes what the
  ranking depends on) minus the version the live ranking reflects (the Redis store's
  ``meta`` ``version``, ``rankings/season/live_store.py``; without the store, the
  provisional snapshot's ``live_version``), and when that last caught up;
- the official rankings' publication times, per season, and how long ago the last
  ended season ended without a published official ranking.

Each source reads a few rows of small tables (seasons, one ranking row per season, the
snapshots they point to) and one ``HGETALL`` of the store's ``meta`` hash.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from django.utils import timezone
from prometheus_client.core import Metric

from core.observability.metrics import gauge
from federation.models import Season
from federation.selectors import current_season
from rankings.models import SeasonRanking
from rankings.season import live_store


def live_ranking_lag() -> Iterator[Metric]:
    season = current_season()
    if season is None:
        return
    state = SeasonRanking.objects.filter(season=season).select_related("live").first()
    inputs = state.inputs_version if state is not None else 0
    updated: dt.datetime | None
    if live_store.enabled():
        engine = "store"
        meta = live_store.read_meta(season.pk)
        reflected, updated = (meta.version, meta.updated) if meta else (0, None)
    else:
        engine = "snapshot"
        reflected = state.live_version if state is not None else 0
        updated = state.live.computed_at if state is not None and state.live else None
    lag = gauge(
        "fft_live_ranking_lag_versions",
        "Changes to the current season's ranking inputs the live ranking does not reflect "
        "yet (database inputs version minus the live ranking's version).",
        ["season", "engine"],
    )
    lag.add_metric([season.name, engine], inputs - reflected)
    yield lag
    if updated is not None:
        caught_up = gauge(
            "fft_live_ranking_updated_timestamp_seconds",
            "When the current season's live ranking was last written (Unix time).",
            ["season", "engine"],
        )
        caught_up.add_metric([season.name, engine], updated.timestamp())
        yield caught_up


def official_publications() -> Iterator[Metric]:
    published = gauge(
        "fft_official_ranking_published_timestamp_seconds",
        "When each season's published official ranking was computed (Unix time).",
        ["season"],
    )
    rows = SeasonRanking.objects.filter(official__isnull=False).values_list(
        "season__name", "official__computed_at"
    )
    for season_name, computed_at in rows:
        published.add_metric([season_name], computed_at.timestamp())
    yield published
    today = timezone.localdate()
    ended = Season.objects.filter(end_date__lt=today).order_by("-end_date").first()
    overdue = 0.0
    if (
        ended is not None
        and not SeasonRanking.objects.filter(season=ended, official__isnull=False).exists()
    ):
        end = dt.datetime.combine(ended.end_date + dt.timedelta(days=1), dt.time.min)
        overdue = (timezone.now() - timezone.make_aware(end)).total_seconds()
    late = gauge(
        "fft_official_ranking_overdue_seconds",
        "Seconds since the end of the last ended season when it has no published official "
        "ranking yet (0 when it has one).",
    )
    late.add_metric([], max(0.0, overdue))
    yield late
