"""``manage.py send_outbox``: send the background tasks the broker did not take."""

from django.core.management.base import BaseCommand, CommandError

from core.tasks import outbox_send_pending


class Command(BaseCommand):
    help = "Send the outbox's unsent tasks to the broker, oldest first."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=1000, help="at most this many")

    def handle(self, *args, limit: int, **options):
        sweep = outbox_send_pending(limit=limit)
        self.stdout.write(f"{sweep.sent} sent, {sweep.failed} failed, {sweep.left} left unsent")
        if sweep.failed:
            raise CommandError("The broker refused some tasks: see the log; run again later.")
