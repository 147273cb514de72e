"""The outbox of background tasks: what a transaction asked to send, kept with it.

``core.tasks.send_on_commit`` writes one row in the caller's transaction, so the
request to run a task commits (or rolls back) with the data it is about; after the
commit the row is sent to the broker and marked sent. A row the broker did not take
(unreachable, a process killed in between) stays unsent until the sweep
(``core.outbox.outbox_send_pending``) sends it.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class OutboxMessage(models.Model):
    """One task to send to the broker, with its arguments."""

    task = models.CharField(_("task"), max_length=200)
    args = models.JSONField(_("arguments"), default=list)
    kwargs = models.JSONField(_("keyword arguments"), default=dict)
    countdown = models.FloatField(_("countdown (seconds)"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    # A sender claims a row until then (compare-and-set): nobody else sends it meanwhile;
    # a sender that died leaves the claim to expire and the row to the next sweep.
    claimed_until = models.DateTimeField(_("claimed until"), null=True, blank=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    # The id of the request that asked for the task (core/observability/context.py): the
    # task's message carries it to the worker, however late the row is sent.
    request_id = models.CharField(_("request id"), max_length=128, blank=True, default="")

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("outbox message")
        verbose_name_plural = _("outbox messages")
        indexes = [
            # The sweep's query: unsent rows, oldest first.
            models.Index(
                fields=["created_at", "id"], condition=Q(sent_at__isnull=True), name="outbox_unsent"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.task} #{self.pk} ({'sent' if self.sent_at else 'pending'})"
