"""Background jobs of the tournament day: thin, take ids, call a service. Sent by the
services after their commit (``core.tasks.send_on_commit``); the e-mails go to the e-mail
queue (``*.email_*``, config/settings.py)."""

from celery import shared_task

from competitions.day.entry_notices import convocations_notices_send, place_freed_notices_send
from competitions.tasks import MAIL_RETRY


@shared_task(name="day.email_place_freed", **MAIL_RETRY)
def email_place_freed(entry_id: int) -> int:
    return place_freed_notices_send(entry_id=entry_id)


@shared_task(name="day.email_convocations", **MAIL_RETRY)
def email_convocations(tournament_id: int) -> int:
    return convocations_notices_send(tournament_id=tournament_id)
