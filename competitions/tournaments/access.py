"""Who may declare, submit, homologate and correct a tournament.

- The organiser's own managers, and the staff above them, may declare a
  tournament and submit its results (a club's managers for the club; committee
  staff for their committee and its clubs; zone staff for their zone and below;
  federation staff for everything).
- Homologation, refusal and corrections are staff work: the staff above the
  organiser (never a club manager).
- Championship stages are declared by staff only: regional stages by the
  committee's staff (or above), national stages by federation staff.
"""

from __future__ import annotations

from competitions.models import OrganizerKind, Stage, Tournament
from federation.access import Scope
from federation.models import Club, Committee, Zone

NATIONAL_STAGES = {Stage.NATIONAL_QUALIFIER, Stage.NATIONAL_FINAL}


def covers_organizer(
    scope: Scope, kind: str, zone: Zone | None, committee: Committee | None, club: Club | None
) -> bool:
    if kind == OrganizerKind.CLUB:
        return club is not None and scope.covers_club(club)
    if kind == OrganizerKind.COMMITTEE:
        return committee is not None and scope.covers_committee(committee)
    if kind == OrganizerKind.ZONE:
        return zone is not None and (scope.national or zone.pk in scope.zone_ids)
    return scope.national


def may_declare(scope: Scope, *, kind, zone, committee, club, stage: str) -> bool:
    if not covers_organizer(scope, kind, zone, committee, club):
        return False
    if stage == Stage.ORDINARY:
        return True
    if stage in NATIONAL_STAGES:
        return scope.national
    return scope.is_staff


def may_manage(scope: Scope, tournament: Tournament) -> bool:
    """Submit results, edit the declaration: the organiser's managers and staff above."""
    return covers_organizer(
        scope,
        tournament.organizer_kind,
        tournament.organizer_zone,
        tournament.organizer_committee,
        tournament.organizer_club,
    ) and (tournament.stage == Stage.ORDINARY or scope.is_staff)


def may_homologate(scope: Scope, tournament: Tournament) -> bool:
    """Homologate, refuse or correct: staff covering the organiser."""
    return scope.is_staff and covers_organizer(
        scope,
        tournament.organizer_kind,
        tournament.organizer_zone,
        tournament.organizer_committee,
        tournament.organizer_club,
    )
