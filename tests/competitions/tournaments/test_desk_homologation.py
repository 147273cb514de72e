"""The staff desk's homologation queue (/bureau/homologation/), as federation, zone and
committee staff use it, each inside and outside their scope; club managers, players
and anonymous visitors are refused. Every action changes state through the services."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from competitions.homologation import results_submit
from competitions.models import Allocation, ResultRevision, RulebookVersion, Tournament

pytestmark = pytest.mark.django_db

QUEUE = "/bureau/homologation/"
TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]


@pytest.fixture
def lyon(submitted):
    return submitted("Open de Lyon", 101, day=5)


@pytest.fixture
def rennes(submitted):
    return submitted("Open de Rennes", 201, day=3)


def unnamed(document: dict, entry: int) -> dict:
    """The document with that entry's player left without a licence number (a warning)."""
    document["entries"][entry]["players"][0]["licence_number"] = None
    return document


def signed_in(client, registry, role):
    client.force_login(registry.users[role])
    return client


def test_federation_staff_signs_in_and_sees_every_waiting_tournament_oldest_first(
    client, registry, lyon, rennes
):
    # The real password check, through the sign-in form: client.login() cannot pass
    # django-axes the request it requires.
    signed = client.post("/compte/connexion/", {"username": "federation_staff", "password": "x"})
    assert signed["Location"] == "/compte/"
    assert client.get("/compte/")["Location"] == "/bureau/"
    home = client.get("/bureau/").content.decode()
    assert "Bureau fédéral" in home
    assert "Homologation" in home
    page = client.get(QUEUE)
    assert page.status_code == 200
    html = page.content.decode()
    assert "File d’homologation" in html
    assert html.index("Open de Rennes") < html.index("Open de Lyon")  # 3 Dec before 5 Dec
    # each with its latest revision's number and entry count (twelve players each)
    assert [(t.latest_number, t.entry_count) for t in page.context["page"]] == [(1, 12)] * 2


@pytest.mark.parametrize("role", ["committee_staff", "zone_staff"])
def test_committee_and_zone_staff_see_their_own_tournaments_only(
    client, registry, lyon, rennes, role
):
    html = signed_in(client, registry, role).get(QUEUE).content.decode()
    assert "Open de Lyon" in html
    assert "Open de Rennes" not in html
    assert client.get(f"{QUEUE}{lyon.pk}/").status_code == 200
    refused = client.get(f"{QUEUE}{rennes.pk}/")
    assert refused.status_code == 403
    text = refused.content.decode()
    assert "Open de Rennes" not in text
    assert "1002@example.org" not in text
    assert "1980" not in text
    # nor can they act on it: the service is never reached, nothing changes
    assert client.post(f"{QUEUE}{rennes.pk}/homologuer/", {"revision": 1}).status_code == 403
    rennes.refresh_from_db()
    assert rennes.status == "results_submitted"


@pytest.mark.parametrize("role", ["club_manager", "player"])
def test_club_managers_and_players_are_refused_everywhere(client, registry, lyon, role):
    signed_in(client, registry, role)
    for url in ["/bureau/", QUEUE, f"{QUEUE}{lyon.pk}/", f"{QUEUE}lot/", "/bureau/classement/"]:
        assert client.get(url).status_code == 403, url
    assert client.post(f"{QUEUE}{lyon.pk}/homologuer/", {"revision": 1}).status_code == 403
    assert client.post(f"{QUEUE}{lyon.pk}/refuser/", {"reasons": "Non"}).status_code == 403
    lyon.refresh_from_db()
    assert lyon.status == "results_submitted"


def test_anonymous_is_sent_to_sign_in(client, lyon):
    response = client.get(QUEUE)
    assert response.status_code == 302
    assert response["Location"].startswith("/compte/connexion/?next=")


def test_the_queue_filters_in_the_query(client, registry, submitted):
    submitted("Lyon A", 101, day=5)
    submitted("Grenoble B", 102, day=6)
    submitted("Rennes C", 201, day=7)
    signed_in(client, registry, "federation_staff")
    by_committee = client.get(QUEUE, {"committee": 2}).content.decode()
    assert "Rennes C" in by_committee
    assert "Lyon A" not in by_committee
    by_club = client.get(QUEUE, {"club": 102}).content.decode()
    assert "Grenoble B" in by_club
    assert "Lyon A" not in by_club
    by_date = client.get(QUEUE, {"date_from": "2026-12-06", "date_to": "2026-12-06"})
    assert "Grenoble B" in by_date.content.decode()
    assert "Rennes C" not in by_date.content.decode()
    by_format = client.get(QUEUE, {"format": "duo", "status": "results_submitted"})
    assert "Lyon A" not in by_format.content.decode()
    homologated = client.get(QUEUE, {"status": "homologated"}).content.decode()
    assert "Lyon A" not in homologated
    bad = client.get(QUEUE, {"date_from": "hier"})
    assert bad.status_code == 400
    assert "Saisissez une date valide" in bad.content.decode()


def test_the_queue_pages_without_n_plus_one(
    client, registry, submitted, django_assert_max_num_queries
):
    for day in range(1, 13):
        submitted(f"Tournoi {day}", 101 if day % 2 else 201, day=day)
    signed_in(client, registry, "federation_staff")
    with django_assert_max_num_queries(10):
        html = client.get(QUEUE).content.decode()
    assert html.count("/bureau/homologation/") >= 12
    with django_assert_max_num_queries(10):
        assert client.get(QUEUE, {"committee": 2}).status_code == 200


def test_the_review_page_shows_results_conditions_and_points_without_writing(
    client, registry, lyon
):
    signed_in(client, registry, "federation_staff")
    versions = RulebookVersion.objects.count()
    html = client.get(f"{QUEUE}{lyon.pk}/").content.decode()
    assert "Joueur1 Camille (5001)" in html
    assert "Toutes les conditions d’homologation sont remplies." in html
    assert "Homologuer la révision 1" in html
    assert "Refuser" in html
    # the points homologation would award, the same as homologating then gives
    shown = {int(n): int(p) for n, p in _points_column(html)}
    assert not Allocation.objects.filter(tournament=lyon).exists()
    assert RulebookVersion.objects.count() == versions  # nothing stored, not even a rulebook
    client.post(f"{QUEUE}{lyon.pk}/homologuer/", {"revision": 1})
    awarded = {a.player.licence_number: a.pcn for a in Allocation.objects.filter(tournament=lyon)}
    assert awarded
    assert shown == awarded


def _points_column(html: str):
    """(licence number, PCN) of each player row of the review's ranking table."""
    import re

    return re.findall(r'Joueur\d+ Camille \((\d+)\)</td>\s*<td class="num">(\d+)</td>', html)


def test_homologate_the_revision_reviewed(client, registry, lyon):
    signed_in(client, registry, "zone_staff")
    response = client.post(f"{QUEUE}{lyon.pk}/homologuer/", {"revision": 1}, follow=True)
    assert response.status_code == 200
    assert "Tournoi homologué" in response.content.decode()
    lyon.refresh_from_db()
    assert lyon.status == "homologated"
    assert lyon.homologated_revision.number == 1
    assert Allocation.objects.filter(tournament=lyon, current=True).count() == 12
    assert lyon.history.first().history_user == registry.users["zone_staff"]  # the audit


def test_homologating_asks_for_a_confirmation_that_writes_nothing(
    client, registry, twelve_results, lyon, rennes
):
    signed_in(client, registry, "committee_staff")
    review = client.get(f"{QUEUE}{lyon.pk}/").content.decode()
    assert f'href="{QUEUE}{lyon.pk}/homologuer/?revision=1"' in review
    page = client.get(f"{QUEUE}{lyon.pk}/homologuer/", {"revision": 1})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Homologuer « Open de Lyon »" in html
    assert "ses 12 joueurs reçoivent les points" in html
    assert "Confirmer : homologuer la révision 1" in html
    assert '<input type="hidden" name="revision" value="1">' in html
    lyon.refresh_from_db()
    assert lyon.status == "results_submitted"
    assert not Allocation.objects.filter(tournament=lyon).exists()
    # another committee's tournament: the 403, naming nothing of it
    refused = client.get(f"{QUEUE}{rennes.pk}/homologuer/", {"revision": 1})
    assert refused.status_code == 403
    assert "Rennes" not in refused.content.decode()
    # a newer revision came since the review: back to the review page, told why
    results_submit(tournament=lyon, content=twelve_results([TOTALS[1], TOTALS[0], *TOTALS[2:]]),
                   source="json", by=registry.users["club_manager"])  # fmt: skip
    stale = client.get(f"{QUEUE}{lyon.pk}/homologuer/", {"revision": 1}, follow=True)
    assert stale.redirect_chain == [(f"{QUEUE}{lyon.pk}/", 302)]
    assert "La révision 2 est la dernière : lisez-la avant d’homologuer." in stale.content.decode()


def test_a_stale_revision_is_refused_in_french_and_nothing_is_written(
    client, registry, twelve_results, lyon
):
    corrected = [TOTALS[1], TOTALS[0], *TOTALS[2:]]
    results_submit(tournament=lyon, content=twelve_results(corrected), source="json",
                   by=registry.users["club_manager"])  # fmt: skip
    signed_in(client, registry, "committee_staff")
    response = client.post(f"{QUEUE}{lyon.pk}/homologuer/", {"revision": 1})
    assert response.status_code == 409
    html = response.content.decode()
    assert "La révision 1 a été examinée, mais la dernière révision est la 2" in html
    lyon.refresh_from_db()
    assert lyon.status == "results_submitted"
    assert not Allocation.objects.filter(tournament=lyon).exists()


def test_the_history_shows_what_changed_between_two_revisions(
    client, registry, twelve_results, lyon
):
    # the first two swapped, the last one gone (eleven players: one table of three)
    corrected = twelve_results([TOTALS[1], TOTALS[0], *TOTALS[2:-2], -2100])
    corrected["sessions"][0]["tables_of_three"] = 1
    corrected["entries"][2]["players"][0]["name"] = "JOUEUR3 Camille"
    results_submit(tournament=lyon, content=corrected, source="json",
                   by=registry.users["club_manager"])  # fmt: skip
    signed_in(client, registry, "federation_staff")
    html = client.get(f"{QUEUE}{lyon.pk}/").content.decode()
    assert "De la révision 1 à la révision 2" in html
    assert "Inscriptions retirées&nbsp;: 12" in html
    assert "<td>1</td><td>place</td><td>1</td><td>2</td>" in html
    assert "<td>2</td><td>total</td><td>700</td><td>900</td>" in html
    renamed = "<td>Joueur3 Camille (5003)</td><td>JOUEUR3 Camille (5003)</td>"
    assert f"<td>3</td><td>joueurs</td>{renamed}" in html
    assert "<td>11</td><td>total</td><td>-900</td><td>-2100</td>" in html
    same = client.get(f"{QUEUE}{lyon.pk}/", {"old": 2, "new": 2}).content.decode()
    assert "De la révision" not in same


def test_refuse_with_reasons(client, registry, lyon):
    signed_in(client, registry, "committee_staff")
    empty = client.post(f"{QUEUE}{lyon.pk}/refuser/", {"reasons": "  "})
    assert empty.status_code == 400
    assert "Ce champ est obligatoire." in empty.content.decode()
    response = client.post(
        f"{QUEUE}{lyon.pk}/refuser/", {"reasons": "Arbitre absent\nFeuilles illisibles"}
    )
    assert response.status_code == 302
    lyon.refresh_from_db()
    assert lyon.status == "refused"
    assert lyon.refusal_reasons == ["Arbitre absent", "Feuilles illisibles"]
    again = client.post(f"{QUEUE}{lyon.pk}/refuser/", {"reasons": "Encore"})
    assert again.status_code == 400  # the service: only submitted results are refused
    assert (
        "Seuls des résultats déposés peuvent être homologués ou refusés" in again.content.decode()
    )


def test_correct_a_homologated_tournament_with_a_reason(client, registry, twelve_results, lyon):
    signed_in(client, registry, "federation_staff")
    client.post(f"{QUEUE}{lyon.pk}/homologuer/", {"revision": 1})
    corrected = json.dumps(twelve_results([TOTALS[1], TOTALS[0], *TOTALS[2:]])).encode()

    def correct(reason):
        upload = SimpleUploadedFile("resultats.json", corrected)
        return client.post(f"{QUEUE}{lyon.pk}/corriger/", {"file": upload, "reason": reason})

    refused = correct("")
    assert refused.status_code == 400
    assert ResultRevision.objects.filter(tournament=lyon).count() == 1
    assert correct("Inversion des deux premiers").status_code == 302
    lyon.refresh_from_db()
    assert lyon.homologated_revision.number == 2
    assert lyon.homologated_revision.reason == "Inversion des deux premiers"
    current = Allocation.objects.filter(tournament=lyon, current=True)
    assert {a.revision_id for a in current} == {lyon.homologated_revision.pk}


def test_bulk_homologation_takes_the_clean_tournaments_after_one_confirmation(
    client, registry, twelve_results, submitted
):
    clean_a = submitted("Propre A", 101, day=1)
    clean_b = submitted("Propre B", 102, day=2)
    warned = submitted("Avec avertissement", 101, day=3, document=unnamed(twelve_results(), 4))
    elsewhere = submitted("Rennes propre", 201, day=4)
    signed_in(client, registry, "committee_staff")
    page = client.get(f"{QUEUE}lot/").content.decode()
    assert "Propre A" in page
    assert "Propre B" in page
    assert "Avec avertissement" not in page
    assert "Rennes propre" not in page
    chosen = [f"{t.pk}:1" for t in (clean_a, clean_b, warned, elsewhere)]
    done = client.post(f"{QUEUE}lot/", {"tournament": chosen})
    assert done.status_code == 200
    statuses = dict(Tournament.objects.values_list("name", "status"))
    assert statuses["Propre A"] == statuses["Propre B"] == "homologated"
    assert statuses["Avec avertissement"] == "results_submitted"  # posted by hand: not clean
    assert statuses["Rennes propre"] == "results_submitted"  # out of scope: never reached
    assert "2 tournois homologués" in done.content.decode()


def test_bulk_homologation_refuses_a_revision_sent_since_the_confirmation(
    client, registry, twelve_results, lyon
):
    signed_in(client, registry, "federation_staff")
    assert "Open de Lyon" in client.get(f"{QUEUE}lot/").content.decode()
    results_submit(tournament=lyon, content=twelve_results([TOTALS[1], TOTALS[0], *TOTALS[2:]]),
                   source="json", by=registry.users["club_manager"])  # fmt: skip
    response = client.post(f"{QUEUE}lot/", {"tournament": [f"{lyon.pk}:1"]})
    assert response.status_code == 400
    assert "La révision 1 a été examinée" in response.content.decode()
    lyon.refresh_from_db()
    assert lyon.status == "results_submitted"


def test_warnings_are_shown_on_the_review_page(client, registry, twelve_results, submitted):
    warned = submitted("Avec avertissement", 101, document=unnamed(twelve_results(), 4))
    signed_in(client, registry, "federation_staff")
    # In English: the French text of the results' codes belongs to another area's catalogue.
    html = client.get(f"{QUEUE}{warned.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "has no licence number" in html
    assert "entries[4].players[0].licence_number" in html


@pytest.mark.parametrize(("role", "linked"), [("committee_staff", True), ("zone_staff", True),
                                              ("club_manager", False)])  # fmt: skip
def test_my_tournaments_links_staff_to_the_desk(client, registry, role, linked):
    signed_in(client, registry, role)
    landing = "/bureau/homologation/" if linked else "/tournois/"  # each role on its work
    assert client.get("/compte/")["Location"] == landing
    html = client.get("/tournois/").content.decode()
    assert ('href="/bureau/"' in html) is linked


def test_the_history_names_each_revisions_source_in_words(client, registry, lyon):
    """« fichier de résultats (JSON) », never the upload's code ``json``."""
    signed_in(client, registry, "federation_staff")
    html = client.get(f"{QUEUE}{lyon.pk}/").content.decode()
    assert "fichier de résultats (JSON)" in html
    assert '<td class="wide">json</td>' not in html
