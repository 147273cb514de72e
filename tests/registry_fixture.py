"""A small, readable federation for tests, with one user per role."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from rest_framework.authtoken.models import Token

from federation.models import (
    ArbiterAccreditation,
    ArbiterGrade,
    Club,
    ClubAffiliation,
    Committee,
    Licence,
    Player,
    Role,
    RoleAssignment,
    Season,
    User,
    Zone,
)


@dataclass
class Registry:
    season: Season
    previous: Season
    zones: dict[int, Zone]
    committees: dict[int, Committee]
    clubs: dict[int, Club]
    players: dict[int, Player]
    users: dict[str, User | None] = field(default_factory=dict)

    def token(self, role: str) -> str:
        return Token.objects.get_or_create(user=self.users[role])[0].key


def build_registry() -> Registry:
    previous = Season.objects.create(
        name="2025-2026", start_date=dt.date(2025, 7, 1), end_date=dt.date(2026, 6, 30)
    )
    season = Season.objects.create(
        name="2026-2027", start_date=dt.date(2026, 7, 1), end_date=dt.date(2027, 6, 30)
    )
    zones = {n: Zone.objects.create(number=n, name=f"Zone {n}") for n in (1, 2)}
    committees = {
        1: Committee.objects.create(number=1, name="Rhône-Alpes", zone=zones[1]),
        2: Committee.objects.create(number=2, name="Bretagne", zone=zones[2]),
    }
    clubs = {
        101: Club.objects.create(number=101, name="Tarot Club de Lyon", committee=committees[1]),
        102: Club.objects.create(number=102, name="Excuse Grenobloise", committee=committees[1]),
        201: Club.objects.create(number=201, name="Petit au Bout Rennes", committee=committees[2]),
    }
    for number in (101, 102, 201):  # affiliated this season (none recorded for the previous one)
        ClubAffiliation.objects.create(club=clubs[number], season=season)
    people = [
        (1001, "Martin", "Élise", dt.date(1950, 3, 2), 101),
        (1002, "Lefèvre", "Jérôme", dt.date(1980, 11, 20), 101),
        (1003, "Dubois", "Anaïs", dt.date(1972, 5, 5), 102),
        (2001, "Le Gall", "Yannick", dt.date(1961, 1, 15), 201),
        (2002, "Quéré", "Maëlle", dt.date(1999, 8, 30), 201),
    ]
    players = {}
    for licence_number, last, first, born, club in people:
        player = Player.objects.create(
            licence_number=licence_number,
            last_name=last,
            first_name=first,
            birth_date=born,
            email=f"{licence_number}@example.org",
        )
        Licence.objects.create(player=player, season=season, club=clubs[club])
        Licence.objects.create(player=player, season=previous, club=clubs[club])
        players[licence_number] = player
    ArbiterAccreditation.objects.create(
        player=players[1002], season=season, grade=ArbiterGrade.REGIONAL
    )

    def user(name: str, **kwargs) -> User:
        return User.objects.create_user(username=name, password="x", **kwargs)

    users: dict[str, User | None] = {
        "anonymous": None,
        "player": user("player", player=players[1001]),
        "arbiter": user("arbiter", player=players[1002]),
        "club_manager": user("club_manager"),
        "committee_staff": user("committee_staff"),
        "zone_staff": user("zone_staff"),
        "federation_staff": user("federation_staff", is_staff=True),
    }
    RoleAssignment.objects.create(
        user=users["club_manager"], role=Role.CLUB_MANAGER, club=clubs[101]
    )
    RoleAssignment.objects.create(
        user=users["committee_staff"], role=Role.COMMITTEE_STAFF, committee=committees[1]
    )
    RoleAssignment.objects.create(user=users["zone_staff"], role=Role.ZONE_STAFF, zone=zones[1])
    RoleAssignment.objects.create(user=users["federation_staff"], role=Role.FEDERATION_STAFF)
    return Registry(season, previous, zones, committees, clubs, players, users)
