"""The room's pages and printouts: check-in on a phone, the draw, the room plan, the PDFs,
a player's seats; who reads, who acts, who gets a 404."""

import io

import pytest
from pypdf import PdfReader

from competitions.day import room
from competitions.models import EntryMember

SEES = ("arbiter", "club_manager", "committee_staff", "zone_staff", "federation_staff")


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def urls(pk: int, number: int = 1) -> list[str]:
    base = f"/tournois/{pk}/jour/"
    return [
        f"{base}accueil/",
        f"{base}tirage/",
        f"{base}seances/{number}/",
        f"{base}seances/{number}/cartes.pdf",
        f"{base}seances/{number}/fiches.pdf",
        f"{base}seances/{number}/feuilles.pdf",
    ]


def writes(pk: int) -> list[tuple[str, dict]]:
    base = f"/tournois/{pk}/jour/"
    return [
        (f"{base}accueil/1/", {"present": "0"}),
        (f"{base}accueil/retardataire/", {"member_1": "Invité Tardif"}),
        (f"{base}accueil/forfaits/", {"confirmed": "1"}),
        (
            f"{base}tirage/",
            {"positions": "4", "deals_per_position": "4", "placement": "random", "session": "1"},
        ),
    ]


@pytest.mark.parametrize("role", SEES)
def test_those_in_scope_read_every_page(client, registry, day_field, role):
    client.force_login(registry.users[role])
    for url in urls(day_field.tournament.pk):
        response = client.get(url)
        assert response.status_code == 200, url


@pytest.mark.parametrize("role", ["player", "other_club"])
def test_others_get_a_404_on_every_page_and_action(client, registry, day_field, role):
    from federation.models import Role, RoleAssignment, User

    if role == "other_club":
        user = User.objects.create_user(username="other", password="x")
        RoleAssignment.objects.create(user=user, role=Role.CLUB_MANAGER, club=registry.clubs[102])
    else:
        user = registry.users[role]
    client.force_login(user)
    pk = day_field.tournament.pk
    for url in urls(pk):
        assert client.get(url).status_code == 404, url
    for url, data in writes(pk):
        assert client.post(url, data).status_code == 404, url
    assert day_field.tournament.day_entries.count() == 12
    assert day_field.tournament.played_sessions.get().seed == day_field.session.seed


def test_the_anonymous_are_sent_to_sign_in(client, day_field):
    for url in urls(day_field.tournament.pk):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/compte/connexion/")


def test_a_stage_is_read_not_run_by_a_club_manager(client, registry, day_field):
    """A championship stage is run by its arbiter and the staff; its club's manager, who
    runs an ordinary tournament, gets a 404 there."""
    tournament = day_field.tournament
    tournament.stage = "committee_final"
    tournament.save()
    client.force_login(registry.users["club_manager"])
    assert client.get(f"/tournois/{tournament.pk}/jour/accueil/").status_code == 404


def test_check_in_lists_searches_and_toggles(client, registry, day_tournament, enter_players):
    tournament = day_tournament()
    entries = enter_players(tournament, 3, present=False)
    client.force_login(registry.users["arbiter"])
    base = f"/tournois/{tournament.pk}/jour/accueil/"
    name = entries[1].members.get().player.last_name
    page = client.get(base, {"q": name.lower()}).content.decode()
    assert name.upper() in page
    assert entries[0].members.get().player.last_name.upper() not in page
    response = client.post(f"{base}2/", {"present": "1", "q": name})
    assert response.status_code == 302
    assert response["Location"].endswith("#entry-2")
    entries[1].refresh_from_db()
    assert entries[1].present
    assert "✓ Présent" in client.get(base).content.decode()


def test_a_late_arrival_is_refused_on_its_field(client, registry, day_field):
    client.force_login(registry.users["arbiter"])
    base = f"/tournois/{day_field.tournament.pk}/jour/accueil/retardataire/"
    response = client.post(base, {"member_1": "999999"})
    assert response.status_code == 400
    assert "Aucun licencié ne porte le numéro de licence 999999." in response.content.decode()
    response = client.post(base, {"member_1": str(registry.players[2001].licence_number)})
    assert response.status_code == 302
    assert EntryMember.objects.filter(
        tournament=day_field.tournament, player=registry.players[2001]
    )


def test_withdrawing_no_shows_asks_first(client, registry, day_tournament, enter_players):
    tournament = day_tournament()
    enter_players(tournament, 2, present=False)
    client.force_login(registry.users["arbiter"])
    url = f"/tournois/{tournament.pk}/jour/accueil/forfaits/"
    assert client.post(url).status_code == 200  # the confirmation page
    assert tournament.day_entries.filter(state="withdrawn").count() == 0
    assert client.post(url, {"confirmed": "1"}).status_code == 302
    assert tournament.day_entries.filter(state="withdrawn").count() == 2


def test_the_draw_refuses_a_field_the_movement_cannot_seat(
    client, registry, day_tournament, enter_players
):
    tournament = day_tournament()
    enter_players(tournament, 8)
    client.force_login(registry.users["arbiter"])
    response = client.post(
        f"/tournois/{tournament.pk}/jour/tirage/",
        {"positions": "4", "deals_per_position": "4", "placement": "random"},
    )
    assert response.status_code == 400
    assert "les mouvements du règlement commencent à 3 tables" in response.content.decode()
    assert not tournament.played_sessions.exists()


def test_a_session_is_drawn_with_tables_of_five(client, registry, day_tournament, enter_players):
    tournament = day_tournament(tables_of_five=True)
    enter_players(tournament, 13)
    client.force_login(registry.users["arbiter"])
    page = client.get(f"/tournois/{tournament.pk}/jour/tirage/").content.decode()
    assert "1 table de 5 joueurs (avec un mort)" in page
    response = client.post(
        f"/tournois/{tournament.pk}/jour/tirage/",
        {"positions": "3", "deals_per_position": "5", "placement": "random", "seed": "11"},
    )
    assert response.status_code == 302
    plan = client.get(response["Location"]).content.decode()
    assert "table de 5 (avec un mort)" in plan
    session = tournament.played_sessions.get()
    assert session.seed == 11


def test_a_redraw_after_scores_is_refused_in_words(client, registry, day_field):
    from competitions.models import DealRecord, Provenance

    DealRecord.objects.create(
        session=day_field.session, position=1, table=1, deal=1, line={}, marks={},
        provenance=Provenance.ARBITER,
    )  # fmt: skip
    client.force_login(registry.users["arbiter"])
    response = client.post(
        f"/tournois/{day_field.tournament.pk}/jour/tirage/",
        {"positions": "4", "deals_per_position": "4", "placement": "random", "session": "1"},
    )
    assert response.status_code == 409
    assert "elle ne peut plus être tirée à nouveau" in response.content.decode()


def test_the_printouts_carry_the_names(client, registry, day_tournament, enter_players):
    tournament = day_tournament(tables_of_five=True)
    entries = enter_players(tournament, 13)
    room.late_arrival_add(
        tournament=tournament, members=["Zoé Łukasz"], by=registry.users["arbiter"]
    )
    room.session_draw(
        tournament=tournament, positions=2, deals_per_position=3, seed=5,
        by=registry.users["arbiter"],
    )  # fmt: skip
    client.force_login(registry.users["arbiter"])
    base = f"/tournois/{tournament.pk}/jour/seances/1/"
    someone = entries[0].members.get().player.last_name.upper()
    cards = pdf_text(client.get(base + "cartes.pdf").content)
    assert "Table 1" in cards
    assert someone in cards
    assert "Zoé Łukasz" in cards
    # the fifth seat has the one name the pages give it (rules.engine.tables.seat_word)
    assert "5e (" in cards
    assert "5e joueur" not in cards
    sheets = pdf_text(client.get(base + "fiches.pdf").content)
    assert sheets.count("Position") >= 14
    assert someone in sheets
    scores = pdf_text(client.get(base + "feuilles.pdf").content)
    assert "Mort" in scores  # 14 players: tables of 5
    assert "Séance 1 – position 2 – table 3" in scores
    assert someone in scores


def test_a_player_sees_where_to_sit(client, registry, day_tournament, enter_players):
    tournament = day_tournament()
    enter_players(tournament, 11)
    room.late_arrival_add(
        tournament=tournament,
        members=[registry.players[1001].licence_number],
        by=registry.users["arbiter"],
    )
    client.force_login(registry.users["player"])
    url = f"/tournois/{tournament.pk}/mes-places/"
    assert "pas encore tiré les places" in client.get(url).content.decode()
    room.session_draw(
        tournament=tournament, positions=3, deals_per_position=4, by=registry.users["arbiter"]
    )
    page = client.get(url).content.decode()
    assert page.count("seat-big") == 3
    client.force_login(registry.users["committee_staff"])  # not entered: nothing to see
    assert client.get(url).status_code == 404


def test_the_hub_leads_to_the_room(client, registry, day_field):
    client.force_login(registry.users["arbiter"])
    page = client.get(f"/tournois/{day_field.tournament.pk}/jour/").content.decode()
    assert f"/tournois/{day_field.tournament.pk}/jour/accueil/" in page
    assert "Plan de salle, séance 1" in page
    assert "1 séance tirée" in page


def test_the_table_cards_of_one_position(client, registry, day_field):
    client.force_login(registry.users["arbiter"])
    base = f"/tournois/{day_field.tournament.pk}/jour/seances/1/cartes.pdf"
    response = client.get(base, {"position": "2"})
    assert 'filename="cartes-seance-1-position-2.pdf"' in response["Content-Disposition"]
    cards = pdf_text(response.content)
    assert cards.count("Séance 1 – position 2") == 3
    assert "position 1" not in cards


def test_the_cards_carry_the_printing_address_unless_site_url_is_set(
    client, registry, day_field, settings
):
    client.force_login(registry.users["arbiter"])
    url = f"/tournois/{day_field.tournament.pk}/jour/seances/1/cartes.pdf"
    settings.SITE_URL_SET = False  # `make run`: the laptop's address, not localhost
    cards = pdf_text(client.get(url, HTTP_HOST="127.0.0.1:8000").content)
    assert "http://127.0.0.1:8000/table/" in cards
    assert "localhost" not in cards
    settings.SITE_URL_SET = True
    settings.SITE_URL = "https://tarot.example.org"
    cards = pdf_text(client.get(url, HTTP_HOST="127.0.0.1:8000").content)
    assert "https://tarot.example.org/table/" in cards
    assert "127.0.0.1" not in cards
