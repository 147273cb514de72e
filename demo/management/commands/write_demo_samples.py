"""``manage.py write_demo_samples``: rewrite docs/samples' results files with the players
of the seeded demo (``seed_demo``, same seed), so that each uploads cleanly to the demo
tournament declared for it. See demo/samples.py."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from demo.samples import SAMPLES, write_samples


class Command(BaseCommand):
    help = "Rewrite the results samples of docs/samples with the seeded demo's players."

    def add_arguments(self, parser):
        parser.add_argument(
            "--to", type=Path, default=SAMPLES, help="directory to write (default: docs/samples)"
        )

    def handle(self, *args, to: Path, **options):
        try:
            written = write_samples(target=to)
        except KeyError as exc:
            raise CommandError(
                f"No demo tournament {exc}: run `manage.py seed_demo` first."
            ) from exc
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        for path in written:
            self.stdout.write(f"wrote {path}")
