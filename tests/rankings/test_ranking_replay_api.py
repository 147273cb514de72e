"""A season replayed through the results API (declare, submit, homologate, correct),
as clubs and staff do, and the public ranking API compared with an independent
computation of totals, places and series, under the default policy and a modified
one; then the same through a real Celery worker."""

from __future__ import annotations

import pytest

from rankings.models import SeasonRanking
from rankings.rules.series import SeriesPolicy
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.series_policies import series_policy_in_force
from tests.rankings.reference_ranking import comparable, reference_ranking

TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]  # sums to 0


def document(licences: list[int], totals: list[int] = TOTALS) -> dict:
    ordered = sorted(range(len(totals)), key=lambda i: -totals[i])
    entries = []
    for rank, i in enumerate(ordered):
        place = 1 + sum(1 for t in totals if t > totals[i])
        entries.append(
            {
                "number": rank + 1,
                "place": place,
                "total": totals[i],
                "players": [{"licence_number": licences[i], "total": totals[i]}],
            }
        )
    return {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
        "entries": entries,
    }


def declare(api, registry, name: str, day: str) -> int:
    api.force_authenticate(registry.users["club_manager"])
    response = api.post(
        "/api/tournaments/",
        {"name": name, "date": day, "venue": "Lyon", "format": "individual",
         "organizer_kind": "club", "organizer_number": 101, "arbiter_licence_number": 1002},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def play(api, registry, name, day, licences, capture, totals=TOTALS) -> int:
    tournament = declare(api, registry, name, day)
    submitted = api.post(f"/api/tournaments/{tournament}/results/", document(licences, totals),
                         format="json")  # fmt: skip
    assert submitted.status_code == 201, submitted.json()
    api.force_authenticate(registry.users["federation_staff"])
    with capture(execute=True):
        assert api.post(f"/api/tournaments/{tournament}/homologate/").status_code == 200
    return tournament


def ranking_from_api(api) -> dict[int, dict]:
    api.force_authenticate(None)
    rows, page = [], 1
    while True:
        body = api.get("/api/pcn/ranking/", {"kind": "live", "page": page, "page_size": 10}).json()
        rows += body["results"]
        if page >= body["pages"]:
            break
        page += 1
    from federation.models import Club, Committee

    committee_id = dict(Committee.objects.values_list("number", "pk"))
    club_id = dict(Club.objects.values_list("number", "pk"))
    return {
        r["licence_number"]: {
            "committee": committee_id[r["committee"]],
            "club": club_id.get(r["club"]),
            "season_pcn": r["season_pcn"],
            "carried_pcn": r["carried_pcn"],
            "total_pcn": r["total_pcn"],
            "total_pp": r["total_pp"],
            "place": r["place"],
            "place_in_committee": r["place_in_committee"],
            "place_in_club": r["place_in_club"],
            "step": r["step"],
            "series": r["series"],
        }
        for r in rows
    }


def players_for(federation, start: int) -> list[int]:
    numbers = [p.licence_number for p in federation.players if p.licence_number != 1002]
    return [numbers[(start + k) % len(numbers)] for k in range(12)]


@pytest.mark.django_db
def test_season_through_the_results_api(
    api, registry, federation, add_tournament, django_capture_on_commit_callbacks
):
    p = federation.players
    add_tournament(registry.previous, {p[i]: (600 - 40 * i, 4 if i < 3 else 0) for i in range(14)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    official_ranking_publish(season=registry.previous)
    capture = django_capture_on_commit_callbacks
    first = play(api, registry, "Open de Lyon", "2026-09-12", players_for(federation, 0), capture)
    play(api, registry, "Tournoi d'automne", "2026-10-03", players_for(federation, 5), capture)
    play(api, registry, "Coupe de Noël", "2026-12-19", players_for(federation, 11), capture)
    # A correction: the first two players were swapped.
    swapped = list(TOTALS)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    with capture(execute=True):
        corrected = api.post(
            f"/api/tournaments/{first}/corrections/",
            {"reason": "Feuille mal recopiée", "document": document(players_for(federation, 0),
                                                                     swapped)},
            format="json",
        )  # fmt: skip
    assert corrected.status_code == 201, corrected.json()

    _version, policy = series_policy_in_force(season=registry.season)
    expected = comparable(reference_ranking(registry.season, policy))
    assert ranking_from_api(api) == expected
    assert len(expected) == registry.season.licences.count()

    # A modified policy: absolute thresholds, stronger carry-over, no demotion limit.
    data = SeriesPolicy.default().to_dict()
    for index, step in enumerate(data["ladder"][1:], start=1):
        step["top_share"], step["min_pcn"] = None, 25 * index
    data["carry_over"] = ["0.9", "0.9", "0.5", "0.5"]
    data["max_demotion_steps"] = None
    api.force_authenticate(registry.users["federation_staff"])
    with capture(execute=True):
        assert api.put("/api/pcn/series-policies/2026-2027/", {"policy": data},
                       format="json").status_code == 200  # fmt: skip
    _version, policy = series_policy_in_force(season=registry.season)
    assert ranking_from_api(api) == comparable(reference_ranking(registry.season, policy))


@pytest.mark.django_db(transaction=True)
def test_homologation_updates_the_live_ranking_through_a_real_worker(
    api, registry, federation, celery_worker_process, wait_for
):
    tournament = declare(api, registry, "Open du soir", "2026-11-07")
    licences = players_for(federation, 0)
    assert api.post(f"/api/tournaments/{tournament}/results/", document(licences),
                    format="json").status_code == 201  # fmt: skip
    api.force_authenticate(registry.users["zone_staff"])
    assert api.post(f"/api/tournaments/{tournament}/homologate/").status_code == 200

    def ranked():
        state = SeasonRanking.objects.filter(season=registry.season).first()
        if state is None or state.live_id is None or state.live_version < state.inputs_version:
            return None
        body = api.get("/api/pcn/ranking/", {"kind": "live", "page_size": 1}).json()
        return body["results"][0] if body["results"][0]["total_pcn"] else None

    first = wait_for(ranked, timeout=60)
    assert first is not None
    assert (first["licence_number"], first["place"], first["season_pcn"]) == (licences[0], 1, 120)
    _version, policy = series_policy_in_force(season=registry.season)
    assert ranking_from_api(api) == comparable(reference_ranking(registry.season, policy))
