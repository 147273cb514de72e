"""Reads of the registry, shaped for the API and the admin (no N+1)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from federation.models import Licence, Player, Season


def season_for_date(day: dt.date) -> Season | None:
    """The season containing ``day``, if the federation has declared it."""
    return Season.objects.filter(start_date__lte=day, end_date__gte=day).first()


def current_season(today: dt.date | None = None) -> Season | None:
    """The season containing today (in the federation's time zone), else the latest declared one."""
    today = today or timezone.localdate()
    return season_for_date(today) or Season.objects.order_by("-start_date").first()


def licences_for_season(season: Season) -> QuerySet[Licence]:
    return (
        Licence.objects.filter(season=season)
        .select_related("player", "club__committee__zone", "season")
        .order_by("player__last_name", "player__first_name", "player__licence_number")
    )


def search_licences(qs: QuerySet[Licence], text: str) -> QuerySet[Licence]:
    """Search by licence number (digits) or by last/first name (words)."""
    text = text.strip()
    if not text:
        return qs
    if text.isdigit():
        return qs.filter(player__licence_number=int(text))
    for word in text.split():
        qs = qs.filter(Q(player__last_name__icontains=word) | Q(player__first_name__icontains=word))
    return qs


def player_with_licences(licence_number: int) -> Player | None:
    return (
        Player.objects.filter(licence_number=licence_number)
        .prefetch_related(
            Prefetch(
                "licences",
                queryset=Licence.objects.select_related("season", "club__committee").order_by(
                    "-season__start_date"
                ),
            )
        )
        .first()
    )
