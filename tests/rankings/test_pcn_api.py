"""PCN endpoints over HTTP, checked against chapter 5's figures."""

import pytest

pytestmark = pytest.mark.django_db


def test_individual_scale_20_tables(api, registry):
    body = api.get("/api/pcn/scale/?format=individual&tables=20").json()
    # 40 × 20 tables; coefficient 0.69 + 17 × 0.01 = 0.86; half of 80 players.
    assert body["values"][:3] == [800, 688, 591]
    assert body["beneficiaries"] == 40
    assert body["season"] == "2026-2027"
    assert body["rulebook_version"] == 1


def test_multi_session_scale_sums_tables_and_counts_first_session(api, registry):
    body = api.get("/api/pcn/scale/?format=individual&tables=12&tables=8").json()
    assert body["tables"] == 20
    assert body["values"][0] == 800
    assert body["beneficiaries"] == 24  # half of the 48 players of the first session


def test_regional_final_index_and_cap(api, registry):
    ordinary = api.get("/api/pcn/scale/?format=individual&tables=40").json()
    final = api.get("/api/pcn/scale/?format=individual&tables=40&stage=regional_final").json()
    assert ordinary["values"][0] == 1500  # 1600 capped at 1500
    assert final["values"][0] == 2880  # 1600 × 1.8, under the 3000 cap


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("format=individual&tables=0", "tables[0]"),
        ("format=triplette&tables=10", "format"),
        ("format=individual", "tables"),
        ("format=individual&tables=10&stage=national_final", "stage"),
        ("format=individual&tables=3&entries=2", "entries"),
    ],
)
def test_bad_scale_query_is_located_400(api, registry, query, field):
    response = api.get(f"/api/pcn/scale/?{query}")
    assert response.status_code == 400
    assert any((e["field"] or "").startswith(field) for e in response.json()["errors"]), (
        response.json()
    )


def test_allocation_with_ties_shares_rounded_up(api, registry):
    ranking = [
        {"entry_id": str(i), "place": p}
        for i, p in enumerate([1, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    ]
    response = api.post(
        "/api/pcn/allocate/",
        {"format": "individual", "tables": [3], "ranking": ranking},
        format="json",
    )
    assert response.status_code == 200, response.json()
    awards = {a["entry_id"]: a for a in response.json()["awards"]}
    scale = api.get("/api/pcn/scale/?format=individual&tables=3").json()["values"]
    shared = -(-(scale[1] + scale[2]) // 2)
    assert awards["1"]["pcn_per_player"] == awards["2"]["pcn_per_player"] == shared
    assert awards["11"]["pcn_per_player"] == 0
    assert not awards["11"]["has_right"]


def test_seniors_national_final_reads_the_overlap_as_53_to_86(api, registry):
    ranking = [{"entry_id": str(p), "place": p} for p in range(1, 176)]
    body = api.post(
        "/api/pcn/allocate/",
        {
            "format": "individual",
            "stage": "national_final",
            "national_final": "seniors",
            "ranking": ranking,
        },
        format="json",
    ).json()
    awards = {a["place"]: a for a in body["awards"]}
    assert awards[52]["pcn_per_player"] != awards[53]["pcn_per_player"]
    assert awards[53]["pcn_per_player"] == awards[86]["pcn_per_player"] > 0
    assert awards[87]["pcn_per_player"] == awards[172]["pcn_per_player"] == 500
    assert awards[173]["pcn_per_player"] == 0


def test_rulebook_is_public_and_only_federation_staff_change_it(api, registry):
    book = api.get("/api/pcn/rulebooks/2026-2027/").json()
    assert book["version"] == 1
    data = book["rulebook"]
    data["stages"]["ordinary"]["cap"] = 1200
    for role in ("player", "club_manager", "committee_staff"):
        api.force_authenticate(registry.users[role])
        assert (
            api.put("/api/pcn/rulebooks/2026-2027/", {"rulebook": data}, format="json").status_code
            == 403
        )
    api.force_authenticate(registry.users["federation_staff"])
    response = api.put(
        "/api/pcn/rulebooks/2026-2027/", {"rulebook": data, "note": "cap 1200"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["version"] == 2
    assert api.get("/api/pcn/scale/?format=individual&tables=40").json()["values"][0] == 1200
    # The previous season keeps its own rulebook.
    assert (
        api.get("/api/pcn/scale/?format=individual&tables=40&season=2025-2026").json()["values"][0]
        == 1500
    )


def test_invalid_rulebook_is_refused_whole(api, registry):
    data = api.get("/api/pcn/rulebooks/2026-2027/").json()["rulebook"]
    data["reduction"]["maximum"] = "1.5"
    data["floor"] = -3
    api.force_authenticate(registry.users["federation_staff"])
    response = api.put("/api/pcn/rulebooks/2026-2027/", {"rulebook": data}, format="json")
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert {"reduction.maximum", "floor"} <= fields, fields
    assert api.get("/api/pcn/rulebooks/2026-2027/").json()["version"] == 1


@pytest.mark.parametrize(
    ("final", "wrong_format"),
    [("seniors", "duo"), ("individual", "team4"), ("duo", "individual"), ("team4", "duo")],
)
def test_national_final_in_another_format_is_a_located_400(api, registry, final, wrong_format):
    response = api.post(
        "/api/pcn/allocate/",
        {
            "format": wrong_format,
            "stage": "national_final",
            "national_final": final,
            "ranking": [{"entry_id": "a", "place": 1}],
        },
        format="json",
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["format"]
