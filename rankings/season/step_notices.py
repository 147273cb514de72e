"""E-mails to the players who chose them (federation/notification_choices.py) when the
official ranking changes their step.

Publishing the official ranking (rankings/season/official_ranking.py) sends
``rankings.email_step_changes`` after its commit, naming the new snapshot and the
official one it replaces (none on a season's first publication). The task runs
:func:`step_notices_plan`: one query finds the subscribed players (an active account,
an address) whose step in the new snapshot differs from their step **before**: their
step in the replaced official ranking when there was one and they were in it, else the
step they held during the season (``season_step``, the step at the season's start).
Their ids go on in tasks of ``NOTICES_PER_TASK`` (``rankings.email_step_changes_chunk``),
each calling :func:`step_notices_send`: one query for the chunk, one mail connection,
each notice sent once per snapshot. Steps are named by the snapshot's series policy, in
French.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse

from core.tasks import send_on_commit
from federation.models import NotificationKind
from federation.notification_choices import notice, notices_send_once, subscribed_user_ids
from rankings.models import RankingEntry, RankingSnapshot
from rankings.season.ranking import ladder_labels

KIND = NotificationKind.STEP_CHANGED.value
NOTICES_PER_TASK = 500
"""Recipients per sending task: 150,000 players are 300 tasks, each one connection."""


def _changed(snapshot_id: int, previous_id: int | None):
    """The snapshot's entries of subscribed players whose step changed, with ``before``."""
    entries = RankingEntry.objects.filter(
        snapshot_id=snapshot_id,
        player__user__isnull=False,
        player__user__is_active=True,
        player__user__in=subscribed_user_ids(KIND),
    ).exclude(player__user__email="")
    before: F | Coalesce
    if previous_id is None:
        before = F("season_step")
    else:
        before = Coalesce(
            Subquery(
                RankingEntry.objects.filter(
                    snapshot_id=previous_id, player_id=OuterRef("player_id")
                ).values("step")[:1]
            ),
            F("season_step"),
        )
    return entries.annotate(before=before).exclude(step=F("before"))


def step_notices_plan(*, snapshot_id: int, previous_id: int | None) -> int:
    """Find the recipients and send their notices on in tasks; the number of recipients."""
    user_ids = list(
        _changed(snapshot_id, previous_id)
        .order_by("player__user__id")
        .values_list("player__user__id", flat=True)
    )
    for start in range(0, len(user_ids), NOTICES_PER_TASK):
        send_on_commit(
            "rankings.email_step_changes_chunk",
            snapshot_id,
            previous_id,
            user_ids[start : start + NOTICES_PER_TASK],
        )
    return len(user_ids)


def step_notices_send(*, snapshot_id: int, previous_id: int | None, user_ids: list[int]) -> int:
    """E-mail each of these users their new step, once per snapshot; the number sent."""
    snapshot = RankingSnapshot.objects.select_related("season", "policy").get(pk=snapshot_id)
    labels = ladder_labels(snapshot.policy)
    rows = {
        row["user_id"]: row
        for row in _changed(snapshot_id, previous_id)
        .filter(player__user__id__in=user_ids)
        .annotate(
            user_id=F("player__user__id"),
            email=F("player__user__email"),
            first_name=F("player__first_name"),
        )
        .values("user_id", "email", "first_name", "licence_number", "step", "before")
    }
    site = settings.SITE_URL.rstrip("/")

    def label(code: str) -> str:
        return labels[code][0] if code in labels else code

    def message_for(user_id: int) -> EmailMessage | None:
        row = rows.get(user_id)
        if row is None:  # unsubscribed, or no longer an address, since the plan
            return None
        context = {
            "season": snapshot.season.name,
            "first_name": row["first_name"],
            "before": label(row["before"]),
            "after": label(row["step"]),
            "link": site + reverse("ranking-player-page", args=[row["licence_number"]]),
        }
        return notice(
            user_id=user_id,
            address=row["email"],
            kind=KIND,
            template="rankings/email/step_changed",
            context=context,
        )

    return notices_send_once(
        kind=KIND, subject_key=f"snapshot:{snapshot_id}", user_ids=user_ids, message_for=message_for
    )
