"""The admin staff work in: French by default, searchable, and list pages whose
query count does not grow with the number of rows."""

import datetime as dt

import pytest

from competitions.models import Tournament
from federation.models import ArbiterAccreditation, Licence, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, registry):
    registry.users["federation_staff"].is_superuser = True
    registry.users["federation_staff"].save()
    client.force_login(registry.users["federation_staff"])
    return client


@pytest.fixture
def many(registry):
    for i in range(40):
        player = Player.objects.create(licence_number=9000 + i, last_name=f"Nom{i}", first_name="P")
        Licence.objects.create(
            player=player, season=registry.season, club=registry.clubs[101 + i % 2]
        )
        ArbiterAccreditation.objects.create(player=player, season=registry.season, grade="club")
        Tournament.objects.create(
            season=registry.season, name=f"Tournoi {i}", date=dt.date(2026, 9, 1 + i % 28),
            venue="Lyon", format="individual", organizer_kind="club",
            organizer_club=registry.clubs[101], arbiter=player,
        )  # fmt: skip


@pytest.mark.parametrize(
    "url",
    [
        "/admin/federation/licence/",
        "/admin/federation/player/",
        "/admin/federation/club/",
        "/admin/federation/arbiteraccreditation/",
        "/admin/competitions/tournament/",
    ],
)
def test_list_pages_do_not_grow_queries(staff_client, many, url, django_assert_max_num_queries):
    with django_assert_max_num_queries(15):
        response = staff_client.get(url)
    assert response.status_code == 200


def test_admin_is_french_and_searches_by_licence_number(staff_client, many):
    page = staff_client.get("/admin/federation/licence/?q=9007").content.decode()
    assert "Numéro de licence" in page
    assert "NOM7" in page
    assert "NOM8 " not in page


def test_licence_filters_by_season_and_committee(staff_client, many, registry):
    url = f"/admin/federation/licence/?season__id__exact={registry.previous.pk}"
    page = staff_client.get(url).content.decode()
    assert "NOM7" not in page  # licensed this season only
    assert "MARTIN" in page
