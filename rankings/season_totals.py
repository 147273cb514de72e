"""Each player's season PCN and PP, rebuilt from their current allocations.

Kept as the entry point the homologation code knew: the totals are now written
together with the season standings by ``rankings.standings.standings_write``
(one transaction, the same SQL for the incremental update and the full
recompute). A refresh recomputes from scratch (never adds), so it is
idempotent and safe to retry or to run twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from federation.models import Season
from rankings.standings import standings_write


def season_totals_refresh(*, season: Season, player_ids: Iterable[int]) -> int:
    """Rebuild the season totals (and standings) of ``player_ids``; returns how many
    totals were written."""
    return standings_write(season=season, player_ids=player_ids).totals_written
