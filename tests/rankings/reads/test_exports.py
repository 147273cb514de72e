"""The ranking exports staff, committees and clubs use: CSV, XLSX and a printable PDF
with French headers and labels (English on request), scoped to the caller, safe to
open in a spreadsheet."""

from __future__ import annotations

import base64
import csv
import io
import re
import zlib

import pytest
from openpyxl import load_workbook

from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db

URL = "/api/pcn/ranking/export/"
FRENCH_HEADER = [
    "Place", "Licence", "Nom", "Prénom", "Club", "Nom du club", "Comité", "Série", "PCN", "PP",
    "PCN de la saison", "PP de la saison", "PCN reportés", "PP reportés", "Tournois",
    "Place dans le comité", "Place dans le club",
]  # fmt: skip
ENGLISH_HEADER = [
    "Place", "Licence", "Last name", "First name", "Club", "Club name", "Committee", "Series",
    "PCN", "PP", "Season PCN", "Season PP", "Carried-over PCN", "Carried-over PP",
    "Tournaments", "Place in committee", "Place in club",
]  # fmt: skip
HOSTILE = '=HYPERLINK("http://x")'


@pytest.fixture
def ranked(registry, federation, add_tournament):
    """The current season ranked: players of committees 1 (clubs 101, 102) and 2 (201);
    one player's name is a formula."""
    p = federation.players
    p[5].last_name = HOSTILE
    p[5].save()
    add_tournament(registry.season, {p[i]: (300 - 10 * i, i % 3) for i in range(24)},
                   club=registry.clubs[101], arbiter=p[24])  # fmt: skip
    full_recompute(season=registry.season)
    return federation


def read_csv(response) -> list[list[str]]:
    raw = b"".join(response.streaming_content)
    assert raw.startswith("\ufeff".encode())  # the BOM: French Excel reads UTF-8
    return list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline=""), delimiter=";"))


def _streams(content: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Each stream object of a PDF as reportlab writes it (a flat dictionary, then
    ``/Length`` bytes), by object number: (dictionary, data inflated)."""
    streams = {}
    for match in re.finditer(rb"(\d+) 0 obj\s*<<([^<>]*)>>\s*stream\r?\n", content):
        head = match.group(2)
        length = re.search(rb"/Length (\d+)", head)
        assert length is not None
        data = content[match.end() : match.end() + int(length.group(1))]
        if b"ASCII85Decode" in head:
            data = base64.a85decode(data.strip(), adobe=True)
        if b"FlateDecode" in head:
            data = zlib.decompress(data)
        streams[int(match.group(1))] = (head, data)
    return streams


def _literal(text: bytes) -> bytes:
    """A PDF literal string's bytes (its escapes undone)."""
    escapes = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}

    def undo(match: re.Match[bytes]) -> bytes:
        escaped = match.group(1)
        if escaped[:1].isdigit():
            return bytes([int(escaped, 8)])
        return escapes.get(escaped, escaped)

    return re.sub(rb"\\([0-7]{1,3}|.)", undo, text, flags=re.S)


def pdf_drawn(content: bytes) -> list[tuple[str, bool]]:
    """The strings a PDF draws, as a reader extracts them, each with whether its font is
    embedded: each ``Tj`` string decoded through its font's ``/ToUnicode`` map (the
    subsets of an embedded TrueType font reportlab writes), or as Latin-1 for a
    standard font (not embedded). Pages' text only."""
    streams = _streams(content)
    fonts: dict[bytes, dict[int, str] | None] = {}
    for font in re.findall(rb"<<([^<>]*/Type /Font\b[^<>]*)>>", content):
        name = re.search(rb"/Name /(\S+)", font)
        assert name is not None
        to_unicode = re.search(rb"/ToUnicode (\d+) 0 R", font)
        if to_unicode is None:
            fonts[name.group(1)] = None
            continue
        cmap = streams[int(to_unicode.group(1))][1]
        fonts[name.group(1)] = {
            int(code, 16): chr(int(point, 16))
            for code, point in re.findall(rb"<([0-9A-F]{2})> <([0-9A-F]{4})>", cmap)
        }
    drawn = []
    for _head, data in streams.values():
        if b" Tf" not in data:
            continue
        font: dict[int, str] | None = None
        for name, string in re.findall(rb"/(\S+) [\d.]+ Tf|\(((?:\\.|[^\\)])*)\) Tj", data, re.S):
            if name:
                font = fonts[name]
                continue
            codes = _literal(string)
            if font is None:
                drawn.append((codes.decode("latin-1"), False))
            else:
                drawn.append(("".join(font[c] for c in codes), True))
    return drawn


def pdf_text(content: bytes) -> list[str]:
    return [text for text, _embedded in pdf_drawn(content)]


def test_csv_has_french_headers_and_labels(api, ranked, registry):
    api.force_authenticate(registry.users["federation_staff"])
    response = api.get(URL, {"committee": 1})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="classement-2026-2027-live-comite-1.csv"' in response["Content-Disposition"]
    rows = read_csv(response)
    assert rows[0] == FRENCH_HEADER
    body = rows[1:]
    assert body
    assert {row[6] for row in body} == {"1"}
    series = {row[7] for row in body}
    assert all(re.fullmatch(r"(1re|[2-4]e) série \w+", label) for label in series), series
    assert len(series) > 3  # labels, never the codes (3PR)
    assert [int(row[0]) for row in body] == sorted(int(row[0]) for row in body)
    first = body[0]
    assert int(first[8]) == int(first[10]) + int(first[12])  # PCN = season + carried over


def test_english_on_request(api, ranked, registry):
    api.force_authenticate(registry.users["federation_staff"])
    rows = read_csv(api.get(URL, {"lang": "en"}))
    assert rows[0] == ENGLISH_HEADER
    assert all("series" in row[7] and "série" not in row[7] for row in rows[1:])
    rows = read_csv(api.get(URL, HTTP_ACCEPT_LANGUAGE="en"))
    assert rows[0] == ENGLISH_HEADER
    assert read_csv(api.get(URL, HTTP_ACCEPT_LANGUAGE="en", data={"lang": "fr"}))[0] == (
        FRENCH_HEADER
    )


def test_export_is_scoped_to_the_caller(api, ranked, registry):
    response = api.get(URL)
    assert response.status_code == 401
    api.force_authenticate(registry.users["player"])
    assert api.get(URL).status_code == 403

    api.force_authenticate(registry.users["club_manager"])  # club 101
    rows = read_csv(api.get(URL))
    assert rows[1:]
    assert {row[4] for row in rows[1:]} == {"101"}
    assert {row[4] for row in read_csv(api.get(URL, {"club": 101}))[1:]} == {"101"}
    for query in ({"club": 201}, {"club": 102}, {"committee": 1}):
        response = api.get(URL, query)
        assert response.status_code == 403, query
        assert "Joueur" not in response.content.decode()

    api.force_authenticate(registry.users["committee_staff"])  # committee 1
    assert {row[6] for row in read_csv(api.get(URL))[1:]} == {"1"}
    assert {row[4] for row in read_csv(api.get(URL, {"club": 102}))[1:]} == {"102"}
    assert api.get(URL, {"committee": 2}).status_code == 403
    assert api.get(URL, {"club": 201}).status_code == 403
    assert api.get(URL, {"club": 99999}).status_code == 403

    api.force_authenticate(registry.users["zone_staff"])  # zone 1 = committee 1
    assert {row[6] for row in read_csv(api.get(URL))[1:]} == {"1"}

    api.force_authenticate(registry.users["federation_staff"])
    assert {row[6] for row in read_csv(api.get(URL))[1:]} == {"1", "2"}
    assert {row[4] for row in read_csv(api.get(URL, {"club": 201}))[1:]} == {"201"}


def test_bad_parameters_are_a_precise_400(api, ranked, registry):
    api.force_authenticate(registry.users["federation_staff"])
    response = api.get(URL, {"format": "docx"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "format"
    assert api.get(URL, {"lang": "de"}).json()["errors"][0]["field"] == "lang"
    response = api.get(URL, {"format": "pdf"})  # the whole country does not go on a board
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "format"
    assert "comité ou d’un club" in error["message"]


def test_csv_and_xlsx_stay_spreadsheet_safe(api, ranked, registry):
    api.force_authenticate(registry.users["federation_staff"])
    names = {row[2] for row in read_csv(api.get(URL))[1:]}
    assert "'" + HOSTILE in names
    assert HOSTILE not in names
    response = api.get(URL, {"format": "xlsx", "club": 101})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)
    # In the sheet a text cell is never run: the name as typed, no quote shown before it.
    names = {cell.value for cell in sheet["C"]}
    assert HOSTILE in names
    assert "'" + HOSTILE not in names


def test_xlsx_has_its_header_frozen_its_columns_sized_and_no_guard_quote(api, ranked, registry):
    ranked.players[6].last_name = "-Marie"
    ranked.players[6].save()
    full_recompute(season=registry.season)
    api.force_authenticate(registry.users["federation_staff"])
    sheet = load_workbook(io.BytesIO(api.get(URL, {"format": "xlsx"}).content)).active
    assert sheet.freeze_panes == "A5"  # title, subtitle, a blank line, then the header
    widths = [sheet.column_dimensions[letter].width for letter in "ABCD"]
    assert all(width and width >= 6 for width in widths)
    assert sheet.column_dimensions["C"].width >= len(HOSTILE)
    cells = [cell.value for row in sheet.iter_rows() for cell in row]
    assert "-Marie" in cells
    assert not any(isinstance(v, str) and v.startswith("'") for v in cells)


def test_xlsx_reads_back_like_the_csv(api, ranked, registry):
    api.force_authenticate(registry.users["committee_staff"])
    csv_rows = read_csv(api.get(URL))
    response = api.get(URL, {"format": "xlsx"})
    assert 'filename="classement-2026-2027-live.xlsx"' in response["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert rows[0][0] == "Classement PCN de vos comités ou clubs"
    assert rows[1][0].startswith("Saison 2026-2027 · Classement en cours (provisoire), calculé le")
    assert rows[3] == FRENCH_HEADER
    body = [["" if v is None else str(v) for v in row] for row in rows[4:]]
    unguarded = [[cell.removeprefix("'") for cell in row] for row in csv_rows[1:]]
    assert body == unguarded  # the CSV's anti-formula quote is not in the sheet
    assert isinstance(rows[4][0], int)  # numbers stay numbers in the sheet


def test_pdf_for_the_club_noticeboard(api, ranked, registry):
    api.force_authenticate(registry.users["club_manager"])
    response = api.get(URL, {"format": "pdf", "club": 101})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    drawn = pdf_text(response.content)
    text = "\n".join(drawn)
    csv_rows = read_csv(api.get(URL, {"club": 101}))[1:]
    assert csv_rows
    for row in csv_rows:
        if row[2].startswith("Joueur"):
            assert row[2] in drawn, row[2]
    assert "Classement PCN du club 101" in text
    assert "Saison 2026-2027" in text
    assert "Place" in drawn
    assert "Prénom" in drawn
    assert "Carreau" in text or "Promotion" in text or "Pique" in text  # series by name


NAMES_BEYOND_LATIN_1 = [  # (last name, first name): Polish, Vietnamese, Greek, Russian
    ("Wójcik", "Łukasz"),
    ("Nguyễn", "Thị Ánh"),
    ("Παπαδόπουλος", "Ωρίων"),
    ("Жуков", "Пётр"),
]


def test_pdf_prints_names_beyond_latin_1(api, ranked, registry):
    """Helvetica (reportlab's built-in fonts) has no Ł, ễ, Ω or Ж: the PDF embeds
    DejaVu Sans and a reader extracts each name as it was written."""
    committee_1 = [ranked.players[i] for i in (5, 6, 8, 9)]  # clubs 101, 102, 101, 102
    for player, (last, first) in zip(committee_1, NAMES_BEYOND_LATIN_1, strict=True):
        player.last_name, player.first_name = last, first
        player.save()
    api.force_authenticate(registry.users["federation_staff"])
    response = api.get(URL, {"format": "pdf", "committee": 1})
    assert response.status_code == 200
    content = response.content
    assert b"/FontFile2" in content  # a TrueType font is embedded...
    assert b"+DejaVuSans" in content  # ...a subset of DejaVu Sans
    assert all(embedded for _text, embedded in pdf_drawn(content))  # none in Helvetica
    drawn = pdf_text(content)
    printed = [
        (last, first) for last, first in NAMES_BEYOND_LATIN_1 if last in drawn and first in drawn
    ]
    assert printed == NAMES_BEYOND_LATIN_1
    assert {"Ł", "ễ", "Ω", "Ж"} <= set("".join(drawn))


def test_export_query_count_is_bounded(api, ranked, registry, django_assert_max_num_queries):
    api.force_authenticate(registry.users["committee_staff"])
    for file_format in ("csv", "xlsx", "pdf"):
        with django_assert_max_num_queries(9):
            response = api.get(URL, {"format": file_format, "committee": 1})
            if file_format == "csv":
                read_csv(response)
        assert response.status_code == 200


def test_ranking_pages_link_the_exports_for_those_allowed(client, ranked, registry):
    client.force_login(registry.users["club_manager"])  # club 101
    html = client.get("/classement/club/101/").content.decode()
    link = "/api/pcn/ranking/export/?season=2026-2027&amp;kind=live&amp;club=101"
    assert link in html
    assert link + "&amp;format=xlsx" in html
    assert link + "&amp;format=pdf" in html
    assert "Télécharger le classement\u00a0:" in html
    assert "/api/pcn/ranking/export/" not in client.get("/classement/club/201/").content.decode()
    assert "/api/pcn/ranking/export/" not in client.get("/classement/comite/1/").content.decode()
    client.force_login(registry.users["committee_staff"])
    html = client.get("/classement/comite/1/").content.decode()
    assert "committee=1&amp;format=pdf" in html
    assert "/api/pcn/ranking/export/" not in client.get("/classement/comite/2/").content.decode()
    client.logout()
    assert "/api/pcn/ranking/export/" not in client.get("/classement/club/101/").content.decode()
