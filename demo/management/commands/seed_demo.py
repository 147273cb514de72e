"""``manage.py seed_demo``: fill an empty database with a realistic demo federation.

The registry (demo/registry_build.py), then two seasons of tournaments loaded through the
results services with the rankings they give (demo/tournaments.py), then the current
season's championships under way (demo/championships.py), in one transaction.

Idempotent: if the registry already holds a federation it says so and changes
nothing, unless ``--reset`` (which deletes the tournaments, championships, rankings
and the whole registry first: demo only).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import ProtectedError

from core.errors import PermissionDenied
from demo.championships import build_demo_championships
from demo.day import build_demo_day
from demo.registry import DEMO_PASSWORD, registry_counts, registry_is_populated, reset_registry
from demo.registry_build import (
    DEFAULT_CLUBS,
    DEFAULT_CURRENT_SEASON,
    DEFAULT_PLAYERS,
    DEFAULT_SEED,
    build_demo_registry,
)
from demo.tournaments import DEFAULT_TOURNAMENTS, build_demo_tournaments, reset_competitions


class Command(BaseCommand):
    help = (
        "Build a realistic, deterministic demo federation (zones, committees, clubs, "
        "players, licences over two seasons, arbiters, demo users), two seasons of "
        "tournaments through the results services, the rankings and the current "
        "championships. Does nothing if the registry is already populated, unless --reset."
    )

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed")
        parser.add_argument(
            "--players", type=int, default=DEFAULT_PLAYERS, help="number of players"
        )
        parser.add_argument("--clubs", type=int, default=DEFAULT_CLUBS, help="number of clubs")
        parser.add_argument(
            "--season",
            type=int,
            default=DEFAULT_CURRENT_SEASON,
            help="year the current season starts (the previous season is written too)",
        )
        parser.add_argument(
            "--tournaments",
            type=int,
            default=DEFAULT_TOURNAMENTS,
            help="ordinary tournaments over the two seasons, besides the demo club's own",
        )
        parser.add_argument(
            "--reset",
            action="store_true",
            help="delete the tournaments, championships, rankings and the whole registry "
            "(all seasons, clubs, players, licences…) first",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG:  # before --reset deletes anything
            raise CommandError(
                "seed_demo refuses to run with DJANGO_DEBUG off: the demo users' password "
                "and API token are published in the README, so they never exist in production."
            )
        if options["tournaments"] < 0:  # before --reset deletes anything
            raise CommandError("--tournaments must be 0 or more.")
        started = time.perf_counter()
        with transaction.atomic():
            if registry_is_populated():
                if not options["reset"]:
                    counts = ", ".join(f"{n} {label}" for label, n in registry_counts().items())
                    self.stdout.write(
                        f"The registry is already populated ({counts}): nothing done. "
                        "Use --reset to delete it and build the demo again."
                    )
                    return
                try:
                    deleted = reset_competitions() | reset_registry()
                except ProtectedError as exc:
                    raise CommandError(
                        "Cannot reset: rows outside the registry still use it "
                        f"({exc.args[0]}). Delete them first."
                    ) from exc
                summary = ", ".join(f"{n} {label}" for label, n in deleted.items() if n)
                self.stdout.write(f"Deleted {summary}.")
            try:
                registry = build_demo_registry(
                    seed=options["seed"],
                    players=options["players"],
                    clubs=options["clubs"],
                    current_season=options["season"],
                )
            except ValueError as exc:  # sizes out of range
                raise CommandError(str(exc)) from exc
            try:
                tournaments = build_demo_tournaments(registry, tournaments=options["tournaments"])
                championships = build_demo_championships(registry)
                day = build_demo_day(registry)
            except PermissionDenied as exc:  # a demo username taken by an account of its own
                kept = ", ".join(n for n, demo in registry.users.items() if not demo.created)
                raise CommandError(
                    f"The demo users act through the services with their roles, but {kept} "
                    f"already existed without them ({exc}). Rename or delete those accounts."
                ) from exc
        elapsed = time.perf_counter() - started

        self.stdout.write(
            self.style.SUCCESS(f"Demo federation built in {elapsed:.1f} s (seed {registry.seed}):")
        )
        counts = registry.counts() | tournaments.counts() | championships.counts() | day.counts()
        for label, n in counts.items():
            self.stdout.write(f"  {label:<42} {n:>6}")
        self.stdout.write("")
        self.stdout.write(f"Demo users (password « {DEMO_PASSWORD} », demo only):")
        for username, demo in registry.users.items():
            note = "" if demo.created else "  (already existed: left unchanged)"
            self.stdout.write(f"  {username:<8} {demo.description}{note}")
        if registry.duplicate:
            lapsed, twin = registry.duplicate
            self.stdout.write(
                f"  Likely duplicate to merge at /bureau/doublons/ (as « admin »): "
                f"{lapsed.licence_number} and {twin.licence_number}, {twin.first_name} "
                f"{twin.last_name.upper()}"
            )
        if registry.club_token:
            self.stdout.write(
                f"  API token of « club »: Authorization: Token {registry.club_token}"
            )
