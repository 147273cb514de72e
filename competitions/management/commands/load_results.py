"""Load past tournaments with the same checks as the API (its services' own functions).

Input: a JSON Lines file, one tournament per line::

    {"declaration": {"name": …, "date": "2025-11-08", "venue": …, "format": "individual",
                     "organizer_kind": "club", "organizer_number": 1042,
                     "arbiter_licence_number": 123456, "reference": "HIST-2025-0001"},
     "results": { …a results document (docs/results-format.md)… },
     "homologate": true}

Each line is declared (idempotent through its ``reference``), submitted and, if asked,
homologated by the given staff user, with the same checks as the API. Lines are loaded
``--batch`` at a time (default 100) in one transaction, committed once:

- ``--batch`` > 1: :mod:`competitions.tournaments.bulk_load` runs every check of the
  three services for each line and writes what they write for all the lines at once
  (one statement per table); a step refused is reported with its problems and the
  others go on (nothing of it was written); a line that meets a tournament already
  stored goes through the services one by one.
- ``--batch 1``: each line through the services (``tournament_declare``,
  ``results_submit``, ``tournament_homologate``), as the API calls them.

Re-running the same file changes nothing (an interrupted run loses at most its last
batch: run it again). The ranking update of the affected players is queued once per
season at the end, not once per tournament; nobody is e-mailed. Refused lines are
reported once their batch is done, in the file's order.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import nullcontext
from itertools import islice

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from competitions.api.tournament_serializers import DeclarationIn
from competitions.models import Tournament, TournamentStatus
from competitions.tournaments.bulk_load import REFUSALS, LineResult, lines_load
from competitions.tournaments.declaration import tournament_declare
from competitions.tournaments.homologation import ranking_updates_deferred, tournament_homologate
from competitions.tournaments.submission import results_submit
from core.api_errors import flatten
from core.batch_memo import batch_reads
from core.problems import RuleViolation
from core.tasks import send_on_commit
from federation.models import User

BATCH = 100
"""Lines per transaction by default: the commits amortised, a batch's locks (its own new
tournaments' rows) held for about a second."""


def _batches(items: Iterator[tuple[int, str]], size: int) -> Iterator[list[tuple[int, str]]]:
    while chunk := list(islice(items, size)):
        yield chunk


class Command(BaseCommand):
    help = "Load tournaments (declaration, results, homologation) from a JSON Lines file."

    def add_arguments(self, parser):
        parser.add_argument("path", help="JSON Lines file, one tournament per line")
        parser.add_argument("--as", dest="username", required=True, help="a federation staff user")
        parser.add_argument("--quiet", action="store_true", help="print only the summary")
        parser.add_argument(
            "--batch",
            type=int,
            default=BATCH,
            help=f"lines per transaction (default {BATCH}); 1: each line committed on its own",
        )

    def handle(self, *args, path: str, username: str, quiet: bool, batch: int, **options):
        if batch < 1:
            raise CommandError("--batch is at least 1.")
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        counts = {"declared": 0, "submitted": 0, "homologated": 0, "unchanged": 0, "failed": 0}
        started = time.perf_counter()
        with (
            open(path, encoding="utf-8") as lines,
            ranking_updates_deferred() as pending,
        ):
            for chunk in _batches(enumerate(lines, start=1), batch):
                # The reads a batch's lines share, made once (core.batch_memo); not kept
                # from one batch to the next.
                with batch_reads() if batch > 1 else nullcontext(), transaction.atomic():
                    results: list[LineResult | None] = (
                        list(lines_load(chunk, by=user, one=self.load_one))
                        if batch > 1
                        else [self.line_load(number, line, user) for number, line in chunk]
                    )
                for result in results:
                    if result is None:
                        continue
                    if result.outcome is None:
                        counts["failed"] += 1
                        self.stderr.write(
                            f"line {result.number}: " + "; ".join(result.problems)[:2000]
                        )
                        continue
                    for key in result.outcome:
                        counts[key] += 1
                last = chunk[-1][0]
                if not quiet and last // 500 > (last - len(chunk)) // 500:
                    elapsed = time.perf_counter() - started
                    self.stdout.write(f"{last} lines, {elapsed:.1f} s")
            for season_id, player_ids in pending.items():
                send_on_commit("rankings.refresh_season_totals", season_id, sorted(player_ids))
        elapsed = time.perf_counter() - started
        summary = ", ".join(f"{key} {value}" for key, value in counts.items())
        self.stdout.write(f"{summary} in {elapsed:.1f} s")
        if counts["failed"]:
            raise CommandError(f"{counts['failed']} line(s) failed; see above.")

    def line_load(self, number: int, line: str, user) -> LineResult | None:
        """One line through the services, one after the other (``--batch 1``)."""
        if not line.strip():
            return None
        try:
            return LineResult(number, self.load_one(json.loads(line), user))
        except REFUSALS as error:
            detail = getattr(error, "problems", None) or [str(error)]
            return LineResult(number, None, [str(p) for p in detail])

    @staticmethod
    def load_one(item: dict, user) -> list[str]:
        outcome = []
        serializer = DeclarationIn(data=item["declaration"])  # parsed as the API parses it
        if not serializer.is_valid():
            raise RuleViolation(list(flatten(serializer.errors, "declaration")))
        tournament, created = tournament_declare(declaration=serializer.to_declaration(), by=user)
        if created:
            outcome.append("declared")
        submitted = results_submit(
            tournament=tournament, content=item["results"], source="json", by=user
        )
        if submitted.created:
            outcome.append("submitted")
            status: str = TournamentStatus.RESULTS_SUBMITTED
        else:
            status = Tournament.objects.values_list("status", flat=True).get(pk=tournament.pk)
        if item.get("homologate") and status == TournamentStatus.RESULTS_SUBMITTED:
            tournament_homologate(tournament=tournament, by=user)
            outcome.append("homologated")
        return outcome or ["unchanged"]
