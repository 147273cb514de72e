"""Reads of the registry, shaped for the API and the admin (no N+1)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from core.digits import ascii_digits
from federation.access import Scope, sees_private_data
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
    if ascii_digits(text):
        return qs.filter(player__licence_number=int(text))
    for word in text.split():
        qs = qs.filter(Q(player__last_name__icontains=word) | Q(player__first_name__icontains=word))
    return qs


def merge_target(licence_number: int) -> int | None:
    """The licence number an old link of a merged record leads to (None: not merged;
    portal/merging.py)."""
    return (
        Player.objects.filter(licence_number=licence_number, merged_into__isnull=False)
        .values_list("merged_into__licence_number", flat=True)
        .first()
    )


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


def current_licence(player: Player) -> Licence | None:
    """The player's licence for the current season, from ``player_with_licences``."""
    season = current_season()
    if season is None:
        return None
    return next((lic for lic in player.licences.all() if lic.season_id == season.pk), None)


def private_data_visible(scope: Scope, licence_numbers: Iterable[int]) -> set[int]:
    """The licence numbers among ``licence_numbers`` whose private data ``scope`` may see
    (:func:`federation.access.sees_private_data`); two queries at most."""
    numbers = set(licence_numbers)
    if scope.national:
        return numbers
    visible: set[int] = set()
    if scope.player_id is not None:
        visible |= set(
            Player.objects.filter(pk=scope.player_id, licence_number__in=numbers).values_list(
                "licence_number", flat=True
            )
        )
    season = current_season()
    if season is not None and scope.manages_anything:
        for licence in Licence.objects.filter(
            season=season, player__licence_number__in=numbers
        ).select_related("player", "club__committee"):
            if sees_private_data(scope, player_id=licence.player_id, current_club=licence.club):
                visible.add(licence.player.licence_number)
    return visible
