"""Which engine answers a season's ranking: the one place that asks whether the live
ranking lives in the Redis store (``live_store.enabled()``) for readers.

- ``kind="live"``: the season's live ranking: with the store, a
  :class:`~rankings.season.live_reads.LiveRanking` (places and steps derived at read time);
  without, the provisional snapshot ``SeasonRanking.live``;
- ``kind="official"``: the season's **published** official ranking
  (``SeasonRanking.official``);
- no kind: the official ranking if the season has one, else the live one.

Each is a :class:`~rankings.season.ranking.Ranking`; readers get it from the selectors
(``rankings.reads.selectors.ranking_for_season``) and never ask which engine is behind it.

The store unreachable (``redis.RedisError``: a stopped Redis, a closed port) is caught
here, where reads enter it (:func:`live_ranking`, :func:`live_version`): readers get the
database's ranking instead — the provisional snapshot if the season has one, else its
published official ranking (its ``kind`` says so), else none — under a version of its
own (``…down…``: never stored under the store's), and the outage is logged.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from redis import RedisError

from federation.models import Season
from rankings.models import RankingSnapshot, SeasonRanking
from rankings.season import live_reads, live_store
from rankings.season.ranking import LIVE, OFFICIAL, Ranking
from rankings.season.snapshot_ranking import SnapshotRanking

log = logging.getLogger(__name__)


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
    none was computed yet); the store unreachable: the database's (module doc)."""
    if live_store.enabled():
        try:
            return live_reads.live_ranking(season, state)
        except RedisError:
            log.warning("live store unreachable: season %s read from the database", season.pk,
                        exc_info=True)  # fmt: skip
            return _stored(season, state.live, state.live_version) or _stored(
                season, state.official
            )
    return _stored(season, state.live, state.live_version)


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
        except RedisError:  # the database's ranking is shown (live_ranking)
            log.warning("live store unreachable: season %s's version", season_id, exc_info=True)
            token = f"r{inputs_version}.down.{live_id or 0}.{live_version}.o{official_id or 0}"
            return LiveVersion(token, live_id is not None or official_id is not None, live_at)
        store = f"{meta.version}.{meta.gen}" if meta else "unbuilt"
        return LiveVersion(f"r{inputs_version}.{store}.o{official_id or 0}", True, None)
    token = f"s{inputs_version}.{live_version}.{live_id or 0}.o{official_id or 0}"
    return LiveVersion(token, live_id is not None, live_at)
