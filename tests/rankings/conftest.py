"""Fixtures of the national-ranking tests: a federation big enough to rank, and
tournaments whose allocations are written directly (the results API that writes
them in production is exercised in test_ranking_replay_api.py).

Django is imported inside the fixtures so that the pure tests of rankings/rules
also run with ``-p no:django``.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from competitions.models import Tournament
    from federation.models import Club, Player, Season

# Numbers the tournaments (name, date, revision hash) across the whole run, so that
# tournaments added in one test or one hypothesis example never collide.
_tournament_numbers = itertools.count(1)


@dataclass
class Federation:
    registry: Any  # the suite's ``registry`` fixture (tests/conftest.py)
    players: list[Player]  # every player of the current season's ranking


@pytest.fixture
def federation(registry) -> Federation:
    """The registry fixture's five players plus twenty, in three clubs of two
    committees, most licensed in both seasons."""
    from federation.models import Licence, Player

    clubs = [registry.clubs[101], registry.clubs[102], registry.clubs[201]]
    players = list(registry.players.values())
    for i in range(20):
        player = Player.objects.create(
            licence_number=3001 + i,
            last_name=f"Joueur{i:02d}",
            first_name="Élise" if i % 2 else "Loïc",
        )
        club = clubs[i % 3]
        Licence.objects.create(player=player, season=registry.season, club=club)
        if i % 5:  # one in five is new this season
            Licence.objects.create(player=player, season=registry.previous, club=club)
        players.append(player)
    return Federation(registry, players)


@pytest.fixture
def add_tournament(db) -> Callable[..., Tournament]:
    """``add_tournament(season, points, *, club, arbiter)``: a homologated tournament
    of ``season`` giving each player of ``points`` its (pcn, pp)."""
    from competitions.models import Allocation, ResultRevision, Tournament
    from competitions.rulebooks import rulebook_in_force

    def add(
        season: Season,
        points: dict[Player, tuple[int, int]],
        *,
        club: Club,
        arbiter: Player,
        homologated_at: dt.datetime | None = None,
    ) -> Tournament:
        number = next(_tournament_numbers)
        tournament = Tournament.objects.create(
            season=season,
            name=f"Tournoi {number}",
            date=season.start_date + dt.timedelta(days=number % 300),
            venue="Salle",
            format="individual",
            organizer_kind="club",
            organizer_club=club,
            arbiter=arbiter,
        )
        revision = ResultRevision.objects.create(
            tournament=tournament, number=1, document={}, sha256=f"{number:064d}", source="json"
        )
        version, _rulebook = rulebook_in_force(season=season)
        Allocation.objects.bulk_create(
            Allocation(
                season=season, tournament=tournament, revision=revision, rulebook=version,
                player=player, place=place, pcn=pcn, pp=pp,
            )
            for place, (player, (pcn, pp)) in enumerate(points.items(), start=1)
        )  # fmt: skip
        tournament.status = "homologated"
        tournament.homologated_revision = revision
        tournament.homologated_at = homologated_at or dt.datetime.now(dt.UTC)
        tournament.save(update_fields=["status", "homologated_revision", "homologated_at"])
        return tournament

    return add


@pytest.fixture
def correct_tournament(db) -> Callable[..., set[int]]:
    """``correct_tournament(tournament, points)``: a correction, a new revision whose
    allocations replace the current ones; returns the affected player ids (old and new)."""
    from competitions.models import Allocation, ResultRevision
    from competitions.rulebooks import rulebook_in_force

    def correct(tournament: Tournament, points: dict[Player, tuple[int, int]]) -> set[int]:
        number = tournament.revisions.count() + 1
        revision = ResultRevision.objects.create(
            tournament=tournament, number=number, document={},
            sha256=f"{tournament.pk:032d}{number:032d}", source="json", reason="correction",
        )  # fmt: skip
        version, _rulebook = rulebook_in_force(season=tournament.season)
        current = Allocation.objects.filter(tournament=tournament, current=True)
        previous = set(current.values_list("player_id", flat=True))
        current.update(current=False)
        Allocation.objects.bulk_create(
            Allocation(
                season=tournament.season, tournament=tournament, revision=revision,
                rulebook=version, player=player, place=place, pcn=pcn, pp=pp,
            )
            for place, (player, (pcn, pp)) in enumerate(points.items(), start=1)
        )  # fmt: skip
        tournament.homologated_revision = revision
        tournament.save(update_fields=["homologated_revision"])
        return previous | {p.pk for p in points}

    return correct


@pytest.fixture
def live_store_redis(settings):
    """The live ranking in Redis (``rankings/season/live_store.py``) on the tests' Redis database
    (``TEST_RANKING_STORE_URL``, else ``TEST_CELERY_BROKER_URL``), emptied before and after."""
    import os

    from rankings.season import live_store

    url = os.environ.get("TEST_RANKING_STORE_URL") or os.environ.get(
        "TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/14"
    )
    settings.RANKING_STORE_URL = url
    clear_live_store(url)
    yield live_store.client()
    clear_live_store(url)


def clear_live_store(url: str | None = None) -> None:
    """Forget every season's live store (a test's database rolls back, Redis does not)."""
    from rankings.season import live_store

    redis_client = live_store._client_for(url) if url else live_store.client()
    for key in redis_client.scan_iter(match="fft:rank:*", count=1000):
        redis_client.unlink(key)
