"""The demo federation: realistic, deterministic, idempotent."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Count
from knox.crypto import hash_token
from knox.models import AuthToken

from competitions.models import Allocation, Tournament
from demo.registry import DEMO_PASSWORD, registry_is_populated, reset_registry
from demo.registry_build import DemoRefused, build_demo_registry
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

SMALL = {"players": 300, "clubs": 20}
PREVIOUS, CURRENT = "2025-2026", "2026-2027"


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.DEBUG = True  # the demo is built only with debug on (see the refusal test)


def snapshot() -> dict[str, list[tuple]]:
    """The registry by natural keys (no primary keys), in a stable order."""
    return {
        "committees": sorted(Committee.objects.values_list("number", "name", "zone__number")),
        "clubs": sorted(Club.objects.values_list("number", "name", "city", "committee__number")),
        "affiliations": sorted(ClubAffiliation.objects.values_list("club__number", "season__name")),
        "players": sorted(
            Player.objects.values_list(
                "licence_number", "last_name", "first_name", "birth_date", "email", "phone"
            )
        ),
        "licences": sorted(
            Licence.objects.values_list(
                "player__licence_number", "season__name", "club__number", "issued_on"
            )
        ),
        "arbiters": sorted(
            ArbiterAccreditation.objects.values_list(
                "player__licence_number", "season__name", "grade"
            )
        ),
        "roles": sorted(
            RoleAssignment.objects.values_list(
                "user__username", "role", "zone__number", "committee__number", "club__number"
            ),
            key=repr,
        ),
        "players of users": sorted(
            User.objects.filter(player__isnull=False).values_list(
                "username", "player__licence_number"
            )
        ),
        "tournaments": sorted(
            Tournament.objects.values_list("reference", "season__name", "status", "format")
        ),
        "points": sorted(
            Allocation.objects.values_list(
                "tournament__reference", "player__licence_number", "place", "pcn", "current"
            )
        ),
    }


def age_on(day: dt.date, born: dt.date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


@pytest.mark.django_db
def test_same_seed_same_federation_other_seed_differs():
    first = build_demo_registry(seed=7, **SMALL)
    before = snapshot()
    assert before["players"]
    assert before["licences"]
    assert before["arbiters"]
    assert first.club_token

    reset_registry()
    assert not registry_is_populated()
    assert not User.objects.filter(username__in=["admin", "ccr", "club", "joueur"]).exists()
    second = build_demo_registry(seed=7, **SMALL)
    assert snapshot() == before
    assert second.club_token == first.club_token

    reset_registry()
    build_demo_registry(seed=8, **SMALL)
    other = snapshot()
    assert other["players"] != before["players"]
    assert other["clubs"] != before["clubs"]
    assert other["licences"] != before["licences"]
    assert other["committees"] == before["committees"]  # the geography is fixed


@pytest.mark.django_db
def test_small_federation_is_realistic():
    registry = build_demo_registry(seed=2026, **SMALL)

    assert Player.objects.count() == 300 == len(registry.players)
    assert Club.objects.count() == 20 == len(registry.clubs)
    assert Zone.objects.count() == 7
    assert Committee.objects.count() >= 22
    # Every committee in a zone, every club in a committee (20 clubs < 25 committees:
    # committee 1 always gets one, the ccr demo user covers it).
    assert not Committee.objects.filter(zone__isnull=True).exists()
    assert Club.objects.filter(committee__zone__isnull=False).count() == 20
    assert Club.objects.filter(committee__number=1).exists()

    seasons = list(Season.objects.order_by("start_date"))
    assert [(s.name, s.start_date, s.end_date) for s in seasons] == [
        (PREVIOUS, dt.date(2025, 7, 1), dt.date(2026, 6, 30)),
        (CURRENT, dt.date(2026, 7, 1), dt.date(2027, 6, 30)),
    ]
    assert [s.name for s in registry.seasons] == [PREVIOUS, CURRENT]
    assert registry.current_season.name == CURRENT

    # Ages 18–90 on 1 July of the current season, a large share over 60.
    july_first = dt.date(2026, 7, 1)
    ages = [
        age_on(july_first, born) for born in Player.objects.values_list("birth_date", flat=True)
    ]
    assert min(ages) >= 18
    assert max(ages) <= 90
    over_60 = sum(age >= 60 for age in ages) / len(ages)
    assert 0.4 < over_60 < 0.75
    assert any(age < 40 for age in ages)
    assert Player.objects.exclude(email="").count() > 100
    assert Player.objects.filter(email="").exists()
    assert len(set(Player.objects.values_list("licence_number", flat=True))) == 300
    assert Player.objects.values("last_name").distinct().count() > 50

    # Licences for both seasons, with churn.
    previous = dict(
        Licence.objects.filter(season__name=PREVIOUS).values_list("player_id", "club_id")
    )
    current = dict(Licence.objects.filter(season__name=CURRENT).values_list("player_id", "club_id"))
    assert len(previous) == len(registry.licences[PREVIOUS])
    assert len(current) == len(registry.licences[CURRENT])
    assert set(previous) | set(current) == set(Player.objects.values_list("id", flat=True))
    lapsed = set(previous) - set(current)
    newcomers = set(current) - set(previous)
    movers = {p for p in set(previous) & set(current) if previous[p] != current[p]}
    assert 0.05 < len(lapsed) / len(previous) < 0.11
    assert 0.07 < len(newcomers) / len(current) < 0.13
    assert 1 <= len(movers) < 0.1 * len(current)
    # Licences are issued within their season; the current season's before today.
    for name in (PREVIOUS, CURRENT):
        season = Season.objects.get(name=name)
        dates = Licence.objects.filter(season=season).values_list("issued_on", flat=True)
        assert all(season.start_date <= day <= season.end_date for day in dates)
    assert max(Licence.objects.filter(season__name=CURRENT).values_list("issued_on", flat=True)) < (
        dt.date(2026, 11, 22)
    )
    # A licence is only taken in a club affiliated that season.
    affiliated = set(ClubAffiliation.objects.values_list("club_id", "season_id"))
    assert set(Licence.objects.values_list("club_id", "season_id")) <= affiliated

    # Arbiters each season, licensed that season, with the three grades over the two.
    for name in (PREVIOUS, CURRENT):
        arbiters = ArbiterAccreditation.objects.filter(season__name=name)
        assert 5 <= arbiters.count() <= 40
        licensed = set(Licence.objects.filter(season__name=name).values_list("player", flat=True))
        assert set(arbiters.values_list("player", flat=True)) <= licensed
        grades = set(arbiters.values_list("grade", flat=True))
        assert ArbiterGrade.CLUB in grades
    assert ArbiterAccreditation.objects.filter(grade=ArbiterGrade.NATIONAL).exists()
    assert ArbiterAccreditation.objects.filter(grade=ArbiterGrade.REGIONAL).exists()


@pytest.mark.django_db
def test_demo_users_and_roles():
    registry = build_demo_registry(seed=3, **SMALL)

    admin = User.objects.get(username="admin")
    assert admin.is_superuser
    assert admin.is_staff
    assert admin.check_password(DEMO_PASSWORD)
    assert admin.roles.get().role == Role.FEDERATION_STAFF

    zone = User.objects.get(username="zone").roles.get()
    assert (zone.role, zone.zone.number) == (Role.ZONE_STAFF, 1)

    ccr = User.objects.get(username="ccr")
    assert ccr.check_password(DEMO_PASSWORD)
    assert not ccr.is_staff
    role = ccr.roles.get()
    assert (role.role, role.committee.number) == (Role.COMMITTEE_STAFF, 1)

    club_user = User.objects.get(username="club")
    role = club_user.roles.get()
    assert role.role == Role.CLUB_MANAGER
    assert role.club.committee.number == 1
    assert Licence.objects.filter(club=role.club, season__name=CURRENT).exists()
    stored = AuthToken.objects.get(user=club_user)
    assert stored.digest == hash_token(registry.club_token)  # only the digest is kept
    assert registry.club_token not in {stored.digest, stored.token_key}

    joueur = User.objects.get(username="joueur")
    assert joueur.check_password(DEMO_PASSWORD)
    assert joueur.player is not None
    assert not joueur.roles.exists()
    assert joueur.player.licences.filter(season__name=CURRENT).exists()
    assert set(registry.users) == {"admin", "zone", "ccr", "club", "joueur", "arbitre"}


@pytest.mark.django_db
def test_existing_user_is_left_alone_and_kept_by_reset():
    User.objects.create_user("admin", email="boss@fft.example", password="not-the-demo-one")
    registry = build_demo_registry(seed=1, **SMALL)
    admin = User.objects.get(username="admin")
    assert not registry.users["admin"].created
    assert admin.check_password("not-the-demo-one")
    assert not admin.roles.exists()

    reset_registry()
    assert User.objects.filter(username="admin").exists()
    assert not User.objects.filter(username="ccr").exists()


@pytest.mark.django_db
def test_an_existing_demo_player_without_an_address_is_given_one():
    """« Mes notifications » e-mails the account's address: the demo player can try it."""
    User.objects.create_user("joueur", password="x")
    build_demo_registry(seed=1, **SMALL)
    assert User.objects.get(username="joueur").email == "joueur@fft-demo.example"
    assert User.objects.get(username="joueur").check_password("x")  # otherwise untouched


SEED_SMALL = ("--players", "300", "--clubs", "20", "--tournaments", "12")


@pytest.mark.django_db
def test_command_is_idempotent_and_reset_rebuilds():
    out = StringIO()
    call_command("seed_demo", "--seed", "5", *SEED_SMALL, stdout=out)
    text = out.getvalue()
    assert "demo-fft" in text
    for username in ("admin", "zone", "ccr", "club", "joueur"):
        assert username in text
    built = snapshot()
    assert built["points"]  # tournaments homologated, with their points
    players_pks = sorted(Player.objects.values_list("pk", flat=True))

    out = StringIO()
    call_command("seed_demo", "--seed", "6", *SEED_SMALL, stdout=out)
    assert "already populated" in out.getvalue()
    assert snapshot() == built
    assert sorted(Player.objects.values_list("pk", flat=True)) == players_pks

    out = StringIO()
    call_command("seed_demo", "--seed", "5", *SEED_SMALL, "--reset", stdout=out)
    assert "Deleted" in out.getvalue()
    assert snapshot() == built  # same seed, same federation, tournaments and points
    assert sorted(Player.objects.values_list("pk", flat=True)) != players_pks  # rebuilt
    assert User.objects.filter(username="ccr").count() == 1
    assert AuthToken.objects.filter(user__username="club").count() == 1

    with pytest.raises(CommandError, match="--tournaments"):
        call_command("seed_demo", "--tournaments", "-1", "--reset", stdout=StringIO())
    assert snapshot() == built  # refused before anything was deleted

    call_command(
        "seed_demo", "--players", "250", "--clubs", "15", "--tournaments", "0", "--reset",
        stdout=StringIO(),
    )  # fmt: skip
    assert Player.objects.count() == 250
    assert Club.objects.count() == 15
    assert set(Tournament.objects.values_list("reference", flat=True)) >= {
        "DEMO-EXEMPLE-INDIVIDUEL",
        "DEMO-EXEMPLE-DUO",
    }  # the demo club's own, only
    assert not Tournament.objects.filter(reference__startswith="DEMO-2").exists()


@pytest.mark.django_db
def test_reuses_declared_seasons():
    Season.objects.create(
        name=CURRENT, start_date=dt.date(2026, 7, 1), end_date=dt.date(2027, 6, 30)
    )
    assert not registry_is_populated()
    build_demo_registry(seed=2, players=60, clubs=5)
    assert Season.objects.count() == 2
    assert Licence.objects.values("season").annotate(n=Count("id")).filter(n__gt=0).count() == 2
    assert Club.objects.count() == 5


@pytest.mark.django_db
def test_the_readme_demo_token_authenticates_through_the_hashed_store(api):
    registry = build_demo_registry(seed=2026, **SMALL)
    assert registry.club_token == "e84a7c31714bb8c90b9c8792be21ca2587767f41"  # README
    api.credentials(HTTP_AUTHORIZATION=f"Token {registry.club_token}")
    response = api.get("/api/federation/me/")
    assert response.status_code == 200
    assert response.json()["username"] == "club"


@pytest.mark.django_db
def test_the_demo_is_refused_with_debug_off(settings):
    settings.DEBUG = False
    with pytest.raises(DemoRefused):
        build_demo_registry(seed=2026, **SMALL)
    with pytest.raises(CommandError, match="DJANGO_DEBUG off"):
        call_command("seed_demo", "--seed", "2026", "--reset", stdout=StringIO())
    assert not registry_is_populated()
    assert not User.objects.filter(username="club").exists()
    assert not AuthToken.objects.exists()


@pytest.mark.django_db
def test_the_command_refuses_when_a_demo_username_is_someone_elses_account():
    User.objects.create_user("admin", email="boss@fft.example", password="not-the-demo-one")
    with pytest.raises(CommandError, match="admin already existed"):
        call_command("seed_demo", *SEED_SMALL, stdout=StringIO())
    assert not registry_is_populated()  # one transaction: nothing half-written
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_demo_has_a_likely_duplicate_pair_to_merge():
    from portal.merging import likely_duplicate_pairs

    registry = build_demo_registry(seed=2026, **SMALL)
    lapsed, twin = registry.duplicate
    admin = User.objects.get(username="admin")
    pairs = {
        (p.first.licence_number, p.second.licence_number): p.criteria
        for p in likely_duplicate_pairs(by=admin)
    }
    assert pairs[(lapsed.licence_number, twin.licence_number)] == (
        "name_and_birth_date",
        "name_and_committee",
    )
