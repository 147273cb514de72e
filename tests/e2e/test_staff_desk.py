"""The staff desk (/bureau/) in a real browser, as federation and committee staff use it
(docs/staff-desk.md):

- federation staff homologate a tournament from the queue after reading its report and
  confirming, then see a player's place appear on the public ranking (real Celery worker);
- they refuse another with reasons, and the club's manager reads the reasons in the club
  space;
- they publish the official ranking from the ranking desk, confirm, and follow the
  progress bar until the page says the run ended (real Celery worker);
- committee staff cannot open another committee's tournament: the French 403 page, which
  names nothing of it;
- they correct a homologated tournament with a new revision (the reason is mandatory)
  and read the diff of the two revisions.
"""

from __future__ import annotations

import re

from django.utils import timezone
from playwright.sync_api import expect

PASSWORD = "x"  # the registry fixture's users (tests/conftest.py)
QUEUE = "File d’homologation"


def _open_from_queue(page, name: str) -> None:
    """From the desk's home: the queue, then the tournament's review page."""
    page.get_by_role("link", name=re.compile(r"^Homologation \d+ en attente$")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(QUEUE)
    row = page.get_by_role("row").filter(has_text=name)
    expect(row).to_have_count(1)
    row.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def _wait_for(page, locator, visits: int = 40) -> None:
    """Reload ``page`` until ``locator`` shows (a background job's effect)."""
    for _visit in range(visits):
        if locator.count():
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(locator).to_be_visible()


def test_federation_staff_homologate_from_the_queue_and_the_ranking_follows(
    open_window, sign_in, registry, submitted_open, celery_worker_process
):
    from competitions.models import Allocation, TournamentStatus
    from rankings.reads.selectors import player_record

    public = open_window("phone", "public")  # anyone, on the public ranking
    public.page.goto("/classement/joueur/3103/?saison=2026-2027")
    expect(public.page.get_by_role("heading", level=1)).to_have_text("Hélène GÉNIN")
    place = public.page.get_by_text(re.compile(r"^Place \(classement provisoire\)$", re.I))
    expect(place).to_have_count(0)  # not ranked yet
    public.shot("1-joueuse-sans-place")

    staff = open_window("desktop", "federation-staff")
    page = staff.page
    sign_in(staff, "federation_staff", PASSWORD)
    expect(page).to_have_url(re.compile(r"/bureau/$"))
    staff.shot("2-bureau")
    _open_from_queue(page, "Open de Lyon")
    # The report: conditions, warnings, and the points homologation would award.
    expect(page.get_by_role("heading", name="Conditions d’homologation")).to_be_visible()
    expect(page.get_by_role("heading", name="Avertissements")).to_be_visible()
    winner = page.get_by_role("row").filter(has_text="GÉNIN Hélène")
    expect(winner.get_by_role("cell").first).to_have_text("1")
    staff.shot("3-rapport-du-tournoi")
    assert not Allocation.objects.filter(tournament=submitted_open).exists()  # nothing yet

    page.get_by_role("link", name="Homologuer la révision 1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Homologuer")
    staff.shot("4-confirmation")
    assert not Allocation.objects.filter(tournament=submitted_open).exists()  # asked, not done
    page.get_by_role("button", name="Confirmer : homologuer la révision 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Open de Lyon")
    expect(page.get_by_role("status")).to_contain_text("Tournoi homologué")
    expect(page.get_by_text(re.compile(r"état\s*: homologué", re.I))).to_be_visible()
    staff.shot("5-homologue")
    submitted_open.refresh_from_db()
    assert submitted_open.status == TournamentStatus.HOMOLOGATED
    assert submitted_open.homologated_revision.number == 1
    points = Allocation.objects.get(
        tournament=submitted_open, player__licence_number=3103, current=True
    )
    assert points.place == 1
    assert points.pcn > 0

    # The refresh goes through the outbox, Redis and the worker: the place shows on a
    # later visit, with the points the homologation gave.
    _wait_for(public.page, place)
    entry = player_record(3103, registry.season).entry
    assert entry is not None
    expect(public.page.locator(".card").filter(has=place)).to_contain_text(f"{entry.place} /")
    expect(public.page.get_by_text(f"PCN de la saison : {points.pcn}")).to_be_visible()
    assert public.sideways() == []
    public.shot("6-joueuse-classee")


def test_federation_staff_refuse_with_reasons_and_the_club_reads_them(
    open_window, sign_in, registry, submitted_open
):
    from competitions.models import TournamentStatus

    staff = open_window("desktop", "federation-staff")
    page = staff.page
    sign_in(staff, "federation_staff", PASSWORD)
    _open_from_queue(page, "Open de Lyon")
    reasons = page.get_by_label("motifs (un par ligne)")
    page.get_by_role("button", name="Refuser").click()  # no reason: the form says so
    expect(page.get_by_role("heading", level=1)).to_have_text("Open de Lyon")
    expect(reasons).to_be_focused()  # the browser's own check: the field is required
    submitted_open.refresh_from_db()
    assert submitted_open.status == TournamentStatus.RESULTS_SUBMITTED
    reasons.fill("Feuille de la table 2 illisible\nArbitre non présent à la 2e séance")
    staff.shot("1-motifs")
    page.get_by_role("button", name="Refuser").click()
    expect(page.get_by_role("status")).to_contain_text("Homologation refusée")
    expect(page.get_by_text("Feuille de la table 2 illisible")).to_be_visible()
    staff.shot("2-refuse")
    submitted_open.refresh_from_db()
    assert submitted_open.status == TournamentStatus.REFUSED
    assert submitted_open.refusal_reasons == [
        "Feuille de la table 2 illisible",
        "Arbitre non présent à la 2e séance",
    ]
    # The queue no longer lists it.
    page.get_by_role("link", name=QUEUE).first.click()
    expect(page.get_by_role("row").filter(has_text="Open de Lyon")).to_have_count(0)

    manager = open_window("phone", "club-manager")
    sign_in(manager, "club_manager", PASSWORD)
    row = manager.page.get_by_role("row").filter(has_text="Open de Lyon")
    expect(row).to_contain_text("refusé")
    row.get_by_role("link", name="Open de Lyon").click()
    refusal = manager.page.get_by_text("L’homologation a été refusée pour ces raisons :")
    expect(refusal).to_be_visible()
    reasons_shown = refusal.locator("xpath=following-sibling::ul[1]/li")
    expect(reasons_shown).to_have_text(submitted_open.refusal_reasons)
    assert manager.sideways() == []
    manager.shot("3-le-club-lit-les-motifs")


def test_publishing_the_official_ranking_is_followed_to_its_end(
    open_window, sign_in, registry, homologated_open, celery_worker_process
):
    from config.celery import app as celery_app
    from rankings.models import RecomputeKind, RecomputeRun, RunStatus, SeasonRanking

    staff = open_window("desktop", "federation-staff")
    page = staff.page
    sign_in(staff, "federation_staff", PASSWORD)
    page.get_by_role("link", name=re.compile("^Classement national")).first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("2026-2027")
    expect(page.get_by_text("non publié")).to_be_visible()
    staff.shot("1-bureau-du-classement")

    page.get_by_role("link", name="Publier le classement officiel…").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Publier le classement officiel")
    expect(page.get_by_text("Une publication ne s’annule pas", exact=False)).to_be_visible()
    staff.shot("2-confirmation")
    assert not RecomputeRun.objects.filter(kind=RecomputeKind.OFFICIAL).exists()
    page.get_by_label("note (pourquoi)").fill("Classement de fin de saison")
    # the season has not ended: publishing it now needs the reason, kept with who and when
    page.get_by_label("raison de la publication avant la fin de la saison").fill(
        "Assemblée générale avancée"
    )
    # The worker takes nothing until the page shows the run waiting: a small season's
    # run could otherwise end before the page is drawn.
    worker = [celery_worker_process.node]
    publication = celery_worker_process.queue("publication")
    assert celery_app.control.cancel_consumer(publication, destination=worker, reply=True)
    page.get_by_role("button", name="Confirmer : publier").click()

    expect(page.get_by_role("heading", name="Calcul en cours")).to_be_visible()
    progress = page.locator("[data-progress-url]")
    expect(progress).to_contain_text("classement officiel — phase : en file")
    expect(progress.get_by_role("progressbar")).to_be_visible()
    expect(page.get_by_role("link", name="Publier le classement officiel…")).to_have_count(0)
    staff.shot("3-barre-de-progression")
    assert celery_app.control.add_consumer(publication, destination=worker, reply=True)
    # The page follows the run by itself (desk_progress.js) and reloads once it ended:
    # no reload here.
    expect(page.get_by_role("heading", name="Calcul en cours")).to_have_count(0, timeout=60_000)
    run = RecomputeRun.objects.get(kind=RecomputeKind.OFFICIAL)
    assert run.status == RunStatus.DONE, run.error
    assert run.requested_by == registry.users["federation_staff"]
    assert run.note == "Classement de fin de saison"
    assert run.before_season_end_reason == "Assemblée générale avancée"
    requested_by = page.get_by_role("columnheader", name="demandé par")
    runs = page.get_by_role("table").filter(has=requested_by)
    history = runs.get_by_role("row").filter(
        has=page.get_by_role("cell", name=str(run.pk), exact=True)
    )
    expect(history).to_contain_text("terminé")
    expect(history).to_contain_text("federation_staff")
    state = SeasonRanking.objects.get(season=registry.season)
    assert state.official is not None
    expect(page.get_by_text("non publié")).to_have_count(0)
    expect(
        page.get_by_text(timezone.localtime(state.official.computed_at).strftime("%d/%m/%Y"))
    ).not_to_have_count(0)
    staff.shot("4-publie")


def test_committee_staff_get_the_french_403_for_another_committees_tournament(
    open_window, sign_in, registry, submitted_open
):
    from federation.models import Role, RoleAssignment, User

    other = User.objects.create_user(username="bretagne", password=PASSWORD)
    RoleAssignment.objects.create(
        user=other, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
    )
    stranger = open_window("desktop", "other-committee-staff")
    page = stranger.page
    sign_in(stranger, "bretagne", PASSWORD)
    page.goto("/bureau/homologation/")
    expect(page.get_by_role("heading", level=1)).to_have_text(QUEUE)
    expect(page.get_by_text("Open de Lyon")).to_have_count(0)
    stranger.shot("1-file-sans-le-tournoi")

    for path in ("", "?old=1&new=1"):
        answer = page.goto(f"/bureau/homologation/{submitted_open.pk}/{path}")
        assert answer is not None
        assert answer.status == 403
        expect(page.get_by_role("heading", level=1)).to_have_text("Accès refusé")
        expect(page.get_by_text("Votre compte ne peut pas ouvrir cette page")).to_be_visible()
        for secret in ("Open de Lyon", "Lyon", "GÉNIN", "Tarot Club", "Rhône"):
            expect(page.get_by_text(secret)).to_have_count(0)
        assert "Lyon" not in page.title()
    stranger.shot("2-acces-refuse")

    # Their own committee's staff open it, on a phone: the queue and the review fit.
    staff = open_window("phone", "committee-staff")
    sign_in(staff, "committee_staff", PASSWORD)
    staff.page.goto("/bureau/homologation/")
    row = staff.page.get_by_role("row").filter(has_text="Open de Lyon")
    expect(row).to_contain_text("Tarot Club de Lyon (101)")  # the organiser, under the name
    assert staff.sideways() == []
    staff.shot("3-file-du-comite-sur-un-telephone")
    row.get_by_role("link", name="Open de Lyon").click()
    expect(staff.page.get_by_role("heading", level=1)).to_have_text("Open de Lyon")
    expect(staff.page.get_by_role("row").filter(has_text="GÉNIN Hélène")).to_be_visible()
    assert staff.sideways() == []
    staff.shot("4-examen-sur-un-telephone")


def test_correcting_with_a_new_revision_and_reading_the_diff(
    open_window, sign_in, registry, homologated_open, results_sheet, scratch_dir
):
    from competitions.models import Allocation

    # The secretary swapped two players' lines: Côté (3102) played Génin's (3103) game.
    sheet = results_sheet()
    genin, cote = sheet.player_row(3103), sheet.player_row(3102)
    genin_rows, cote_rows = sheet.rows_of(3103), sheet.rows_of(3102)
    for row in genin_rows:
        row["licence_number"] = "3102"
    for row in cote_rows:
        row["licence_number"] = "3103"
    genin["name"], cote["name"] = cote["name"], genin["name"]
    corrected = sheet.save(scratch_dir / "open-de-lyon-corrige.csv")
    before = {
        a.player.licence_number: a.place
        for a in Allocation.objects.filter(tournament=homologated_open, current=True)
    }

    staff = open_window("desktop", "federation-staff")
    page = staff.page
    sign_in(staff, "federation_staff", PASSWORD)
    page.goto("/bureau/homologation/?status=homologated")
    row = page.get_by_role("row").filter(has_text="Open de Lyon")
    row.get_by_role("link", name="Open de Lyon").click()
    expect(page.get_by_role("heading", name="Corriger")).to_be_visible()
    page.get_by_label("Fichier des résultats").set_input_files(corrected)
    page.get_by_role("button", name="Corriger").click()  # without its reason
    reason = page.get_by_label("motif de la correction")
    expect(reason).to_be_focused()  # required: nothing was sent
    assert homologated_open.revisions.count() == 1
    reason.fill("Lignes de Côté et Génin interverties par le secrétaire")
    staff.shot("1-correction")
    page.get_by_role("button", name="Corriger").click()
    expect(page.get_by_role("status")).to_contain_text("Correction enregistrée comme révision 2")
    staff.shot("2-corrige")
    assert homologated_open.revisions.count() == 2
    after = {
        a.player.licence_number: a.place
        for a in Allocation.objects.filter(tournament=homologated_open, current=True)
    }
    assert after[3103] == before[3102]
    assert after[3102] == before[3103]

    history = page.get_by_role("table").filter(has_text="Lignes de Côté et Génin")
    expect(history.get_by_role("row")).to_have_count(3)  # header, revisions 2 and 1
    page.get_by_label("comparer la révision").fill("1")
    page.get_by_label("avec la révision").fill("2")
    page.get_by_role("button", name="Comparer").click()
    expect(page).to_have_url(re.compile(r"\?old=1&new=2$"))
    expect(page.get_by_role("heading", name="De la révision 1 à la révision 2")).to_be_visible()
    diff = page.get_by_role("table").filter(has=page.get_by_role("columnheader", name="avant"))
    winner = diff.get_by_role("row").filter(has_text="GÉNIN Hélène (3103)")
    expect(winner).to_have_count(2)  # Génin's entry, and Côté's, changed players
    expect(diff.get_by_role("row")).to_have_count(3)  # nothing else changed
    first_entry = next(r for r in sheet.rows if r.get("licence_number") == "3102")["entry"]
    expect(diff.get_by_role("row").filter(has_text="CÔTÉ François (3102)").first).to_be_visible()
    expect(
        diff.get_by_role("row").filter(has=page.get_by_role("cell", name=first_entry, exact=True))
    ).to_contain_text("GÉNIN Hélène (3103)")
    staff.shot("3-difference")
