"""Duplicate player records in a real browser (docs/duplicates.md): federation staff open
the desk's likely duplicates, keep one record after a confirmation, and the public
ranking follows: the old link leads to the kept record, whose live ranking of last
season shows the merged record's points once the real Celery worker has refreshed it."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect

PASSWORD = "x"  # the registry fixture's users (tests/conftest.py)


def _two_records_of_one_person(registry):
    """Paul DURAND: 5001 licensed this season, 5002 last season (same committee, same
    birth date), 5002 with 400 PCN from a homologated tournament of last season."""
    from competitions.models import Allocation, ResultRevision, Tournament
    from competitions.rulebooks import rulebook_in_force
    from federation.models import Licence, Player

    born = dt.date(1975, 4, 4)
    kept = Player.objects.create(
        licence_number=5001, last_name="Durand", first_name="Paul", birth_date=born
    )
    merged = Player.objects.create(
        licence_number=5002, last_name="DURAND", first_name="Paul", birth_date=born
    )
    Licence.objects.create(player=kept, season=registry.season, club=registry.clubs[101])
    Licence.objects.create(player=merged, season=registry.previous, club=registry.clubs[102])
    tournament = Tournament.objects.create(
        season=registry.previous, name="Open de printemps", date=dt.date(2026, 4, 4),
        venue="Grenoble", format="individual", organizer_kind="club",
        organizer_club=registry.clubs[102], arbiter=registry.players[1002],
    )  # fmt: skip
    revision = ResultRevision.objects.create(
        tournament=tournament, number=1, document={}, sha256="e" * 64, source="json"
    )
    version, _ = rulebook_in_force(season=registry.previous)
    Allocation.objects.create(
        season=registry.previous, tournament=tournament, revision=revision, rulebook=version,
        player=merged, place=1, pcn=400, pp=0,
    )  # fmt: skip
    tournament.status = "homologated"
    tournament.homologated_revision = revision
    tournament.save(update_fields=["status", "homologated_revision"])


def test_federation_staff_merge_a_pair_and_the_ranking_follows(
    open_window, sign_in, registry, celery_worker_process
):
    from federation.models import Player, PlayerMerge

    _two_records_of_one_person(registry)
    public = open_window("phone", "public")
    live_last_season = "/classement/joueur/5001/?saison=2025-2026&classement=provisoire"
    public.page.goto(live_last_season)
    expect(public.page.get_by_role("heading", level=1)).to_have_text("Paul DURAND")
    place = public.page.get_by_text(re.compile(r"^Place \(classement provisoire\)$", re.I))
    expect(place).to_have_count(0)  # 5001 held no licence last season
    public.shot("1-fiche-gardee-avant")

    staff = open_window("desktop", "federation-staff")
    page = staff.page
    sign_in(staff, "federation_staff", PASSWORD)
    expect(page).to_have_url(re.compile(r"/bureau/$"))
    page.get_by_role("link", name=re.compile("^Doublons probables")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Doublons probables")
    row = page.get_by_role("row").filter(has_text="5002")
    expect(row).to_contain_text("même nom, même date de naissance")
    expect(row).to_contain_text("04/04/1975")  # staff may see birth dates
    staff.shot("2-doublons")
    row.get_by_role("button", name="Garder 5001").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Fusionner deux fiches")
    staff.shot("3-confirmation")
    assert not PlayerMerge.objects.exists()  # asked, not done
    page.get_by_role("button", name="Confirmer : fusionner 5002 dans 5001").click()
    expect(page.get_by_role("status")).to_contain_text("Fiche 5002 fusionnée dans la fiche 5001")
    expect(page.get_by_text("Aucun doublon probable.")).to_be_visible()
    staff.shot("4-fusionnee")
    assert Player.objects.get(licence_number=5002).merged_into.licence_number == 5001
    assert PlayerMerge.objects.get().merged_by == registry.users["federation_staff"]

    # The old link leads to the kept record.
    public.page.goto("/classement/joueur/5002/?saison=2025-2026&classement=provisoire")
    expect(public.page).to_have_url(re.compile(r"/classement/joueur/5001/\?saison=2025-2026"))
    # The refresh goes through the outbox, Redis and the worker: a later visit shows the
    # kept record in last season's live ranking, with the merged record's points.
    for _visit in range(40):
        if place.count():
            break
        public.page.wait_for_timeout(500)
        public.page.reload()
    expect(place).to_be_visible()
    expect(public.page.get_by_text("PCN de la saison : 400")).to_be_visible()
    assert public.sideways() == []
    public.shot("5-fiche-gardee-apres")
