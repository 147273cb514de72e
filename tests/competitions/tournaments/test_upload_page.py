"""The upload page as a club secretary uses it: a file saved by French Excel, every
problem at once in French where it is, a name confirmed, the preview, the submission."""

from __future__ import annotations

import copy
import random
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from competitions.models import (
    Allocation,
    LicenceNameConfirmation,
    ResultRevision,
    Tournament,
    TournamentStatus,
)
from federation.models import Licence, Player, Role, RoleAssignment, User
from tests.competitions.rules.results.mistakes import excel_csv, with_mistakes
from tests.competitions.rules.results.tournament_builder import play

pytestmark = pytest.mark.django_db
NBSP = "\u00a0"


@pytest.fixture
def results():
    """A played tournament of 12 players, one of them with an accented name."""
    document = copy.deepcopy(
        play(random.Random(7), players=12, sessions=2, positions=2, deals=3).results_document()
    )
    document["entries"][2]["players"][0]["name"] = "DESPRÉS Cécile"
    return document


@pytest.fixture
def tournament(registry, results):
    for entry in results["entries"]:
        for p in entry["players"]:
            if p["licence_number"]:
                player = Player.objects.create(
                    licence_number=p["licence_number"], last_name=p["name"], first_name=""
                )
                Licence.objects.create(
                    player=player, season=registry.season, club=registry.clubs[101]
                )
    return Tournament.objects.create(
        season=registry.season, name="Tournoi du jeudi", date="2026-12-03", venue="Lyon",
        format="individual", organizer_kind="club", organizer_club=registry.clubs[101],
        arbiter=registry.players[1002],
    )  # fmt: skip


def url(tournament) -> str:
    return f"/tournois/{tournament.pk}/resultats/"


def check(client, tournament, content: bytes, name="resultats.csv", source=""):
    return client.post(
        url(tournament), {"file": SimpleUploadedFile(name, content), "source": source}
    )


def sha256_of(page: str) -> str:
    return re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)


def text(response) -> str:
    return response.content.decode()


def test_anonymous_is_sent_to_sign_in(client, tournament):
    response = client.get(url(tournament))
    assert response.status_code == 302
    assert "login" in response["Location"] or "connexion" in response["Location"]


def test_other_club_manager_is_refused(client, registry, tournament):
    other = User.objects.create_user("rennes")
    RoleAssignment.objects.create(user=other, role=Role.CLUB_MANAGER, club=registry.clubs[201])
    client.force_login(other)
    assert client.get(url(tournament)).status_code == 403


def test_the_form_speaks_of_a_file_type_not_a_formule(client, registry, tournament):
    client.force_login(registry.users["club_manager"])
    page = text(client.get(url(tournament)))
    assert "Type de fichier" in page
    assert "Fichier des résultats" in page
    assert "formule" not in page.lower()


def test_three_mistakes_in_a_french_excel_file_are_listed_at_once_in_french(
    client, registry, tournament, results
):
    client.force_login(registry.users["club_manager"])
    mistakes = with_mistakes(results)
    response = check(client, tournament, mistakes.text.encode("cp1252"))
    assert response.status_code == 400
    page = text(response)
    assert f"3 problèmes à corriger{NBSP}: rien n’a été enregistré" in page
    where = re.findall(r"<tr><td>([^<]*)</td><td>", page)
    assert where == [
        f"ligne {mistakes.renamed_line}, colonne «{NBSP}numéro de licence{NBSP}»",
        f"ligne {mistakes.unbalanced_line}, colonne «{NBSP}score{NBSP}»",
        f"ligne {mistakes.misplaced_line}, colonne «{NBSP}place{NBSP}»",
    ]
    assert (
        f"La licence {mistakes.licence_number} est celle de «{NBSP}{mistakes.registry_name}"
        f"{NBSP}» dans le fichier des licenciés, pas de «{NBSP}{mistakes.written_name}{NBSP}»"
    ) in page
    assert "totalisent +10 au lieu de 0" in page
    assert "est classé à la place 3, mais son total le classe à la place 2" in page
    assert "Line " not in page
    assert "lines[" not in page
    assert ResultRevision.objects.count() == 0


def test_a_name_is_confirmed_then_previewed_then_sent_and_the_confirmation_recorded(
    client, registry, tournament, results
):
    manager = registry.users["club_manager"]
    client.force_login(manager)
    player = results["entries"][4]["players"][0]
    content = excel_csv(results).replace(player["name"], "DUPONT-LAJOIE Marcel", 1)
    first = check(client, tournament, content.encode("cp1252"))
    assert first.status_code == 400
    page = text(first)
    assert "1 problème à corriger" in page
    assert f'name="confirm" value="{player["licence_number"]}"' in page
    assert "C’est bien cette personne" in page

    preview = client.post(
        url(tournament),
        {"action": "recheck", "sha256": sha256_of(page), "confirm": player["licence_number"]},
    )
    assert preview.status_code == 200
    page = text(preview)
    assert "Aperçu" in page
    assert "Envoyer ces résultats" in page
    assert "DESPRÉS Cécile" in page  # read from Windows-1252
    first_place = min(results["entries"], key=lambda e: e["place"])
    assert f"<td>{first_place['number']}</td>" in page
    assert re.search(r"<th>PCN</th>", page)
    assert ResultRevision.objects.count() == 0
    assert Allocation.objects.count() == 0

    sent = client.post(
        url(tournament),
        {"action": "submit", "sha256": sha256_of(page), "confirm": player["licence_number"]},
    )
    assert sent.status_code == 200
    page = text(sent)
    assert "Résultats reçus (version 1)" in page
    assert 'href="/tournois/"' in page
    revision = ResultRevision.objects.get(tournament=tournament)
    confirmation = LicenceNameConfirmation.objects.get(revision=revision)
    assert (confirmation.licence_number, confirmation.name_in_file) == (
        player["licence_number"],
        "DUPONT-LAJOIE Marcel",
    )
    assert confirmation.registry_name == player["name"]
    assert confirmation.confirmed_by == manager
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RESULTS_SUBMITTED


def test_without_the_confirmation_the_submission_is_refused_again(
    client, registry, tournament, results
):
    client.force_login(registry.users["club_manager"])
    player = results["entries"][4]["players"][0]
    content = excel_csv(results).replace(player["name"], "DUPONT-LAJOIE Marcel", 1)
    page = text(check(client, tournament, content.encode()))
    response = client.post(url(tournament), {"action": "submit", "sha256": sha256_of(page)})
    assert response.status_code == 400
    assert ResultRevision.objects.count() == 0


def test_the_browser_cannot_send_content_of_its_own(client, registry, tournament, results):
    client.force_login(registry.users["club_manager"])
    check(client, tournament, excel_csv(results).encode())
    response = client.post(url(tournament), {"action": "submit", "sha256": "0" * 64})
    assert response.status_code == 400
    assert "n’est plus conservé" in text(response)
    assert ResultRevision.objects.count() == 0


def test_a_workbook_is_refused_with_instructions(client, registry, tournament):
    client.force_login(registry.users["club_manager"])
    response = check(client, tournament, b"PK\x03\x04 not really a workbook", "res.xlsx", "csv")
    assert response.status_code == 400
    assert f"«{NBSP}CSV (séparateur{NBSP}: point-virgule){NBSP}»" in text(response)
