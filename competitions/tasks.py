"""Background jobs of the tournaments: thin, take ids, call a service.

``email_tournament_decision`` is sent by the homologation services
(``competitions/tournaments/homologation.py``) after their commit: it e-mails the
organiser that the tournament was homologated, refused or corrected. Delivery is at
least once (a retried task may send a message twice; it never loses one).
"""

from smtplib import SMTPException

from celery import shared_task
from django.db import InterfaceError, OperationalError

from competitions.tournaments.notifications import tournament_decision_send
from competitions.tournaments.player_notices import (
    tournament_player_notices_plan,
    tournament_player_notices_send,
)

MAIL_RETRY = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError, SMTPException, ConnectionError),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(
    name="competitions.email_tournament_decision",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError, SMTPException, ConnectionError),
    retry_backoff=True,
    max_retries=5,
)
def email_tournament_decision(
    tournament_id: int,
    decision: str,
    by_id: int | None = None,
    reasons: list[str] | None = None,
    revision: int | None = None,
) -> int:
    return tournament_decision_send(
        tournament_id=tournament_id,
        decision=decision,
        by_id=by_id,
        reasons=reasons,
        revision=revision,
    )


@shared_task(name="competitions.email_tournament_players", **MAIL_RETRY)
def email_tournament_players(tournament_id: int, revision_id: int) -> int:
    return tournament_player_notices_plan(tournament_id=tournament_id, revision_id=revision_id)


@shared_task(name="competitions.email_tournament_players_chunk", **MAIL_RETRY)
def email_tournament_players_chunk(
    tournament_id: int, revision_id: int, user_ids: list[int]
) -> int:
    return tournament_player_notices_send(
        tournament_id=tournament_id, revision_id=revision_id, user_ids=user_ids
    )
