"""Helpers of the national-ranking tests: tournaments with allocations written
directly (the results API is exercised in test_ranking_replay_api.py)."""

from __future__ import annotations

import datetime as dt
import itertools

from competitions.models import ResultRevision, Tournament
from federation.models import Club, Licence, Player, Season
from rankings.models import Allocation
from rankings.rulebooks import rulebook_in_force

_counter = itertools.count(1)


def add_tournament(
    season: Season, points: dict[Player, tuple[int, int]], *, club: Club, arbiter: Player
) -> Tournament:
    """A homologated tournament of ``season`` giving each player (pcn, pp)."""
    number = next(_counter)
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
    tournament.save(update_fields=["status", "homologated_revision"])
    return tournament


def correct_tournament(tournament: Tournament, points: dict[Player, tuple[int, int]]) -> set[int]:
    """A correction: a new revision whose allocations replace the current ones;
    returns the affected player ids (old and new)."""
    number = tournament.revisions.count() + 1
    revision = ResultRevision.objects.create(
        tournament=tournament, number=number, document={},
        sha256=f"{tournament.pk:032d}{number:032d}", source="json", reason="correction",
    )  # fmt: skip
    version, _rulebook = rulebook_in_force(season=tournament.season)
    previous = set(
        Allocation.objects.filter(tournament=tournament, current=True).values_list(
            "player_id", flat=True
        )
    )
    Allocation.objects.filter(tournament=tournament, current=True).update(current=False)
    Allocation.objects.bulk_create(
        Allocation(
            season=tournament.season, tournament=tournament, revision=revision, rulebook=version,
            player=player, place=place, pcn=pcn, pp=pp,
        )
        for place, (player, (pcn, pp)) in enumerate(points.items(), start=1)
    )  # fmt: skip
    tournament.homologated_revision = revision
    tournament.save(update_fields=["homologated_revision"])
    return previous | {p.pk for p in points}


def add_players(season: Season, club: Club, count: int, first_licence: int) -> list[Player]:
    players = []
    for i in range(count):
        player = Player.objects.create(
            licence_number=first_licence + i, last_name=f"Joueur{i:03d}", first_name="Test"
        )
        Licence.objects.create(player=player, season=season, club=club)
        players.append(player)
    return players
