"""The day's closing pages as the arbiter, the organiser, the staff and strangers meet them."""

from __future__ import annotations

import re

import pytest

from competitions.models import DayPenalty, EntryMember, Tournament
from federation.models import Player
from tests.competitions.day.test_closing import LATE, new_tournament, replay, sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(registry):
    for entry in sample()["entries"]:
        for p in entry["players"]:
            last, first = p["name"].split(" ", 1)
            player = Player.objects.create(
                licence_number=p["licence_number"], last_name=last, first_name=first
            )
            player.licences.create(season=registry.season, club=registry.clubs[101])
    tournament = new_tournament(registry, "Le jour")
    replay(tournament, sample())
    return tournament


def pages(t: Tournament) -> list[str]:
    return [
        f"/tournois/{t.pk}/jour/classement/",
        f"/tournois/{t.pk}/jour/classement/?ecran=1",
        f"/tournois/{t.pk}/jour/penalites/",
        f"/tournois/{t.pk}/jour/fin/",
        f"/tournois/{t.pk}/jour/rapport.pdf",
    ]


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("arbiter", 200),
        ("club_manager", 200),
        ("committee_staff", 200),
        ("federation_staff", 200),
        ("player", 404),
    ],
)
def test_the_pages_are_for_those_who_see_the_day_and_404_for_others(
    client, registry, day, role, status
):
    client.force_login(registry.users[role])
    for url in pages(day):
        assert client.get(url).status_code == status, url
    response = client.post(f"/tournois/{day.pk}/jour/penalites/", {"action": "abandon", "entry": 1})
    assert response.status_code == (404 if status == 404 else 400)


def test_a_stranger_is_sent_to_sign_in(client, day):
    for url in pages(day):
        assert client.get(url).status_code == 302


def test_the_projector_page_refreshes_itself_and_shows_the_standings(client, registry, day):
    client.force_login(registry.users["arbiter"])
    page = client.get(f"/tournois/{day.pk}/jour/classement/?ecran=1").content.decode()
    assert '<meta http-equiv="refresh"' in page
    assert "Après la séance 2, position 2" in page
    assert page.count("<tr>") == 13
    first = client.get(f"/tournois/{day.pk}/jour/classement/?apres=1-1").content.decode()
    assert "Après la séance 1, position 1" in first


def test_a_penalty_with_a_wrong_amount_is_refused_on_its_field_in_french(client, registry, day):
    client.force_login(registry.users["arbiter"])
    member = EntryMember.objects.get(tournament=day, player__licence_number=LATE)
    url = f"/tournois/{day.pk}/jour/penalites/"
    response = client.post(
        url,
        {"action": "penalty", "member": member.pk, "kind": "slowness", "points": 300,
         "reason": "Lenteur"},
    )  # fmt: skip
    assert response.status_code == 400
    errors = response.context["penalty_form"].errors
    assert "coûte ici 100 points" in errors["points"][0]
    assert not DayPenalty.objects.exists()
    response = client.post(
        url,
        {"action": "penalty", "member": member.pk, "kind": "slowness", "reason": "Lenteur"},
    )
    assert response.status_code == 302
    penalty = DayPenalty.objects.get()
    assert penalty.points == 100
    page = client.get(url).content.decode()
    assert "Lenteur de jeu" in page
    client.post(url, {"action": "remove", "penalty": penalty.pk, "removal_reason": "Erreur"})
    penalty.refresh_from_db()
    assert penalty.removed_at is not None


def test_the_standings_read_score_then_penalties_then_total(client, registry, day):
    """Left to right as a person computes it: the score, the penalties taken off, the
    total that ranks (in bold)."""
    client.force_login(registry.users["arbiter"])
    member = EntryMember.objects.get(tournament=day, player__licence_number=LATE)
    client.post(
        f"/tournois/{day.pk}/jour/penalites/",
        {"action": "penalty", "member": member.pk, "kind": "slowness", "reason": "Lenteur"},
    )
    page = client.get(f"/tournois/{day.pk}/jour/classement/").content.decode()
    heads = re.findall(r"<th>([^<]+)</th>", page.split('class="standings"')[1])
    assert heads == ["Place", "Nom", "Score", "Pénalités", "Total", "Inscrit"]
    row = next(r for r in page.split("<tr>") if "−100" in r)
    score, penalty, total = re.findall(r"<td>(?:<strong>)?(−?-?\d+)(?:</strong>)?</td>", row)[-4:-1]
    assert (penalty, int(total)) == ("−100", int(score) - 100)
    assert f"<strong>{total}</strong>" in row


def test_the_end_page_previews_then_sends_for_homologation(client, registry, day):
    client.force_login(registry.users["club_manager"])
    url = f"/tournois/{day.pk}/jour/fin/"
    page = client.get(url).content.decode()
    assert "Envoyer pour homologation" in page
    assert "PCN" in page
    digest = re.search(r'name="digest" value="([0-9a-f]{64})"', page).group(1)
    response = client.post(url, {"action": "send", "digest": digest})
    assert response.status_code == 200
    assert day.revisions.count() == 1
    assert day.revisions.get().source == "sheets"


def test_the_end_page_tells_an_arbiter_who_does_not_manage_the_club_who_sends(
    client, registry, day
):
    client.force_login(registry.users["arbiter"])
    page = client.get(f"/tournois/{day.pk}/jour/fin/").content.decode()
    assert "Envoyer pour homologation" not in page
    assert "responsables" in page


def test_the_live_page_is_public_when_opened_and_names_players_as_the_public_pages_do(
    client, registry, day
):
    hidden = Player.objects.get(licence_number=LATE)
    hidden.name_hidden = True
    hidden.save()
    page = client.get(f"/tournois/{day.pk}/direct/").content.decode()
    assert "BOUVIER Annie" in page
    assert "NICOLAS" not in page
    Tournament.objects.filter(pk=day.pk).update(live_page=False)
    assert client.get(f"/tournois/{day.pk}/direct/").status_code == 404


def test_the_public_tournament_page_leads_to_the_live_page_while_it_is_open(client, day):
    live = f'href="/tournois/{day.pk}/direct/"'
    assert live in client.get(f"/calendrier/tournoi/{day.pk}/").content.decode()
    Tournament.objects.filter(pk=day.pk).update(live_page=False)
    assert live not in client.get(f"/calendrier/tournoi/{day.pk}/").content.decode()


def test_the_report_is_a_pdf(client, registry, day):
    client.force_login(registry.users["committee_staff"])
    response = client.get(f"/tournois/{day.pk}/jour/rapport.pdf")
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_the_hub_links_to_the_closing_pages(client, registry, day):
    client.force_login(registry.users["arbiter"])
    page = client.get(f"/tournois/{day.pk}/jour/").content.decode()
    for url in pages(day)[:-1]:
        assert f'href="{url.replace("&", "&amp;")}"' in page or url.endswith("ecran=1"), url
    assert f'href="/tournois/{day.pk}/direct/"' in page
