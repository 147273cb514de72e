"""The PCN of championship stages: indices 1 / 1.5 / 1.8 and the 3000 cap of the regional
championships (chapter 5), computed by the homologation of the stage's tournament."""

from __future__ import annotations

import pytest

from tests.competitions.championships.expected_scale import expected_scale
from tests.competitions.championships.results_documents import results
from tests.competitions.championships.rules_documents import final_stage, stage_of

pytestmark = pytest.mark.django_db


def test_regional_stages_are_capped_at_3000_not_1500(
    api, registry, as_user, championships, enter_all, play, players, points
):
    pk = championships["individual"]
    as_user("committee_staff")
    regional = api.post(
        f"/api/championships/{pk}/regionals/", {"committee": 1}, format="json"
    ).json()["id"]
    rules = {
        "stages": [
            stage_of("regional_stage", "Qualificatif", "2027-01-05", "2027-01-31"),
            final_stage("2027-03-01", "2027-03-31", minimum=20),
        ]
    }
    published = api.post(
        f"/api/championships/regionals/{regional}/rules/", {"rules": rules}, format="json"
    )
    assert published.status_code == 201, published.json()
    as_user("zone_staff").post(f"/api/championships/regionals/{regional}/rules/1/approve/")
    as_user("committee_staff")
    field = players(84, 101)
    documents = results([[n] for n in field])  # 21 tables in each of the 2 sessions: 42
    for kind, day, index in (
        ("regional_stage", "2027-01-16", "1"),
        ("regional_final", "2027-03-13", "1.8"),
    ):
        stage = api.post(
            f"/api/championships/{pk}/stages/",
            {"kind": kind, "date": day, "venue": "Lyon", "arbiter_licence_number": 1002,
             "committee": 1},
            format="json",
        ).json()  # fmt: skip
        enter_all(api, stage["id"], [[n] for n in field])
        play(api, stage["id"], documents)
        awarded = points(stage["tournament"]["id"])
        expected = expected_scale(42, index, 42)
        assert [awarded[n][0] for n in field[:42]] == expected
        assert all(awarded[n] == (0, 0) for n in field[42:])
        if kind == "regional_stage":
            assert expected[0] == 1680  # above the 1500 cap of ordinary tournaments
        else:
            assert expected[0] == 3000  # 40 × 42 × 1.8 = 3024, capped
