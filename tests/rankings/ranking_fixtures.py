"""A federation big enough to rank: the registry fixture's five players plus twenty,
in three clubs of two committees, most licensed in both seasons."""

from __future__ import annotations

from dataclasses import dataclass

from federation.models import Licence, Player
from tests.registry_fixture import Registry


@dataclass
class Federation:
    registry: Registry
    players: list[Player]  # every player of the current season's ranking


def build_federation(registry: Registry) -> Federation:
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
