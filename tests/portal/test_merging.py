"""Duplicate player records found and merged (portal/merging.py, docs/duplicates.md):
every relation moves, the pointer and the audit, the ranking follows (previous official
ranking read through the pointer), old links redirect, refusals write nothing, and only
federation staff may list or merge."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest
from django.db import transaction

from competitions.models import Allocation, ResultEntry, ResultPlayer, ResultRevision, Tournament
from competitions.rulebooks import rulebook_in_force
from federation.models import Licence, Player, PlayerMerge, Sanction, User
from portal.merging import NOT_MOVED, player_relations, players_merge
from rankings.models import PlayerSeasonTotal, RankingEntry, SeasonStanding
from rankings.official_ranking import official_ranking_publish

pytestmark = pytest.mark.django_db
_numbers = itertools.count(1)


def tournament(season, club, arbiter, points: dict[Player, int]) -> Tournament:
    """A homologated tournament of ``season`` with its result lines and allocations."""
    n = next(_numbers)
    t = Tournament.objects.create(
        season=season, name=f"Fusion {n}", date=season.start_date + dt.timedelta(days=n),
        venue="Salle", format="individual", organizer_kind="club", organizer_club=club,
        arbiter=arbiter,
    )  # fmt: skip
    revision = ResultRevision.objects.create(
        tournament=t, number=1, document={}, sha256=f"{n:064x}", source="json"
    )
    version, _ = rulebook_in_force(season=season)
    for place, (player, pcn) in enumerate(points.items(), start=1):
        entry = ResultEntry.objects.create(revision=revision, number=place, place=place, total=0)
        ResultPlayer.objects.create(
            revision=revision, entry=entry, licence_number=player.licence_number,
            name=player.last_name, player=player, licensed=True,
        )  # fmt: skip
        Allocation.objects.create(
            season=season, tournament=t, revision=revision, rulebook=version, player=player,
            place=place, pcn=pcn, pp=0,
        )  # fmt: skip
    t.status = "homologated"
    t.homologated_revision = revision
    t.save(update_fields=["status", "homologated_revision"])
    return t


@pytest.fixture
def pair(registry):
    """Paul DURAND twice: 5001 licensed this season (club 101), 5002 the season before
    (club 102, same committee), born the same day; 5002 arbitrated, won points and was
    ranked in last season's official ranking; 5001 won points this season."""
    born = dt.date(1975, 4, 4)
    kept = Player.objects.create(
        licence_number=5001, last_name="Durand", first_name="Paul", birth_date=born
    )
    merged = Player.objects.create(
        licence_number=5002, last_name="DURAND", first_name="Paul", birth_date=born
    )
    Licence.objects.create(player=kept, season=registry.season, club=registry.clubs[101])
    Licence.objects.create(player=merged, season=registry.previous, club=registry.clubs[102])
    others = registry.players
    old = tournament(
        registry.previous, registry.clubs[102], merged, {merged: 400, others[1003]: 100}
    )
    new = tournament(registry.season, registry.clubs[101], others[1002], {kept: 150})
    Sanction.objects.create(player=merged, kind="warning", starts=dt.date(2025, 9, 1), reason="x")
    User.objects.create_user(username="paul", password="x", player=merged)
    official_ranking_publish(season=registry.previous)
    return kept, merged, old, new


def test_every_relation_to_a_player_is_moved_or_deliberately_left():
    moved = {(m._meta.label, f) for m, f in player_relations()}
    assert {
        ("federation.Licence", "player"),
        ("federation.ArbiterAccreditation", "player"),
        ("federation.Sanction", "player"),
        ("federation.User", "player"),
        ("competitions.Tournament", "arbiter"),
        ("competitions.ResultPlayer", "player"),
        ("competitions.EntryPlayer", "player"),
        ("competitions.StagePenalty", "player"),
        ("competitions.StagePenalty", "substitute"),
        ("competitions.ChampionshipTitle", "player"),
        ("competitions.Allocation", "player"),
        ("rankings.ManualPlacement", "player"),
    } <= moved
    assert not moved & NOT_MOVED
    assert not any(label.split(".")[1].startswith("Historical") for label, _f in moved)


def test_merge_moves_everything_points_audits_and_the_ranking_follows(
    registry, pair, django_capture_on_commit_callbacks
):
    kept, merged, old, _new = pair
    official = RankingEntry.objects.get(snapshot__kind="official", player=merged)
    staff = registry.users["federation_staff"]
    with django_capture_on_commit_callbacks(execute=True):
        audit = players_merge(kept=kept, merged=merged, by=staff)
    merged.refresh_from_db()
    assert merged.merged_into == kept
    assert set(Licence.objects.filter(player=kept).values_list("season", flat=True)) == {
        registry.season.pk, registry.previous.pk,
    }  # fmt: skip
    assert not Licence.objects.filter(player=merged).exists()
    assert Allocation.objects.filter(player=kept).count() == 2
    assert ResultPlayer.objects.get(revision__tournament=old, licence_number=5002).player == kept
    assert Tournament.objects.get(pk=old.pk).arbiter == kept
    assert Sanction.objects.get().player == kept
    assert User.objects.get(username="paul").player == kept
    # the audit: who, the ids moved per kind; the history row of the pointer
    assert (audit.kept, audit.merged, audit.merged_by) == (kept, merged, staff)
    assert audit.criteria == "name_and_birth_date,name_and_committee"
    assert audit.counts == {
        "competitions.ResultPlayer.player": 1, "competitions.Tournament.arbiter": 1,
        "federation.Licence.player": 1, "federation.Sanction.player": 1,
        "federation.User.player": 1, "competitions.Allocation.player": 1,
    }  # fmt: skip
    last = merged.history.first()
    assert (last.merged_into_id, last.history_user) == (kept.pk, staff)
    # the official line stays (immutable) and counts as the kept record's carry-over
    official.refresh_from_db()
    assert official.player_id == merged.pk
    assert PlayerSeasonTotal.objects.get(season=registry.previous, player=kept).pcn == 400
    assert not PlayerSeasonTotal.objects.filter(player=merged).exists()
    assert not SeasonStanding.objects.filter(player=merged).exists()
    standing = SeasonStanding.objects.get(season=registry.season, player=kept)
    assert (standing.season_pcn, standing.previous_pcn) == (150, official.total_pcn)
    assert standing.previous_step == official.step


def test_old_links_redirect_and_the_kept_page_shows_both_histories(
    registry, pair, api, client, django_capture_on_commit_callbacks
):
    kept, merged, _old, _new = pair
    before = client.get("/classement/joueur/5002/?saison=2025-2026")  # read, and cached
    assert before.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        players_merge(kept=kept, merged=merged, by=registry.users["federation_staff"])
    page = client.get("/classement/joueur/5002/?saison=2025-2026")  # the merge moved the key
    assert page.status_code == 301
    assert page["Location"] == "/classement/joueur/5001/?saison=2025-2026"
    for old, new in [
        ("/api/pcn/ranking/players/5002/", "/api/pcn/ranking/players/5001/"),
        ("/api/pcn/players/5002/tournaments/", "/api/pcn/players/5001/tournaments/"),
        ("/api/federation/players/5002/", "/api/federation/players/5001/"),
    ]:
        response = api.get(old)
        assert (response.status_code, response["Location"]) == (301, new)
    record = api.get("/api/pcn/ranking/players/5001/?season=2026-2027").json()
    assert [h["season"] for h in record["official_history"]] == ["2025-2026"]
    assert record["series_this_season"] is not None  # last season's line, through the pointer
    assert client.get("/classement/joueur/5001/?saison=2025-2026").status_code == 200


def test_two_licences_in_one_season_are_refused_and_nothing_moves(registry, api):
    twin = Player.objects.create(
        licence_number=5003, last_name="Martin", first_name="Élise", birth_date=dt.date(1950, 3, 2)
    )
    Licence.objects.create(player=twin, season=registry.season, club=registry.clubs[102])
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post("/api/federation/merges/", {"kept": 1001, "merged": 5003}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert "merge_two_licences_in_season" in str(body)
    assert "même saison" in str(body)  # French first
    twin.refresh_from_db()
    assert twin.merged_into is None
    assert Licence.objects.filter(player=twin).count() == 1
    assert not PlayerMerge.objects.exists()


def test_already_merged_and_self_merges_are_refused(registry, pair, api):
    _kept, _merged, _old, _new = pair
    api.force_authenticate(registry.users["federation_staff"])
    same = api.post("/api/federation/merges/", {"kept": 5001, "merged": 5001}, format="json")
    assert same.status_code == 400
    assert "merge_same_record" in str(same.json())
    assert api.post("/api/federation/merges/", {"kept": 5001, "merged": 5002},
                    format="json").status_code == 201  # fmt: skip
    again = api.post("/api/federation/merges/", {"kept": 1003, "merged": 5002}, format="json")
    assert again.status_code == 400
    assert "player_already_merged" in str(again.json())
    unknown = api.post("/api/federation/merges/", {"kept": 5001, "merged": 999}, format="json")
    assert unknown.status_code == 400
    assert "merged" in unknown.json()["errors"][0]["field"]


ROLES = ["anonymous", "player", "club_manager", "committee_staff", "zone_staff"]


@pytest.mark.parametrize("role", ROLES)
def test_only_federation_staff_list_and_merge(registry, pair, api, client, role):
    user = registry.users[role]
    if user is not None:
        api.force_authenticate(user)
        client.force_login(user)
    assert api.get("/api/federation/duplicates/").status_code in (401, 403)
    response = api.post("/api/federation/merges/", {"kept": 5001, "merged": 5002}, format="json")
    assert response.status_code in (401, 403)
    assert "1975" not in response.content.decode()  # no private fact of theirs
    desk = client.get("/bureau/doublons/")
    confirm = client.post("/bureau/doublons/fusionner/", {"kept": 5001, "merged": 5002})
    if user is None:
        assert desk.status_code == confirm.status_code == 302  # to the sign-in page
    else:
        assert desk.status_code == confirm.status_code == 403
    assert Player.objects.get(licence_number=5002).merged_into is None


def test_federation_staff_list_pairs_with_the_criteria(registry, pair, api):
    api.force_authenticate(registry.users["federation_staff"])
    body = api.get("/api/federation/duplicates/").json()
    assert body["count"] == 1
    [found] = body["results"]
    assert found["criteria"] == ["name_and_birth_date", "name_and_committee"]
    assert (found["first"]["licence_number"], found["second"]["licence_number"]) == (5001, 5002)
    assert found["second"]["birth_date"] == "1975-04-04"
    assert found["second"]["licences"] == [
        {"season": "2025-2026", "club": 102, "club_name": "Excuse Grenobloise"}
    ]
    bad = api.get("/api/federation/duplicates/?limit=x")
    assert bad.status_code == 400
    assert "limit" in str(bad.json())


def test_the_list_costs_a_fixed_number_of_queries(
    registry, pair, api, django_assert_max_num_queries
):
    for i in range(30):  # thirty more pairs, same name and birth date
        for n in (0, 1):
            p = Player.objects.create(
                licence_number=6000 + 2 * i + n, last_name=f"Double{i}", first_name="Jean",
                birth_date=dt.date(1960, 1, 1 + i % 28),
            )  # fmt: skip
            Licence.objects.create(player=p, season=registry.season, club=registry.clubs[201])
    api.force_authenticate(registry.users["federation_staff"])
    with django_assert_max_num_queries(8):
        body = api.get("/api/federation/duplicates/").json()
    assert body["count"] == 31


def test_the_desk_page_merges_after_confirmation(registry, pair, client):
    client.force_login(registry.users["federation_staff"])
    listing = client.get("/bureau/doublons/")
    assert listing.status_code == 200
    assert "04/04/1975" in listing.content.decode()
    confirm = client.get("/bureau/doublons/fusionner/?kept=5001&merged=5002")
    assert confirm.status_code == 200
    assert Player.objects.get(licence_number=5002).merged_into is None  # asked, not done
    done = client.post("/bureau/doublons/fusionner/", {"kept": 5001, "merged": 5002})
    assert done.status_code == 302
    after = client.get(done["Location"])
    assert 'href="/classement/joueur/5001/"' in after.content.decode()
    said = re.search(r"(\d+) (ligne déplacée|lignes déplacées) ;", after.content.decode())
    assert said is not None  # in French, the plural agreeing with the count
    assert (said.group(2) == "ligne déplacée") is (int(said.group(1)) <= 1)
    assert client.get("/bureau/doublons/?fusion=x%C2%B2").status_code == 200
    assert Player.objects.get(licence_number=5002).merged_into.licence_number == 5001
    refused = client.post("/bureau/doublons/fusionner/", {"kept": 1001, "merged": 5001})
    assert refused.status_code == 400
    assert "même saison" in refused.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_ranking_follows_through_the_real_worker(celery_worker_process, registry, pair, api,
                                                     wait_for):  # fmt: skip
    kept, merged, _old, _new = pair
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post("/api/federation/merges/", {"kept": 5001, "merged": 5002}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["counts"]["competitions.Allocation.player"] == 1

    def followed():
        totals = dict(
            PlayerSeasonTotal.objects.filter(season=registry.previous).values_list("player", "pcn")
        )
        standing = SeasonStanding.objects.filter(season=registry.season, player=kept).first()
        return (
            totals.get(kept.pk) == 400
            and merged.pk not in totals
            and standing is not None
            and standing.previous_pcn > 0
        )

    assert wait_for(followed)
    # the live ranking of last season shows the kept record in the merged one's place
    assert wait_for(lambda: api.get("/api/pcn/ranking/players/5001/?season=2025-2026&kind=live")
                    .json()["ranking"])  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_two_merges_of_one_record_at_once_one_wins(registry, wait_for):
    """Staff merge 5002 into 5001 while another merges 5002 into 5003: the second waits
    on the lock of 5002, then reads it merged and is refused; never both, never a
    deadlock."""
    import threading

    from django.db import connection, connections

    from core.problems import RuleViolation

    assert connection.vendor == "postgresql", "this test needs PostgreSQL"
    born = dt.date(1975, 4, 4)
    a, b, c = (
        Player.objects.create(licence_number=n, last_name="Durand", first_name="Paul",
                              birth_date=born)
        for n in (5001, 5002, 5003)
    )  # fmt: skip
    staff = registry.users["federation_staff"]
    holding, release = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def first():
        try:
            with transaction.atomic():
                players_merge(kept=a, merged=b, by=staff)
                holding.set()
                release.wait(10)  # the locks are held until this commits
            outcome["first"] = "merged"
        finally:
            connections.close_all()

    def second():
        try:
            holding.wait(10)
            players_merge(kept=c, merged=b, by=staff)
            outcome["second"] = "merged"
        except RuleViolation as refusal:
            outcome["second"] = [p.code for p in refusal.problems]
        finally:
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    assert holding.wait(10)
    with connection.cursor() as cursor:  # the second is waiting on a row lock
        assert wait_for(lambda: cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype IN ('transactionid', 'tuple') "
            "AND NOT granted") or cursor.fetchone()[0])  # fmt: skip
    release.set()
    for thread in threads:
        thread.join(20)
    assert outcome == {"first": "merged", "second": ["player_already_merged"]}
    assert Player.objects.get(licence_number=5002).merged_into == a
    assert PlayerMerge.objects.count() == 1


def test_an_objection_to_appearing_by_name_follows_the_person(registry, pair, api, client):
    kept, merged, _old, _new = pair
    Player.objects.filter(pk=merged.pk).update(name_hidden=True)
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post("/api/federation/merges/", {"kept": 5001, "merged": 5002}, format="json")
    assert response.status_code == 201
    kept.refresh_from_db()
    assert kept.name_hidden
    assert kept.name_hidden_changed_by == registry.users["federation_staff"]
    assert client.get("/classement/joueur/5001/").status_code == 404  # unknown to the public
