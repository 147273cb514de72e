"""A whole season replayed through the API: last season's regional and national finals,
then this season's four championships, from the committees' rules to the national final,
with refused entries, a regional final that breaks a rule, a tie decided by article 29,
the outgoing champion, a qualified player who plays the national qualifier, the regional
champion carried over, and the PCN of every stage checked against chapter 5."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.models import ChampionshipEntry, Qualification, Tournament
from federation.models import ArbiterAccreditation, ArbiterGrade, Licence, Player, Season, User
from tests.competitions.championships.expected_scale import expected_scale
from tests.competitions.championships.results_documents import results, tiebreak
from tests.competitions.championships.rules_documents import shifted, valid_rules

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(api):
    """These tests read the refusals' English developer text (French is the default)."""
    api.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


INDIVIDUAL_TABLE = (
    [(4000, 17), (3500, 11), (3000, 8), (2500, 7)] + [(2200, 6)] * 4 + [(1900, 5)] * 3
)


def post(api, url, body=None, expected=(200, 201)):
    response = api.post(url, body or {}, format="json")
    assert response.status_code in expected, response.json()
    return response.json()


def regional(api, championship, committee):
    return post(api, f"/api/championships/{championship}/regionals/", {"committee": committee})[
        "id"
    ]


def stage(api, championship, kind, day, committee=None, **extra):
    body = {"kind": kind, "date": day, "venue": "Salle", "arbiter_licence_number": 1002, **extra}
    if committee is not None:
        body["committee"] = committee
    return post(api, f"/api/championships/{championship}/stages/", body)


def codes(response):
    assert response.status_code == 400, response.json()
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


def test_a_whole_season(
    api, registry, as_user, series, enter_all, play, players, points, submit, homologate
):
    ArbiterAccreditation.objects.create(
        player=registry.players[1002], season=registry.previous, grade=ArbiterGrade.REGIONAL
    )
    p = players(22, 101)  # committee 1, licensed both seasons
    ccn = registry.users["federation_staff"]

    # ---- Last season (2025-2026): committee 1's regional final and the national final ----
    as_user(ccn)
    previous = post(api, "/api/championships/", {"season": "2025-2026", "kinds": ["individual"]})
    last = previous[0]["id"]
    as_user("committee_staff")
    last_regional = regional(api, last, 1)
    post(
        api,
        f"/api/championships/regionals/{last_regional}/rules/",
        {"rules": shifted(valid_rules("individual", semi=False), -1)},
    )
    post(as_user("zone_staff"), f"/api/championships/regionals/{last_regional}/rules/1/approve/")
    as_user("committee_staff")
    last_final = stage(api, last, "regional_final", "2026-03-14", committee=1)["id"]
    enter_all(api, last_final, [[n] for n in p])
    play(api, last_final, results([[n] for n in p]))  # p[0] regional champion 2025-2026
    as_user(ccn)
    api.put(
        f"/api/championships/{last}/quotas/",
        {"quotas": [{"committee": 1, "places": 12}]},
        format="json",
    )
    last_national = stage(api, last, "national_final", "2026-05-16")["id"]
    registered = post(api, f"/api/championships/{last}/national-final/register/")
    assert len(registered["created"]) == 12
    assert registered["refused"] == []
    winners = [p[5]] + [n for n in p[:12] if n != p[5]]
    play(api, last_national, results([[n] for n in winners]))  # p[5] national champion

    # ---- This season: the CCN opens the four championships ----
    made = {c["kind"]: c["id"] for c in post(api, "/api/championships/", {"season": "2026-2027"})}
    individual = made["individual"]
    champion = api.get(f"/api/championships/{individual}/outgoing-champion/").json()
    assert champion["licence_numbers"] == [p[5]]
    assert not champion["set_by_ccn"]
    # the CCN lowers the national qualifier's quota for this season (a new settings version)
    post(
        api,
        f"/api/championships/{individual}/rules/",
        {"data": {"national_qualifier_quota": 6}, "note": "Salle réduite"},
    )

    # ---- Regional rules: committee 1's comply and are approved; committee 2's are refused
    # once (a final of 15 players), then published ----
    as_user("committee_staff")
    r1 = regional(api, individual, 1)
    post(api, f"/api/championships/regionals/{r1}/rules/", {"rules": valid_rules("individual")})
    post(as_user("zone_staff"), f"/api/championships/regionals/{r1}/rules/1/approve/")
    as_user(ccn)
    r2 = regional(api, individual, 2)
    small = valid_rules("individual")
    small["stages"][1]["brackets"][0]["min_entries"] = 15
    refused = api.post(f"/api/championships/regionals/{r2}/rules/", {"rules": small}, format="json")
    assert ("stages[1].brackets[0].min_entries", "field_below_minimum") in codes(refused)
    post(api, f"/api/championships/regionals/{r2}/rules/", {"rules": valid_rules("individual")})

    # ---- Committee 1's semi-final (index 1.5) ----
    as_user("committee_staff")
    semi = stage(api, individual, "regional_semi_final", "2027-02-10", committee=1)
    semi_field = p + players(2, 102)
    enter_all(api, semi["id"], [[n] for n in semi_field])
    play(api, semi["id"], results([[n] for n in semi_field], sessions=1, deals=12))
    semi_points = points(semi["tournament"]["id"])
    # 24 players, 6 tables, one session; half of them have a right to points
    assert [semi_points[n][0] for n in semi_field[:12]] == expected_scale(6, "1.5", 12)
    assert semi_points[semi_field[0]][0] == 360  # 40 × 6 × 1.5

    # ---- Committee 1's regional final (index 1.8) ----
    final1 = stage(api, individual, "regional_final", "2027-03-13", committee=1)
    refused = api.post(
        f"/api/championships/stages/{final1['id']}/entries/",
        {"licence_numbers": [2001]},
        format="json",
    )
    assert codes(refused) == {("entries[0].licence_numbers[0].licence", "wrong_committee")}
    made_entries = enter_all(api, final1["id"], [[n] for n in p])
    rights = {e["players"][0]["licence_number"]: e["right"] for e in made_entries["entries"]}
    assert rights[p[0]] == "regional_champion"  # last season's regional champion
    assert {r for n, r in rights.items() if n != p[0]} == {"entered"}
    # ranking: p[5] (outgoing champion) 1st, p[1] 2nd, then p[2] and p[3] level on 20,
    # separated by article 29 (best score on a position), then the others
    order = [p[5], p[1], p[2], p[3]] + [n for n in p if n not in (p[5], p[1], p[2], p[3])]
    totals = [400, 300, 20, 20] + [10 - i for i in range(17)]
    totals.append(-sum(totals))
    document = results(
        [[n] for n in order],
        totals=totals,
        tiebreaks={2: tiebreak(180, prise=3), 3: tiebreak(150, prise=5)},
    )
    assert [e["place"] for e in document["entries"][:5]] == [1, 2, 3, 4, 5]
    play(api, final1["id"], document)
    final_points = points(final1["tournament"]["id"])
    # 22 players: 6 tables (two of 3) in each of the 2 sessions, 12 tables in all
    assert [final_points[n][0] for n in order[:11]] == expected_scale(12, "1.8", 11)
    assert final_points[p[5]][0] == 864  # 40 × 12 × 1.8
    assert final_points[p[2]][0] > final_points[p[3]][0]  # the tie was decided

    # ---- Committee 2's regional final: a single session is refused, then it is replayed ----
    as_user(ccn)
    q = players(20, 201)
    final2 = stage(api, individual, "regional_final", "2027-03-20", committee=2)
    enter_all(api, final2["id"], [[n] for n in q])
    one_session = submit(api, final2["id"], results([[n] for n in q], sessions=1))
    assert {("sessions", "too_few_sessions"), ("sessions", "sessions_differ_from_plan")} <= (
        codes(one_session)
    )
    assert Tournament.objects.get(pk=final2["tournament"]["id"]).status == "declared"
    # held without the zone's approval of committee 2's rules, it is void (preamble of
    # chapter 3): its results are not homologated, so it gives no PCN and no place ...
    assert submit(api, final2["id"], results([[n] for n in q])).status_code == 201
    void = homologate(api, final2["id"])
    assert void.status_code == 400
    assert codes(void) == {("stage", "regional_stage_without_zone_approval")}
    status = api.get(f"/api/championships/{individual}/qualification/").json()
    assert ("regionals.2", "regional_rules_not_approved") in {
        (w["field"], w["code"]) for w in status["warnings"]
    }
    # ... until its rules are approved (here by the CCN, who may act for the zone)
    post(api, f"/api/championships/regionals/{r2}/rules/1/approve/")
    assert homologate(api, final2["id"]).status_code == 200

    # ---- Quotas, then who is qualified before the national qualifier ----
    assert (
        as_user("committee_staff")
        .put(
            f"/api/championships/{individual}/quotas/",
            {"quotas": [{"committee": 1, "places": 2}]},
            format="json",
        )
        .status_code
        == 403
    )
    as_user(ccn)
    api.put(
        f"/api/championships/{individual}/quotas/",
        {"quotas": [{"committee": 1, "places": 2}, {"committee": 2, "places": 2}]},
        format="json",
    )
    status = api.get(f"/api/championships/{individual}/qualification/").json()
    qualified = {r["key"]: (r["right"], r["place"]) for r in status["national_final"]["qualified"]}
    assert qualified == {
        str(p[5]): ("outgoing_national_champion", None),
        str(p[1]): ("committee_quota", 2),  # p[5] holds a direct right: the next ones take
        str(p[2]): ("committee_quota", 3),  # committee 1's two places; p[3] lost the tie
        str(q[0]): ("committee_quota", 1),
        str(q[1]): ("committee_quota", 2),
    }
    assert status["national_final"]["open"] == [
        {"right": "national_qualifier", "committee": None, "count": 6,
         "reason": "national_qualifier_pending", "tied": []}
    ]  # fmt: skip
    assert [r["key"] for r in status["regional_final"]["qualified"]] == [str(p[0])]
    assert status["warnings"] == []
    assert status["problems"] == []

    # ---- The national qualifier (the day before the final); p[1], qualified, plays it ----
    qualifier = stage(api, individual, "national_qualifier", "2027-05-15")
    national = stage(api, individual, "national_final", "2027-05-16")
    field = [p[1], *p[6:17]]
    entered = api.post(
        f"/api/championships/stages/{qualifier['id']}/entries/",
        {"entries": [{"licence_numbers": [n]} for n in field]},
        format="json",
    )
    assert entered.status_code == 201, entered.json()
    assert [w["code"] for w in entered.json()["warnings"]] == ["loses_qualification"]
    play(api, qualifier["id"], results([[n] for n in field], sessions=1))
    qualifier_points = points(qualifier["tournament"]["id"])
    assert [qualifier_points[n][0] for n in field[:6]] == expected_scale(3, "1", 6)

    status = api.get(f"/api/championships/{individual}/qualification/").json()
    qualified = {r["key"]: (r["right"], r["place"]) for r in status["national_final"]["qualified"]}
    assert qualified == {
        str(p[5]): ("outgoing_national_champion", None),
        str(p[2]): ("committee_quota", 3),
        str(q[0]): ("committee_quota", 1),
        str(q[1]): ("committee_quota", 2),
        str(p[1]): ("national_qualifier", 1),
        **{str(n): ("national_qualifier", i + 2) for i, n in enumerate(p[6:11])},
        str(p[11]): ("reattributed_place", 7),  # the place p[1] gave up
    }
    assert [(r["key"], r["right"]) for r in status["national_final"]["lost"]] == [
        (str(p[1]), "committee_quota")
    ]
    assert status["national_final"]["open"] == []

    # ---- The national final: the field is registered from the qualifications ----
    registered = post(api, f"/api/championships/{individual}/national-final/register/")
    assert len(registered["created"]) == 11
    assert registered["refused"] == []
    recorded = Qualification.objects.get(championship_id=individual, key=str(p[1]))
    assert (recorded.right, recorded.status) == ("national_qualifier", "qualified")
    assert "played the national qualifier" in recorded.message
    entries = {
        e.players.get().player.licence_number: e.right
        for e in ChampionshipEntry.objects.filter(stage_id=national["id"])
    }
    assert entries[p[5]] == "outgoing_national_champion"
    assert entries[p[11]] == "reattributed_place"
    # the arbiter seats the first session: the outgoing champion North at table 1
    arbiter = registry.users["arbiter"]
    seating = post(as_user(arbiter), f"/api/championships/stages/{national['id']}/seating/", {})
    assert seating["assignments"][0] == {
        "number": 1, "table": 1, "orientation": "N", "licence_number": p[5], "entry": 1
    }  # fmt: skip
    finalists = [p[2], p[5], q[0], q[1], p[1], *p[6:12]]
    as_user(ccn)
    play(api, national["id"], results([[n] for n in finalists]))
    national_points = points(national["tournament"]["id"])
    assert [national_points[n] for n in finalists] == INDIVIDUAL_TABLE

    # ---- Titles of the season (arts 1 and 6): from the homologated places, public ----
    api.force_authenticate(None)
    titles = api.get("/api/championships/titles/", {"season": "2026-2027"}).json()["results"]
    assert [(t["title"], t["licence_number"], t["committee"]) for t in titles] == [
        ("national_champion", p[2], None),
        ("national_vice_champion", p[5], None),
        ("regional_champion", p[5], 1),
        ("regional_champion", q[0], 2),
    ]
    as_user(ccn)

    # ---- A player sees their own entries and qualifications ----
    user = User.objects.create_user("p1", player=Player.objects.get(licence_number=p[1]))
    mine = as_user(user).get("/api/championships/me/").json()
    assert [(e["stage_kind"], e["status"]) for e in mine["entries"]] == [
        ("regional_semi_final", "eligible"),
        ("regional_final", "eligible"),
        ("national_qualifier", "eligible"),
        ("national_final", "eligible"),
    ]
    assert {(q["target"], q["status"], q["right"]) for q in mine["qualifications"]} == {
        ("national_final", "lost", "committee_quota"),
        ("national_final", "qualified", "national_qualifier"),
    }


SENIORS_TABLE = [(5000, 10), (4500, 7), (4000, 5), (3500, 4)] + [(3200, 3)] * 4 + [(2900, 2)] * 4
DUO_TABLE = [(4000, 10), (3500, 7), (3000, 5), (2500, 4), (2200, 3), (2200, 3)]
TEAM4_TABLE = [(4000, 10), (3500, 7), (3000, 5), (2500, 4), (2200, 3)]


def rules_and_final(api, registry, championship, kind, day):
    """Committee 1 publishes valid rules and creates its regional final."""
    r = regional(api, championship, 1)
    post(api, f"/api/championships/regionals/{r}/rules/", {"rules": valid_rules(kind)})
    api.force_authenticate(registry.users["zone_staff"])  # the zone approves (« aval »)
    post(api, f"/api/championships/regionals/{r}/rules/1/approve/")
    api.force_authenticate(registry.users["committee_staff"])
    return stage(api, championship, "regional_final", day, committee=1)


def test_seniors_duo_and_interclubs_seasons(
    api, registry, as_user, series, enter_all, new_player, play, players, points
):
    ccn = registry.users["federation_staff"]
    made = {
        c["kind"]: c["id"]
        for c in post(as_user(ccn), "/api/championships/", {"season": "2026-2027"})
    }

    # ---- Seniors: 60 on 31 December 2026; the national final has its own table ----
    as_user("committee_staff")
    final = rules_and_final(api, registry, made["seniors"], "seniors", "2027-03-14")
    too_young = new_player(101, born=dt.date(1967, 1, 1)).licence_number
    assert ("entries[0].licence_numbers[0].birth_date", "too_young") in codes(
        api.post(
            f"/api/championships/stages/{final['id']}/entries/",
            {"licence_numbers": [too_young]},
            format="json",
        )
    )
    seniors = players(20, 102, born=dt.date(1952, 4, 4))
    enter_all(api, final["id"], [[n] for n in seniors])
    play(api, final["id"], results([[n] for n in seniors]))
    assert points(final["tournament"]["id"])[seniors[0]] == (720, 0)  # 40 × 10 tables × 1.8
    as_user(ccn)
    api.put(
        f"/api/championships/{made['seniors']}/quotas/",
        {"quotas": [{"committee": 1, "places": 12}]},
        format="json",
    )
    national = stage(api, made["seniors"], "national_final", "2027-05-23")
    assert (
        len(post(api, f"/api/championships/{made['seniors']}/national-final/register/")["created"])
        == 12
    )
    play(api, national["id"], results([[n] for n in seniors[:12]]))
    awarded = points(national["tournament"]["id"])
    assert [awarded[n] for n in seniors[:12]] == SENIORS_TABLE

    # ---- DUO: both players in the committee; teams of 2 ----
    as_user("committee_staff")
    final = rules_and_final(api, registry, made["duo"], "duo", "2026-12-05")
    outsider = api.post(
        f"/api/championships/stages/{final['id']}/entries/",
        {"licence_numbers": [players(1, 101)[0], 2002]},
        format="json",
    )
    assert ("entries[0].licence_numbers", "mixed_committees") in codes(outsider)
    duo_players = players(10, 101) + players(10, 102)
    duos = [[duo_players[i], duo_players[i + 10]] for i in range(10)]  # clubs 101 + 102
    enter_all(api, final["id"], duos)
    play(api, final["id"], results(duos))
    duo_points = points(final["tournament"]["id"])
    # 10 duos: 5 tables × 2 sessions; coefficient squared; half of 10 duos have points
    expected = expected_scale(10, "1.8", 5, exponent=2)
    assert [duo_points[d[0]][0] for d in duos[:5]] == expected
    assert [duo_points[d[1]][0] for d in duos[:5]] == expected  # each player of the duo
    as_user(ccn)
    api.put(
        f"/api/championships/{made['duo']}/quotas/",
        {"quotas": [{"committee": 1, "places": 6}]},
        format="json",
    )
    national = stage(api, made["duo"], "national_final", "2027-05-30")
    post(api, f"/api/championships/{made['duo']}/national-final/register/")
    play(api, national["id"], results(duos[:6]))
    awarded = points(national["tournament"]["id"])
    assert [awarded[d[1]] for d in duos[:6]] == DUO_TABLE

    # ---- Interclubs: the final is next season; teams keep their qualification day ----
    as_user("committee_staff")
    final = rules_and_final(api, registry, made["interclubs"], "interclubs", "2027-05-15")
    strong = players(4, 101)
    for n, value in zip(strong, (1, 1, 2, 2), strict=True):
        series[n] = value
    assert codes(
        api.post(
            f"/api/championships/stages/{final['id']}/entries/",
            {"licence_numbers": strong},
            format="json",
        )
    ) == {("entries[0].licence_numbers", "composition_not_allowed")}
    teams = [players(4, 101 if i % 2 else 102) for i in range(6)]
    for t in teams:
        for n, value in zip(t, (2, 3, 3, 4), strict=True):
            series[n] = value
    enter_all(api, final["id"], teams)
    play(api, final["id"], results(teams))
    team_points = points(final["tournament"]["id"])
    # 6 teams: 6 tables × 2 sessions; coefficient ^4; half of 6 teams (rounded up) have points
    assert [team_points[t[0]][0] for t in teams[:3]] == expected_scale(12, "1.8", 3, exponent=4)
    as_user(ccn)
    api.put(
        f"/api/championships/{made['interclubs']}/quotas/",
        {"quotas": [{"committee": 1, "places": 6}]},
        format="json",
    )
    status = api.get(f"/api/championships/{made['interclubs']}/qualification/").json()
    snapshot = status["national_final"]["qualified"][0]["team"]
    assert snapshot == {
        "club": 102, "committee": 1, "series": [2, 3, 3, 4], "taken_on": "2027-05-15"
    }  # fmt: skip
    assert status["national_final"]["open"] == []  # no national qualifier for the interclubs

    # next season: licences renewed, one player moved to committee 2 and climbed to 1st
    # series, one team's player did not renew
    following = Season.objects.create(
        name="2027-2028", start_date=dt.date(2027, 7, 1), end_date=dt.date(2028, 6, 30)
    )
    ArbiterAccreditation.objects.create(
        player=registry.players[1002], season=following, grade=ArbiterGrade.NATIONAL
    )
    for i, t in enumerate(teams):
        for k, n in enumerate(t):
            if (i, k) == (5, 3):
                continue  # not renewed
            club = (
                registry.clubs[201] if (i, k) == (0, 0) else registry.clubs[101 if i % 2 else 102]
            )
            Licence.objects.create(
                player=Player.objects.get(licence_number=n), season=following, club=club
            )
    series[teams[0][0]] = 1
    national = stage(api, made["interclubs"], "national_final", "2027-10-10")
    field = post(api, f"/api/championships/{made['interclubs']}/national-final/register/")
    assert len(field["created"]) == 5
    assert [e["code"] for e in field["refused"]] == ["not_licensed"]
    assert str(teams[5][3]) in field["refused"][0]["message"]
    moved = ChampionshipEntry.objects.get(stage_id=national["id"], number=1)
    assert (moved.club.number, moved.committee.number, moved.series) == (102, 1, [2, 3, 3, 4])
    assert moved.right == "committee_quota"
    play(api, national["id"], results(teams[:5]))
    awarded = points(national["tournament"]["id"])
    assert [awarded[t[2]] for t in teams[:5]] == TEAM4_TABLE
    assert Tournament.objects.get(pk=national["tournament"]["id"]).season == following
