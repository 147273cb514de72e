"""The public tournament pages: the calendar, a tournament's page, a club's and a
committee's page; French, no sign-in, a fixed number of queries, public facts only."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_a_homologated_tournament_shows_its_full_ranking(
    client, public_season, django_assert_max_num_queries
):
    from competitions.models import Allocation

    t = public_season.homologated
    with django_assert_max_num_queries(6):
        response = client.get(f"/calendrier/tournoi/{t.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Open de Lyon" in html
    assert "Tarot Club de Lyon" in html
    assert "LEFÈVRE Jérôme" in html  # the arbiter
    assert "homologué" in html
    ranking = response.context["page"].ranking
    assert [e.place for e in ranking] == list(range(1, 13))
    first = ranking[0].players[0]
    allocation = Allocation.objects.get(tournament=t, player__licence_number=5001, current=True)
    assert (first.identity.name, first.pcn, first.pp) == ("JOUEUR1 Camille", allocation.pcn,
                                                          allocation.pp)  # fmt: skip
    assert first.pcn > 0
    assert '<a href="/classement/joueur/5001/?saison=2026-2027">JOUEUR1 Camille</a>' in html
    guest = ranking[11].players[0]
    assert (guest.identity.name, guest.identity.licence_number, guest.licensed, guest.pcn) == (
        "Invité Paul", None, False, 0)  # fmt: skip
    assert "non licencié" in html
    assert response.context["page"].tables == 3
    # Public facts only: no e-mail, phone or birth date of anyone.
    for private in ("example.org", "0600000000", "1970", "1980"):
        assert private not in html


def test_a_refused_tournament_shows_no_ranking(client, public_season):
    response = client.get(f"/calendrier/tournoi/{public_season.refused.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert response.context["page"].ranking == []
    assert "non homologué" in html
    assert "JOUEUR1" not in html
    assert "Arbitre absent" not in html  # the refusal's reasons are not public
    submitted = client.get(f"/calendrier/tournoi/{public_season.submitted.pk}/")
    assert "JOUEUR1" not in submitted.content.decode()
    assert submitted.context["page"].ranking == []
    upcoming = client.get(f"/calendrier/tournoi/{public_season.upcoming.pk}/")
    assert "pas encore été joué" in upcoming.content.decode()
    assert client.get("/calendrier/tournoi/999999/").status_code == 404


def test_the_calendar_filters_and_pages(client, public_season, django_assert_max_num_queries):
    with django_assert_max_num_queries(6):
        opening = client.get("/calendrier/")
    assert {r["status"] for r in opening.context["rows"]} <= {"upcoming"}
    response = client.get("/calendrier/", {"statut": ""})  # all, of the current season
    assert response.status_code == 200
    names = [r["tournament"].name for r in response.context["rows"]]
    assert names == ["Open de Lyon", "Tournoi refusé de Grenoble", "Tournoi de Rennes",
                     "Tournoi de zone", "Régional de Bretagne"]  # fmt: skip
    html = response.content.decode()
    assert "Calendrier des tournois" in html
    committee2 = client.get("/calendrier/", {"comite": 2})
    assert {r["tournament"].name for r in committee2.context["rows"]} == {
        "Tournoi de Rennes", "Régional de Bretagne"}  # fmt: skip
    assert "/calendrier/comite/2.ics" in committee2.content.decode()
    club = client.get("/calendrier/", {"club": 102})
    assert [r["tournament"].name for r in club.context["rows"]] == ["Tournoi refusé de Grenoble"]
    month = client.get("/calendrier/", {"mois": "2026-11"})
    assert len(month.context["rows"]) == 3
    homologated = client.get("/calendrier/", {"statut": "homologated"})
    assert [r["tournament"].name for r in homologated.context["rows"]] == ["Open de Lyon"]
    assert homologated.context["rows"][0]["tournament"].player_count == 12
    duo = client.get("/calendrier/", {"format": "duo"})
    assert duo.context["rows"] == []
    bad = client.get("/calendrier/", {"mois": "novembre", "comite": "x", "format": "golf"})
    assert bad.status_code == 200
    text = bad.content.decode()
    assert "Le mois s’écrit AAAA-MM" in text
    assert "Comité inconnu" in text


def test_the_calendar_costs_the_same_for_many_tournaments(
    client, public_season, django_assert_max_num_queries
):
    import datetime as dt

    from competitions.models import Tournament

    registry = public_season.registry
    Tournament.objects.bulk_create(
        Tournament(season=registry.season, name=f"Tournoi {i}", date=dt.date(2027, 2, 1 + i % 28),
                   venue="Salle", format="individual", organizer_kind="club",
                   organizer_club=registry.clubs[101 if i % 2 else 201],
                   arbiter=registry.players[1002])
        for i in range(120)
    )  # fmt: skip
    with django_assert_max_num_queries(6):
        response = client.get("/calendrier/", {"page": 2, "statut": ""})
    assert len(response.context["rows"]) == 50
    assert response.context["page"].paginator.count == 125
    assert "page=3" in response.content.decode()
    with django_assert_max_num_queries(8):
        club = client.get("/clubs/101/")
    assert len(club.context["rows"]) == 60  # 61 this season: the rest in the calendar
    assert "Tous les tournois de la saison dans le calendrier" in club.content.decode()
    with django_assert_max_num_queries(8):
        committee = client.get("/comites/1/")
    assert len(committee.context["rows"]) == 60


def test_the_club_page(client, public_season, django_assert_max_num_queries):
    from federation.models import Club

    Club.objects.filter(number=101).update(address="12 rue du Petit\n69001 Lyon",
                                           playing_times="Le mardi à 20 h")  # fmt: skip
    with django_assert_max_num_queries(8):
        response = client.get("/clubs/101/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Tarot Club de Lyon" in html
    assert "12 rue du Petit<br>69001 Lyon" in html
    assert "Le mardi à 20 h" in html
    assert f'href="/calendrier/tournoi/{public_season.homologated.pk}/"' in html
    assert 'href="/comites/1/?saison=2026-2027"' in html
    assert "/calendrier/club/101.ics" in html
    assert 'href="/classement/club/101/?saison=2026-2027"' in html
    assert client.get("/clubs/999/").status_code == 404


def test_the_committee_page(client, public_season, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        response = client.get("/comites/2/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Comité 02 – Bretagne" in html
    assert 'href="/clubs/201/?saison=2026-2027"' in html
    assert "Régional de Bretagne" in html
    assert "Tournoi de Rennes" in html
    assert "Open de Lyon" not in html
    assert 'value="http://testserver/calendrier/comite/2.ics"' in html
    assert client.get("/comites/77/").status_code == 404


def test_the_ranking_pages_link_to_the_public_pages(client, public_season):
    from rankings.season.recompute import full_recompute

    full_recompute(season=public_season.registry.season)
    player = client.get("/classement/joueur/5001/").content.decode()
    assert f'href="/calendrier/tournoi/{public_season.homologated.pk}/"' in player
    club = client.get("/classement/club/101/").content.decode()
    assert 'href="/clubs/101/?saison=2026-2027"' in club
    committee = client.get("/classement/comite/1/").content.decode()
    assert 'href="/comites/1/?saison=2026-2027"' in committee
    home = client.get("/").content.decode()
    assert f'href="/calendrier/tournoi/{public_season.homologated.pk}/"' in home
    assert 'href="/calendrier/"' in home
    # The club's and committee's pages show the top of their ranking.
    ranked = client.get("/clubs/101/")
    assert ranked.context["ranking"]["rows"]
    assert "JOUEUR1 Camille" in ranked.content.decode()


def test_staff_give_a_club_its_address_and_playing_times_in_the_admin(client, registry):
    staff = registry.users["federation_staff"]
    staff.is_superuser = True  # the admin's model permissions, as in tests/federation
    staff.save()
    client.force_login(staff)
    club = registry.clubs[201]
    form = client.get(f"/admin/federation/club/{club.pk}/change/")
    assert 'name="address"' in form.content.decode()
    assert "Horaires de jeu" in form.content.decode()
    response = client.post(
        f"/admin/federation/club/{club.pk}/change/",
        {"number": 201, "name": club.name, "city": "Rennes", "committee": club.committee_id,
         "address": "3 place de la Mairie, Rennes", "playing_times": "Vendredi 20 h 30",
         "affiliations-TOTAL_FORMS": 1, "affiliations-INITIAL_FORMS": 1,
         "affiliations-0-id": club.affiliations.get().pk, "affiliations-0-club": club.pk,
         "affiliations-0-season": registry.season.pk},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    client.logout()
    html = client.get("/clubs/201/").content.decode()
    assert "3 place de la Mairie, Rennes" in html
    assert "Vendredi 20 h 30" in html


def test_public_status_and_month():
    import datetime as dt

    from competitions.models import Tournament
    from competitions.public.selectors import parse_month, public_status

    assert parse_month("2026-12") == dt.date(2026, 12, 1)
    for bad in ("2026-13", "12-2026", "2026-1", "", "２０２６-12"):
        with pytest.raises(ValueError, match="YYYY-MM"):
            parse_month(bad)
    today = dt.date(2026, 11, 25)
    day = Tournament(date=today, status="declared")
    assert public_status(day, today) == "upcoming"
    day.date = dt.date(2026, 11, 24)
    assert public_status(day, today) == "awaiting_results"
    day.status = "results_submitted"
    assert public_status(day, today) == "awaiting_results"
    day.status = "refused"
    assert public_status(day, today) == "not_homologated"
    day.status = "homologated"
    assert public_status(day, today) == "homologated"
