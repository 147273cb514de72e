"""Typing a small tournament's results: places from the totals by the engine, the same
document and the same submission path as an uploaded file, every problem on its row."""

from __future__ import annotations

import pytest

from competitions.models import ResultRevision, Tournament
from competitions.rules.results.canonical import results_sha256
from competitions.rules.results.json_format import parse_json
from competitions.tournaments.typed_results_pages import (
    TypedEntry,
    TypedPlayer,
    TypedSession,
    places_from_totals,
    typed_results_document,
)

TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]


def solo(total: int, licence: int | None = 1, *, place=None, abandoned=False) -> TypedEntry:
    return TypedEntry(
        players=(TypedPlayer(licence, "" if licence else "Invité"),),
        total=total,
        place=place,
        abandoned=abandoned,
    )


def test_places_from_totals_share_ties_and_put_abandons_last():
    entries = [solo(10), solo(30), solo(10), solo(50, abandoned=True), solo(-100)]
    assert places_from_totals(entries) == [2, 1, 2, 5, 4]


def test_the_document_is_the_json_results_format():
    duo = [
        TypedEntry((TypedPlayer(11, "A"), TypedPlayer(None, "Invitée B")), total=40),
        TypedEntry((TypedPlayer(12, "C"), TypedPlayer(13, "D")), total=-40),
    ]
    document = typed_results_document(sessions=[TypedSession(1, 0, 24)], entries=duo)
    parsed = parse_json(document)  # the upload's reader accepts it as it is
    assert [(e.number, e.place, e.total) for e in parsed.entries] == [(1, 1, 40), (2, 2, -40)]
    assert parsed.entries[0].players[1].licence_number is None
    assert parsed.entries[0].players[1].name == "Invitée B"
    assert parsed.sessions[0].tables == 1
    assert parsed.sessions[0].deals == 24


def test_places_given_are_kept():
    entries = [solo(10, place=1), solo(10, place=2)]
    document = typed_results_document(sessions=[TypedSession(1, 0, 5)], entries=entries)
    assert [e["place"] for e in document["entries"]] == [1, 2]


ROWS = 16


def form_data(rows: list[dict], *, tables=3, tables_of_three=0, deals=20, action="send") -> dict:
    data = {
        "sessions-TOTAL_FORMS": "1", "sessions-INITIAL_FORMS": "1",
        "sessions-MIN_NUM_FORMS": "1", "sessions-MAX_NUM_FORMS": "20",
        "sessions-0-tables": str(tables), "sessions-0-tables_of_three": str(tables_of_three),
        "sessions-0-deals": str(deals),
        "entries-TOTAL_FORMS": str(ROWS), "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0", "entries-MAX_NUM_FORMS": "120",
        action: "1",
    }  # fmt: skip
    for i, row in enumerate(rows):
        data.update({f"entries-{i}-{key}": str(value) for key, value in row.items()})
    return data


def twelve_rows(totals=TOTALS) -> list[dict]:
    return [
        {"licence_1": 5001 + i, "name_1": f"Joueur{i + 1} Camille", "total": total}
        for i, total in enumerate(totals)
    ]


@pytest.fixture
def tournament(declare_tournament, twelve_players):
    return declare_tournament()


@pytest.fixture
def page(client, registry, tournament):
    client.force_login(registry.users["club_manager"])
    return f"/tournois/{tournament.pk}/saisie/"


@pytest.mark.django_db
def test_the_form_offers_the_declared_sessions_and_empty_rows(client, page):
    response = client.get(page)
    assert response.status_code == 200
    assert len(response.context["sessions"].forms) == 1
    assert len(response.context["entries"].forms) == ROWS
    html = response.content.decode()
    assert "Calculer les places à partir des totaux" in html
    assert "non licencié" in html


@pytest.mark.django_db
def test_compute_the_places_from_the_totals(client, page):
    totals = [*TOTALS[:2], TOTALS[1], *TOTALS[3:]]  # the 2nd and 3rd level: they share 2nd
    totals[-1] -= 500  # still sums to zero
    response = client.post(page, form_data(twelve_rows(totals), action="compute_places"))
    assert response.status_code == 200
    places = [form["place"].value() for form in response.context["entries"].forms[:12]]
    assert places == ["1", "2", "2", "4", "5", "6", "7", "8", "9", "10", "11", "12"]
    assert not ResultRevision.objects.exists()  # computing stores nothing


@pytest.mark.django_db
def test_sending_previews_then_stores_the_same_revision_as_the_same_results_uploaded(
    client, page, tournament, twelve_results
):
    response = client.post(page, form_data(twelve_rows()))
    assert response.status_code == 200, response.content.decode()
    html = response.content.decode()
    assert "Aperçu" in html  # the upload page's preview: places and points, nothing stored
    assert len(response.context["preview"].entries) == 12
    assert not ResultRevision.objects.exists()
    sent = client.post(
        f"/tournois/{tournament.pk}/resultats/",
        {"action": "submit", "sha256": response.context["sha256"]},
    )
    assert sent.status_code == 200, sent.content.decode()
    revision = ResultRevision.objects.get(tournament=tournament)
    assert revision.source == "json"
    assert revision.sha256 == results_sha256(parse_json(twelve_results()))
    assert Tournament.objects.get(pk=tournament.pk).status == "results_submitted"


@pytest.mark.django_db
def test_a_name_the_registry_spells_otherwise_goes_to_the_report_to_be_confirmed(
    client, page, tournament
):
    rows = twelve_rows()
    rows[0]["name_1"] = "Martin Paul"  # licence 5001 is Joueur1 Camille's
    response = client.post(page, form_data(rows))
    assert response.status_code == 400
    problems = response.context["problems"]
    assert [p.code for p in problems] == ["licence_name_mismatch"]
    confirmed = client.post(
        f"/tournois/{tournament.pk}/resultats/",
        {"action": "recheck", "sha256": response.context["sha256"], "confirm": "5001"},
    )
    assert confirmed.status_code == 200
    assert "preview" in confirmed.context
    assert not ResultRevision.objects.exists()


@pytest.mark.django_db
def test_the_submission_s_problems_are_shown_next_to_their_rows(client, page):
    rows = twelve_rows()
    for i, row in enumerate(rows):
        row["place"] = i + 1
    rows[3]["place"], rows[4]["place"] = 5, 4  # 300 placed behind 100
    response = client.post(page, form_data(rows, tables=4))  # 16 seats for 12 players
    assert response.status_code == 400
    entries = response.context["entries"].forms
    assert {p["code"] for p in entries[3].problems} >= {"wrong_place"}
    assert not entries[0].problems
    session = response.context["sessions"].forms[0]
    assert "first_session_players_mismatch" in {p["code"] for p in session.problems}
    html = response.content.decode()
    assert 'data-code="wrong_place"' in html
    assert "Les résultats n’ont pas été envoyés" in html
    assert not ResultRevision.objects.exists()


@pytest.mark.django_db
def test_form_errors_in_french_on_the_row(client, page):
    rows = twelve_rows()
    rows[2] = {"name_1": "Sans licence", "total": 500}  # neither licence nor "not licensed"
    rows[5] = {"not_licensed_1": "on", "total": 50}  # not licensed, no name
    rows[7]["place"] = 8  # one place given, the others not
    rows[8].pop("total")
    response = client.post(page, form_data(rows))
    assert response.status_code == 400
    errors = [form.errors for form in response.context["entries"].forms]
    assert errors[2]["licence_1"] == [
        "Donnez le numéro de licence, ou cochez «\u00a0non licencié\u00a0» et donnez le nom."
    ]
    assert errors[5]["name_1"] == ["Donnez le nom du joueur sans licence."]
    assert errors[8]["total"] == ["Donnez le total de l’inscrit."]
    assert not ResultRevision.objects.exists()


@pytest.mark.django_db
def test_some_places_but_not_all_is_refused_on_the_rows_without(client, page):
    rows = twelve_rows()
    rows[0]["place"] = 1
    response = client.post(page, form_data(rows))
    assert response.status_code == 400
    forms = response.context["entries"].forms
    assert not forms[0].errors
    assert forms[1].errors["place"] == [
        "Donnez toutes les places, ou aucune pour les calculer à partir des totaux."
    ]


@pytest.mark.django_db
def test_an_empty_form_says_so(client, page):
    response = client.post(page, form_data([]))
    assert response.status_code == 400
    assert "Saisissez au moins un inscrit." in response.content.decode()


@pytest.mark.django_db
def test_a_duo_row_has_two_players(client, registry):
    duo = Tournament.objects.create(
        season=registry.season, name="DUO du jeudi", date="2026-12-03", venue="Lyon",
        format="duo", organizer_kind="club", organizer_club=registry.clubs[101],
        arbiter=registry.players[1002],
    )  # fmt: skip
    client.force_login(registry.users["club_manager"])
    form = client.get(f"/tournois/{duo.pk}/saisie/").context["entries"].forms[0]
    assert {"licence_1", "licence_2", "name_2", "not_licensed_2"} <= set(form.fields)
    assert "licence_3" not in form.fields


@pytest.mark.django_db
def test_a_club_manager_may_not_type_a_championship_stage_s_results(client, registry):
    stage = Tournament.objects.create(
        season=registry.season, name="Étape régionale", date="2026-12-03", venue="Lyon",
        format="individual", stage="regional_stage", organizer_kind="club",
        organizer_club=registry.clubs[101], arbiter=registry.players[1002],
    )  # fmt: skip
    client.force_login(registry.users["club_manager"])
    assert client.get(f"/tournois/{stage.pk}/saisie/").status_code == 403
    client.force_login(registry.users["committee_staff"])
    assert client.get(f"/tournois/{stage.pk}/saisie/").status_code == 200


@pytest.mark.django_db
def test_a_table_of_five_with_a_mort_is_typed(client, page, tournament):
    """13 players at 3 tables, one of 5 where a player sits out each deal (fasc. 459)."""
    rows = [*twelve_rows([*TOTALS[:-1], TOTALS[-1] + 100]),
            {"not_licensed_1": "on", "name_1": "LEBLANC Hugo", "total": -100}]  # fmt: skip
    data = form_data(rows)
    data["sessions-0-tables_of_five"] = "1"
    assert "Tables de 5 joueurs" in client.get(page).content.decode()
    response = client.post(page, data)
    assert response.status_code == 200, response.content.decode()
    assert len(response.context["preview"].entries) == 13
    data["sessions-0-tables_of_five"] = "0"
    response = client.post(page, data)
    codes = [p["code"] for p in response.context["sessions"].forms[0].problems]
    assert "first_session_players_mismatch" in codes


@pytest.mark.django_db
def test_more_rows_keeps_what_is_typed(client, page):
    rows = twelve_rows()[:3]
    rows[1]["place"] = 2
    response = client.post(page, form_data(rows, action="more_rows"))
    assert response.status_code == 200
    forms = response.context["entries"].forms
    assert len(forms) == ROWS + 10  # every row typed or offered, then ten more
    assert [f["licence_1"].value() for f in forms[:3]] == ["5001", "5002", "5003"]
    assert forms[0]["name_1"].value() == "Joueur1 Camille"
    assert forms[1]["place"].value() == "2"
    assert response.context["sessions"].forms[0]["tables"].value() == "3"
    html = response.content.decode()
    assert 'value="Joueur1 Camille"' in html
    assert "errorlist" not in html  # asking for rows is no check
    assert not ResultRevision.objects.exists()


@pytest.mark.django_db
def test_an_unknown_licence_is_named_and_the_next_step_is_to_correct_what_was_typed(
    client, page, tournament
):
    rows = twelve_rows()
    rows[0] = {"licence_1": 99999, "total": TOTALS[0]}  # typed without a name
    response = client.post(page, form_data(rows))
    assert response.status_code == 400
    texts = [p["text"] for p in response.context["entries"].forms[0].problems]
    assert texts[0].startswith("Licence 99999 inconnue\u00a0:")
    assert "(?)" not in response.content.decode()

    rows[0] = {"licence_1": 5001, "name_1": "Martin Paul", "total": TOTALS[0]}  # to confirm
    checked = client.post(page, form_data(rows))
    html = checked.content.decode()
    assert "Corriger la saisie" in html
    assert "Choisir un autre fichier" not in html
    assert "Choisir le fichier" not in html
    back = client.get(f"{page}?reprendre=1")  # the form as it was typed
    forms = back.context["entries"].forms
    assert [f["licence_1"].value() for f in forms[:12]] == [5001 + i for i in range(12)]
    assert forms[0]["name_1"].value() == "Martin Paul"
    assert forms[11]["total"].value() == TOTALS[11]
    assert back.context["sessions"].forms[0]["deals"].value() == 20


@pytest.mark.django_db
def test_results_typed_by_licence_alone_reach_the_club_and_the_reviewer_with_names(
    client, page, tournament, registry
):
    rows = [{"licence_1": 5001 + i, "total": total} for i, total in enumerate(TOTALS)]
    checked = client.post(page, form_data(rows))
    assert checked.status_code == 200, checked.content.decode()
    sent = client.post(
        f"/tournois/{tournament.pk}/resultats/",
        {"action": "submit", "sha256": checked.context["sha256"]},
    )
    assert sent.status_code == 200
    club_page = client.get(f"/tournois/{tournament.pk}/").content.decode()
    client.force_login(registry.users["committee_staff"])
    review = client.get(f"/bureau/homologation/{tournament.pk}/").content.decode()
    for html in (club_page, review):
        assert "JOUEUR1 Camille" in html  # the registry's name, not « (5001) » alone
        assert "JOUEUR12 Camille" in html


def abandoning_last(rows: list[dict], accord: str) -> list[dict]:
    """The last row (the lowest total) abandoning, ``accord`` the form's choice."""
    rows[-1].update(abandoned="on", arbiter_accord=accord)
    return rows


@pytest.mark.django_db
def test_the_row_says_whether_an_abandon_had_the_arbiter_s_accord(client, page):
    html = client.get(page).content.decode()
    assert "Accord de l’arbitre" in html
    assert "parti sans l’accord de l’arbitre" in html
    assert "parti avec l’accord de l’arbitre" in html
    assert "non précisé" in html


@pytest.mark.django_db
def test_an_accord_said_of_an_entry_that_did_not_abandon_is_refused_on_the_field(client, page):
    rows = twelve_rows()
    rows[3]["arbiter_accord"] = "non"  # no abandon ticked
    rows[4]["arbiter_accord"] = "peut-être"  # not a choice
    response = client.post(page, form_data(rows))
    assert response.status_code == 400
    forms = response.context["entries"].forms
    assert forms[3].errors["arbiter_accord"] == [
        "Seul un inscrit qui a abandonné part avec ou sans l’accord de l’arbitre\u202f: "
        "cochez «\u00a0Abandon\u00a0», ou laissez l’accord non précisé."
    ]
    assert "Sélectionnez un choix valide" in forms[4].errors["arbiter_accord"][0]
    assert "laissez l’accord non précisé" in response.content.decode()
    assert not ResultRevision.objects.exists()


@pytest.mark.parametrize(("accord", "document_value"), [("non", False), ("oui", True), ("", None)])
def test_the_document_carries_the_accord_as_the_json_format_does(accord, document_value):
    entry = TypedEntry(
        (TypedPlayer(1, ""),), total=-10, abandoned=True, arbiter_accord=document_value
    )
    document = typed_results_document(sessions=[TypedSession(1, 0, 5)], entries=[solo(10), entry])
    written = document["entries"][1]
    assert written.get("arbiter_accord") == document_value
    assert ("arbiter_accord" in written) is (document_value is not None)  # unsaid: absent
    assert parse_json(document).entries[1].arbiter_accord is document_value


@pytest.mark.django_db
def test_an_abandon_without_accord_typed_proposes_the_suspension_as_an_upload_does(
    client, page, tournament, twelve_results, registry, twelve_players
):
    from competitions.homologation import tournament_homologate
    from competitions.models import ProposalStatus, SuspensionProposal

    checked = client.post(page, form_data(abandoning_last(twelve_rows(), "non")))
    assert checked.status_code == 200, checked.content.decode()
    back = client.get(f"{page}?reprendre=1")  # typed again as it was: the accord kept
    assert back.context["entries"].forms[11]["arbiter_accord"].value() == "non"
    sent = client.post(
        f"/tournois/{tournament.pk}/resultats/",
        {"action": "submit", "sha256": checked.context["sha256"]},
    )
    assert sent.status_code == 200
    uploaded = twelve_results()
    uploaded["entries"][11].update(abandoned=True, arbiter_accord=False)
    revision = ResultRevision.objects.get(tournament=tournament)
    assert revision.sha256 == results_sha256(parse_json(uploaded))  # the same results
    assert not SuspensionProposal.objects.exists()  # submitted: nothing proposed yet

    tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])
    (proposal,) = SuspensionProposal.objects.filter(tournament=tournament)
    assert (proposal.player, proposal.entry_number, proposal.status) == (
        twelve_players[11],
        12,
        ProposalStatus.PENDING,
    )


@pytest.mark.django_db
def test_an_abandon_with_the_accord_typed_proposes_nothing(client, page, tournament, registry):
    from competitions.homologation import tournament_homologate
    from competitions.models import SuspensionProposal

    checked = client.post(page, form_data(abandoning_last(twelve_rows(), "oui")))
    assert checked.status_code == 200, checked.content.decode()
    client.post(
        f"/tournois/{tournament.pk}/resultats/",
        {"action": "submit", "sha256": checked.context["sha256"]},
    )
    tournament_homologate(tournament=tournament, by=registry.users["federation_staff"])
    assert not SuspensionProposal.objects.exists()
