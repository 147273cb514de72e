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
  three services for each line and writes through the services' writers for all the
  lines at once (one statement per table); a step refused is reported with its problems
  and the others go on (nothing of it was written); a line that meets a tournament
  already stored goes through the services one by one.
- ``--batch 1``: each line through the services (``tournament_declare``, then
  :mod:`competitions.homologation`'s ``results_submit`` and ``tournament_homologate``,
  which send a championship stage's results through the stage's checks), as the API
  calls them.

Each line's declaration is read as the API reads it (its input serializer).

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
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from competitions.api.tournament_serializers import DeclarationIn
from competitions.homologation import results_submit, tournament_homologate
from competitions.models import Tournament, TournamentStatus
from competitions.tournaments.bulk_load import REFUSALS, LineResult, line_refused, lines_load
from competitions.tournaments.declaration import Declaration, tournament_declare
from competitions.tournaments.homologation import ranking_updates_deferred
from core.batch_memo import batch_reads
from core.http.api_errors import flatten
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
                        self.lines_load(chunk, user)
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

    def lines_load(self, chunk: list[tuple[int, str]], user) -> list[LineResult | None]:
        """The lines of a batch read, then loaded together (``bulk_load``); each line's
        result in the file's order, a line that could not be read refused."""
        read: list[tuple[int, dict[str, Any], Declaration]] = []
        results: list[LineResult | None] = []
        for number, line in chunk:
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                read.append((number, item, self.declaration_read(item)))
            except REFUSALS as error:
                results.append(line_refused(number, error))
        results += lines_load(read, by=user, one=self.load_one)
        return sorted(results, key=lambda result: result.number if result else 0)

    def line_load(self, number: int, line: str, user) -> LineResult | None:
        """One line through the services, one after the other (``--batch 1``)."""
        if not line.strip():
            return None
        try:
            return LineResult(number, self.load_one(json.loads(line), user))
        except REFUSALS as error:
            return line_refused(number, error)

    @staticmethod
    def declaration_read(item: dict[str, Any]) -> Declaration:
        """The line's declaration, read as the API reads it."""
        serializer = DeclarationIn(data=item["declaration"])
        if not serializer.is_valid():
            raise RuleViolation(list(flatten(serializer.errors, "declaration")))
        return serializer.to_declaration()

    @classmethod
    def load_one(cls, item: dict, user) -> list[str]:
        outcome = []
        declaration = cls.declaration_read(item)
        tournament, created = tournament_declare(declaration=declaration, by=user)
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
