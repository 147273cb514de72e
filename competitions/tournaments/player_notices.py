"""E-mails to the players who chose them (federation/notification_choices.py) when a
tournament they played is homologated or corrected.

The homologation services send ``competitions.email_tournament_players`` after their
commit (with the organiser's e-mail; a bulk load of past results tells nobody). That
task runs :func:`tournament_player_notices_plan`: one query finds the recipients (the
players of the homologated revision whose user account has an address and is
subscribed to ``tournament_homologated``), and their ids are sent on in tasks of
``NOTICES_PER_TASK`` (``competitions.email_tournament_players_chunk``), each calling
:func:`tournament_player_notices_send`: one query for the chunk's rows, one mail
connection, each notice sent once (``notices_send_once``).

A correction tells only the subscribed players whose place, PCN or PP changed (or who
were not in the previous revision): the others' result is the same. A revision that is
no longer the homologated one when the task runs (corrected meanwhile) tells nobody:
the correction's own notices follow.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import F
from django.urls import reverse

from competitions.models import Allocation, Tournament
from core.tasks import send_on_commit
from federation.models import NotificationKind
from federation.notification_choices import notice, notices_send_once, subscribed_user_ids

KIND = NotificationKind.TOURNAMENT_HOMOLOGATED.value
NOTICES_PER_TASK = 500
"""Recipients per sending task: 150,000 players are 300 tasks, each one connection."""


def _homologated(tournament_id: int, revision_id: int) -> Tournament | None:
    return (
        Tournament.objects.select_related("homologated_revision")
        .filter(pk=tournament_id, homologated_revision_id=revision_id)
        .first()
    )


def _recipients(revision_id: int):
    """The revision's allocations whose player's account is subscribed and has an address."""
    return Allocation.objects.filter(
        revision_id=revision_id,
        player__user__isnull=False,
        player__user__is_active=True,
        player__user__in=subscribed_user_ids(KIND),
    ).exclude(player__user__email="")


def tournament_player_notices_plan(*, tournament_id: int, revision_id: int) -> int:
    """Find the recipients and send their notices on in tasks of ``NOTICES_PER_TASK``;
    the number of recipients."""
    tournament = _homologated(tournament_id, revision_id)
    if tournament is None:
        return 0
    rows = list(
        _recipients(revision_id)
        .order_by("player__user__id")
        .values_list("player__user__id", "player_id", "place", "pcn", "pp", "revision__number")
    )
    if rows and rows[0][5] > 1:
        rows = _changed_since_previous(tournament_id, rows[0][5], rows)
    user_ids = [row[0] for row in rows]
    for start in range(0, len(user_ids), NOTICES_PER_TASK):
        send_on_commit(
            "competitions.email_tournament_players_chunk",
            tournament_id,
            revision_id,
            user_ids[start : start + NOTICES_PER_TASK],
        )
    return len(user_ids)


def _changed_since_previous(tournament_id: int, number: int, rows: list[tuple]) -> list[tuple]:
    """The rows whose place, PCN or PP differ from the previous homologated revision's."""
    previous = (
        Allocation.objects.filter(tournament_id=tournament_id, revision__number__lt=number)
        .order_by("-revision__number")
        .values_list("revision__number", flat=True)
        .first()
    )
    if previous is None:  # the earlier revisions were never homologated: a first homologation
        return rows
    before = {
        player_id: (place, pcn, pp)
        for player_id, place, pcn, pp in Allocation.objects.filter(
            tournament_id=tournament_id,
            revision__number=previous,
            player_id__in=[row[1] for row in rows],
        ).values_list("player_id", "place", "pcn", "pp")
    }
    return [row for row in rows if before.get(row[1]) != (row[2], row[3], row[4])]


def tournament_player_notices_send(
    *, tournament_id: int, revision_id: int, user_ids: list[int]
) -> int:
    """E-mail each of these users their result in the tournament, once; the number sent."""
    tournament = _homologated(tournament_id, revision_id)
    if tournament is None:
        return 0
    rows = {
        row["user_id"]: row
        for row in _recipients(revision_id)
        .filter(player__user__id__in=user_ids)
        .annotate(
            user_id=F("player__user__id"),
            email=F("player__user__email"),
            first_name=F("player__first_name"),
        )
        .values("user_id", "email", "first_name", "place", "pcn", "pp")
    }
    site = settings.SITE_URL.rstrip("/")
    link = site + reverse("public-tournament", args=[tournament.pk])
    number = tournament.homologated_revision.number  # type: ignore[union-attr]
    # a correction: an earlier revision was homologated (it has allocations)
    corrected = Allocation.objects.filter(
        tournament_id=tournament_id, revision__number__lt=number
    ).exists()

    def message_for(user_id: int) -> EmailMessage | None:
        row = rows.get(user_id)
        if row is None:  # unsubscribed, or no longer an address, since the plan
            return None
        context = {
            "tournament": tournament,
            "row": row,
            "corrected": corrected,
            "link": link,
        }
        return notice(
            user_id=user_id,
            address=row["email"],
            kind=KIND,
            template="competitions/email/player_result",
            context=context,
        )

    return notices_send_once(
        kind=KIND, subject_key=f"revision:{revision_id}", user_ids=user_ids, message_for=message_for
    )
