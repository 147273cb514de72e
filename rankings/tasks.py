"""Background jobs of the rankings: thin, take ids, call a service, idempotent."""

from celery import shared_task

from federation.models import Season
from rankings.season_totals import season_totals_refresh


@shared_task(name="rankings.refresh_season_totals", acks_late=True, max_retries=5)
def refresh_season_totals(season_id: int, player_ids: list[int]) -> int:
    return season_totals_refresh(season=Season.objects.get(pk=season_id), player_ids=player_ids)
