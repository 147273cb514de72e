"""The club space: "Mes tournois" (every tournament of the person's scope, filtered,
paginated, in bounded queries) and one tournament's page (state, story, results, points)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import RequestFactory

from competitions.homologation import (
    tournament_correct,
    tournament_homologate,
    tournament_refuse,
)
from competitions.models import Tournament

pytestmark = pytest.mark.django_db


def make(registry, name, *, club=None, committee=None, zone=None, season=None, **fields):
    """A tournament organised by a club, a committee, a zone or (none given) the FFT."""
    kind = "club" if club else "committee" if committee else "zone" if zone else "federation"
    values = {
        "season": season or registry.season,
        "date": dt.date(2026, 12, 5),
        "venue": "Salle des fêtes",
        "format": "individual",
        "arbiter": registry.players[1002],
        **fields,
    }
    return Tournament.objects.create(
        name=name,
        organizer_kind=kind,
        organizer_club=registry.clubs[club] if club else None,
        organizer_committee=registry.committees[committee] if committee else None,
        organizer_zone=registry.zones[zone] if zone else None,
        **values,
    )


@pytest.fixture
def federation_calendar(registry):
    """One tournament per organiser, and a homologated one of last season in club 101."""
    make(registry, "Open du club 101", club=101)
    make(registry, "Open du club 102", club=102, status="refused")
    make(registry, "Open du club 201", club=201)
    make(registry, "Régional du comité 1", committee=1)
    make(registry, "Régional du comité 2", committee=2)
    make(registry, "Tournoi de la zone 1", zone=1)
    make(registry, "Tournoi de la zone 2", zone=2)
    make(registry, "Tournoi fédéral", format="duo")
    make(
        registry,
        "Ancien open du club 101",
        club=101,
        season=registry.previous,
        date=dt.date(2026, 3, 1),
    )


def sign_in(client, username: str, password: str) -> bool:
    """The real password check, through django-axes (which needs the request)."""
    return client.login(request=RequestFactory().post("/"), username=username, password=password)


def names(response) -> set[str]:
    return {t.name for t in response.context["page"].object_list}


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("club_manager", {"Open du club 101", "Ancien open du club 101"}),
        (
            "committee_staff",
            {"Open du club 101", "Ancien open du club 101", "Open du club 102",
             "Régional du comité 1"},
        ),
        (
            "zone_staff",
            {"Open du club 101", "Ancien open du club 101", "Open du club 102",
             "Régional du comité 1", "Tournoi de la zone 1"},
        ),
        ("federation_staff", None),  # every tournament
        ("player", set()),
    ],
)  # fmt: skip
def test_my_tournaments_lists_the_scope_of_each_role(
    client, registry, federation_calendar, role, expected
):
    client.force_login(registry.users[role])
    response = client.get("/tournois/")
    assert response.status_code == 200
    if expected is None:
        expected = set(Tournament.objects.values_list("name", flat=True))
    assert names(response) == expected


def test_signing_in_with_the_password_shows_the_club_s_tournaments_and_declare_button(
    client, registry, federation_calendar
):
    assert not sign_in(client, "club_manager", "wrong")
    assert sign_in(client, "club_manager", "x")
    response = client.get("/tournois/")
    page = response.content.decode()
    assert "Open du club 101" in page
    assert "Open du club 102" not in page
    assert "Déclarer un tournoi" in page
    assert f'href="/tournois/{Tournament.objects.get(name="Open du club 101").pk}/"' in page


def test_anonymous_is_sent_to_sign_in(client):
    response = client.get("/tournois/")
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("season=2025-2026", {"Ancien open du club 101"}),
        ("club=102", {"Open du club 102"}),
        ("status=refused", {"Open du club 102"}),
        ("format=duo", {"Tournoi fédéral"}),
        ("date_from=2026-01-01&date_to=2026-06-30", {"Ancien open du club 101"}),
        ("date_from=2026-07-01&club=101", {"Open du club 101"}),
    ],
)
def test_filters_narrow_the_list(client, registry, federation_calendar, query, expected):
    client.force_login(registry.users["federation_staff"])
    response = client.get(f"/tournois/?{query}")
    assert response.status_code == 200
    assert names(response) == expected


def test_a_club_outside_the_scope_is_not_a_filter_choice(client, registry, federation_calendar):
    client.force_login(registry.users["club_manager"])
    response = client.get("/tournois/?club=201")
    assert response.status_code == 400
    assert response.context["page"] is None
    assert "Sélectionnez un choix valide" in response.content.decode()


def test_a_bad_date_is_a_french_form_error(client, registry):
    client.force_login(registry.users["club_manager"])
    response = client.get("/tournois/?date_from=31-31-2026")
    assert response.status_code == 400
    assert "Saisissez une date valide" in response.content.decode()


def test_the_list_is_paginated_in_a_bounded_number_of_queries(
    client, registry, django_assert_max_num_queries
):
    for i in range(60):
        make(registry, f"Tournoi {i:02d}", club=101 + (i % 2), date=dt.date(2026, 9, 1 + i % 28))
    client.force_login(registry.users["committee_staff"])
    with django_assert_max_num_queries(10):  # 8, what waits, the desk's name (one each)
        first = client.get("/tournois/")
    assert len(first.context["page"].object_list) == 25
    assert first.context["page"].paginator.count == 60
    with django_assert_max_num_queries(10):
        last = client.get("/tournois/?club=101&page=2")
    assert len(last.context["page"].object_list) == 5
    assert 'href="?club=101&amp;page=1"' in last.content.decode()


def test_another_club_s_manager_gets_a_404_and_no_private_fact(
    client, registry, submitted_tournament
):
    from federation.models import Role, RoleAssignment, User

    rennes = User.objects.create_user("rennes", password="x")
    RoleAssignment.objects.create(user=rennes, role=Role.CLUB_MANAGER, club=registry.clubs[201])
    assert sign_in(client, "rennes", "x")
    for url in (
        f"/tournois/{submitted_tournament.pk}/",
        f"/tournois/{submitted_tournament.pk}/saisie/",
    ):
        response = client.get(url)
        assert response.status_code == 404
        assert "Open de Lyon" not in response.content.decode()
    listing = client.get("/tournois/").content.decode()
    assert "Open de Lyon" not in listing


def test_the_tournament_page_shows_the_state_the_results_and_the_links(
    client, registry, submitted_tournament
):
    client.force_login(registry.users["club_manager"])
    response = client.get(f"/tournois/{submitted_tournament.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "résultats transmis" in page.lower()
    assert "Joueur1 Camille" in page
    assert "5001" in page
    assert f"/tournois/{submitted_tournament.pk}/resultats/" in page
    assert f"/tournois/{submitted_tournament.pk}/saisie/" in page
    assert "PCN" not in page  # points only once homologated
    assert "1950" not in page
    assert "@example.org" not in page


def test_refused_homologated_then_corrected_the_page_tells_who_and_why(
    client, api, registry, submitted_tournament, twelve_results, django_assert_max_num_queries
):
    staff = registry.users["committee_staff"]
    staff.first_name, staff.last_name = "Claire", "Arbitre"
    staff.save()
    tournament_refuse(
        tournament=submitted_tournament, reasons=["Feuille de marque illisible"], by=staff
    )
    client.force_login(registry.users["club_manager"])
    page = client.get(f"/tournois/{submitted_tournament.pk}/").content.decode()
    assert "refusé" in page.lower()
    assert "Feuille de marque illisible" in page
    assert "Claire Arbitre" in page

    url = f"/api/tournaments/{submitted_tournament.pk}/results/"
    assert api.post(url, twelve_results(), format="json").status_code == 200
    tournament_homologate(tournament=submitted_tournament, by=staff)
    with django_assert_max_num_queries(10):
        response = client.get(f"/tournois/{submitted_tournament.pk}/")
    page = response.content.decode()
    assert "homologué" in page.lower()
    assert response.context["results"][0]["players"][0]["pcn"] == 120
    assert "<th>PCN</th>" in page
    assert f"/tournois/{submitted_tournament.pk}/saisie/" not in page  # nothing more to send

    swapped = [700, 900, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]
    tournament_correct(
        tournament=submitted_tournament,
        content=twelve_results(swapped),
        source="json",
        reason="Totaux des deux premiers inversés",
        by=staff,
    )
    response = client.get(f"/tournois/{submitted_tournament.pk}/")
    page = response.content.decode()
    story = response.context["story"]
    assert [e.status for e in story] == [
        "declared", "results_submitted", "refused", "results_submitted", "homologated",
        "corrected",
    ]  # fmt: skip
    assert story[-1].by == "Claire Arbitre"
    assert story[-1].reasons == ["Totaux des deux premiers inversés"]
    assert "Corrigé" in page
    assert "Totaux des deux premiers inversés" in page
    first = response.context["results"][0]
    assert first["players"][0]["licence_number"] == 5002
    assert first["players"][0]["pcn"] == 120


def test_an_empty_list_says_so(client, registry, federation_calendar):
    client.force_login(registry.users["club_manager"])
    response = client.get("/tournois/?format=team4")
    assert response.status_code == 200
    assert "Aucun tournoi ne correspond." in response.content.decode()


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("club_manager", 200),
        ("committee_staff", 200),
        ("zone_staff", 200),
        ("federation_staff", 200),
        ("player", 404),
        ("arbiter", 404),
    ],
)
def test_the_tournament_page_per_role(client, registry, role, status):
    tournament = make(registry, "Open du club 101", club=101)
    client.force_login(registry.users[role])
    assert client.get(f"/tournois/{tournament.pk}/").status_code == status
    assert client.get(f"/tournois/{tournament.pk}/saisie/").status_code == status


def test_staff_of_another_committee_or_zone_do_not_see_it(client, registry):
    from federation.models import Role, RoleAssignment, User

    tournament = make(registry, "Open du club 101", club=101)
    breton = User.objects.create_user("breton")
    RoleAssignment.objects.create(
        user=breton, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
    )
    west = User.objects.create_user("ouest")
    RoleAssignment.objects.create(user=west, role=Role.ZONE_STAFF, zone=registry.zones[2])
    for user in (breton, west):
        client.force_login(user)
        assert client.get(f"/tournois/{tournament.pk}/").status_code == 404
        assert "Open du club 101" not in client.get("/tournois/").content.decode()


def test_anonymous_is_sent_to_sign_in_from_every_page(client, registry):
    tournament = make(registry, "Open du club 101", club=101)
    for url in (
        "/tournois/declarer/",
        f"/tournois/{tournament.pk}/",
        f"/tournois/{tournament.pk}/saisie/",
    ):
        assert client.get(url).status_code == 302
