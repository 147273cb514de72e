"""``manage.py restore_database ARCHIVE``: the database as the archive holds it, in one
transaction (core/management/backups.py, docs/backups.md)."""

from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from core.management.backups import BackupError, restore, target


class Command(BaseCommand):
    help = (
        "Restore a backup of backup_database into the database of DATABASE_URL (created if "
        "missing): every object of the archive is dropped and written again, in one "
        "transaction. Stop the web processes and workers first."
    )

    def add_arguments(self, parser):
        parser.add_argument("archive", help="a .dump file written by backup_database")
        parser.add_argument(
            "--yes", action="store_true", help="do not ask: the database's content is replaced"
        )

    def handle(self, *args, archive: str, yes: bool, **options):
        try:
            name = target().name
        except BackupError as error:
            raise CommandError(str(error)) from error
        if not yes:
            answer = input(f"Replace the content of the database « {name} » by {archive}? [y/N] ")
            if answer.strip().lower() not in {"y", "yes", "o", "oui"}:
                raise CommandError("Nothing restored.")
        connections.close_all()  # no session of ours holds a lock the restore waits for
        try:
            restored = restore(Path(archive))
        except BackupError as error:
            raise CommandError(str(error)) from error
        # The read cache keys answers by version (core/http/http_cache.py): versions the
        # restored database hands out again would find answers of the lost future.
        caches[settings.READ_CACHE_ALIAS].clear()
        self.stdout.write(
            f"{archive} (pg_dump {restored.dumped_by}) restored into « {restored.database} »"
            f"{' (created)' if restored.created else ''} in {restored.seconds:.1f} s; read "
            "cache cleared. Restart the web processes (their own memory of answers) and run "
            "verify_live_ranking."
        )
