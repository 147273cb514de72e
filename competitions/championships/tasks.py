"""Background jobs of the championships: thin, take ids, call a service, idempotent.

``recheck_interclubs_teams`` is sent by ``rankings.season.official_ranking`` once an official
national ranking is published, for the season that follows the ranking's (its players'
series are that ranking's): every interclubs team entered in a stage of that season not yet
played is checked against its players' current series and flagged when its composition is
no longer allowed.
"""

from celery import shared_task

from competitions.championships.interclubs import interclubs_teams_recheck
from federation.models import Season


@shared_task(name="competitions.recheck_interclubs_teams", acks_late=True, max_retries=5)
def recheck_interclubs_teams(season_id: int) -> dict:
    result = interclubs_teams_recheck(season=Season.objects.get(pk=season_id))
    return {
        "checked": result.checked,
        "flagged": [e.pk for e in result.flagged],
        "resolved": [e.pk for e in result.resolved],
    }
