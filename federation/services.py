"""Writes to the registry. Each service is one transaction."""

from __future__ import annotations

from django.db import transaction

from federation.models import Club, ClubAffiliation, Season


@transaction.atomic
def club_affiliations_sync(*, season: Season) -> int:
    """Record the affiliation for ``season`` of every club that has licensees in it.

    A licence is taken through an affiliated club, so a club with licensees in
    a season is affiliated for it. Idempotent; returns how many were added.
    """
    missing = (
        Club.objects.filter(licences__season=season)
        .exclude(affiliations__season=season)
        .distinct()
        .values_list("pk", flat=True)
    )
    created = ClubAffiliation.objects.bulk_create(
        [ClubAffiliation(club_id=pk, season=season) for pk in missing], ignore_conflicts=True
    )
    return len(created)
