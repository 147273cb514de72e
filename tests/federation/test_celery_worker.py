"""A real Celery worker, through Redis, writing to the test database."""

import pytest

from federation.models import ClubAffiliation
from federation.tasks import sync_club_affiliations


@pytest.mark.django_db(transaction=True)
def test_worker_records_club_affiliations(registry, celery_worker_process, wait_for):
    season = registry.previous  # the fixture records no affiliation for it
    assert not ClubAffiliation.objects.filter(season=season).exists()
    result = sync_club_affiliations.delay(season.pk)
    affiliated = wait_for(
        lambda: set(
            ClubAffiliation.objects.filter(season=season).values_list("club__number", flat=True)
        )
    )
    assert affiliated == {101, 102, 201}
    assert result.id  # it went through the broker, not eagerly
    # Idempotent: running it again adds nothing.
    sync_club_affiliations.delay(season.pk)
    assert wait_for(lambda: ClubAffiliation.objects.filter(season=season).count() == 3)
