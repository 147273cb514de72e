"""The national ranking API: the ranking with filters and search, a player's record,
snapshots, the staff CSV export, series policies, manual placements, recomputes."""

from __future__ import annotations

import csv
import io

import pytest

from rankings.models import ManualPlacement, RecomputeRun, RunStatus, SeasonRanking
from rankings.rules.series import SeriesPolicy
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def ranked(registry, federation, add_tournament):
    """Previous season published, the current season with two tournaments, ranked."""
    p = federation.players
    add_tournament(registry.previous, {p[i]: (500 - 20 * i, 2 if i == 0 else 0) for i in range(12)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    official_ranking_publish(season=registry.previous)
    add_tournament(registry.season, {p[i]: (300 - 10 * i, 0) for i in range(0, 20, 2)},
                   club=registry.clubs[102], arbiter=p[21])  # fmt: skip
    add_tournament(registry.season, {p[1]: (120, 3), p[4]: (82, 0)}, club=registry.clubs[201],
                   arbiter=p[21])  # fmt: skip
    full_recompute(season=registry.season)
    return federation


def test_ranking_lists_the_live_ranking_in_order(api, ranked, django_assert_max_num_queries):
    with django_assert_max_num_queries(6):
        body = api.get("/api/pcn/ranking/").json()
    assert body["snapshot"]["kind"] == "live"
    assert body["snapshot"]["season"] == "2026-2027"
    assert body["count"] == 25
    rows = body["results"]
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    first = rows[0]
    assert set(first) >= {
        "place", "licence_number", "last_name", "first_name", "committee", "club",
        "total_pcn", "carried_pcn", "season_pcn", "step", "step_label", "series",
        "place_in_committee", "place_in_club",
    }  # fmt: skip
    assert first["total_pcn"] == first["season_pcn"] + first["carried_pcn"]
    assert "série" in first["step_label"]
    # ties share the place: the players with no points all share the last place
    zeros = [r for r in rows if r["total_pcn"] == 0]
    assert len({r["place"] for r in zeros}) == 1


def test_pagination_filters_and_search(api, ranked):
    page = api.get("/api/pcn/ranking/?page_size=10&page=2").json()
    assert (page["count"], page["pages"], len(page["results"])) == (25, 3, 10)
    assert api.get("/api/pcn/ranking/?page_size=500").status_code == 400
    committee = api.get("/api/pcn/ranking/?committee=2").json()
    assert {r["committee"] for r in committee["results"]} == {2}
    assert committee["count"] == len(committee["results"])
    club = api.get("/api/pcn/ranking/?club=102").json()
    assert {r["club"] for r in club["results"]} == {102}
    assert club["results"][0]["place_in_club"] == 1
    series = api.get("/api/pcn/ranking/?series=4").json()
    assert {r["series"] for r in series["results"]} == {4}
    assert series["count"] == len(series["results"])
    by_name = api.get("/api/pcn/ranking/", {"q": "lefevre jerome"}).json()  # accents ignored
    assert [r["licence_number"] for r in by_name["results"]] == [1002]
    by_licence = api.get("/api/pcn/ranking/?q=2001").json()
    assert [r["licence_number"] for r in by_licence["results"]] == [2001]
    assert api.get("/api/pcn/ranking/?committee=99").status_code == 404
    assert api.get("/api/pcn/ranking/?season=1999-2000").status_code == 404
    assert api.get("/api/pcn/ranking/?series=7").json()["errors"][0]["field"] == "series"


def test_past_official_rankings_stay_queryable(api, ranked, registry):
    official = api.get("/api/pcn/ranking/?season=2025-2026").json()
    assert official["snapshot"]["kind"] == "official"
    snapshots = api.get("/api/pcn/ranking/snapshots/?season=2025-2026").json()
    assert [s["published"] for s in snapshots] == [True]
    first_id = snapshots[0]["id"]
    official_ranking_publish(season=registry.previous)  # republished: a new snapshot
    snapshots = api.get("/api/pcn/ranking/snapshots/?season=2025-2026").json()
    assert sorted(s["published"] for s in snapshots) == [False, True]
    old = api.get(f"/api/pcn/ranking/?snapshot={first_id}").json()
    assert old["snapshot"]["id"] == first_id
    assert old["count"] == official["count"]
    assert api.get("/api/pcn/ranking/?season=2025-2026&kind=live").status_code == 404


def test_player_record(api, ranked, django_assert_max_num_queries):
    # 16: with « Mes points »: the live ranking's state, the next step's threshold line
    with django_assert_max_num_queries(16):
        response = api.get("/api/pcn/ranking/players/1002/")
    body = response.json()
    assert (body["licence_number"], body["club"], body["committee"]) == (1002, 101, 1)
    ranking = body["ranking"]
    assert ranking["kind"] == "live"
    assert ranking["season_pcn"] == 120
    assert ranking["total_pcn"] == ranking["season_pcn"] + ranking["carried_pcn"]
    assert ranking["carried_pcn"] == (480 * 4) // 5
    assert [t["pcn"] for t in body["tournaments"]] == [120]
    assert body["series_this_season"]["season"] == "2025-2026"
    assert [h["season"] for h in body["official_history"]] == ["2025-2026"]
    assert [t["season"] for t in body["season_totals"]] == ["2025-2026", "2026-2027"]
    assert api.get("/api/pcn/ranking/players/999999/").status_code == 404


def read_csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text), delimiter=";"))


def test_export_is_for_staff_within_their_scope(api, ranked, registry):
    assert api.get("/api/pcn/ranking/export/").status_code == 401  # not signed in
    api.force_authenticate(registry.users["player"])
    assert api.get("/api/pcn/ranking/export/").status_code == 403
    api.force_authenticate(registry.users["club_manager"])  # their club only (test_exports.py)
    assert api.get("/api/pcn/ranking/export/?committee=1").status_code == 403
    api.force_authenticate(registry.users["federation_staff"])
    response = api.get("/api/pcn/ranking/export/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = read_csv(response)
    assert rows[0][:3] == ["Place", "Licence", "Nom"]
    assert len(rows) == 26
    api.force_authenticate(registry.users["committee_staff"])  # committee 1 only
    rows = read_csv(api.get("/api/pcn/ranking/export/"))
    assert {row[6] for row in rows[1:]} == {"1"}
    assert api.get("/api/pcn/ranking/export/?committee=2").status_code == 403
    api.force_authenticate(registry.users["zone_staff"])  # zone 1 = committee 1
    assert {row[6] for row in read_csv(api.get("/api/pcn/ranking/export/"))[1:]} == {"1"}


def test_series_policy_get_and_put(api, registry, django_capture_on_commit_callbacks):
    body = api.get("/api/pcn/series-policies/2026-2027/").json()
    assert body["version"] == 1
    assert body["policy"] == SeriesPolicy.default().to_dict()
    policy = body["policy"]
    policy["carry_over"] = ["0.9", "0.8", "0.7", "0.6"]
    api.force_authenticate(registry.users["committee_staff"])
    assert api.put("/api/pcn/series-policies/2026-2027/", {"policy": policy},
                   format="json").status_code == 403  # fmt: skip
    api.force_authenticate(registry.users["federation_staff"])
    bad = dict(policy, entry_step="9Z", carry_over=["2", "0.8", "0.7", "0.6"])
    response = api.put("/api/pcn/series-policies/2026-2027/", {"policy": bad}, format="json")
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"carry_over[0]", "entry_step"}
    with django_capture_on_commit_callbacks(execute=True):
        response = api.put(
            "/api/pcn/series-policies/2026-2027/",
            {"policy": policy, "note": "Report par série"},
            format="json",
        )
    assert response.status_code == 200
    assert response.json()["version"] == 2
    assert api.get("/api/pcn/series-policies/2026-2027/").json()["policy"]["carry_over"][0] == "0.9"


def test_manual_placements(api, ranked, registry, django_capture_on_commit_callbacks):
    url = "/api/pcn/manual-placements/2026-2027/"
    api.force_authenticate(registry.users["committee_staff"])
    assert api.post(url, {"licence_number": 1003, "step": "2T", "reason": "x"}).status_code == 403
    assert api.get(url).status_code == 200  # staff may read
    api.force_authenticate(registry.users["federation_staff"])
    bad = api.post(url, {"licence_number": 999999, "step": "9Z", "reason": " "}, format="json")
    assert bad.status_code == 400
    assert {e["code"] for e in bad.json()["errors"]} == {
        "unknown_player", "unknown_step", "missing_reason"
    }  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post(
            url,
            {"licence_number": 1003, "step": "2T", "reason": "Champion de France (art. 12)"},
            format="json",
        )
    assert created.status_code == 201, created.json()
    entry = api.get("/api/pcn/ranking/?q=1003").json()["results"][0]
    assert (entry["step"], entry["step_source"]) == ("2T", "manual")
    # the policy may not drop a step still used by a placement
    policy = SeriesPolicy.default().to_dict()
    policy["ladder"] = [s for s in policy["ladder"] if s["code"] != "2T"]
    refused = api.put("/api/pcn/series-policies/2026-2027/", {"policy": policy}, format="json")
    assert refused.json()["errors"][0]["code"] == "step_in_use"
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"{url}1003/").status_code == 204
    assert api.delete(f"{url}1003/").status_code == 404
    assert not ManualPlacement.objects.exists()
    assert api.get("/api/pcn/ranking/?q=1003").json()["results"][0]["step_source"] != "manual"


def test_recompute_request_and_progress(api, ranked, registry, django_capture_on_commit_callbacks):
    api.force_authenticate(registry.users["committee_staff"])
    assert (
        api.post("/api/pcn/recomputes/", {"season": "2026-2027", "kind": "full"}).status_code == 403
    )
    api.force_authenticate(registry.users["federation_staff"])
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/api/pcn/recomputes/", {"season": "2026-2027", "kind": "official",
                                                     "before_season_end_reason": "AG"})  # fmt: skip
    assert response.status_code == 202
    run = RecomputeRun.objects.get(pk=response.json()["id"])
    assert run.status == RunStatus.DONE
    progress = api.get(f"/api/pcn/recomputes/{run.pk}/").json()
    assert (progress["status"], progress["done"], progress["total"]) == ("done", 4, 4)
    assert progress["snapshot"] == SeasonRanking.objects.get(season=registry.season).official_id
    assert api.post("/api/pcn/recomputes/", {"season": "2026-2027", "kind": "x"}).status_code == 400
