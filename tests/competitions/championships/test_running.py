"""Running a stage: the first-session seating (article 25), late arrivals and forfeits
(article 26), abandonment ranked last (article 27)."""

from __future__ import annotations

from collections import Counter

import pytest

from competitions.models import ChampionshipEntry, StagePenalty
from tests.competitions.championships.results_documents import results

pytestmark = pytest.mark.django_db


def seat(api, stage, seed=None):
    return api.post(
        f"/api/championships/stages/{stage}/seating/",
        {} if seed is None else {"seed": seed},
        format="json",
    )


def test_last_seasons_regional_champion_team_starts_at_table_1(
    api,
    registry,
    as_user,
    series,
    championships,
    published,
    enter_all,
    players,
    previous_regional_final,
):
    teams = [players(4, 101) for _ in range(5)]
    for team in teams:
        for n, value in zip(team, (2, 3, 3, 4), strict=True):
            series[n] = value
    as_user("federation_staff")
    previous_regional_final(api, "interclubs", "2026-05-15", teams[::-1])
    champion = teams[-1]  # won last season's regional final
    as_user("committee_staff")
    final = api.post(
        f"/api/championships/{championships['interclubs']}/stages/",
        {"kind": "regional_final", "date": "2027-05-15", "venue": "Lyon",
         "arbiter_licence_number": 1002, "committee": 1},
        format="json",
    ).json()  # fmt: skip
    made = enter_all(api, final["id"], teams)
    assert [e["right"] for e in made["entries"]] == ["entered"] * 4 + ["regional_champion"]
    seating = seat(as_user("arbiter"), final["id"], seed=7)
    assert seating.status_code == 201, seating.json()
    table_one = [a for a in seating.json()["assignments"] if a["table"] == 1]
    assert sorted(a["licence_number"] for a in table_one) == sorted(champion)
    assert seating.json()["champion"] == "E5"


def test_the_outgoing_duo_champion_sits_north_south_at_table_1(
    api, registry, as_user, finals, championships, enter_all, play, players
):
    duos = [[*players(1, 101), *players(1, 102)] for _ in range(10)]
    as_user("committee_staff")
    enter_all(api, finals["duo"], duos)
    play(api, finals["duo"], results(duos))
    champion = players(2, 102)
    as_user("federation_staff")
    pk = championships["duo"]
    api.put(
        f"/api/championships/{pk}/outgoing-champion/", {"licence_numbers": champion}, format="json"
    )
    api.put(
        f"/api/championships/{pk}/quotas/",
        {"quotas": [{"committee": 1, "places": 7}]},
        format="json",
    )
    national = api.post(
        f"/api/championships/{pk}/stages/",
        {"kind": "national_final", "date": "2027-05-30", "venue": "Paris",
         "arbiter_licence_number": 1002},
        format="json",
    ).json()  # fmt: skip
    registered = api.post(f"/api/championships/{pk}/national-final/register/").json()
    assert len(registered["created"]) == 8  # 7 from the regional final and the champion
    seating = seat(api, national["id"]).json()
    first = {
        a["orientation"]: a["licence_number"] for a in seating["assignments"] if a["table"] == 1
    }
    assert sorted([first["N"], first["S"]]) == sorted(champion)


def test_the_others_are_spread_by_zones_and_committees(
    api, registry, as_user, championships, enter_all, players
):
    as_user("federation_staff")
    pk = championships["individual"]
    qualifier = api.post(
        f"/api/championships/{pk}/stages/",
        {"kind": "national_qualifier", "date": "2027-05-15", "venue": "Paris",
         "arbiter_licence_number": 1002},
        format="json",
    ).json()  # fmt: skip
    field = players(8, 101) + players(8, 201)
    enter_all(api, qualifier["id"], [[n] for n in field])
    seating = seat(api, qualifier["id"], seed=3).json()
    assert seating["tables"] == 4
    zone_of = {n: (1 if n in field[:8] else 2) for n in field}
    by_orientation = Counter(
        (a["orientation"], zone_of[a["licence_number"]]) for a in seating["assignments"]
    )
    assert set(by_orientation.values()) == {2}  # each orientation: 2 of each zone
    again = seat(api, qualifier["id"], seed=3).json()
    assert again["assignments"] == seating["assignments"]  # the seed reproduces the draw


def test_only_the_arbiter_or_the_staff_seat_and_penalise(
    api, registry, as_user, finals, enter_all, players
):
    field = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in field])
    for role in ("player", "club_manager"):
        assert seat(as_user(role), finals["individual"]).status_code == 403
        assert (
            as_user(role)
            .post(
                f"/api/championships/stages/{finals['individual']}/penalties/",
                {"licence_number": field[0], "lateness_seconds": 60, "reason": "retard"},
                format="json",
            )
            .status_code
            == 403
        )
    assert seat(as_user("arbiter"), finals["individual"]).status_code == 201
    assert seat(as_user("committee_staff"), finals["individual"]).status_code == 201
    assert api.get(f"/api/championships/stages/{finals['individual']}/seating/").status_code == 200


def late(api, stage, licence, seconds, **extra):
    return api.post(
        f"/api/championships/stages/{stage}/penalties/",
        {"licence_number": licence, "lateness_seconds": seconds, "reason": "Retard", **extra},
        format="json",
    )


def test_late_arrivals_cost_100_points_per_started_5_minutes(
    api, registry, as_user, finals, enter_all, play, players, submit
):
    field = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in field])
    as_user("arbiter")
    seven = late(api, finals["individual"], field[3], 7 * 60)
    assert seven.status_code == 201, seven.json()
    assert (seven.json()["points"], seven.json()["forfeit"]) == (200, False)
    fifteen = late(api, finals["individual"], field[4], 15 * 60, forfeit=True)
    assert [e["code"] for e in fifteen.json()["errors"]] == ["forfeit_not_allowed"]
    assert late(api, finals["individual"], 999, 60).status_code == 400
    # the results must carry the recorded penalty (in the totals)
    as_user("committee_staff")
    without = submit(api, finals["individual"], results([[n] for n in field]))
    assert ("penalties", "penalty_missing") in {
        (e["field"], e["code"]) for e in without.json()["errors"]
    }
    penalty = {"licence_number": field[3], "points": 200, "kind": "late_arrival",
               "reason": "7 minutes late"}  # fmt: skip
    play(api, finals["individual"], results([[n] for n in field], penalties=[penalty]))


def test_a_forfeit_after_15_minutes_with_the_planned_substitute(
    api, registry, as_user, finals, enter_all, new_player, play, players, points, submit
):
    field = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in field])
    substitute = new_player(102).licence_number
    too_young_elsewhere = registry.players[2001].licence_number  # committee 2
    as_user("arbiter")
    refused = late(
        api, finals["individual"], field[0], 16 * 60, forfeit=True,
        substitute_licence_number=too_young_elsewhere,
    )  # fmt: skip
    assert ("substitute.licence_numbers[0].licence", "wrong_committee") in {
        (e["field"], e["code"]) for e in refused.json()["errors"]
    }
    done = late(
        api, finals["individual"], field[0], 16 * 60, forfeit=True,
        substitute_licence_number=substitute,
    )  # fmt: skip
    assert done.status_code == 201, done.json()
    assert (done.json()["points"], done.json()["substitute_licence_number"]) == (0, substitute)
    entries = ChampionshipEntry.objects.filter(stage_id=finals["individual"])
    assert entries.get(number=1).status == "forfeit"
    assert entries.get(number=21).players.get().player.licence_number == substitute
    # the forfeit player may not be ranked; the substitute is
    as_user("committee_staff")
    refused = submit(api, finals["individual"], results([[n] for n in field]))
    assert ("entries[0].players[0].licence_number", "forfeit_player_played") in {
        (e["field"], e["code"]) for e in refused.json()["errors"]
    }
    play(api, finals["individual"], results([[substitute]] + [[n] for n in field[1:]]))
    assert points(ChampionshipEntry.objects.get(number=21).stage.tournament_id)[substitute][0] > 0


def test_a_team_player_forfeit_is_replaced_and_the_team_checked_again(
    api, registry, as_user, finals, series, enter_all, players
):
    team = players(4, 101)
    for n, value in zip(team, (2, 2, 3, 4), strict=True):
        series[n] = value
    as_user("club_manager")
    enter_all(api, finals["interclubs"], [team])
    strong, other_club = players(1, 101), players(1, 102)
    series[strong[0]] = 1
    series[other_club[0]] = 4
    as_user("arbiter")
    # 2 × 2 × 3 × 1 = 12: the substitute would make the composition invalid
    invalid = late(api, finals["interclubs"], team[3], 20 * 60, forfeit=True,
                   substitute_licence_number=strong[0])  # fmt: skip
    assert ("substitute.licence_numbers", "composition_not_allowed") in {
        (e["field"], e["code"]) for e in invalid.json()["errors"]
    }
    mixed = late(api, finals["interclubs"], team[3], 20 * 60, forfeit=True,
                 substitute_licence_number=other_club[0])  # fmt: skip
    assert ("substitute.licence_numbers", "mixed_clubs") in {
        (e["field"], e["code"]) for e in mixed.json()["errors"]
    }
    fine = players(1, 101)[0]
    series[fine] = 4
    done = late(api, finals["interclubs"], team[3], 20 * 60, forfeit=True,
                substitute_licence_number=fine)  # fmt: skip
    assert done.status_code == 201, done.json()
    entry = ChampionshipEntry.objects.get(stage_id=finals["interclubs"], number=1)
    assert entry.status == "eligible"
    assert [p.player.licence_number for p in entry.players.filter(active=True)] == [*team[:3], fine]
    assert entry.series == [2, 2, 3, 4]
    assert StagePenalty.objects.get().forfeit


def test_a_duo_without_substitute_is_forfeit_as_a_whole(
    api, registry, as_user, finals, enter_all, players
):
    duo = [*players(1, 101), *players(1, 102)]
    as_user("committee_staff")
    enter_all(api, finals["duo"], [duo])
    done = late(as_user("arbiter"), finals["duo"], duo[1], 25 * 60, forfeit=True)
    assert done.status_code == 201, done.json()
    assert ChampionshipEntry.objects.get(stage_id=finals["duo"]).status == "forfeit"


def test_an_abandonment_is_ranked_last(
    api, registry, as_user, finals, enter_all, play, players, submit
):
    """Article 27: the results rank an entry that left last, whatever its total; the
    championship's qualification reads those places."""
    field = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in field])
    wrong = results([[n] for n in field])
    wrong["entries"][0]["abandoned"] = True  # left, but still ranked 1st
    assert submit(api, finals["individual"], wrong).status_code == 400
    play(api, finals["individual"], results([[n] for n in field], abandoned=[0]))
    as_user("federation_staff")
    pk = (
        ChampionshipEntry.objects.filter(stage_id=finals["individual"])
        .first()
        .stage.championship_id
    )
    api.put(
        f"/api/championships/{pk}/quotas/",
        {"quotas": [{"committee": 1, "places": 1}]},
        format="json",
    )
    status = api.get(f"/api/championships/{pk}/qualification/").json()
    assert [r["key"] for r in status["national_final"]["qualified"]] == [str(field[1])]
