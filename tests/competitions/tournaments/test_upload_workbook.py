"""The results sample sent as a secretary has it: an Excel workbook, columns headed in
French; the preview is the CSV's. And the templates offered on the upload page."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import load_workbook

from competitions.models import Tournament
from competitions.rules.results.csv_columns import FRENCH_COLUMNS, FRENCH_RECORDS
from competitions.rules.results.csv_format import read_csv
from federation.models import Licence, Player
from tests.core.test_workbooks import ods, typed_cells, xlsx

pytestmark = pytest.mark.django_db
SAMPLES = Path(__file__).resolve().parents[3] / "docs" / "samples"
SAMPLE = SAMPLES / "results-individual.csv"


@pytest.fixture
def tournament(registry):
    document = json.loads((SAMPLES / "results-individual.json").read_text())
    for entry in document["entries"]:
        for p in entry["players"]:
            if p["licence_number"] is not None:
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


def sample_rows(*, french: bool) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(SAMPLE.read_text(encoding="utf-8-sig")), delimiter=";"))
    if french:  # headed as a secretary would: capitals, accents, spaces
        rows[0] = [FRENCH_COLUMNS[code].capitalize() for code in rows[0]]
        rows[1:] = [[FRENCH_RECORDS[row[0]].upper(), *row[1:]] for row in rows[1:]]
    return rows


def preview_of(client, tournament, name: str, content: bytes):
    response = client.post(
        f"/tournois/{tournament.pk}/resultats/", {"file": SimpleUploadedFile(name, content)}
    )
    assert response.status_code == 200, response.content.decode()[:2000]
    return response.context["preview"]


def test_the_sample_as_a_workbook_headed_in_french_previews_as_the_csv(
    client, registry, tournament
):
    client.force_login(registry.users["club_manager"])
    from_csv = preview_of(client, tournament, "resultats.csv", SAMPLE.read_bytes())
    english = xlsx([typed_cells(row) for row in sample_rows(french=False)])
    french = xlsx([typed_cells(row) for row in sample_rows(french=True)])
    french_csv = "\n".join(";".join(row) for row in sample_rows(french=True)).encode()
    assert preview_of(client, tournament, "resultats.xlsx", english) == from_csv
    assert preview_of(client, tournament, "Résultats jeudi.xlsx", french) == from_csv
    # A workbook's bytes are known whatever its name.
    assert preview_of(client, tournament, "resultats", french) == from_csv
    assert preview_of(client, tournament, "resultats.csv", french_csv) == from_csv


def test_the_sample_as_an_opendocument_spreadsheet_previews_as_the_csv(
    client, registry, tournament
):
    client.force_login(registry.users["club_manager"])
    from_csv = preview_of(client, tournament, "resultats.csv", SAMPLE.read_bytes())
    french = ods([typed_cells(row) for row in sample_rows(french=True)])
    assert preview_of(client, tournament, "Résultats jeudi.ods", french) == from_csv
    assert preview_of(client, tournament, "resultats", french) == from_csv


def test_a_workbook_of_two_sheets_is_refused_in_french(client, registry, tournament):
    client.force_login(registry.users["club_manager"])
    book = xlsx([["type"]], [["brouillon"]], titles=("Résultats", "Brouillon"))
    response = client.post(
        f"/tournois/{tournament.pk}/resultats/",
        {"file": SimpleUploadedFile("resultats.xlsx", book)},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Ce classeur a 2 feuilles remplies" in page
    assert "UTF-8" not in page.split("Ce classeur a 2")[1][:300]


def test_the_report_names_columns_in_french(client, registry, tournament):
    client.force_login(registry.users["club_manager"])
    rows = sample_rows(french=True)
    first_position = next(row for row in rows if row[0] == "POSITION")
    first_position[rows[0].index("Score")] = "beaucoup"
    content = "\n".join(";".join(row) for row in rows).encode()
    response = client.post(
        f"/tournois/{tournament.pk}/resultats/",
        {"file": SimpleUploadedFile("resultats.csv", content)},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "colonne «\xa0score\xa0»" in page
    assert "lines[" not in page


@pytest.mark.parametrize("file_format", ["csv", "xlsx"])
def test_the_templates_read_back_without_a_problem(client, registry, tournament, file_format):
    client.force_login(registry.users["club_manager"])
    page = client.get(f"/tournois/{tournament.pk}/resultats/").content.decode()
    link = f"/tournois/modele-resultats.{file_format}"
    assert link in page
    response = client.get(link)
    assert response.status_code == 200
    content = response.content
    reading = read_csv(content)
    assert reading.problems == ()
    assert reading.document is not None
    assert len(reading.document.entries) == 1
    if file_format == "xlsx":
        sheet = load_workbook(io.BytesIO(content)).active
        assert sheet.freeze_panes == "A2"
        assert sheet.cell(1, 1).value == "type"
        assert sheet.cell(1, 10).value == "numéro de licence"
    else:
        assert content.decode("utf-8-sig").startswith("type;séance;tables;")
