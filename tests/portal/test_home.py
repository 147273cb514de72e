"""The home page (/): search a player, the top of the live ranking, the latest homologated
tournaments (declared, submitted and homologated through the services), the way in for
clubs and staff; a fixed number of queries however many tournaments."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.homologation import results_submit, tournament_homologate
from competitions.models import Tournament
from competitions.tournaments.declaration import Declaration, tournament_declare
from competitions.tournaments.selectors import latest_homologated
from federation.models import Licence, Player
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db

TOTALS = {  # by number of players: sums to 0, no tie
    12: [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200],
    16: [900, 700, 500, 300, 250, 150, 100, 50, 0, -50, -100, -150, -250, -300, -900, -1200],
}


def declaration(name: str, day: dt.date) -> Declaration:
    return Declaration(
        name=name, date=day, venue="Lyon", format="individual",
        organizer_kind="club", organizer_number=101, arbiter_licence_number=1002,
    )  # fmt: skip


@pytest.fixture
def players(registry) -> list[Player]:
    """Sixteen players licensed in club 101 this season."""
    created = []
    for i in range(16):
        player = Player.objects.create(
            licence_number=5001 + i, last_name=f"Nom{i}", first_name="Prénom"
        )
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
        created.append(player)
    return created


@pytest.fixture
def homologated(registry, players):
    """``homologated(name, day, count)``: a tournament of club 101 declared by its manager,
    its results (``count`` players) submitted, then homologated by federation staff."""

    def homologate(name: str, day: dt.date, count: int = 12) -> Tournament:
        tournament, _ = tournament_declare(
            declaration=declaration(name, day), by=registry.users["club_manager"]
        )
        totals = TOTALS[count]
        document = {
            "format_version": 1,
            "sessions": [{"number": 1, "tables": count // 4, "tables_of_three": 0, "deals": 20}],
            "entries": [
                {
                    "number": i + 1,
                    "place": i + 1,
                    "total": total,
                    "players": [
                        {
                            "licence_number": players[i].licence_number,
                            "name": f"{players[i].last_name} {players[i].first_name}",
                            "total": total,
                        }
                    ],
                }
                for i, total in enumerate(totals)
            ],
        }
        results_submit(
            tournament=tournament, content=document, source="json",
            by=registry.users["club_manager"],
        )  # fmt: skip
        return tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])

    return homologate


def test_home_page_for_a_visitor(client, registry):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert '<label for="home-q">' in html
    assert 'action="/classement/"' in html
    assert "Se connecter" in html
    assert 'href="/compte/connexion/"' in html
    assert (
        'href="/aide/"' in html
    )  # the public's help, from the footer (the API docs: the club space)
    assert 'href="/api/docs/"' not in html
    assert "Aucun tournoi n’a encore été homologué" in html
    assert "Aucun classement n’a encore été calculé" in html


def test_latest_homologated_tournaments_with_a_bounded_query_count(
    client, registry, homologated, django_assert_max_num_queries
):
    homologated("Open de Lyon", dt.date(2026, 10, 3))
    homologated("Trophée des Canuts", dt.date(2026, 11, 7), count=16)
    with django_assert_max_num_queries(6) as few:
        client.get("/")
    homologated("Coupe de la Saint-Jean", dt.date(2026, 9, 12))
    tournament_declare(declaration=declaration("Déclaré seulement", dt.date(2026, 11, 14)),
                       by=registry.users["club_manager"])  # fmt: skip
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get("/")
    shown = response.context["tournaments"]
    names = [t.name for t in shown]
    assert names == ["Trophée des Canuts", "Open de Lyon", "Coupe de la Saint-Jean"]
    assert [t.player_count for t in shown] == [16, 12, 12]
    html = response.content.decode()
    assert "07/11/2026" in html
    assert "Tarot Club de Lyon" in html
    assert "individuel" in html
    assert "Déclaré seulement" not in html


def test_latest_homologated_keeps_the_limit(registry, homologated):
    for day in (3, 10, 17):
        homologated(f"Tournoi du {day}", dt.date(2026, 10, day))
    assert [t.name for t in latest_homologated(2)] == ["Tournoi du 17", "Tournoi du 10"]


def test_home_shows_the_top_of_the_live_ranking(client, registry, homologated):
    homologated("Open de Lyon", dt.date(2026, 10, 3))
    full_recompute(season=registry.season)
    response = client.get("/")
    rows = response.context["ranking"]["rows"]
    assert rows
    assert len(rows) <= 10
    places = [row["entry"].place for row in rows]
    assert places == sorted(places)
    first = rows[0]["entry"]
    html = response.content.decode()
    assert f'href="/classement/joueur/{first.licence_number}/"' in html
    assert "Classement provisoire 2026-2027" in html


def test_home_for_a_signed_in_person(client, registry):
    client.post("/compte/connexion/", {"username": "club_manager", "password": "x"})
    html = client.get("/").content.decode()
    assert "Mon espace" in html
    assert "Se déconnecter" in html
    assert "Connecté en tant que club_manager" in html


def test_the_footer_switches_the_language(client, registry):
    home = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in home
    assert '<button type="submit" name="language" value="en" lang="en">English</button>' in home
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response["Location"] == "/"
    english = client.get("/").content.decode()
    assert '<html lang="en">' in english
    assert "Latest homologated tournaments" in english
    assert '<button type="submit" name="language" value="fr" lang="fr">Français</button>' in english
