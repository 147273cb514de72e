"""Each player's season PCN and PP, rebuilt from their current allocations.

A refresh recomputes the totals of the given players from scratch (never
adds to them), so it is idempotent and safe to retry or to run twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Count, Sum

from federation.models import Season
from rankings.models import Allocation, PlayerSeasonTotal


@transaction.atomic
def season_totals_refresh(*, season: Season, player_ids: Iterable[int]) -> int:
    """Rebuild the season totals of ``player_ids``; returns how many were written."""
    ids = sorted(set(player_ids))
    if not ids:
        return 0
    sums = {
        row["player_id"]: row
        for row in Allocation.objects.filter(season=season, current=True, player_id__in=ids)
        .values("player_id")
        .annotate(pcn=Sum("pcn"), pp=Sum("pp"), tournaments=Count("id"))
    }
    PlayerSeasonTotal.objects.filter(season=season, player_id__in=ids).exclude(
        player_id__in=sums.keys()
    ).delete()
    PlayerSeasonTotal.objects.bulk_create(
        [
            PlayerSeasonTotal(
                season=season,
                player_id=player_id,
                pcn=row["pcn"],
                pp=row["pp"],
                tournaments=row["tournaments"],
            )
            for player_id, row in sums.items()
        ],
        update_conflicts=True,
        unique_fields=["season", "player"],
        update_fields=["pcn", "pp", "tournaments", "updated_at"],
    )
    return len(sums)
