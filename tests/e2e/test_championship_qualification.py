"""A committee's regional final, from the staff desk to its recorded qualification, in a
real browser: committee 1's staff member (ccr) signs in, opens the championships desk,
finds the individual championship's qualification table with the three players the
homologated regional final qualifies (not recorded yet), records the qualification,
and sees it recorded; the database holds what the page shows."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from tests.competitions.championships.results_documents import results
from tests.competitions.championships.rules_documents import valid_rules

PASSWORD = "x"  # the registry fixture's users (tests/conftest.py)
QUOTA = 3


@pytest.fixture
def played_regional_final(registry):
    """Committee 1's individual regional final of 2026-2027: rules published by the CCR,
    twenty players of club 101 entered, results submitted and homologated, committee 1's
    quota set to three by the CCN; all through the services. The field in ranking order."""
    from competitions.championships.championship_settings import championships_create, quotas_set
    from competitions.championships.entries import EntryRequest, entries_register
    from competitions.championships.regional import (
        regional_create,
        regional_rules_approve,
        regional_rules_publish,
    )
    from competitions.championships.stages import StageRequest, stage_create
    from competitions.homologation import results_submit, tournament_homologate
    from federation.models import Licence, Player

    ccn, ccr = registry.users["federation_staff"], registry.users["committee_staff"]
    made = championships_create(season=registry.season, kinds=["individual"], by=ccn)
    championship = made[0][0]
    regional, _ = regional_create(
        championship=championship, committee=registry.committees[1], by=ccr
    )
    version = regional_rules_publish(regional=regional, data=valid_rules("individual"), by=ccr)
    regional_rules_approve(version=version, by=registry.users["zone_staff"])  # the zone's aval
    stage, _ = stage_create(
        championship=championship,
        request=StageRequest(
            kind="regional_final",
            date=dt.date(2027, 3, 13),
            venue="Maison du tarot, Lyon",
            arbiter_licence_number=1002,
            committee=1,
        ),
        by=ccr,
    )
    field = []
    for k in range(20):
        player = Player.objects.create(
            licence_number=4101 + k,
            last_name=f"Finaliste{chr(65 + k)}",
            first_name="Camille",
            birth_date=dt.date(1970, 1, 1 + k),
        )
        for season in (registry.season, registry.previous):
            Licence.objects.create(player=player, season=season, club=registry.clubs[101])
        field.append(player)
    entries_register(
        stage=stage,
        requests=[EntryRequest((p.licence_number,)) for p in field],
        by=ccr,
    )
    document = results([[p.licence_number] for p in field])
    results_submit(tournament=stage.tournament, content=document, source="json", by=ccr)
    tournament_homologate(tournament=stage.tournament, by=ccr)
    quotas_set(championship=championship, quotas={1: QUOTA}, by=ccn)
    return championship, field


def test_a_committee_staff_member_records_a_regional_final_s_qualification(
    open_window, sign_in, registry, played_regional_final
):
    from competitions.models import Qualification

    championship, field = played_regional_final
    ccr = open_window("desktop", "ccr")
    page = ccr.page
    sign_in(ccr, "committee_staff", PASSWORD)
    page.goto("/bureau/")
    page.get_by_role("link", name=re.compile("^Championnats")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        re.compile(r"^Championnats \d{4}-\d{4}$")
    )
    ccr.shot("1-championnats")
    section = page.get_by_role("region", name="Championnat : individuel")
    expect(section.get_by_role("row").filter(has_text="Finale régionale")).to_contain_text(
        "homologué"
    )
    section.get_by_role("link", name="Qualification", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Qualification pour la finale nationale : individuel, 2026-2027"
    )
    committee = page.get_by_role("region", name="Comité 1 – Rhône-Alpes")
    expect(committee).to_contain_text("Quota : 3 places")
    qualified = committee.get_by_role("table").locator("tbody").get_by_role("row")
    expect(qualified).to_have_count(QUOTA)
    for place, player in enumerate(field[:QUOTA], start=1):
        row = qualified.nth(place - 1)
        expect(row.get_by_role("cell")).to_have_text(
            [str(place), f"{player.last_name.upper()} {player.first_name} "
             f"({player.licence_number})", "pas encore"]
        )  # fmt: skip
    expect(committee).to_contain_text("Toutes les places sont attribuées.")
    expect(committee).to_contain_text("Rien d’enregistré pour l’instant.")
    ccr.shot("2-tableau-de-qualification")
    assert not Qualification.objects.exists()

    committee.get_by_role("button", name="Enregistrer la qualification du comité 1").click()
    expect(page.get_by_role("status")).to_have_text(
        "Qualification du comité 1 enregistrée : 3 qualifié(s)."
    )
    committee = page.get_by_role("region", name="Comité 1 – Rhône-Alpes")
    qualified = committee.get_by_role("table").locator("tbody").get_by_role("row")
    for k in range(QUOTA):
        expect(qualified.nth(k).get_by_role("cell").nth(2)).to_have_text("oui")
    recorded = committee.locator("ul.recorded li")
    expect(recorded).to_have_count(QUOTA)
    ccr.shot("3-qualification-enregistree")
    stored = list(Qualification.objects.filter(championship=championship).order_by("place"))
    assert [(q.key, q.place, q.status, q.right, q.recorded_by.username) for q in stored] == [
        (str(p.licence_number), k, "qualified", "committee_quota", "committee_staff")
        for k, p in enumerate(field[:QUOTA], start=1)
    ]
    for q, line in zip(stored, recorded.all_inner_texts(), strict=True):
        assert q.key in line
        assert "qualifié" in line
    # the same page on a 360 px phone: nothing sticks out sideways
    page.set_viewport_size({"width": 360, "height": 740})
    assert ccr.sideways() == []
    ccr.shot("4-telephone")
