"""The declaration page's kind of event and sessions: each refusal in French on its field,
and the conditions of the season shown before sending."""

from __future__ import annotations

import html

import pytest

from competitions.models import DeclaredSession, Tournament
from tests.competitions.tournaments.test_declaration_page import URL, declaration

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"event_kind": "team_match", "format": "duo", "arbiter_plays": "on"}, "arbiter_plays",
         "L’arbitre ne peut pas jouer dans un match par équipes qu’il dirige"),
        ({"event_kind": "festival", "arbiter_plays": "on"}, "arbiter_plays",
         "L’arbitre ne peut pas jouer dans un tournoi de festival qu’il dirige"),
        ({"event_kind": "team_match"}, "format", "Un match par équipes se joue par équipes"),
        ({"session_2_date": "2026-12-13"}, "session_2_date",
         "La séance 2 est déclarée le 13/12/2026, un autre jour que la première séance"),
        ({"session_2_date": "2026-12-12", "session_2_venue": "Bron"}, "session_2_venue",
         "La séance 2 est déclarée à «\u00a0Bron\u00a0»"),
        ({"session_2_date": "2026-12-12", "session_3_date": "2026-12-12"}, "planned_sessions",
         "3 séances sont déclarées, mais le tournoi en prévoit 2"),
        ({"session_3_venue": "Bron"}, "session_3_date",
         "Indiquez la date de cette séance, ou aucun lieu."),
    ],
)  # fmt: skip
def test_each_refusal_is_on_its_field_in_french(client, registry, changes, field, message):
    client.force_login(registry.users["club_manager"])
    response = client.post(URL, declaration(**changes))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert message in " ".join(errors[field]), errors
    assert message in html.unescape(response.content.decode())
    assert not Tournament.objects.exists()


def test_a_team_match_with_its_sessions_is_declared(client, registry):
    client.force_login(registry.users["club_manager"])
    response = client.post(
        URL, declaration(event_kind="team_match", format="team4", session_2_date="2026-12-12")
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.event_kind == "team_match"
    assert list(DeclaredSession.objects.values_list("number", "venue")) == [
        (1, "Villeurbanne, salle Molière"),
        (2, "Villeurbanne, salle Molière"),
    ]


def test_without_a_later_session_nothing_is_declared_per_session(client, registry):
    client.force_login(registry.users["club_manager"])
    assert client.post(URL, declaration()).status_code == 302
    assert Tournament.objects.get().event_kind == "free_tournament"
    assert not DeclaredSession.objects.exists()


def test_the_conditions_name_the_kinds_of_event(client, registry):
    client.force_login(registry.users["club_manager"])
    page = html.unescape(client.get(URL).content.decode())
    assert (
        "pour les championnats officiels, les matches par équipes, les festivals de tarot, "
        "être dirigé par un arbitre qui n’y joue pas" in page
    )
    assert "en un seul jour, sauf les championnats officiels" in page
    assert "s’il s’agit d’un match par équipes, se jouer par équipes\u00a0: DUO" in page
