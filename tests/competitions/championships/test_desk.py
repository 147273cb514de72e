"""The championships desk (/bureau/championnats/) as federation (ccn), zone and committee
(ccr) staff use it, inside and outside their scope; club managers and players get the
403 page. Every action changes state through the championship services."""

from __future__ import annotations

import io
import re

import pytest
from openpyxl import load_workbook

from competitions.models import (
    ChampionshipEntry,
    CommitteeQuota,
    Qualification,
    RegionalChampionship,
    RegionalRulesVersion,
    StagePenalty,
    StageSeating,
)
from federation.models import Player
from tests.competitions.championships.results_documents import results
from tests.competitions.championships.rules_documents import FINAL_DATES, SEMI_DATES

pytestmark = pytest.mark.django_db

DESK = "/bureau/championnats/"


@pytest.fixture
def other_ccr(registry):
    """Staff of committee 2 (zone 2): outside committee 1's scope."""
    from federation.models import Role, RoleAssignment, User

    user = User.objects.create_user(username="ccr2", password="x")
    RoleAssignment.objects.create(
        user=user, role=Role.COMMITTEE_STAFF, committee=registry.committees[2]
    )
    return user


def as_(client, registry, role):
    client.force_login(registry.users[role] if isinstance(role, str) else role)
    return client


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def field(api, as_user, finals, enter_all, players):
    """Twenty players of club 101 entered in committee 1's individual regional final."""
    numbers = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in numbers])
    return numbers


@pytest.fixture
def played(api, as_user, finals, championships, field, play):
    """The individual regional final played and homologated; committee 1's quota is 3."""
    as_user("committee_staff")
    play(api, finals["individual"], results([[n] for n in field]))
    as_user("federation_staff").put(
        f"/api/championships/{championships['individual']}/quotas/",
        {"quotas": [{"committee": 1, "places": 3}]},
        format="json",
    )
    return finals["individual"]


# ---------------------------------------------------------------------------------------------
# Who may open what


@pytest.mark.parametrize("role", ["federation_staff", "zone_staff", "committee_staff"])
def test_staff_see_the_season_s_championships_and_their_stages(client, registry, finals, role):
    page = as_(client, registry, role).get(f"{DESK}?season=2026-2027")
    assert page.status_code == 200
    html = text(page)
    assert "Championnats 2026-2027" in html
    assert html.count("Finale régionale") >= 4
    assert len(page.context["rows"]) == 4
    assert all(len(row["stages"]) == 1 for row in page.context["rows"])
    home = text(client.get("/bureau/"))
    assert DESK in home


def test_staff_of_another_committee_see_none_of_committee_1_s_stages(
    client, registry, finals, other_ccr
):
    page = as_(client, registry, other_ccr).get(f"{DESK}?season=2026-2027")
    assert page.status_code == 200
    assert all(row["stages"] == [] for row in page.context["rows"])
    refused = client.get(f"{DESK}stades/{finals['individual']}/")
    assert refused.status_code == 403
    html = text(refused)
    assert "Accès refusé" in html
    assert "comité 1" not in html
    assert "Lyon" not in html
    regional = RegionalChampionship.objects.filter(committee__number=1).first()
    assert client.get(f"{DESK}regionaux/{regional.pk}/reglement/").status_code == 403


@pytest.mark.parametrize("role", ["club_manager", "player"])
def test_club_managers_and_players_get_the_403_page(client, registry, finals, role):
    as_(client, registry, role)
    for url in (DESK, f"{DESK}stades/{finals['individual']}/"):
        refused = client.get(url)
        assert refused.status_code == 403, url
        assert "Accès refusé" in text(refused)
    assert client.post(f"{DESK}stades/{finals['individual']}/inscrire/", {}).status_code == 403


def test_anonymous_visitors_are_sent_to_sign_in(client, finals):
    assert client.get(DESK)["Location"].startswith("/compte/connexion/")


def test_the_season_page_reads_a_fixed_number_of_queries(
    client, registry, finals, django_assert_max_num_queries
):
    as_(client, registry, "federation_staff")
    with django_assert_max_num_queries(14):
        assert client.get(f"{DESK}?season=2026-2027").status_code == 200


def test_the_stage_page_reads_a_fixed_number_of_queries(
    client, registry, finals, field, django_assert_max_num_queries
):
    as_(client, registry, "committee_staff")
    with django_assert_max_num_queries(20):
        assert client.get(f"{DESK}stades/{finals['individual']}/").status_code == 200


# ---------------------------------------------------------------------------------------------
# Regional rules and the zone's approval


def rules_form(kind: str = "individual", minimum: int = 20) -> dict:
    semi, final = SEMI_DATES[kind], FINAL_DATES[kind]
    return {
        "s0_name": "Demi-finale",
        "s0_kind": "regional_semi_final",
        "s0_start": semi[0],
        "s0_end": semi[1],
        "s0_b0_min": "1",
        "s0_b0_k0_deals": "12",
        "s1_name": "Finale régionale",
        "s1_kind": "regional_final",
        "s1_start": final[0],
        "s1_end": final[1],
        "s1_b0_min": str(minimum),
        "s1_b0_k0_deals": "20",
        "s1_b0_k1_deals": "20",
        "note": "Règlement 2026",
        "action": "publish",
    }


def test_committee_staff_publish_rules_through_the_form_every_problem_on_its_field(
    client, registry, championships
):
    as_(client, registry, "committee_staff")
    opened = client.post(f"{DESK}{championships['individual']}/regional/", {"committee": 1})
    assert opened.status_code == 302
    regional = RegionalChampionship.objects.get(
        committee__number=1, championship__kind="individual"
    )
    url = f"{DESK}regionaux/{regional.pk}/reglement/"
    assert client.get(url).status_code == 200

    page = text(client.get(url))
    assert "donnes[:" not in page  # plain fields, no notation
    assert "20:16:2" not in page
    wrong = rules_form(minimum=12) | {"s0_end": "2027-03-15", "s1_b0_k1_deals": "vingt"}
    refused = client.post(url, wrong)
    assert refused.status_code == 400
    form = refused.context["form"]
    assert "s1_b0_k1_deals" in form.errors  # "vingt" is not a number of deals
    assert not RegionalRulesVersion.objects.filter(regional=regional).exists()

    wrong = rules_form(minimum=12) | {"s0_end": "2027-03-15"}
    refused = client.post(url, wrong)
    assert refused.status_code == 400
    form = refused.context["form"]
    assert "s1_b0_min" in form.errors, form.errors  # below the regional final's minimum
    assert "s0_end" in form.errors  # the semi-final ends after the final starts
    assert "20" in " ".join(form.errors["s1_b0_min"])  # in French, naming the minimum
    assert not RegionalRulesVersion.objects.filter(regional=regional).exists()

    checked = client.post(url, rules_form() | {"action": "check"})
    assert checked.status_code == 200
    assert checked.context["checked"]
    assert not RegionalRulesVersion.objects.filter(regional=regional).exists()

    published = client.post(url, rules_form())
    assert published.status_code == 302
    version = RegionalRulesVersion.objects.get(regional=regional)
    assert version.approved_at is None
    assert [s["name"] for s in version.data["stages"]] == ["Demi-finale", "Finale régionale"]
    # the committee cannot approve its own rules: the zone does
    assert client.post(f"{url}{version.version}/aval/").status_code == 403
    assert "Approuver la version" not in text(client.get(url))


def test_zone_staff_see_the_rules_awaiting_their_approval_and_approve_them(
    client, registry, published, other_ccr
):
    as_(client, registry, "zone_staff")
    home = client.get(f"{DESK}?season=2026-2027")
    awaiting = home.context["awaiting"]
    assert len(awaiting) == 4
    assert all(v.approved_at is None for v in awaiting)
    assert "en attente de l’aval" in text(home) or "aval" in text(home)
    regional = awaiting[0].regional
    url = f"{DESK}regionaux/{regional.pk}/reglement/"
    assert "Approuver la version 1" in text(client.get(url))
    # staff of another zone's committee may not approve it
    client.force_login(other_ccr)
    assert client.post(f"{url}1/aval/").status_code == 403
    as_(client, registry, "zone_staff")
    assert client.post(f"{url}1/aval/").status_code == 302
    version = RegionalRulesVersion.objects.get(regional=regional, version=1)
    assert version.approved_by == registry.users["zone_staff"]
    assert len(client.get(f"{DESK}?season=2026-2027").context["awaiting"]) == 3


# ---------------------------------------------------------------------------------------------
# Quotas, stages, entries


def test_federation_staff_set_quotas_committees_may_not(client, registry, championships):
    pk = championships["duo"]
    as_(client, registry, "committee_staff")
    assert client.post(f"{DESK}{pk}/quotas/", {"q1": "9"}).status_code == 403
    as_(client, registry, "federation_staff")
    bad = client.post(f"{DESK}{pk}/quotas/", {"q1": "-1"})
    assert bad.status_code == 400
    assert "q1" in bad.context["quotas_form"].errors
    assert client.post(f"{DESK}{pk}/quotas/", {"q1": "4", "q2": ""}).status_code == 302
    assert CommitteeQuota.objects.get(championship_id=pk, committee__number=1).places == 4
    assert not CommitteeQuota.objects.filter(championship_id=pk, committee__number=2).exists()


def test_committee_staff_create_a_stage_refusals_on_their_fields(
    client, registry, championships, published
):
    pk = championships["individual"]
    as_(client, registry, "committee_staff")
    form = {"kind": "regional_final", "committee": "1", "date": "2027-03-13",
            "venue": "Lyon", "arbiter": "1003"}  # fmt: skip
    refused = client.post(f"{DESK}{pk}/stades/", form)
    assert refused.status_code == 400
    assert "arbiter" in refused.context["stage_form"].errors  # article 24: a club arbiter
    created = client.post(f"{DESK}{pk}/stades/", form | {"arbiter": "1002"})
    assert created.status_code == 302
    assert "/bureau/championnats/stades/" in created["Location"]


def test_entries_are_checked_at_once_and_every_refusal_explained(client, registry, finals, players):
    stage = finals["seniors"]
    young = players(1, 101)[0]  # born in 1975: not a senior
    as_(client, registry, "committee_staff")
    refused = client.post(f"{DESK}stades/{stage}/inscrire/", {"entries": f"1001\n{young}\n2001"})
    assert refused.status_code == 400
    rows = refused.context["entry_refusals"]
    where = [w for w, _ in rows]
    assert "ligne 2" in where
    assert "ligne 3" in where
    html = text(refused)
    assert "60 ans" in html  # too young, in French
    assert "réservé à ses licenciés" in html  # 2001 is of committee 2
    assert "1961" not in html
    assert "1975" not in html
    assert not ChampionshipEntry.objects.filter(stage_id=stage).exists()
    malformed = client.post(f"{DESK}stades/{stage}/inscrire/", {"entries": "10O1"})
    assert malformed.status_code == 400
    assert "entries" in malformed.context["entry_form"].errors
    assert client.post(f"{DESK}stades/{stage}/inscrire/", {"entries": "1001"}).status_code == 302
    assert ChampionshipEntry.objects.filter(stage_id=stage).count() == 1
    # withdrawn through the service, once confirmed (the first click only asks)
    asked = client.post(f"{DESK}stades/{stage}/inscrits/1/retirer/")
    assert asked.status_code == 200
    assert "Retirer l’inscrit 1\u00a0?" in text(asked) or "Retirer l’inscrit 1 ?" in text(asked)
    assert 'name="confirmed" value="1"' in asked.content.decode()
    assert ChampionshipEntry.objects.get(stage_id=stage).status != "withdrawn"
    withdraw = {"confirmed": "1"}
    assert client.post(f"{DESK}stades/{stage}/inscrits/1/retirer/", withdraw).status_code == 302
    assert ChampionshipEntry.objects.get(stage_id=stage).status == "withdrawn"
    again = client.post(f"{DESK}stades/{stage}/inscrits/1/retirer/", withdraw)
    assert again.status_code == 409


def test_staff_of_another_committee_cannot_enter_players(client, registry, finals, other_ccr):
    client.force_login(other_ccr)
    refused = client.post(f"{DESK}stades/{finals['individual']}/inscrire/", {"entries": "1001"})
    assert refused.status_code == 403
    assert not ChampionshipEntry.objects.exists()


# ---------------------------------------------------------------------------------------------
# Running a stage: late arrivals, seating


def test_late_arrivals_and_forfeits_are_recorded_per_stage(client, registry, finals, field):
    stage = finals["individual"]
    as_(client, registry, "committee_staff")
    url = f"{DESK}stades/{stage}/retards/"
    late = {"licence_number": field[0], "minutes": "7", "reason": "Train en retard"}
    assert client.post(url, late).status_code == 302
    assert StagePenalty.objects.get(stage_id=stage).points == 200  # two started 5 minutes
    early = client.post(url, late | {"licence_number": field[1], "forfeit": "on"})
    assert early.status_code == 400
    assert "forfeit" in early.context["penalty_form"].errors  # only past 15 minutes
    stranger = client.post(url, late | {"licence_number": "2001"})
    assert "licence_number" in stranger.context["penalty_form"].errors
    assert StagePenalty.objects.filter(stage_id=stage).count() == 1


def test_the_first_session_seating_is_drawn_and_printed_as_a_pdf(client, registry, finals, field):
    stage = finals["individual"]
    as_(client, registry, "committee_staff")
    assert client.get(f"{DESK}stades/{stage}/placement.pdf").status_code == 404
    assert client.post(f"{DESK}stades/{stage}/placement/").status_code == 302
    seating = StageSeating.objects.get(stage_id=stage)
    assert seating.tables == 5
    pdf = client.get(f"{DESK}stades/{stage}/placement.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    # Names beyond Latin-1 print: the title and the table are set in DejaVu Sans.
    assert b"+DejaVuSans-Bold" in pdf.content
    assert re.search(rb"/BaseFont /\w+\+DejaVuSans\b(?!-)", pdf.content)


def test_a_player_cannot_draw_the_seating(client, registry, finals, field):
    as_(client, registry, "player")
    assert client.post(f"{DESK}stades/{finals['individual']}/placement/").status_code == 403
    assert not StageSeating.objects.exists()


# ---------------------------------------------------------------------------------------------
# Qualification and exports


def test_committee_staff_read_the_live_table_and_record_their_committee_s_qualification(
    client, registry, championships, played, field, other_ccr
):
    pk = championships["individual"]
    as_(client, registry, "committee_staff")
    page = client.get(f"{DESK}{pk}/qualification/")
    assert page.status_code == 200
    (table,) = page.context["tables"]
    assert [q.place for q in table.qualified] == [1, 2, 3]
    assert not any(q.recorded for q in table.qualified)
    # another committee's staff may not record it
    client.force_login(other_ccr)
    assert (
        client.post(f"{DESK}{pk}/qualification/enregistrer/", {"committee": "1"}).status_code == 403
    )
    assert (
        client.post(f"{DESK}{pk}/qualification/enregistrer/", {"committee": "all"}).status_code
        == 403
    )
    assert not Qualification.objects.exists()
    as_(client, registry, "committee_staff")
    done = client.post(f"{DESK}{pk}/qualification/enregistrer/", {"committee": "1"}, follow=True)
    assert "Qualification du comité 1 enregistrée\u00a0: 3 qualifié(s)." in text(done)
    recorded = Qualification.objects.filter(championship_id=pk).order_by("place")
    assert [(q.key, q.status, q.right) for q in recorded] == [
        (str(n), "qualified", "committee_quota") for n in field[:3]
    ]
    assert all(q.recorded for q in done.context["tables"][0].qualified)
    # the recorded qualifications name their players, not the key of their numbers
    recorded_list = text(done).split("Qualifications enregistrées", 1)[1]
    for number in field[:3]:
        player = Player.objects.get(licence_number=number)
        assert f"{player.last_name.upper()} {player.first_name} ({number})" in recorded_list


def test_recording_before_the_final_counts_is_refused_in_french(
    client, registry, championships, finals
):
    pk = championships["individual"]
    as_(client, registry, "committee_staff")
    refused = client.post(f"{DESK}{pk}/qualification/enregistrer/", {"committee": "1"})
    assert refused.status_code == 400
    assert "ne compte pas encore" in text(refused)


def test_a_stage_s_results_and_qualified_players_export_in_three_formats(
    client, registry, played, field
):
    as_(client, registry, "committee_staff")
    base = f"{DESK}stades/{played}/"
    csv = b"".join(client.get(f"{base}resultats.csv").streaming_content).decode()
    assert csv.startswith("\ufeffPlace;Inscrit;Licence;Nom;Prénom;Club;Comité;Total;Abandon")
    assert f";{field[0]};" in csv
    assert "non" in csv  # French labels
    qualified = b"".join(client.get(f"{base}qualifies.csv").streaming_content).decode()
    lines = qualified.strip().splitlines()
    assert len(lines) == 4
    assert "quota du comité" in lines[1]
    book = load_workbook(io.BytesIO(client.get(f"{base}qualifies.xlsx").content))
    assert book.active.cell(4, 1).value == "Place"
    assert book.active.freeze_panes == "A5"
    results = load_workbook(io.BytesIO(client.get(f"{base}resultats.xlsx").content)).active
    assert results.cell(4, 7).value == "Comité"
    assert isinstance(results.cell(5, 7).value, int)  # a number, as in the CSV
    assert client.get(f"{base}resultats.pdf").content.startswith(b"%PDF")
    assert client.get(f"{base}resultats.ods").status_code == 404


def test_exports_of_a_stage_outside_scope_are_refused(client, registry, played, other_ccr):
    client.force_login(other_ccr)
    assert client.get(f"{DESK}stades/{played}/resultats.csv").status_code == 403


def test_exported_cells_a_spreadsheet_would_run_are_quoted(client, registry, played, field):
    from federation.models import Player

    Player.objects.filter(licence_number=field[0]).update(last_name="=HYPERLINK(1)")
    as_(client, registry, "committee_staff")
    for what in ("resultats", "qualifies"):
        csv = b"".join(client.get(f"{DESK}stades/{played}/{what}.csv").streaming_content)
        assert ";'=HYPERLINK(1);" in csv.decode(), what


@pytest.mark.parametrize("role", ["zone_staff", "committee_staff", "federation_staff"])
def test_the_qualification_page_reads_a_fixed_number_of_queries(
    client, registry, championships, played, role, django_assert_max_num_queries
):
    as_(client, registry, role)
    with django_assert_max_num_queries(40):
        page = client.get(f"{DESK}{championships['individual']}/qualification/")
    assert [t.committee.number for t in page.context["tables"]] == [1]


def test_staff_homologate_a_stage_from_its_page_through_the_stage_s_checks(
    client, api, registry, as_user, finals, field, submit, other_ccr
):
    from competitions.models import ChampionshipStage

    stage = finals["individual"]
    as_user("committee_staff")
    assert submit(api, stage, results([[n] for n in field])).status_code == 201
    client.force_login(other_ccr)
    assert client.post(f"{DESK}stades/{stage}/homologuer/", {"revision": "1"}).status_code == 403
    as_(client, registry, "committee_staff")
    page = text(client.get(f"{DESK}stades/{stage}/"))
    assert "Homologuer le stade (révision 1)" in page
    assert "aval donné le" in page  # the rules the stage plays (approved in `finals`)
    stale = client.post(f"{DESK}stades/{stage}/homologuer/", {"revision": "2"})
    assert stale.status_code == 409
    assert client.post(f"{DESK}stades/{stage}/homologuer/", {"revision": "1"}).status_code == 302
    assert ChampionshipStage.objects.get(pk=stage).tournament.status == "homologated"


# ---------------------------------------------------------------------------------------------
# Every page and action, as everyone outside committee 1's scope


def _urls(championships, finals, regional_pk):
    stage, pk = finals["individual"], championships["individual"]
    pages = [
        f"{DESK}regionaux/{regional_pk}/reglement/",
        f"{DESK}stades/{stage}/",
        f"{DESK}stades/{stage}/placement.pdf",
        f"{DESK}stades/{stage}/resultats.csv",
    ]
    actions = [
        (f"{DESK}{pk}/regional/", {"committee": "1"}),
        (f"{DESK}{pk}/quotas/", {"q1": "5"}),
        (f"{DESK}{pk}/qualification/enregistrer/", {"committee": "1"}),
        (f"{DESK}{pk}/stades/", {"kind": "regional_stage", "committee": "1"}),
        (f"{DESK}regionaux/{regional_pk}/reglement/", rules_form()),
        (f"{DESK}regionaux/{regional_pk}/reglement/1/aval/", {}),
        (f"{DESK}stades/{stage}/inscrire/", {"entries": "1001"}),
        (f"{DESK}stades/{stage}/inscrits/1/retirer/", {"confirmed": "1"}),
        (f"{DESK}stades/{stage}/retards/", {"licence_number": "1001", "minutes": "20",
                                            "reason": "Retard", "forfeit": "on"}),
        (f"{DESK}stades/{stage}/placement/", {}),
        (f"{DESK}stades/{stage}/homologuer/", {"revision": "1"}),
    ]  # fmt: skip
    return pages, actions


@pytest.mark.parametrize("who", ["club_manager", "player", "other_ccr"])
def test_no_page_nor_action_of_committee_1_is_open_outside_its_scope(
    client, registry, championships, finals, enter_all, api, as_user, other_ccr, who
):
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[1001]])
    regional = RegionalChampionship.objects.get(
        committee__number=1, championship_id=championships["individual"]
    )
    before = (
        RegionalRulesVersion.objects.filter(approved_at=None).count(),
        ChampionshipEntry.objects.filter(status="eligible").count(),
        CommitteeQuota.objects.count(),
        StagePenalty.objects.count(),
        StageSeating.objects.count(),
    )
    client.force_login(other_ccr if who == "other_ccr" else registry.users[who])
    pages, actions = _urls(championships, finals, regional.pk)
    for url in pages:
        refused = client.get(url)
        assert refused.status_code == 403, url
        assert "Rhône-Alpes" not in text(refused)
    for url, data in actions:
        assert client.post(url, data).status_code == 403, url
    after = (
        RegionalRulesVersion.objects.filter(approved_at=None).count(),
        ChampionshipEntry.objects.filter(status="eligible").count(),
        CommitteeQuota.objects.count(),
        StagePenalty.objects.count(),
        StageSeating.objects.count(),
    )
    assert after == before
