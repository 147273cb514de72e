"""What people read: values in French words (never an ISO timestamp, never True/False/None),
the public's help instead of the API's documentation, a favicon, HEAD answered, each desk
named for its scope, what waits for a club first."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from competitions.models import Tournament, TournamentStatus
from federation.models import Player

pytestmark = pytest.mark.django_db

ISO_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:")
BARE = re.compile(r"(?<![\w-])(True|False|None)(?![\w-])")


def visible(html: str) -> str:
    """The page's text as read (tags and scripts out)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize(
    "path",
    ["/", "/aide/", "/classement/", "/calendrier/", "/clubs/101/", "/comites/1/",
     "/calendrier/comite/1.ics", "/calendrier/club/101.ics"],
)  # fmt: skip
def test_public_pages_and_feeds_answer_head(client, registry, path):
    assert client.get(path).status_code == 200
    head = client.head(path)
    assert head.status_code == 200
    assert head.content == b""


def test_every_page_links_a_favicon_that_is_served(client, registry):
    html = client.get("/").content.decode()
    found = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert found is not None
    assert found.group(1).endswith("core/favicon.svg")
    icon = finders.find("core/favicon.svg")
    assert icon is not None
    assert "<svg" in Path(icon).read_text(encoding="utf-8")


def test_the_public_reads_a_french_help_page_and_clubs_find_the_api_documentation(client, registry):
    home = client.get("/").content.decode()
    assert 'href="/aide/"' in home
    assert "/api/docs/" not in home
    help_page = visible(client.get("/aide/").content.decode())
    for words in ("PCN", "PP", "séries", "homologation", "classement provisoire", "officiel"):
        assert words in help_page
    client.force_login(registry.users["club_manager"])
    assert 'href="/api/docs/"' in client.get("/tournois/").content.decode()


def test_my_data_is_written_in_words_with_a_csv_and_the_json_unchanged(client, registry):
    client.force_login(registry.users["player"])
    page = client.get("/compte/mes-donnees/")
    assert page.status_code == 200
    text = visible(page.content.decode())
    assert not ISO_TIMESTAMP.search(text)
    assert not BARE.search(text), BARE.search(text)
    assert "1950-03-02" not in text
    assert "2 mars 1950" in text  # Élise Martin's birth date
    assert "non" in text  # her name is not hidden: « non », not False
    assert "?format=csv" in page.content.decode()

    download = client.get("/compte/mes-donnees/", {"format": "csv"})
    assert download["Content-Disposition"] == 'attachment; filename="mes-donnees-1001.csv"'
    rows = list(
        csv.reader(io.StringIO(b"".join(download.streaming_content).decode()), delimiter=";")
    )
    assert rows[0] == ["\ufeffRubrique", "Ligne", "Champ", "Valeur"]
    assert ["Identité", "", "Date de naissance", "2 mars 1950"] in rows
    assert not any(BARE.search(cell) or ISO_TIMESTAMP.search(cell) for row in rows for cell in row)

    document = client.get("/compte/mes-donnees/", {"format": "json"}).json()
    assert document["identity"]["birth_date"] == "1950-03-02"  # the JSON keeps ISO dates
    assert document["privacy"]["name_hidden"] is False
    assert ISO_TIMESTAMP.match(document["generated_at"])


@pytest.mark.parametrize(
    ("role", "title"),
    [("federation_staff", "Bureau fédéral"), ("zone_staff", "Bureau de la zone Zone 1"),
     ("committee_staff", "Bureau du comité Rhône-Alpes")],
)  # fmt: skip
def test_each_desk_is_named_for_its_scope(client, registry, role, title):
    client.force_login(registry.users[role])
    html = client.get("/bureau/").content.decode()
    assert f"<h1>{title}</h1>" in html
    queue = client.get("/bureau/homologation/").content.decode()
    assert f">{title}</a>" in queue
    assert ("Bureau fédéral" in html) is (role == "federation_staff")


def test_my_tournaments_shows_what_waits_for_the_club_first_and_folds_its_filters(
    client, registry, declare_tournament
):
    played = declare_tournament()
    Tournament.objects.filter(pk=played.pk).update(date=dt.date(2026, 7, 10))
    refused = declare_tournament()
    Tournament.objects.filter(pk=refused.pk).update(
        name="Open refusé", status=TournamentStatus.REFUSED, refusal_reasons=["Arbitre absent"]
    )
    coming = declare_tournament()
    Tournament.objects.filter(pk=coming.pk).update(name="Open à venir", date=dt.date(2099, 1, 1))
    client.force_login(registry.users["club_manager"])
    html = client.get("/tournois/").content.decode()
    waiting = html.split('<h2 id="waiting">', 1)[1].split("</section>", 1)[0]
    assert f'href="/tournois/{played.pk}/"' in waiting
    assert "envoyez ses résultats" in waiting
    assert f'href="/tournois/{refused.pk}/"' in waiting
    assert "résultats refusés" in waiting
    assert "Open à venir" not in waiting  # not played yet: nothing waits
    assert html.index('id="waiting"') < html.index("<details")
    assert "<summary>Filtrer les tournois</summary>" in html
    assert Player.objects.exists()
