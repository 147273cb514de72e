"""The staff desk's national ranking screen (/bureau/classement/): the live ranking's
state, runs started after a confirmation page (federation staff only) through
recompute_request, their progress as JSON, the history, the manual placements and the
comparison with the last official ranking, each scoped to the caller's role."""

from __future__ import annotations

import pytest

from rankings.models import RankingEntry, RecomputeRun, SeasonRanking
from rankings.reads.desk_reads import publish_comparison
from rankings.season.manual_placements import manual_placement_set
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.progress import Progress
from rankings.season.ranking import ladder_labels
from rankings.season.recompute import full_recompute, recompute_request, recompute_run
from rankings.season.snapshot_ranking import SnapshotRanking

pytestmark = pytest.mark.django_db

DESK = "/bureau/classement/"


@pytest.fixture
def ranked(registry, federation, add_tournament):
    """Last season's official ranking (players 0–9), this season's live one (the
    even players, with other points)."""
    p = federation.players
    add_tournament(registry.previous, {p[i]: (400 - 20 * i, 0) for i in range(10)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    official_ranking_publish(season=registry.previous)
    add_tournament(registry.season, {p[i]: (100 + 15 * i, 0) for i in range(0, 20, 2)},
                   club=registry.clubs[102], arbiter=p[21])  # fmt: skip
    full_recompute(season=registry.season)
    return federation


def as_(client, registry, role):
    client.force_login(registry.users[role])
    return client


def test_federation_staff_see_the_state_and_may_start_runs(client, registry, ranked):
    html = as_(client, registry, "federation_staff").get(DESK).content.decode()
    assert "Bureau du classement national – saison 2026-2027" in html
    state = SeasonRanking.objects.get(season=registry.season)
    assert f'<span class="v">{state.inputs_version}</span>' in html
    assert "à jour" in html
    assert "Lancer un recalcul complet…" in html
    assert "Publier le classement officiel…" in html
    assert "Règles des séries en vigueur (version 1)" in html
    assert "Nationale" in html  # the ladder, in French


@pytest.mark.parametrize("role", ["zone_staff", "committee_staff"])
def test_zone_and_committee_staff_read_but_may_not_start(client, registry, ranked, role):
    as_(client, registry, role)
    html = client.get(DESK).content.decode()
    assert "Classement en cours" in html
    assert "Lancer un recalcul complet" not in html
    assert client.get(f"{DESK}lancer/full/").status_code == 403
    assert client.post(f"{DESK}lancer/official/", {"season": "2026-2027"}).status_code == 403
    assert not RecomputeRun.objects.exists()


def test_a_full_recompute_after_its_confirmation_page_then_its_progress(client, registry, ranked):
    as_(client, registry, "federation_staff")
    confirm = client.get(f"{DESK}lancer/full/", {"season": "2026-2027"})
    assert confirm.status_code == 200
    assert "Rien n’est publié" in confirm.content.decode()
    assert not RecomputeRun.objects.exists()  # the page alone starts nothing
    started = client.post(f"{DESK}lancer/full/", {"season": "2026-2027", "note": "Vérification"})
    assert started.status_code == 302
    (run,) = RecomputeRun.objects.all()
    assert (run.kind, run.status, run.requested_by, run.note) == (
        "full", "queued", registry.users["federation_staff"], "Vérification"
    )  # fmt: skip
    page = client.get(started["Location"]).content.decode()
    assert f'data-progress-url="/bureau/classement/calculs/{run.pk}/"' in page
    assert "rankings/desk_progress.js" in page
    queued = client.get(f"{DESK}calculs/{run.pk}/").json()
    assert queued["finished"] is False
    assert queued["phase"] == "en file"

    recompute_run(run_id=run.pk)  # the task's body, run to the end
    done = client.get(f"{DESK}calculs/{run.pk}/").json()
    run.refresh_from_db()
    assert done["finished"] is True
    assert done["phase"] == "terminé"
    assert (done["done"], done["total"]) == (2, 2)
    history = client.get(DESK).content.decode()
    assert "federation_staff" in history  # who started it

    other = recompute_request(
        season=registry.season, kind="full", by=registry.users["federation_staff"]
    )
    Progress(other, total=2).phase("standings")  # a worker's first step, as it reports it
    running = client.get(f"{DESK}calculs/{other.pk}/").json()
    assert running["phase"] == "totaux de la saison et situation des joueurs"
    assert (running["done"], running["total"], running["finished"]) == (0, 2, False)


def test_a_second_run_waits_for_the_one_under_way(client, registry, ranked):
    """A double click on « Confirmer : publier » publishes once; a run whose worker died
    (no progress for RECOMPUTE_STALE_AFTER_S) does not block the desk."""
    import datetime as dt

    from django.conf import settings
    from django.utils import timezone

    as_(client, registry, "federation_staff")
    official = f"{DESK}lancer/official/"
    mid_season = {"season": "2026-2027", "before_season_end_reason": "AG"}
    first = client.post(official, mid_season)
    second = client.post(official, mid_season, follow=True)
    assert RecomputeRun.objects.count() == 1
    assert second.redirect_chain == [(first["Location"], 302)]
    html = second.content.decode()
    assert "Un calcul de cette saison est en cours" in html
    assert "Publier le classement officiel…" not in html  # no start link while it runs
    assert client.get(f"{DESK}lancer/full/", {"season": "2026-2027"}).status_code == 302
    # another season is not blocked
    assert client.get(f"{DESK}lancer/full/", {"season": "2025-2026"}).status_code == 200

    run = RecomputeRun.objects.get()
    lost = timezone.now() - dt.timedelta(seconds=settings.RECOMPUTE_STALE_AFTER_S + 1)
    RecomputeRun.objects.filter(pk=run.pk).update(status="running", heartbeat_at=lost)
    assert client.get(f"{DESK}lancer/full/", {"season": "2026-2027"}).status_code == 200
    RecomputeRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now())
    assert client.get(f"{DESK}lancer/full/", {"season": "2026-2027"}).status_code == 302
    RecomputeRun.objects.filter(pk=run.pk).update(status="done")  # it ended
    assert client.get(f"{DESK}lancer/full/", {"season": "2026-2027"}).status_code == 200


def test_publishing_says_what_changes_and_publishes(client, registry, ranked):
    as_(client, registry, "federation_staff")
    confirm = client.get(f"{DESK}lancer/official/", {"season": "2026-2027"}).content.decode()
    assert "Une publication ne s’annule pas" in confirm
    assert "montent d’un palier" in confirm
    client.post(
        f"{DESK}lancer/official/", {"season": "2026-2027", "before_season_end_reason": "AG"}
    )
    run = RecomputeRun.objects.get(kind="official")
    recompute_run(run_id=run.pk)
    state = SeasonRanking.objects.get(season=registry.season)
    assert state.official_id is not None
    progress = client.get(f"{DESK}calculs/{run.pk}/").json()
    assert progress["players"] == state.official.player_count > 0


def expected_moves(live, official, committee_ids=None):
    """The comparison counted in Python over the two snapshots' few entries."""
    order = {code: index for index, code in enumerate(ladder_labels(live.policy))}
    before = dict(RankingEntry.objects.filter(snapshot=official).values_list("player", "step"))
    moves = {"up": 0, "down": 0, "same": 0, "new": 0, "players": 0}
    for player, step, committee in RankingEntry.objects.filter(snapshot=live).values_list(
        "player", "step", "committee"
    ):
        if committee_ids is not None and committee not in committee_ids:
            continue
        moves["players"] += 1
        if player not in before:
            moves["new"] += 1
        elif order[step] > order[before[player]]:
            moves["up"] += 1
        elif order[step] < order[before[player]]:
            moves["down"] += 1
        else:
            moves["same"] += 1
    return moves


def test_the_comparison_counts_moves_in_the_database(registry, ranked, django_assert_num_queries):
    from federation.access import scope_of

    state = SeasonRanking.objects.select_related("live__policy", "live__season").get(
        season=registry.season
    )
    official = SeasonRanking.objects.get(season=registry.previous).official
    expected = expected_moves(state.live, official)
    assert expected["up"] + expected["down"] > 0  # the data really moves players
    scope = scope_of(registry.users["federation_staff"])
    with django_assert_num_queries(2):  # the last official ranking, then one aggregate
        found = publish_comparison(SnapshotRanking(state.live), scope)
    assert found.official == official
    assert {k: getattr(found, k) for k in expected} == expected
    committee = publish_comparison(
        SnapshotRanking(state.live), scope_of(registry.users["committee_staff"])
    )
    mine = expected_moves(state.live, official, {registry.committees[1].pk})
    assert {k: getattr(committee, k) for k in mine} == mine
    assert committee.players < found.players


def test_the_comparison_page_is_scoped(client, registry, ranked):
    as_(client, registry, "committee_staff")
    html = client.get(f"{DESK}publication/").content.decode()
    assert "Les joueurs de vos comités seulement." in html
    assert "Publier le classement officiel" not in html


def test_manual_placements_are_listed_within_the_callers_scope(client, registry, ranked):
    by = registry.users["federation_staff"]
    manual_placement_set(season=registry.season, licence_number=1001, step="1N",
                         reason="Champion de France", by=by)  # fmt: skip
    manual_placement_set(season=registry.season, licence_number=2001, step="2T",
                         reason="Retour après blessure", by=by)  # fmt: skip
    everything = as_(client, registry, "federation_staff").get(DESK).content.decode()
    assert "Champion de France" in everything
    assert "Retour après blessure" in everything
    committee = as_(client, registry, "committee_staff").get(DESK).content.decode()
    assert "Champion de France" in committee  # licence 1001: club 101, committee 1
    assert "Retour après blessure" not in committee  # licence 2001: committee 2


@pytest.mark.parametrize("role", ["club_manager", "player"])
def test_club_managers_and_players_are_refused(client, registry, ranked, role):
    as_(client, registry, role)
    for url in [DESK, f"{DESK}publication/", f"{DESK}lancer/full/"]:
        assert client.get(url).status_code == 403, url
    assert client.post(f"{DESK}lancer/full/", {"season": "2026-2027"}).status_code == 403
    assert not RecomputeRun.objects.exists()
