"""Reads of the club space: the tournaments a person's roles cover, filtered and without
N+1, and the story of one tournament (its states, who acted, why).

Scoping is done in the query: a club manager sees the tournaments of their club(s),
committee staff those of their committee and its clubs, zone staff those of their zone
and below, federation staff every tournament (the same reach as
:func:`competitions.tournaments.access.covers_organizer`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet

from competitions.models import OrganizerKind, ResultRevision, Tournament, TournamentStatus
from competitions.tournaments import selectors
from federation.access import Scope
from federation.models import Club, Season, User


def covered_by(scope: Scope) -> Q:
    """The tournaments whose organiser ``scope`` covers, as a filter."""
    if scope.national:
        return Q()
    return (
        (Q(organizer_kind=OrganizerKind.CLUB) & scope.club_filter("organizer_club__"))
        | Q(
            organizer_kind=OrganizerKind.COMMITTEE,
            organizer_committee_id__in=scope.committee_ids,
        )
        | Q(
            organizer_kind=OrganizerKind.COMMITTEE,
            organizer_committee__zone_id__in=scope.zone_ids,
        )
        | Q(organizer_kind=OrganizerKind.ZONE, organizer_zone_id__in=scope.zone_ids)
    )


def clubs_covered_by(scope: Scope) -> QuerySet[Club]:
    return Club.objects.filter(scope.club_filter()).order_by("number")


@dataclass(frozen=True)
class TournamentFilters:
    """What "Mes tournois" may be narrowed to (each ``None``: no narrowing)."""

    season: Season | None = None
    club: Club | None = None
    status: str | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    format: str | None = None


def tournaments_covered(scope: Scope, filters: TournamentFilters) -> QuerySet[Tournament]:
    """Every tournament of ``scope``, newest first, narrowed by ``filters`` (one query)."""
    found = selectors.tournaments().filter(covered_by(scope))
    narrowing = {
        "season": filters.season,
        "organizer_club": filters.club,
        "status": filters.status,
        "date__gte": filters.date_from,
        "date__lte": filters.date_to,
        "format": filters.format,
    }
    found = found.filter(**{key: value for key, value in narrowing.items() if value})
    return found.order_by("-date", "name", "pk")


WAITING_SHOWN = 20
"""Tournaments waiting for the organiser shown at the top of « Mes tournois »."""


def tournaments_waiting(scope: Scope, today: dt.date) -> list[Tournament]:
    """What waits for the organiser, oldest first: a tournament played (before ``today``)
    and still only declared (its results to send), or whose results were refused (to
    correct and send again). One query, at most :data:`WAITING_SHOWN`."""
    waiting = Q(status=TournamentStatus.DECLARED, date__lt=today) | Q(
        status=TournamentStatus.REFUSED
    )
    found = selectors.tournaments().filter(covered_by(scope)).filter(waiting)
    return list(found.order_by("date", "pk")[:WAITING_SHOWN])


@dataclass(frozen=True)
class Event:
    """One step of a tournament's story."""

    at: dt.datetime
    status: str
    """The state the tournament reached: a :class:`TournamentStatus` value, or
    ``"corrected"`` for a correction of a homologated tournament."""
    by: str
    """Who acted (a person's name, or their user name)."""
    reasons: list[str] = field(default_factory=list)
    """Why: the refusal's reasons, or the correction's reason."""
    revision: int | None = None


CORRECTED = "corrected"


def person(user: User | None) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def tournament_story(tournament: Tournament) -> list[Event]:
    """The states the tournament went through, oldest first, with who acted and why
    (two queries: its history and its revisions)."""
    revisions = {
        revision.pk: revision
        for revision in ResultRevision.objects.filter(tournament=tournament).select_related(
            "submitted_by"
        )
    }
    records = tournament.history.select_related("history_user").order_by(
        "history_date", "history_id"
    )
    events: list[Event] = []
    previous = None
    for record in records:
        by = person(record.history_user)
        if previous is None or record.status != previous.status:
            refused = record.status == TournamentStatus.REFUSED
            reasons = list(record.refusal_reasons) if refused else []
            revision = revisions.get(record.homologated_revision_id)
            events.append(
                Event(
                    at=record.history_date,
                    status=record.status,
                    by=by,
                    reasons=reasons,
                    revision=revision.number if revision else None,
                )
            )
        elif (
            record.status == TournamentStatus.HOMOLOGATED
            and record.homologated_revision_id != previous.homologated_revision_id
        ):
            revision = revisions.get(record.homologated_revision_id)
            events.append(
                Event(
                    at=record.history_date,
                    status=CORRECTED,
                    by=person(revision.submitted_by) if revision else by,
                    reasons=[revision.reason] if revision and revision.reason else [],
                    revision=revision.number if revision else None,
                )
            )
        previous = record
    return events


def tournament_revisions(tournament: Tournament) -> QuerySet[ResultRevision]:
    """The results received, newest first, with who sent them."""
    return (
        ResultRevision.objects.filter(tournament=tournament)
        .select_related("submitted_by")
        .order_by("-number")
    )
