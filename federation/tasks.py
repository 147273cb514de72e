"""Background jobs of the registry: thin, take ids, call a service."""

from celery import shared_task

from federation.models import Season
from federation.services import club_affiliations_sync


@shared_task(name="federation.sync_club_affiliations", acks_late=True)
def sync_club_affiliations(season_id: int) -> int:
    return club_affiliations_sync(season=Season.objects.get(pk=season_id))
