"""Who may act on what: the scope a user's roles give them.

Federation staff cover everything; zone staff their zone's committees and
clubs; committee staff (CCR) their committee's clubs; club managers their
club. A scope is loaded once per request (two queries) and then answers
every "may this user touch that club / committee?" question in memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q

from federation.models import Club, Committee, Role, RoleAssignment, User

Actor: TypeAlias = User | AnonymousUser
"""Who acts: ``request.user`` as Django and DRF give it (an account, or anonymous)."""


@dataclass(frozen=True)
class Scope:
    national: bool = False
    zone_ids: frozenset[int] = field(default_factory=frozenset)
    committee_ids: frozenset[int] = field(default_factory=frozenset)
    club_ids: frozenset[int] = field(default_factory=frozenset)
    player_id: int | None = None

    @property
    def is_staff(self) -> bool:
        """Federation, zone or committee staff (not a club manager)."""
        return self.national or bool(self.zone_ids or self.committee_ids)

    @property
    def manages_anything(self) -> bool:
        return self.is_staff or bool(self.club_ids)

    def covers_committee(self, committee: Committee) -> bool:
        return (
            self.national
            or committee.pk in self.committee_ids
            or committee.zone_id in self.zone_ids
        )

    def covers_club(self, club: Club) -> bool:
        return (
            self.national
            or club.pk in self.club_ids
            or club.committee_id in self.committee_ids
            or club.committee.zone_id in self.zone_ids
        )

    def club_filter(self, prefix: str = "") -> Q:
        """A filter on a club relation (``prefix`` like ``"licences__club__"``)."""
        if self.national:
            return Q()
        return (
            Q(**{f"{prefix}pk__in": self.club_ids})
            | Q(**{f"{prefix}committee_id__in": self.committee_ids})
            | Q(**{f"{prefix}committee__zone_id__in": self.zone_ids})
        )


ANONYMOUS = Scope()


def scope_of(user: Actor | None) -> Scope:
    """The scope of a user's roles, cached on the user object for the request."""
    if user is None or not user.is_authenticated:
        return ANONYMOUS
    cached = getattr(user, "_fft_scope", None)
    if cached is not None:
        return cached
    national = user.is_superuser
    zones: set[int] = set()
    committees: set[int] = set()
    clubs: set[int] = set()
    for role, zone_id, committee_id, club_id in RoleAssignment.objects.filter(
        user=user
    ).values_list("role", "zone_id", "committee_id", "club_id"):
        if role == Role.FEDERATION_STAFF:
            national = True
        elif role == Role.ZONE_STAFF:
            zones.add(zone_id)
        elif role == Role.COMMITTEE_STAFF:
            committees.add(committee_id)
        elif role == Role.CLUB_MANAGER:
            clubs.add(club_id)
    scope = Scope(
        national=national,
        zone_ids=frozenset(zones),
        committee_ids=frozenset(committees),
        club_ids=frozenset(clubs),
        player_id=user.player_id,
    )
    # A per-request cache on the user object, which the model does not declare.
    user._fft_scope = scope  # type: ignore[attr-defined]
    return scope


def sees_private_data(scope: Scope, *, player_id: int, current_club: Club | None) -> bool:
    """May ``scope`` see a player's private data (birth date, e-mail, phone)?

    The player themself, federation staff, and the staff and club managers whose scope
    covers the club of the player's licence for the current season (``current_club``,
    with its committee loaded) — not of a past season: a former club loses sight of a
    player who left it.
    """
    return (
        scope.national
        or (scope.player_id is not None and scope.player_id == player_id)
        or (current_club is not None and scope.covers_club(current_club))
    )
