"""Integrity of the registry is enforced by the database, not only in Python."""

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from federation.models import (
    ArbiterAccreditation,
    Club,
    ClubAffiliation,
    Licence,
    Player,
    Role,
    RoleAssignment,
    Season,
)

pytestmark = pytest.mark.django_db


def refused(make) -> bool:
    try:
        with transaction.atomic():
            make()
    except IntegrityError:
        return True
    return False


def test_licence_number_is_unique_and_positive(registry):
    assert refused(
        lambda: Player.objects.create(licence_number=1001, last_name="X", first_name="Y")
    )
    assert refused(lambda: Player.objects.create(licence_number=0, last_name="X", first_name="Y"))


def test_one_licence_per_player_and_season(registry):
    player = registry.players[1001]
    assert refused(
        lambda: Licence.objects.create(
            player=player, season=registry.season, club=registry.clubs[102]
        )
    )


def test_season_must_end_after_it_starts(db):
    assert refused(
        lambda: Season.objects.create(
            name="2030-2031", start_date=dt.date(2031, 6, 30), end_date=dt.date(2030, 7, 1)
        )
    )


def test_club_number_unique(registry):
    assert refused(
        lambda: Club.objects.create(number=101, name="Doublon", committee=registry.committees[1])
    )


def test_affiliation_once_per_season(registry):
    assert ClubAffiliation.objects.filter(club=registry.clubs[101], season=registry.season).exists()
    assert refused(
        lambda: ClubAffiliation.objects.create(club=registry.clubs[101], season=registry.season)
    )


def test_arbiter_grade_once_per_season_and_known(registry):
    player = registry.players[1002]
    assert refused(
        lambda: ArbiterAccreditation.objects.create(
            player=player, season=registry.season, grade="national"
        )
    )
    assert refused(
        lambda: ArbiterAccreditation.objects.create(
            player=player, season=registry.previous, grade="expert"
        )
    )


@pytest.mark.parametrize(
    ("role", "scope"),
    [
        (Role.FEDERATION_STAFF, "club"),
        (Role.ZONE_STAFF, None),
        (Role.COMMITTEE_STAFF, "zone"),
        (Role.CLUB_MANAGER, "committee"),
    ],
)
def test_role_scope_must_match_role(registry, role, scope):
    values = {
        "zone": registry.zones[1],
        "committee": registry.committees[1],
        "club": registry.clubs[101],
    }
    kwargs = {scope: values[scope]} if scope else {}
    assert refused(
        lambda: RoleAssignment.objects.create(user=registry.users["player"], role=role, **kwargs)
    )


def test_players_and_clubs_with_history_cannot_be_deleted(registry):
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        registry.players[1001].delete()
    with pytest.raises(ProtectedError):
        registry.committees[1].delete()
