"""The ranking CSV export as a spreadsheet reads it: no cell a spreadsheet would evaluate
as a formula (OWASP's CSV injection rule, core/spreadsheet.py)."""

from __future__ import annotations

import csv
import io

import pytest

from core.spreadsheet import safe_cell
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db

HOSTILE = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1:A2)", "\t=1+1", "\r=1+1"]


def test_safe_cell_quotes_what_a_spreadsheet_would_evaluate():
    for text in HOSTILE:
        assert safe_cell(text) == "'" + text
    assert safe_cell("Dupont") == "Dupont"
    assert safe_cell("Saint-Just") == "Saint-Just"
    assert safe_cell(None) == ""
    assert safe_cell(-3) == -3  # a number the service wrote is a value, not a formula


def test_ranking_export_escapes_every_hostile_cell(api, registry, federation, add_tournament):
    players = federation.players[:6]
    for player, text in zip(players, HOSTILE, strict=True):
        player.last_name = text
        player.first_name = text
        player.save()
    add_tournament(registry.season, {p: (100 - i, 0) for i, p in enumerate(players)},
                   club=registry.clubs[101], arbiter=federation.players[20])  # fmt: skip
    full_recompute(season=registry.season)
    api.force_authenticate(registry.users["federation_staff"])
    response = api.get("/api/pcn/ranking/export/")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    header, body = rows[0], rows[1:]
    names = {(row[header.index("Nom")], row[header.index("Prénom")]) for row in body}
    for hostile in HOSTILE:
        assert ("'" + hostile, "'" + hostile) in names
    for row in body:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), row
            assert not cell.startswith("-") or cell.lstrip("-").isdigit(), row
