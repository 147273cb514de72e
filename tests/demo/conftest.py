"""The seeded demo, built once per test module (it takes seconds) and deleted after it.

Built outside the tests' transactions, like ``manage.py seed_demo`` builds it, so each
service's commit happens (and with it what it sends after commit, eagerly); the tests
only read it, or write in their own transaction, which is rolled back.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.test.utils import override_settings

from demo.championships import DemoChampionships, build_demo_championships
from demo.day import DemoDay, build_demo_day
from demo.registry import DemoRegistry, reset_registry
from demo.registry_build import build_demo_registry
from demo.tournaments import DemoTournaments, build_demo_tournaments, reset_competitions


@dataclass
class SeededDemo:
    registry: DemoRegistry
    tournaments: DemoTournaments
    championships: DemoChampionships
    day: DemoDay


def seeded_demo(django_db_blocker, *, tournaments: int, **sizes):
    """Seed the demo as ``seed_demo`` does, yield it, then delete it all."""
    with django_db_blocker.unblock(), override_settings(DEBUG=True):
        registry = build_demo_registry(**sizes)
        try:
            built = build_demo_tournaments(registry, tournaments=tournaments)
            championships = build_demo_championships(registry)
            yield SeededDemo(registry, built, championships, build_demo_day(registry))
        finally:
            reset_competitions()
            reset_registry()
