"""A tournament's results end to end: declare, submit with mistakes, resubmit, homologate,
see the PCN on each player, correct, and keep the history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from competitions.models import Allocation, ResultRevision, Tournament
from federation.models import Licence, Player
from rankings.models import PlayerSeasonTotal

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[3] / "docs" / "samples"


def individual(totals, *, tables=3, licence_base=5001, places=None, extra=None):
    """A one-session individual document: totals in ranking order."""
    ordered = sorted(range(len(totals)), key=lambda i: -totals[i])
    computed = {}
    for i in ordered:
        computed[i] = 1 + sum(1 for t in totals if t > totals[i])
    entries = [
        {
            "number": i + 1,
            "place": (places or computed)[i] if places else computed[i],
            "total": total,
            "players": [
                {"licence_number": licence_base + i, "name": f"Joueur {i + 1}", "total": total}
            ],
        }
        for i, total in enumerate(totals)
    ]
    return {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": tables, "tables_of_three": 0, "deals": 20}],
        "entries": entries,
        **(extra or {}),
    }


TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]  # sums to 0


@pytest.fixture
def players(registry):
    """Twelve players licensed in club 101 this season, but the last one."""
    created = []
    for i in range(12):
        player = Player.objects.create(
            licence_number=5001 + i, last_name="Joueur", first_name=str(i + 1)
        )
        if i < 11:
            Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
        created.append(player)
    return created


@pytest.fixture
def tournament(declare_tournament):
    return declare_tournament()


def submit(api, tournament, document, **kwargs):
    return api.post(f"/api/tournaments/{tournament.pk}/results/", document, format="json", **kwargs)


def test_submission_with_mistakes_lists_every_problem_and_stores_nothing(
    api, registry, players, tournament
):
    document = individual(TOTALS)
    document["entries"][1]["players"][0]["licence_number"] = 5001  # entered twice
    document["entries"][3]["place"] = 9  # contradicts its total
    document["sessions"][0]["tables"] = 4  # 16 seats for 12 players
    response = submit(api, tournament, document)
    assert response.status_code == 400
    errors = response.json()["errors"]
    fields = {e["field"] for e in errors}
    assert any(f.startswith("entries[1].players[0].licence_number") for f in fields), fields
    assert any(f.startswith("entries[3].place") for f in fields), fields
    assert any(f.startswith("sessions[0]") for f in fields), fields
    assert ResultRevision.objects.count() == 0
    assert Tournament.objects.get(pk=tournament.pk).status == "declared"


def test_submit_resubmit_homologate_and_points(
    api, registry, players, tournament, django_capture_on_commit_callbacks
):
    first = submit(api, tournament, individual(TOTALS))
    assert first.status_code == 201, first.json()
    warnings = first.json()["warnings"]
    assert [w["field"] for w in warnings] == [
        "entries[11].players[0].licence_number"
    ]  # not licensed
    again = submit(api, tournament, individual(TOTALS))
    assert again.status_code == 200
    assert not again.json()["created"]
    assert ResultRevision.objects.filter(tournament=tournament).count() == 1

    # Neither a club manager nor a player may homologate.
    for role in ("club_manager", "player"):
        api.force_authenticate(registry.users[role])
        assert api.post(f"/api/tournaments/{tournament.pk}/homologate/").status_code == 403
    api.force_authenticate(registry.users["committee_staff"])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = api.post(f"/api/tournaments/{tournament.pk}/homologate/")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "homologated"
    # the ranking update, the e-mail to the club and the players' notices, sent after commit
    # (beside them, the snapshot tables' fresh statistics once a snapshot is written)
    sends = [c for c in callbacks if c.__qualname__.startswith("send_on_commit.")]
    assert len(sends) == 3

    # 3 tables: first 120, coefficient 0.69, half of 12 players have a right to points.
    points = dict(
        Allocation.objects.filter(tournament=tournament).values_list(
            "player__licence_number", "pcn"
        )
    )
    assert points == {5001: 120, 5002: 82, 5003: 57, 5004: 50, 5005: 50, 5006: 50,
                      5007: 0, 5008: 0, 5009: 0, 5010: 0, 5011: 0}  # fmt: skip
    # Every licensed player has the tournament on their page, with or without points;
    # the non-licensee (5012) has no allocation.
    assert PlayerSeasonTotal.objects.get(player__licence_number=5001).pcn == 120

    api.force_authenticate(None)
    page = api.get("/api/pcn/players/5001/tournaments/").json()
    assert page == [
        {"tournament": tournament.pk, "name": "Open de Lyon", "date": "2026-12-05",
         "season": "2026-2027", "stage": "ordinary", "place": 1, "pcn": 120, "pp": 0}
    ]  # fmt: skip
    ranking = api.get(f"/api/tournaments/{tournament.pk}/results/").json()
    assert ranking["entries"][0]["players"][0]["pcn"] == 120
    assert ranking["entries"][11]["players"][0] == {
        "licence_number": 5012, "name": "Joueur 12", "licensed": False, "pcn": 0, "pp": 0
    }  # fmt: skip


def test_correction_keeps_history_and_replaces_allocations(
    api, registry, players, tournament, django_capture_on_commit_callbacks
):
    submit(api, tournament, individual(TOTALS))
    api.force_authenticate(registry.users["federation_staff"])
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"/api/tournaments/{tournament.pk}/homologate/")
    swapped = list(TOTALS)
    swapped[0], swapped[1] = swapped[1], swapped[0]  # players 1 and 2 were swapped

    api.force_authenticate(registry.users["club_manager"])
    url = f"/api/tournaments/{tournament.pk}/corrections/"
    refused = api.post(url, {"reason": "inversion", "document": individual(swapped)}, format="json")
    assert refused.status_code == 403
    api.force_authenticate(registry.users["federation_staff"])
    no_reason = api.post(url, {"reason": " ", "document": individual(swapped)}, format="json")
    assert no_reason.status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        corrected = api.post(
            f"/api/tournaments/{tournament.pk}/corrections/",
            {"reason": "Feuille de la table 2 mal recopiée", "document": individual(swapped)},
            format="json",
        )
    assert corrected.status_code == 201, corrected.json()
    assert corrected.json()["revision"] == 2
    current = dict(
        Allocation.objects.filter(tournament=tournament, current=True).values_list(
            "player__licence_number", "pcn"
        )
    )
    assert (current[5001], current[5002]) == (82, 120)
    assert Allocation.objects.filter(tournament=tournament, current=False).count() == 11  # kept
    assert PlayerSeasonTotal.objects.get(player__licence_number=5001).pcn == 82
    revisions = api.get(f"/api/tournaments/{tournament.pk}/revisions/").json()
    assert [(r["number"], r["homologated"], r["reason"]) for r in revisions] == [
        (1, False, ""), (2, True, "Feuille de la table 2 mal recopiée")
    ]  # fmt: skip
    history = Tournament.history.filter(id=tournament.pk).order_by("history_date")
    assert [h.status for h in history] == [
        "declared",
        "results_submitted",
        "homologated",
        "homologated",
    ]
    assert history.last().history_user == registry.users["federation_staff"]


def test_refusal_with_reasons_then_resubmission(api, registry, players, tournament):
    submit(api, tournament, individual(TOTALS))
    api.force_authenticate(registry.users["committee_staff"])
    assert (
        api.post(
            f"/api/tournaments/{tournament.pk}/refuse/", {"reasons": []}, format="json"
        ).status_code
        == 400
    )
    refused = api.post(
        f"/api/tournaments/{tournament.pk}/refuse/", {"reasons": ["Arbitre absent"]}, format="json"
    )
    assert refused.json()["status"] == "refused"
    assert refused.json()["refusal_reasons"] == ["Arbitre absent"]
    api.force_authenticate(registry.users["club_manager"])
    swapped = list(TOTALS)
    swapped[2], swapped[3] = swapped[3], swapped[2]
    again = submit(api, tournament, individual(swapped))
    assert again.status_code == 201
    assert Tournament.objects.get(pk=tournament.pk).status == "results_submitted"


def test_same_results_sent_again_after_a_refusal_reopen_without_a_new_revision(
    api, registry, players, tournament
):
    submit(api, tournament, individual(TOTALS))
    api.force_authenticate(registry.users["committee_staff"])
    api.post(
        f"/api/tournaments/{tournament.pk}/refuse/",
        {"reasons": ["Frais non réglés"]},
        format="json",
    )
    api.force_authenticate(registry.users["club_manager"])
    again = submit(api, tournament, individual(TOTALS))
    assert again.status_code == 200
    assert again.json()["tournament"]["status"] == "results_submitted"
    assert again.json()["tournament"]["refusal_reasons"] == []
    assert ResultRevision.objects.filter(tournament=tournament).count() == 1


def test_homologation_conditions_are_checked_at_submission(api, registry, players, tournament):
    ten = [500, 400, 300, 200, 100, -100, -200, -300, -400, -500]
    response = submit(api, tournament, individual(ten, tables=3, extra={}))
    assert response.status_code == 400
    codes = {e["code"] for e in response.json()["errors"]}
    assert codes & {"below_minimum_participation", "too_few_entries", "session_players_mismatch"}, (
        codes
    )
    assert ResultRevision.objects.count() == 0


def test_another_clubs_manager_cannot_submit(api, registry, players, tournament):
    from federation.models import Role, RoleAssignment, User

    other = User.objects.create_user("other_club")
    RoleAssignment.objects.create(user=other, role=Role.CLUB_MANAGER, club=registry.clubs[201])
    api.force_authenticate(other)
    assert submit(api, tournament, individual(TOTALS)).status_code == 403
    assert ResultRevision.objects.count() == 0


def test_csv_and_json_samples_are_the_same_results(api, registry, tournament):
    document = json.loads((SAMPLES / "results-individual.json").read_text())
    for entry in document["entries"]:
        for p in entry["players"]:
            if p["licence_number"] is None:
                continue
            player = Player.objects.create(
                licence_number=p["licence_number"], last_name=p["name"], first_name=""
            )
            Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    as_json = submit(api, tournament, document)
    assert as_json.status_code == 201, as_json.json()
    as_csv = api.post(
        f"/api/tournaments/{tournament.pk}/results/",
        (SAMPLES / "results-individual.csv").read_bytes(),
        content_type="text/csv",
    )
    assert as_csv.status_code == 200, as_csv.json()  # the same results: nothing new stored
    assert ResultRevision.objects.filter(tournament=tournament).count() == 1


def test_malformed_and_wrong_type_bodies_are_400(api, registry, tournament):
    url = f"/api/tournaments/{tournament.pk}/results/"
    assert api.post(url, b"{not json", content_type="application/json").status_code == 400
    assert api.post(url, b"\xff\xfe\x00garbage", content_type="text/csv").status_code == 400
    assert api.post(url, {"format_version": 1}, format="json").status_code == 400
    assert api.post(url, "plain", content_type="text/plain").status_code == 415


@pytest.mark.django_db(transaction=True)
def test_homologation_updates_totals_through_a_real_worker(
    api, registry, players, tournament, celery_worker_process, wait_for
):
    submit(api, tournament, individual(TOTALS))
    api.force_authenticate(registry.users["zone_staff"])
    assert api.post(f"/api/tournaments/{tournament.pk}/homologate/").status_code == 200
    totals = wait_for(
        lambda: dict(
            PlayerSeasonTotal.objects.filter(season=registry.season).values_list(
                "player__licence_number", "pcn"
            )
        ) if PlayerSeasonTotal.objects.count() == 11 else None
    )  # fmt: skip
    assert totals[5001] == 120
    assert totals[5011] == 0


def test_huge_submission_is_refused_before_parsing(api, registry, tournament, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = json.dumps(individual(TOTALS * 20)).encode()
    assert len(body) > 10_000
    response = api.post(
        f"/api/tournaments/{tournament.pk}/results/", body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response.json()["errors"][0]["code"] == "too_large"
    assert ResultRevision.objects.count() == 0


@pytest.mark.parametrize(
    ("role", "sees"),
    [
        ("anonymous", False),
        ("player", False),
        ("arbiter", False),
        ("club_manager", True),
        ("committee_staff", True),
        ("zone_staff", True),
        ("federation_staff", True),
    ],
)
def test_refusal_reasons_and_reference_are_the_organisers_own(
    api, registry, players, tournament, role, sees
):
    """A refusal's reasons may name players and the reference is the club's software's:
    the public list and detail give null for both to anyone outside the organiser's scope."""
    submit(api, tournament, individual(TOTALS))
    api.force_authenticate(registry.users["committee_staff"])
    api.post(
        f"/api/tournaments/{tournament.pk}/refuse/",
        {"reasons": ["Arbitre absent"]},
        format="json",
    )
    api.force_authenticate(registry.users[role])
    detail = api.get(f"/api/tournaments/{tournament.pk}/").json()
    listed = next(
        t for t in api.get("/api/tournaments/").json()["results"] if t["id"] == tournament.pk
    )
    for body in (detail, listed):
        assert body["status"] == "refused"
        if sees:
            assert body["refusal_reasons"] == ["Arbitre absent"]
            assert body["reference"] == tournament.reference
        else:
            assert body["refusal_reasons"] is None
            assert body["reference"] is None
