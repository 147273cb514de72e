"""The entry pages: the organiser's entries page (enter, withdraw, fee, settings, the list
as CSV and PDF), a licensee's « S'inscrire », « Mes inscriptions » with the table and seat
once drawn, « Mes arbitrages »; each refusal on its field (400), anything out of scope a
404; and the public calendar opening on the coming tournaments, the entrants counted but
never named."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from competitions.day import entries
from competitions.day.entries import EntryRequest
from competitions.models import (
    EntryState,
    OrganizerKind,
    PlayedSession,
    Tournament,
    TournamentEntry,
)
from competitions.rules.day.layout import (
    Holder,
    SessionLayout,
    TableAt,
    layout_to_json,
    seating_to_json,
)
from competitions.rules.engine.tables import Orientation
from core.vocabulary import Format
from federation.models import Role, RoleAssignment, User

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 5)


@pytest.fixture
def tournament(registry) -> Tournament:
    return Tournament.objects.create(
        season=registry.season, name="Open de Lyon", date=DAY, venue="Salle Molière",
        format="individual", organizer_kind=OrganizerKind.CLUB,
        organizer_club=registry.clubs[101], arbiter=registry.players[1002],
        online_entries=True, entry_cap=2, start_time=dt.time(14, 0),
        address="18 quai de Bondy, Lyon", contact="Marie, 06 12 34 56 78", entry_fee="12.50",
    )  # fmt: skip


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


# --- the organiser's page ------------------------------------------------------------------


def test_the_organiser_enters_a_non_licensee_and_sees_the_list(registry, tournament):
    client = client_of(registry.users["club_manager"])
    url = reverse("day-entries", args=[tournament.pk])
    response = client.post(url, {"action": "enter", "name_1": "Jean Passant"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Jean Passant" in page
    assert "non licencié" in page
    assert "L’inscription n° 1 est enregistrée." in page


def test_an_organiser_refusal_is_shown_on_its_field(registry, tournament):
    client = client_of(registry.users["club_manager"])
    url = reverse("day-entries", args=[tournament.pk])
    response = client.post(url, {"action": "enter", "licence_1": "9999"})
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["licence_1"] == [
        "Licence 9999\u00a0: aucun joueur licencié pour la saison 2026-2027\u00a0; un joueur sans "
        "licence est inscrit par son nom, par l’organisateur."
    ]
    response = client.post(url, {"action": "enter"})
    assert response.status_code == 400
    assert response.context["form"].errors["licence_1"]


def test_withdraw_fee_and_settings_from_the_page(registry, tournament):
    manager = registry.users["club_manager"]
    client = client_of(manager)
    url = reverse("day-entries", args=[tournament.pk])
    first = entries.entry_enter(
        tournament=tournament, request=EntryRequest(licence_numbers=(1001,)), by=manager
    )
    client.post(url, {"action": "paid", "entry": first.pk})
    first.refresh_from_db()
    assert first.fee_paid
    response = client.post(url, {"action": "settings", "online_entries": "on", "entry_cap": "0"})
    assert response.status_code == 400
    assert response.context["settings_form"].errors["entry_cap"]
    client.post(url, {"action": "withdraw", "entry": first.pk})
    first.refresh_from_db()
    assert first.state == EntryState.WITHDRAWN


def test_the_list_prints_as_pdf_and_downloads_as_csv(registry, tournament):
    manager = registry.users["club_manager"]
    entries.entry_enter(
        tournament=tournament, request=EntryRequest(licence_numbers=(1001,)), by=manager
    )
    client = client_of(manager)
    csv = client.get(reverse("day-entries-csv", args=[tournament.pk]))
    text = b"".join(csv.streaming_content).decode("utf-8-sig")
    assert csv["Content-Type"].startswith("text/csv")
    assert "MARTIN Élise" in text
    assert "1001" in text
    pdf = client.get(reverse("day-entries-pdf", args=[tournament.pk]))
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")


@pytest.mark.parametrize("name", ["day-entries", "day-entries-csv", "day-entries-pdf"])
def test_the_organisers_pages_are_404_outside_their_scope(registry, tournament, name):
    manager201 = User.objects.create_user("m201", password="x")
    RoleAssignment.objects.create(user=manager201, role=Role.CLUB_MANAGER, club=registry.clubs[201])
    url = reverse(name, args=[tournament.pk])
    for user in (manager201, registry.users["player"]):
        assert client_of(user).get(url).status_code == 404
        assert (
            client_of(user)
            .post(reverse("day-entries", args=[tournament.pk]), {"action": "enter", "name_1": "X"})
            .status_code
            == 404
        )
    assert client_of(None).get(url).status_code == 302  # to the sign-in
    assert not TournamentEntry.objects.exists()
    for role in ("club_manager", "committee_staff", "arbiter"):
        assert client_of(registry.users[role]).get(url).status_code == 200


def test_the_hub_shows_the_entries_counts(registry, tournament):
    manager = registry.users["club_manager"]
    entries.entry_enter(
        tournament=tournament, request=EntryRequest(licence_numbers=(1001,)), by=manager
    )
    page = client_of(manager).get(reverse("day-hub", args=[tournament.pk])).content.decode()
    assert "1 inscription enregistrée" in page
    assert reverse("day-entries", args=[tournament.pk]) in page


# --- the player's pages --------------------------------------------------------------------


def test_a_player_enters_from_the_form_and_sees_it_in_my_entries(registry, tournament):
    client = client_of(registry.users["player"])
    url = reverse("day-enter", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "Élise" in page
    assert "1001" in page
    assert "12,50" in page
    response = client.post(url, {})
    assert response.status_code == 302
    assert response["Location"] == reverse("my-entries")
    page = client.get(reverse("my-entries")).content.decode()
    assert "Open de Lyon" in page
    assert "n° 1" in page
    assert "Salle Molière" in page
    assert "18 quai de Bondy, Lyon" in page
    # entered: the form is not offered again
    assert "Vous êtes inscrit à ce tournoi." in client.get(url).content.decode()


def test_a_full_tournament_asks_for_the_waiting_list_on_its_field(registry, tournament):
    manager = registry.users["club_manager"]
    for n in (1003, 2001):
        entries.entry_enter(
            tournament=tournament, request=EntryRequest(licence_numbers=(n,)), by=manager
        )
    client = client_of(registry.users["player"])
    url = reverse("day-enter", args=[tournament.pk])
    response = client.post(url, {})
    assert response.status_code == 400
    assert "complet" in response.context["form"].errors["waiting_list"][0]
    client.post(url, {"waiting_list": "on"})
    page = client.get(reverse("my-entries")).content.decode()
    assert "Liste d’attente, place 1" in page


def test_a_duo_partner_refused_is_shown_on_the_partners_field(registry, tournament):
    tournament.format = "duo"
    tournament.save()
    client = client_of(registry.users["player"])
    response = client.post(reverse("day-enter", args=[tournament.pk]), {"partner_1": "9999"})
    assert response.status_code == 400
    assert "Licence 9999" in response.context["form"].errors["partner_1"][0]


def test_closed_online_entries_offer_no_form(registry, tournament):
    tournament.online_entries = False
    tournament.save()
    client = client_of(registry.users["player"])
    page = client.get(reverse("day-enter", args=[tournament.pk])).content.decode()
    assert "pas ouvertes" in page
    response = client.post(reverse("day-enter", args=[tournament.pk]), {})
    assert response.status_code == 400
    assert not TournamentEntry.objects.exists()


def test_my_entries_show_the_table_and_seat_at_each_position_once_drawn(registry, tournament):
    entry = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001,)),
        by=registry.users["player"],
    )
    layout = SessionLayout(
        Format.INDIVIDUAL,
        4,
        (
            (TableAt(1, 1, {Orientation.N: 1, Orientation.S: 2, Orientation.E: 3}),),
            (TableAt(2, 2, {Orientation.N: 2, Orientation.S: 3, Orientation.W: 1}),),
        ),
    )
    PlayedSession.objects.create(
        tournament=tournament, number=1, positions=2, deals_per_position=4, placement="random",
        seed=7, plan=layout_to_json(layout),
        seating=seating_to_json({1: Holder(entry.number), 2: Holder(99), 3: Holder(98)}),
    )  # fmt: skip
    response = client_of(registry.users["player"]).get(reverse("my-entries"))
    seats = [(s.session, s.position, s.table, s.seat) for s in response.context["rows"][0].seats]
    assert seats == [(1, 1, 1, "N"), (1, 2, 2, "W")]
    assert not response.context["rows"][0].withdrawable
    # The seats are written for a French reader, not as the engine's codes.
    page = response.content.decode()
    assert "<td>Nord</td>" in page
    assert "<td>Ouest</td>" in page
    assert "<td>W</td>" not in page


def test_a_player_withdraws_from_my_entries_and_not_someone_elses(registry, tournament):
    mine = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001,)),
        by=registry.users["player"],
    )
    theirs = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1003,)),
        by=registry.users["club_manager"],
    )
    client = client_of(registry.users["player"])
    assert client.post(reverse("my-entry-withdraw"), {"entry": theirs.pk}).status_code == 404
    assert client.post(reverse("my-entry-withdraw"), {"entry": "x"}).status_code == 404
    client.post(reverse("my-entry-withdraw"), {"entry": mine.pk})
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.state, theirs.state) == (EntryState.WITHDRAWN, EntryState.ENTERED)


def test_my_arbitrations_link_to_each_days_hub(registry, tournament):
    client = client_of(registry.users["arbiter"])
    response = client.get(reverse("my-arbitrations"))
    page = response.content.decode()
    assert "Open de Lyon" in page
    assert reverse("day-hub", args=[tournament.pk]) in page
    # each row's link says which day it opens, for a screen reader
    assert 'aria-label="Jour de tournoi – Open de Lyon"' in page
    # another player arbitrates nothing
    assert (
        "Open de Lyon"
        not in client_of(registry.users["player"]).get(reverse("my-arbitrations")).content.decode()
    )


def test_the_players_space_links_to_my_entries_and_my_arbitrations(registry):
    client = client_of(registry.users["player"])
    page = client.get(reverse("my-space"), follow=True).content.decode()
    assert reverse("my-entries") in page
    assert reverse("my-arbitrations") in page


# --- the public calendar -------------------------------------------------------------------


def test_the_calendar_opens_on_the_coming_tournaments_soonest_first(registry, tournament):
    Tournament.objects.create(
        season=registry.season, name="Passé", date=dt.date(2026, 9, 5), venue="Lyon",
        format="individual", organizer_kind=OrganizerKind.CLUB,
        organizer_club=registry.clubs[101], arbiter=registry.players[1002],
    )  # fmt: skip
    Tournament.objects.create(
        season=registry.season, name="Plus tard", date=dt.date(2027, 1, 9), venue="Lyon",
        format="individual", organizer_kind=OrganizerKind.CLUB,
        organizer_club=registry.clubs[101], arbiter=registry.players[1002],
    )  # fmt: skip
    entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001,)),
        by=registry.users["player"],
    )
    response = Client().get(reverse("public-calendar"))
    names = [row["tournament"].name for row in response.context["rows"]]
    assert names == ["Open de Lyon", "Plus tard"]
    page = response.content.decode()
    for fact in ("14:00", "18 quai de Bondy, Lyon", "12,50", "Marie, 06 12 34 56 78"):
        assert fact in page, fact
    assert "inscrits\u00a0: 1 sur 2 places" in page
    assert reverse("day-enter", args=[tournament.pk]) in page
    # the entrants are counted, never named
    assert "Martin" not in page
    assert "MARTIN" not in page
    # the past is one filter away
    past = Client().get(reverse("public-calendar"), {"statut": "", "saison": "toutes"})
    assert "Passé" in [row["tournament"].name for row in past.context["rows"]]


def test_the_public_tournament_page_and_api_show_the_facts_not_the_entrants(
    registry, tournament, api
):
    entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(1001,)),
        by=registry.users["player"],
    )
    page = Client().get(reverse("public-tournament", args=[tournament.pk])).content.decode()
    assert "18 quai de Bondy, Lyon" in page
    assert reverse("day-enter", args=[tournament.pk]) in page
    assert "MARTIN" not in page
    body = api.get(f"/api/public/tournaments/{tournament.pk}/").json()
    assert (body["start_time"], body["entry_fee"], body["entry_cap"], body["entrant_count"]) == (
        "14:00:00",
        "12.50",
        2,
        1,
    )
    listed = api.get("/api/public/tournaments/", {"status": "upcoming"}).json()
    row = next(r for r in listed["results"] if r["id"] == tournament.pk)
    assert row["entrant_count"] == 1
    assert row["online_entries"] is True
    assert "1001" not in str(listed)


def test_the_hubs_way_back_is_a_page_its_reader_may_open(registry, tournament):
    """The arbiter who is not one of the club's managers cannot open the tournament's page
    in the club space (a 404): the hub leads him back to « Mes arbitrages » instead; the
    club's manager goes back to the tournament's page."""
    hub = reverse("day-hub", args=[tournament.pk])
    club_page = reverse("club-tournament", args=[tournament.pk])
    arbiter = client_of(registry.users["arbiter"])
    page = arbiter.get(hub).content.decode()
    assert arbiter.get(club_page).status_code == 404
    assert f'href="{club_page}"' not in page
    assert f'href="{reverse("my-arbitrations")}">← Mes arbitrages' in page
    manager = client_of(registry.users["club_manager"])
    assert f'href="{club_page}"' in manager.get(hub).content.decode()
    assert manager.get(club_page).status_code == 200
