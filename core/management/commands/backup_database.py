"""``manage.py backup_database``: one ``pg_dump`` archive of the database in ``BACKUP_DIR``,
then the retention (core/management/backups.py, docs/backups.md)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.management.backups import BackupError, take


class Command(BaseCommand):
    help = (
        "Dump the database (pg_dump, custom format) into BACKUP_DIR, then delete the backups "
        "past BACKUP_KEEP_DAYS days that are not the first of one of the last "
        "BACKUP_KEEP_MONTHS months."
    )

    def handle(self, *args, **options):
        try:
            taken = take()
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"{taken.backup.path}: {taken.size} bytes in {taken.seconds:.1f} s; "
            f"{len(taken.deleted)} old backups deleted (kept: {settings.BACKUP_KEEP_DAYS} days, "
            f"{settings.BACKUP_KEEP_MONTHS} months)."
        )
        for path in taken.deleted:
            self.stdout.write(f"  deleted {path.name}")
