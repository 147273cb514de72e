"""Which engine answers a season's ranking: the one place that asks whether the live
ranking lives in the Redis store (``live_store.enabled()``) for readers.

- ``kind="live"``: the season's live ranking: with the store, a
  :class:`~rankings.season.live_reads.LiveRanking` (places and steps derived at read time),
  or while the store cannot answer, a
  :class:`~rankings.season.statement_ranking.StatementRanking` (computed in place by the
  database; a worker rebuilds the store); without the store, the provisional snapshot
  ``SeasonRanking.live``;
- ``kind="official"``: the season's **published** official ranking
  (``SeasonRanking.official``);
- no kind: the official ranking if the season has one, else the live one.

Each is a :class:`~rankings.season.ranking.Ranking`; readers get it from the selectors
(``rankings.reads.selectors.ranking_for_season``) and never ask which engine is behind it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from redis.exceptions import RedisError

from core.tasks import tasks_run_inline
from federation.models import Season
from rankings.models import RankingSnapshot, SeasonRanking
from rankings.season import live_reads, live_store, statement_ranking
from rankings.season.ranking import LIVE, OFFICIAL, Ranking
from rankings.season.snapshot_ranking import SnapshotRanking
from rankings.season.statement_ranking import StatementRanking


def ranking_shown(
    *, season: Season, state: SeasonRanking | None, kind: str | None
) -> Ranking | None:
    """The ranking a reader of ``season`` and ``kind`` sees, from the season's ranking row
    (``state``, its ``live`` and ``official`` snapshots with their policies read)."""
    if state is None:
        return None
    if kind == OFFICIAL or (kind != LIVE and state.official is not None):
        return _stored(season, state.official)
    return live_ranking(season=season, state=state)


def _stored(season: Season, snapshot: RankingSnapshot | None, reflects: int | None = None
            ) -> SnapshotRanking | None:  # fmt: skip
    if snapshot is None:
        return None
    snapshot.season = season  # the season read already: no query for it
    return SnapshotRanking(snapshot, reflects=reflects)


def live_ranking(*, season: Season, state: SeasonRanking) -> Ranking | None:
    """The season's live ranking: the store's, else the provisional snapshot (None when
    none was computed yet). When the store cannot answer (lost, damaged, ahead of the
    database, unreachable: ``live_reads.live_ranking``), the ranking computed in place
    by the database (``statement_ranking.py``) while a worker rebuilds the store."""
    if not live_store.enabled():
        return _stored(season, state.live, state.live_version)
    found = live_reads.live_ranking(season, state)
    if found is None and tasks_run_inline():  # no worker: the rebuild asked ran here
        found = live_reads.live_ranking(season, state)
    if found is not None:
        return found
    if statement_ranking.possible():
        return StatementRanking(season, state.inputs_version)
    try:  # SQLite cannot compute it in place: the store is rebuilt here
        with transaction.atomic():
            live_store.restore(season=season)
    except RedisError:
        return None
    return live_reads.live_ranking(season, state)


@dataclass(frozen=True)
class LiveVersion:
    """The identity of what a reader of a season's live ranking sees (for cache keys and
    ETags)."""

    token: str
    shown: bool  # there is a live ranking to show
    modified: dt.datetime | None  # when it last changed, when known


def live_version(
    *,
    season_id: int,
    inputs_version: int,
    live_version: int,
    live_id: int | None,
    official_id: int | None,
    live_at: dt.datetime | None,
    has_ranking: bool = True,
) -> LiveVersion:
    """The live ranking's version from the season's ranking row already read: with the
    store, the inputs version and the store's version and generation (one round trip to
    the store; it changes without a new snapshot: no modification time); without, the
    provisional snapshot and the season's inputs and live versions. A season without a
    ranking row: ``"none"``, nothing shown."""
    if not has_ranking:
        return LiveVersion("none", False, None if live_store.enabled() else live_at)
    if live_store.enabled():
        try:
            meta = live_store.read_meta(season_id)
            store = f"{meta.version}.{meta.gen}" if meta else "unbuilt"
        except RedisError:  # unreachable: readers get the database's ranking
            store = "unreachable"
        return LiveVersion(f"r{inputs_version}.{store}.o{official_id or 0}", True, None)
    token = f"s{inputs_version}.{live_version}.{live_id or 0}.o{official_id or 0}"
    return LiveVersion(token, live_id is not None, live_at)
