"""Reads of tournaments and their results, without N+1."""

from __future__ import annotations

from django.db.models import QuerySet

from competitions.models import Tournament


def tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.select_related(
        "season",
        "organizer_zone",
        "organizer_committee",
        "organizer_club",
        "arbiter",
        "homologated_revision",
    )
