"""Titles (arts 1, 6, 12, 17, 23): derived from the homologated places of the regional and
national finals, kept in step with corrections, public through the API and on the player's
page; and the zone's approval (preamble of chapter 3), which a void stage lacks."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.championships.titles import stage_titles_record
from competitions.models import ChampionshipStage, ChampionshipTitle, Tournament
from competitions.rulebooks import rulebook_in_force, rulebook_update
from competitions.rules.championships.titles import Awarded, Placed, Title, stage_titles
from core.vocabulary import StageKind
from tests.competitions.championships.results_documents import results, tiebreak

pytestmark = pytest.mark.django_db


# --- the pure rule ----------------------------------------------------------------------------


def test_national_final_titles_follow_the_places_and_ties_share_them() -> None:
    ranking = [Placed("1", (11,), 1), Placed("2", (12,), 2), Placed("3", (13,), 3)]
    assert stage_titles(StageKind.NATIONAL_FINAL, ranking) == (
        Awarded(Title.NATIONAL_CHAMPION, "1", (11,), 1),
        Awarded(Title.NATIONAL_VICE_CHAMPION, "2", (12,), 2),
    )
    tied = [Placed("1", (11,), 1), Placed("2", (12,), 1), Placed("3", (13,), 3)]
    assert [a.title for a in stage_titles(StageKind.NATIONAL_FINAL, tied)] == [
        Title.NATIONAL_CHAMPION,
        Title.NATIONAL_CHAMPION,
    ]  # no 2nd place, so no vice-champion
    assert [a.key for a in stage_titles(StageKind.REGIONAL_FINAL, ranking)] == ["1"]
    assert stage_titles(StageKind.REGIONAL_SEMI_FINAL, ranking) == ()
    assert stage_titles(StageKind.NATIONAL_QUALIFIER, ranking) == ()


# --- recorded from the homologation -----------------------------------------------------------


@pytest.fixture
def duo_final(api, as_user, finals, enter_all, players):
    numbers = players(20, 101)
    duos = [numbers[i : i + 2] for i in range(0, 20, 2)]
    as_user("committee_staff")
    enter_all(api, finals["duo"], duos)
    return finals["duo"], duos


def test_a_regional_final_makes_its_winners_regional_champions(
    api, as_user, registry, duo_final, play, django_assert_max_num_queries
):
    stage, duos = duo_final
    play(api, stage, results(duos))
    rows = ChampionshipTitle.objects.filter(stage_id=stage)
    assert {(t.title, t.player.licence_number, t.committee.number) for t in rows} == {
        ("regional_champion", duos[0][0], 1),
        ("regional_champion", duos[0][1], 1),
    }
    assert {t.key for t in rows} == {f"{duos[0][0]}-{duos[0][1]}"}
    # public, read-only, filtered by player
    api.force_authenticate(None)
    with django_assert_max_num_queries(3):
        listed = api.get("/api/championships/titles/", {"season": "2026-2027"})
    assert listed.status_code == 200
    assert [(t["title"], t["championship"], t["place"]) for t in listed.json()["results"]] == [
        ("regional_champion", "duo", 1)
    ] * 2
    one = api.get("/api/championships/titles/", {"licence_number": duos[0][1]}).json()
    assert [t["licence_number"] for t in one["results"]] == [duos[0][1]]
    assert set(one["results"][0]) == {
        "season", "championship", "title", "title_label", "place", "key", "licence_number",
        "first_name", "last_name", "committee", "stage", "date",
    }  # fmt: skip
    assert api.post("/api/championships/titles/", {}).status_code in (401, 403, 405)
    assert (
        api.get("/api/championships/titles/", {"licence_number": duos[1][0]}).json()["results"]
        == []
    )
    # shown on the player's public page, in French
    page = api.get(f"/classement/joueur/{duos[0][0]}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200
    assert "Champion régional" in page.content.decode()
    other = api.get(f"/classement/joueur/{duos[1][0]}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Champion régional" not in other.content.decode()


def test_titles_follow_a_correction_and_recording_twice_changes_nothing(
    api, as_user, registry, duo_final, play
):
    stage, duos = duo_final
    play(api, stage, results(duos))
    tournament = Tournament.objects.get(championship_stage__pk=stage)
    as_user("federation_staff")
    corrected = api.post(
        f"/api/tournaments/{tournament.pk}/corrections/",
        {"reason": "Totaux inversés", "document": results([duos[1], duos[0], *duos[2:]])},
        format="json",
    )
    assert corrected.status_code == 201, corrected.json()
    rows = ChampionshipTitle.objects.filter(stage_id=stage)
    assert {t.player.licence_number for t in rows} == set(duos[1])
    history = ChampionshipTitle.history.count()
    assert history == 6  # two created, then two deleted and two created by the correction
    tournament.refresh_from_db()
    stage_titles_record(tournament=tournament, by=registry.users["federation_staff"])
    assert ChampionshipTitle.history.count() == history
    assert {t.player.licence_number for t in rows.all()} == set(duos[1])


def test_a_tie_surviving_article_29_at_the_top_shares_the_title(
    api, as_user, finals, enter_all, players, play
):
    numbers = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in numbers])
    totals = [300, 300] + [10 - i for i in range(17)]
    totals.append(-sum(totals))
    same = tiebreak(120, prise=2)
    document = results([[n] for n in numbers], totals=totals, tiebreaks={0: same, 1: same})
    assert [e["place"] for e in document["entries"][:3]] == [1, 1, 3]
    play(api, finals["individual"], document)
    titles = ChampionshipTitle.objects.filter(stage_id=finals["individual"])
    assert {t.player.licence_number for t in titles} == set(numbers[:2])


# --- the zone's approval: a per-season setting --------------------------------------------


def test_without_the_zone_approval_a_stage_counts_only_when_the_season_says_so(
    api, as_user, registry, finals, enter_all, players, submit, homologate, play
):
    stage = ChampionshipStage.objects.select_related("rules_version").get(pk=finals["seniors"])
    stage.rules_version.approved_at = None  # as if the zone had not approved yet
    stage.rules_version.save(update_fields=["approved_at"])
    numbers = players(20, 101, born=dt.date(1950, 1, 1))
    as_user("committee_staff")
    enter_all(api, stage.pk, [[n] for n in numbers])
    assert submit(api, stage.pk, results([[n] for n in numbers])).status_code == 201
    refused = homologate(api, stage.pk)
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "regional_stage_without_zone_approval"
    assert "sans l’aval du responsable de zone" in refused.json()["errors"][0]["message"]
    # the federation decides the stage counts: homologated, with a title
    season = stage.championship.season
    data = rulebook_in_force(season=season)[1].to_dict()
    data["championships"]["unapproved_regional_rules"] = "warning"
    rulebook_update(season=season, data=data, by=registry.users["federation_staff"])
    assert homologate(api, stage.pk).status_code == 200
    assert ChampionshipTitle.objects.filter(stage=stage).count() == 1
    # back to the text: the homologated stage qualifies nobody, and says why
    data["championships"]["unapproved_regional_rules"] = "void"
    rulebook_update(season=season, data=data, by=registry.users["federation_staff"])
    as_user("federation_staff")
    api.put(
        f"/api/championships/{stage.championship_id}/quotas/",
        {"quotas": [{"committee": 1, "places": 2}]},
        format="json",
    )
    found = api.get(f"/api/championships/{stage.championship_id}/qualification/").json()
    assert ("regional_finals.1.stage", "regional_stage_without_zone_approval") in {
        (p["field"], p["code"]) for p in found["problems"]
    }
    assert all(r["right"] != "committee_quota" for r in found["national_final"]["qualified"])
