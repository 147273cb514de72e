"""Interclubs teams whose composition becomes invalid are flagged, not silently kept."""

from __future__ import annotations

import pytest

from competitions.championships import tasks as championship_tasks
from competitions.models import ChampionshipEntry, TeamFlag
from federation.models import Player
from rankings.models import ManualPlacement
from rankings.season.official_ranking import official_ranking_publish
from tests.competitions.championships.results_documents import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def teams(api, registry, as_user, finals, series, enter_all, players):
    """Three valid teams of club 101 entered in committee 1's interclubs regional final."""
    made = [players(4, 101) for _ in range(3)]
    for team in made:
        for n, value in zip(team, (2, 2, 3, 4), strict=True):
            series[n] = value
    as_user("club_manager")
    enter_all(api, finals["interclubs"], made)
    return made


def recheck(api):
    response = api.post("/api/championships/recheck-teams/", {"season": "2026-2027"}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_team_whose_series_changed_is_flagged_then_cleared(
    api, registry, as_user, finals, series, teams, players, submit
):
    assert (
        as_user("committee_staff")
        .post("/api/championships/recheck-teams/", {"season": "2026-2027"}, format="json")
        .status_code
        == 403
    )
    as_user("federation_staff")
    assert recheck(api) == {"checked": 3, "flagged": [], "resolved": []}
    series[teams[1][3]] = 1  # 2 × 2 × 3 × 1 = 12: no longer allowed
    series[teams[2][2]] = 4  # 2 × 2 × 4 × 4 = 64: still allowed, series kept current
    report = recheck(api)
    assert report["flagged"] == [{"stage": finals["interclubs"], "entry": 2}]
    flagged = ChampionshipEntry.objects.get(stage_id=finals["interclubs"], number=2)
    assert flagged.status == "flagged"
    flag = flagged.flags.get()
    assert (flag.code, flag.series, flag.resolved_at) == (
        "composition_not_allowed",
        [2, 2, 3, 1],
        None,
    )
    assert "= 12: the product of the four series must be strictly greater than 16" in flag.message
    assert ChampionshipEntry.objects.get(stage_id=finals["interclubs"], number=3).series == [
        2,
        2,
        4,
        4,
    ]
    # the flag is visible on the public list of entries
    as_user("anonymous")
    listed = api.get(f"/api/championships/stages/{finals['interclubs']}/entries/").json()
    assert [e["flags"][0]["code"] for e in listed if e["flags"]] == ["composition_not_allowed"]
    # the same state again: nothing new
    as_user("federation_staff")
    assert recheck(api)["flagged"] == []
    assert TeamFlag.objects.count() == 1
    # its results cannot count while it is flagged
    as_user("committee_staff")
    refused = submit(api, finals["interclubs"], results([*teams, players(4, 101)]))
    assert refused.status_code == 400
    assert ("entries[1].players", "team_flagged") in {
        (e["field"], e["code"]) for e in refused.json()["errors"]
    }
    # the series is corrected: the flag is cleared
    series[teams[1][3]] = 4
    as_user("federation_staff")
    assert recheck(api)["resolved"] == [{"stage": finals["interclubs"], "entry": 2}]
    assert ChampionshipEntry.objects.get(stage_id=finals["interclubs"], number=2).status == (
        "eligible"
    )
    assert TeamFlag.objects.get().resolved_at is not None


def test_seating_waits_for_flagged_teams(api, registry, as_user, finals, series, teams):
    series[teams[0][0]] = 1
    series[teams[0][1]] = 1
    series[teams[0][3]] = 2  # 1 × 1 × 3 × 2 = 6
    championship_tasks.recheck_interclubs_teams.delay(registry.season.pk)  # eager here
    response = as_user("committee_staff").post(
        f"/api/championships/stages/{finals['interclubs']}/seating/", {}, format="json"
    )
    assert response.status_code == 400
    assert [e["code"] for e in response.json()["errors"]] == ["team_flagged"]


def test_the_background_task_flags_like_the_service(api, registry, as_user, finals, series, teams):
    series[teams[0][0]] = 1
    series[teams[0][1]] = 1  # 1 × 1 × 3 × 4: an allowed exception
    series[teams[2][3]] = 1  # 2 × 2 × 3 × 1 = 12
    result = championship_tasks.recheck_interclubs_teams.delay(registry.season.pk).get()
    flagged = ChampionshipEntry.objects.get(stage_id=finals["interclubs"], number=3)
    assert result == {"checked": 3, "flagged": [flagged.pk], "resolved": []}
    assert ChampionshipEntry.objects.filter(status="flagged").count() == 1


@pytest.mark.django_db(transaction=True)
def test_publishing_the_official_ranking_rechecks_the_teams_on_a_worker(
    registry, teams, finals, celery_worker_process, wait_for
):
    """Last season's official ranking gives this season's series (``series_for_players``):
    publishing it sends the re-check of this season's teams, after the commit, to a real
    worker. The teams were entered on the fixture's series table (2, 2, 3, 4); the worker
    reads the published ranking, where the CCN placed three players of team 1 in the 1st
    series and everyone else is 4th series."""
    for number in teams[0][:3]:
        ManualPlacement.objects.create(
            season=registry.previous,
            player=Player.objects.get(licence_number=number),
            step="1T",
            reason="test",
        )
    assert not TeamFlag.objects.exists()
    official_ranking_publish(season=registry.previous)
    flag = wait_for(lambda: TeamFlag.objects.select_related("entry").first(), timeout=60)
    assert (flag.entry.number, flag.code, flag.series) == (
        1,
        "composition_not_allowed",
        [1, 1, 1, 4],
    )
    others = ChampionshipEntry.objects.filter(stage_id=finals["interclubs"], number__in=[2, 3])
    assert [(e.status, e.series) for e in others.order_by("number")] == [
        ("eligible", [4, 4, 4, 4]),
        ("eligible", [4, 4, 4, 4]),
    ]
