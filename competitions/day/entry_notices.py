"""The e-mails of the entries, to the players who chose them
(``federation/notification_choices.py``), each sent once, after the commit that decided it:

- ``entry_place_freed``: a place freed on a capped tournament went to the player's entry,
  first of the waiting list (``entries._promote_first_waiting``);
- ``entry_convocation``: the organiser sends the convocations of the entered entries
  (``entries.convocations_send``): the tournament, its day, start time, venue and address,
  contact and fee; sent again, it tells only those not told yet. Each entry told records
  ``convocation_sent_at``.

The address is the user account's, as for every notice the players choose."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from competitions.models import EntryMember, EntryState, Tournament, TournamentEntry
from federation.models import NotificationKind
from federation.notification_choices import notice, notices_send_once, subscribed_user_ids

PLACE_FREED = NotificationKind.ENTRY_PLACE_FREED.value
CONVOCATION = NotificationKind.ENTRY_CONVOCATION.value


def _recipients(kind: str, **filters):
    """The members (licensees) whose account is active, has an address and chose ``kind``."""
    return (
        EntryMember.objects.filter(
            player__user__isnull=False,
            player__user__is_active=True,
            player__user__in=subscribed_user_ids(kind),
            **filters,
        )
        .exclude(player__user__email="")
        .annotate(
            user_id=F("player__user__id"),
            email=F("player__user__email"),
            first_name=F("player__first_name"),
        )
        .values("user_id", "email", "first_name", "entry_id")
    )


def _send(kind: str, subject_key: str, rows: list[dict], template: str, context: dict) -> int:
    by_user = {row["user_id"]: row for row in rows}

    def message_for(user_id: int) -> EmailMessage | None:
        row = by_user[user_id]
        return notice(
            user_id=user_id,
            address=row["email"],
            kind=kind,
            template=template,
            context={**context, "row": row},
        )

    return notices_send_once(
        kind=kind, subject_key=subject_key, user_ids=list(by_user), message_for=message_for
    )


def _links(tournament: Tournament) -> dict[str, str]:
    site = settings.SITE_URL.rstrip("/")
    return {
        "link": site + reverse("my-entries"),
        "public_link": site + reverse("public-tournament", args=[tournament.pk]),
    }


def place_freed_notices_send(*, entry_id: int) -> int:
    """Tell the players of a promoted entry (still entered) that they have a place."""
    entry = (
        TournamentEntry.objects.select_related("tournament")
        .filter(pk=entry_id, state=EntryState.ENTERED)
        .first()
    )
    if entry is None:  # withdrawn meanwhile
        return 0
    rows = list(_recipients(PLACE_FREED, entry=entry, active=True))
    context = {"tournament": entry.tournament, **_links(entry.tournament)}
    return _send(PLACE_FREED, f"entry:{entry.pk}", rows, "day/email/entry_place_freed", context)


def convocations_notices_send(*, tournament_id: int) -> int:
    """Send the convocation to the players of the entered entries who chose it, once each;
    the entries told record when."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    rows = list(
        _recipients(
            CONVOCATION,
            tournament=tournament,
            active=True,
            entry__state=EntryState.ENTERED,
        )
    )
    context = {"tournament": tournament, **_links(tournament)}
    sent = _send(
        CONVOCATION, f"convocation:{tournament.pk}", rows, "day/email/entry_convocation", context
    )
    TournamentEntry.objects.filter(
        tournament=tournament, state=EntryState.ENTERED, convocation_sent_at=None
    ).update(convocation_sent_at=timezone.now())
    return sent
