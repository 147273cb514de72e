"""Declaring a tournament on its page: the API's checks, every refusal in French on its
field, the homologation conditions shown before sending."""

from __future__ import annotations

import html

import pytest

from competitions.models import Tournament

pytestmark = pytest.mark.django_db

URL = "/tournois/declarer/"


def declaration(**changes) -> dict:
    return {
        "name": "Open de Villeurbanne",
        "date": "2026-12-12",
        "venue": "Villeurbanne, salle Molière",
        "format": "individual",
        "organiser": "club:101",
        "arbiter_licence_number": "1002",
        "planned_sessions": "2",
        **changes,
    }


def test_the_page_shows_the_conditions_and_the_person_s_clubs_only(client, registry):
    client.force_login(registry.users["club_manager"])
    response = client.get(f"{URL}?format=duo")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Pour être homologué (saison 2026-2027), le tournoi doit\u00a0:" in page
    assert "arbitre officiel de la FFT" in page
    assert "11 joueurs" in page
    assert "<strong>DUO (équipes de 2)\u00a0: 6 équipes</strong>" in page  # the chosen format
    assert "n’avoir aucune table de 5 joueurs" in page
    organisers = response.context["form"].fields["organiser"].choices
    assert [(group, [value for value, _label in choices]) for group, choices in organisers] == [
        ("Clubs", ["club:101"])
    ]
    assert "Petit au Bout Rennes" not in page


def test_declaring_leads_to_the_tournament_s_page(client, registry):
    client.force_login(registry.users["club_manager"])
    response = client.post(URL, declaration())
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tournois/{tournament.pk}/"
    assert tournament.organizer_club == registry.clubs[101]
    assert tournament.planned_sessions == 2
    assert tournament.declared_by == registry.users["club_manager"]
    assert tournament.season == registry.season
    page = client.get(response["Location"]).content.decode()
    assert "Open de Villeurbanne" in page
    assert "déclaré" in page.lower()


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"arbiter_licence_number": "9999"}, "arbiter_licence_number",
         "Numéro inconnu\u00a0: 9999."),
        ({"arbiter_licence_number": "1001"}, "arbiter_licence_number",
         "La licence 1001 n’est pas celle d’un arbitre officiel de la FFT pour la saison "
         "2026-2027."),
        ({"date": "2031-01-10"}, "date",
         "Aucune saison de la fédération ne contient le 10/01/2031."),
        ({"organiser": "club:201"}, "organiser", "Sélectionnez un choix valide."),
        ({"name": ""}, "name", "Ce champ est obligatoire."),
        ({"planned_sessions": "0"}, "planned_sessions", "supérieure ou égale à 1"),
        ({"date": "2026-13-45"}, "date", "Saisissez une date valide."),
    ],
)  # fmt: skip
def test_every_refusal_is_shown_in_french_on_its_field(client, registry, changes, field, message):
    client.force_login(registry.users["club_manager"])
    response = client.post(URL, declaration(**changes))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert message in " ".join(errors[field]), errors
    assert message in html.unescape(response.content.decode())  # shown, on the page
    assert not Tournament.objects.exists()


def test_the_service_s_problems_come_together(client, registry):
    client.force_login(registry.users["club_manager"])
    response = client.post(URL, declaration(date="2031-01-10", arbiter_licence_number="9999"))
    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"date", "arbiter_licence_number"}


def test_english_on_request(client, registry):
    client.force_login(registry.users["club_manager"])
    response = client.post(
        URL, declaration(arbiter_licence_number="9999"), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "No player with licence number 9999." in response.content.decode()


def test_committee_staff_declare_for_their_committee_or_its_clubs(client, registry):
    client.force_login(registry.users["committee_staff"])
    form = client.get(URL).context["form"]
    values = {value for _group, choices in form.fields["organiser"].choices for value, _ in choices}
    assert values == {"club:101", "club:102", "committee:1"}
    response = client.post(URL, declaration(organiser="committee:1", format="team4"))
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.organizer_kind == "committee"
    assert tournament.organizer_committee == registry.committees[1]


def test_federation_staff_may_declare_for_the_fft(client, registry):
    client.force_login(registry.users["federation_staff"])
    response = client.post(URL, declaration(organiser="federation"))
    assert response.status_code == 302
    assert Tournament.objects.get().organizer_kind == "federation"


def test_a_player_without_role_may_not_declare(client, registry):
    client.force_login(registry.users["player"])
    assert client.get(URL).status_code == 403
    assert client.post(URL, declaration()).status_code == 403
    assert not Tournament.objects.exists()


def placed(*methods: str) -> dict[str, str]:
    """The form's placement fields, position by position."""
    return {f"placement_{n}": method for n, method in enumerate(methods, start=1)}


def test_the_placement_of_each_position_is_declared_and_checked(client, registry):
    """Chapter 2: the placements the arbiter announces, chosen in French position by
    position (no code to type); a sequence the text forbids is a form error in French on
    the position's field, and nothing is declared."""
    client.force_login(registry.users["club_manager"])
    page = client.get(URL).content.decode()
    assert "Mouvement FFT" in page
    assert "fft_movement," not in page
    response = client.post(
        URL,
        declaration(**placed("fft_movement", "fft_movement", "random", "best_against_best")),
    )
    assert response.status_code == 302
    assert Tournament.objects.get().placements == [
        "fft_movement", "fft_movement", "random", "best_against_best"
    ]  # fmt: skip
    response = client.post(URL, declaration(name="Open 2", **placed("random", "", "random")))
    assert response.status_code == 400
    assert response.context["form"].errors["placement_2"] == [
        "Choisissez la mise en place de cette position\u00a0: une position suivante en a une."
    ]
    response = client.post(
        URL, declaration(name="Open 2", **placed("fft_movement", "random", "fft_movement"))
    )
    assert response.status_code == 400
    assert response.context["form"].errors["placement_3"] == [
        "La position 3 ne peut pas revenir au mouvement FFT\u00a0: la position 2 a suivi un autre "
        "placement, après lequel le mouvement FFT ne peut pas reprendre."
    ]
    assert Tournament.objects.count() == 1
