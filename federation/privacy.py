"""A player's objection to appearing by name in public (GDPR, article 21).

:func:`player_privacy_set` records the choice: the player themselves (their account is
linked to them: ``User.player``), federation staff, and zone or committee staff whose
scope covers the club of the player's licence for the current season (they take the
player's request at the club's desk). Club managers may not (a club is not the
controller of the federation's data). A refusal says only "not allowed", never the
player's choice or any private fact.

What the choice changes is decided in one place, :mod:`federation.public_names`; the
read cache of public reads keys on the latest choice (``rankings/reads/read_versions.py``)
so that no page built before the change is served after it. Staff reads, the ranking
computation and staff exports are unaffected (docs/privacy.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from core.errors import PermissionDenied
from federation.access import Actor, Scope, scope_of, sees_private_data
from federation.models import Club, Licence, Player
from federation.selectors import current_season


def may_set_privacy(scope: Scope, player: Player) -> bool:
    """May ``scope`` record ``player``'s choice? (see the module doc)"""
    if scope.national or (scope.player_id is not None and scope.player_id == player.pk):
        return True
    if not (scope.zone_ids or scope.committee_ids):
        return False
    season = current_season()
    licence = (
        Licence.objects.select_related("club__committee")
        .filter(player=player, season=season)
        .first()
        if season is not None
        else None
    )
    return sees_hidden_player(scope, player.pk, licence.club if licence is not None else None)


def sees_hidden_player(scope: Scope, player_id: int, club: Club | None = None) -> bool:
    """Does ``scope`` read a hidden player's page and record by name? The player, federation
    staff, and zone or committee staff covering ``club`` (the player's club in the season
    read, its committee loaded; None: none known). Not club managers: the public pages'
    rule applies to them."""
    if scope.national or (scope.player_id is not None and scope.player_id == player_id):
        return True
    return club is not None and (
        club.committee_id in scope.committee_ids or club.committee.zone_id in scope.zone_ids
    )


def sees_hidden_record(scope: Scope, *, player_id: int, current_club: Club | None) -> bool:
    """Does ``scope`` read a hidden player's registry record by name (the player API, the
    licensees list)? Those who see their private data: the player, federation staff, and
    the staff and club managers whose scope covers the club of the player's licence for
    the current season (``current_club``, its committee loaded). Anyone else, a club
    manager or staff of another club, committee or zone included, reads the public's
    answer: no such player."""
    return sees_private_data(scope, player_id=player_id, current_club=current_club)


def hidden_records_withheld(scope: Scope, player_ids: Iterable[int]) -> list[Player]:
    """The hidden players among ``player_ids`` whose record ``scope`` does not read by
    name (:func:`sees_hidden_record`), in two queries whatever their number: what a
    message to that reader names by their public name
    (:func:`federation.public_names.public_name`), never by the registry's."""
    if scope.national:
        return []
    hidden = list(Player.objects.filter(pk__in=set(player_ids), name_hidden=True))
    if not hidden:
        return []
    season = current_season()
    clubs: dict[int, Club] = {}
    if season is not None:
        clubs = {
            licence.player_id: licence.club
            for licence in Licence.objects.filter(player__in=hidden, season=season).select_related(
                "club__committee"
            )
        }
    return [
        player
        for player in hidden
        if not sees_hidden_record(scope, player_id=player.pk, current_club=clubs.get(player.pk))
    ]


def licences_shown(licences: QuerySet[Licence], scope: Scope) -> QuerySet[Licence]:
    """``licences`` without those of hidden players whose record ``scope`` does not read
    by name (:func:`sees_hidden_record`, as one filter)."""
    if scope.national:
        return licences
    shown = Q(player__name_hidden=False)
    if scope.player_id is not None:
        shown |= Q(player_id=scope.player_id)
    season = current_season()
    if scope.manages_anything and season is not None:
        in_scope = Licence.objects.filter(player=OuterRef("player"), season=season).filter(
            scope.club_filter("club__")
        )
        shown |= Q(Exists(in_scope))
    return licences.filter(shown)


@transaction.atomic
def player_privacy_set(*, player: Player, hidden: bool, by: Actor) -> Player:
    """Record whether ``player`` appears by name in public (``hidden``: not); who and when
    go on the player's row and into its history. Setting the choice already in force
    changes nothing (and records nothing)."""
    if not may_set_privacy(scope_of(by), player):
        raise PermissionDenied(
            "You may not change this player's privacy choice.", code="privacy_not_allowed"
        )
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.name_hidden == hidden:
        return locked
    locked.name_hidden = hidden
    locked.name_hidden_changed_at = timezone.now()
    locked.name_hidden_changed_by = by if by.is_authenticated else None
    locked._history_user = by  # type: ignore[attr-defined]
    locked._change_reason = "name hidden" if hidden else "name shown"  # type: ignore[attr-defined]
    locked.save(update_fields=["name_hidden", "name_hidden_changed_at", "name_hidden_changed_by"])
    return locked
