"""E-mails to a tournament's organiser when staff decide on it: homologated, refused
(with the reasons) or corrected (who, why).

The homologation services ask for it after their commit (``core.tasks.send_on_commit``,
task ``competitions.email_tournament_decision``); the task calls
:func:`tournament_decision_send`. Recipients: the e-mail addresses of the users holding
the organiser's role — the club's managers for a club's tournament, the committee's or
the zone's staff for theirs, federation staff for the FFT's; users without an address
are skipped. One message per recipient (nobody sees the others' addresses), in the
site's language (French), with a link to the tournament's page in the club space.
"""

from __future__ import annotations

from enum import StrEnum

from django.conf import settings
from django.core.mail import get_connection
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from competitions.models import OrganizerKind, Tournament
from federation.models import Role, User
from federation.notification_choices import site_email


class Decision(StrEnum):
    HOMOLOGATED = "homologated"
    REFUSED = "refused"
    CORRECTED = "corrected"


def organiser_addresses(tournament: Tournament) -> list[str]:
    """The e-mail addresses of the people who hold the organiser's role."""
    holds = {
        OrganizerKind.CLUB: Q(
            roles__role=Role.CLUB_MANAGER, roles__club_id=tournament.organizer_club_id
        ),
        OrganizerKind.COMMITTEE: Q(
            roles__role=Role.COMMITTEE_STAFF, roles__committee_id=tournament.organizer_committee_id
        ),
        OrganizerKind.ZONE: Q(
            roles__role=Role.ZONE_STAFF, roles__zone_id=tournament.organizer_zone_id
        ),
        OrganizerKind.FEDERATION: Q(roles__role=Role.FEDERATION_STAFF),
    }[OrganizerKind(tournament.organizer_kind)]
    return sorted(
        set(
            User.objects.filter(holds, is_active=True)
            .exclude(email="")
            .values_list("email", flat=True)
        )
    )


def tournament_decision_send(
    *,
    tournament_id: int,
    decision: str,
    by_id: int | None = None,
    reasons: list[str] | None = None,
    revision: int | None = None,
) -> int:
    """E-mail the organiser that staff decided on the tournament; the number sent."""
    tournament = Tournament.objects.select_related(
        "organizer_club", "organizer_committee", "organizer_zone"
    ).get(pk=tournament_id)
    addresses = organiser_addresses(tournament)
    if not addresses:
        return 0
    by = User.objects.filter(pk=by_id).first() if by_id is not None else None
    context = {
        "tournament": tournament,
        "decision": Decision(decision),
        "by": (by.get_full_name() or by.get_username()) if by else "",
        "reasons": reasons or [],
        "revision": revision,
        "link": settings.SITE_URL.rstrip("/") + reverse("club-tournament", args=[tournament.pk]),
    }
    with translation.override(settings.LANGUAGE_CODE):
        subject = " ".join(
            render_to_string("competitions/email/tournament_decision_subject.txt", context)
            .strip()
            .splitlines()
        )
        body = render_to_string("competitions/email/tournament_decision.txt", context)
    messages = [site_email(subject, body, to=[address]) for address in addresses]
    return get_connection().send_messages(messages) or 0
