"""The upload form a person uses: every problem shown, nothing stored; then accepted."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from competitions.models import ResultRevision, Tournament
from federation.models import Licence, Player

pytestmark = pytest.mark.django_db
SAMPLES = Path(__file__).resolve().parents[3] / "docs" / "samples"


@pytest.fixture
def tournament(registry):
    document = json.loads((SAMPLES / "results-individual.json").read_text())
    for entry in document["entries"]:
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


def upload(client, tournament, name, content):
    return client.post(
        f"/tournois/{tournament.pk}/resultats/",
        {"file": SimpleUploadedFile(name, content), "source": ""},
    )


def test_anonymous_is_sent_to_sign_in(client, tournament):
    response = client.get(f"/tournois/{tournament.pk}/resultats/")
    assert response.status_code == 302
    assert response["Location"].startswith("/compte/connexion/?next=")


def test_other_club_manager_is_refused(client, registry, tournament):
    from federation.models import Role, RoleAssignment, User

    other = User.objects.create_user("rennes")
    RoleAssignment.objects.create(user=other, role=Role.CLUB_MANAGER, club=registry.clubs[201])
    client.force_login(other)
    assert client.get(f"/tournois/{tournament.pk}/resultats/").status_code == 403


def test_bad_file_lists_problems_in_french_and_stores_nothing(client, registry, tournament):
    client.force_login(registry.users["club_manager"])
    bad = (SAMPLES / "results-individual.csv").read_text().replace("record", "type", 1)
    response = upload(client, tournament, "resultats.csv", bad.encode())
    assert response.status_code == 400
    page = response.content.decode()
    assert "nothing was stored" not in page  # French first
    assert "rien n" in page.lower()
    assert ResultRevision.objects.count() == 0


def test_good_file_is_received_then_idempotent(client, registry, tournament):
    client.force_login(registry.users["club_manager"])
    content = (SAMPLES / "results-individual.csv").read_bytes()
    first = upload(client, tournament, "resultats.csv", content)
    assert first.status_code == 200
    assert ResultRevision.objects.filter(tournament=tournament).count() == 1
    second = upload(client, tournament, "resultats.csv", content)
    assert second.status_code == 200
    assert ResultRevision.objects.filter(tournament=tournament).count() == 1
    listing = client.get("/tournois/")
    assert "Tournoi du jeudi" in listing.content.decode()
