"""The per-season state of the national ranking: published pointers and inputs version.

Every change to what a season's ranking depends on (standings, series policy,
manual placements) calls :func:`inputs_changed` inside its transaction; the
live-ranking refresh compares ``inputs_version`` with the version its last
snapshot was computed from (``live_version``).
"""

from __future__ import annotations

from django.db.models import F

from core.tasks import send_on_commit
from rankings.models import SeasonRanking


def season_ranking(season_id: int) -> SeasonRanking:
    """The season's ranking state row, created if absent."""
    row = SeasonRanking.objects.filter(season_id=season_id).first()
    if row is None:
        row, _created = SeasonRanking.objects.get_or_create(season_id=season_id)
    return row


def inputs_changed(*, season_id: int) -> None:
    """Record that the season's ranking inputs changed (in the caller's transaction)."""
    season_ranking(season_id)
    SeasonRanking.objects.filter(season_id=season_id).update(inputs_version=F("inputs_version") + 1)


def live_refresh_on_commit(season_id: int) -> None:
    """Ask for a live-ranking refresh once the caller's transaction has committed."""
    send_on_commit("rankings.refresh_live_ranking", season_id)
