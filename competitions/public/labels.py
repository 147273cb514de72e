"""The words of the public pages and feeds: a tournament's public status, its organiser."""

from __future__ import annotations

from django.utils.translation import gettext

from competitions.models import Tournament
from competitions.public.selectors import PublicStatus


def status_labels() -> dict[str, str]:
    return {
        PublicStatus.UPCOMING: gettext("upcoming"),
        PublicStatus.AWAITING_RESULTS: gettext("played, results awaited"),
        PublicStatus.HOMOLOGATED: gettext("homologated"),
        PublicStatus.NOT_HOMOLOGATED: gettext("not homologated"),
    }


def organiser_name(tournament: Tournament) -> str:
    if tournament.organizer_club is not None:
        return tournament.organizer_club.name
    if tournament.organizer_committee is not None:
        return gettext("committee %(name)s") % {"name": tournament.organizer_committee.name}
    if tournament.organizer_zone is not None:
        return tournament.organizer_zone.name
    return gettext("French Tarot Federation")
