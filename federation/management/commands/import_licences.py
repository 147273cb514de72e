"""``manage.py import_licences FILE --season 2026-2027``: import a season's licensees.

Prints what changed, or every problem of a refused file (line, column, reason)
and exits with status 1. The format is in ``docs/licence-import.md``.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.problems import RuleViolation
from federation.licence_registry import import_licences
from federation.models import Season, User
from federation.rules.licence_file import LicenceFileRefused


class Command(BaseCommand):
    help = (
        "Import a season's licensees from a CSV file (columns licence_number, last_name, "
        "first_name, birth_date, club_number; see docs/licence-import.md). A file with any "
        "bad line is refused whole."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file",
            type=Path,
            help="the CSV file (UTF-8, ',' or ';') or an Excel (.xlsx) or LibreOffice (.ods) "
            "workbook of one sheet",
        )
        parser.add_argument("--season", required=True, help="season name, e.g. 2026-2027")
        parser.add_argument(
            "--by", metavar="USERNAME", help="user recorded as the importer (default: none)"
        )

    def handle(self, *args, file: Path, season: str, by: str | None, **options):
        found = Season.objects.filter(name=season).first()
        if found is None:
            known = ", ".join(Season.objects.values_list("name", flat=True)) or "none yet"
            raise CommandError(f"Unknown season « {season} » (known seasons: {known}).")
        user = None
        if by is not None:
            user = User.objects.filter(username=by).first()
            if user is None:
                raise CommandError(f"Unknown user « {by} ».")
        try:
            content = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror or exc}.") from exc

        try:
            result = import_licences(season=found, content=content, file_name=file.name, by=user)
        except LicenceFileRefused as exc:
            for problem in exc.line_problems:
                self.stderr.write(problem.describe())
            lines = f" on {exc.bad_lines} line(s)" if exc.bad_lines else ""
            raise CommandError(
                f"{file.name} refused: {len(exc.line_problems)} problem(s){lines}. "
                "Nothing was imported."
            ) from exc
        except RuleViolation as exc:
            raise CommandError(f"{file.name} refused: {exc}. Nothing was imported.") from exc

        for notice in result.notices:
            self.stdout.write(self.style.WARNING(notice))
        self.stdout.write(
            f"{result.file_name}: {result.rows} licensee line(s) for season {result.season}.\n"
            f"  players:  {result.players_created} created, {result.players_updated} updated, "
            f"{result.players_unchanged} unchanged\n"
            f"  licences: {result.licences_created} created, {result.licences_updated} updated, "
            f"{result.licences_unchanged} unchanged\n"
            f"  licences of the season not in this file (left as they are): "
            f"{result.licences_not_in_file}"
        )
        summary = "Imported" if result.changed else "Nothing changed: the registry already matched"
        self.stdout.write(self.style.SUCCESS(f"{summary} (import #{result.import_id})."))
