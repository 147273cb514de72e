"""« Mes points » on the player's page and in the player API: the figures are the live
ranking's, the next step's threshold the points of its last place today."""

from __future__ import annotations

import re

import pytest

from rankings.models import RankingEntry
from rankings.reads import selectors
from rankings.rules.series import SeriesPolicy
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db

POLICY = SeriesPolicy.default()


@pytest.fixture
def ranked(registry, federation, add_tournament):
    p = federation.players
    add_tournament(registry.previous, {p[i]: (400 - 20 * i, 0) for i in range(10)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    official_ranking_publish(season=registry.previous)
    add_tournament(registry.season, {p[i]: (300 - 10 * i, 0) for i in range(20)},
                   club=registry.clubs[102], arbiter=p[21])  # fmt: skip
    full_recompute(season=registry.season)
    return federation


def _live(registry):
    """The live ranking's provisional snapshot (no Redis store in these tests)."""
    return selectors.ranking_for_season(registry.season, selectors.LIVE).snapshot


def _expected_missing(snapshot, entry) -> tuple[str, int]:
    """The next step and its missing PCN, read by hand from the live snapshot: the
    points of the next step's last place (one more if its PP beat the player's)."""
    target = POLICY.ladder[POLICY.index_of(entry.step) + 1]
    cutoff = next(c for c in snapshot.share_cutoffs if c["step"] == target.code)
    last = RankingEntry.objects.get(snapshot=snapshot, rank_order=cutoff["last_place"])
    threshold = last.total_pcn + (0 if entry.total_pp >= last.total_pp else 1)
    return target.label_fr, threshold - entry.total_pcn


def test_mes_points_gives_the_figure_of_the_live_thresholds(client, ranked, registry):
    snapshot = _live(registry)
    entries = list(RankingEntry.objects.filter(snapshot=snapshot).order_by("rank_order"))
    # A player just below a step boundary: the first line whose step is below the one above.
    entry = next(e for k, e in enumerate(entries[1:], 1) if e.step != entries[k - 1].step)
    label, missing = _expected_missing(snapshot, entry)
    assert missing > 0
    html = client.get(f"/classement/joueur/{entry.licence_number}/").content.decode()
    section = html[html.index('id="mes-points"') :]
    assert "Mes points" in section
    assert f"Il vous manque <strong>{missing} PCN</strong> pour {label}." in section
    assert "Ces seuils bougent jusqu’au classement officiel" in section
    assert f"Total\xa0: <strong>{entry.total_pcn} PCN</strong>" in section
    assert "/classement/simulation/?saison=2026-2027&amp;licence=" in section
    api = client.get(f"/api/pcn/ranking/players/{entry.licence_number}/").json()["my_points"]
    assert api["next_step"]["missing_pcn"] == missing
    assert api["next_step"]["step_label"] == label
    assert api["total_pcn"] == entry.total_pcn
    assert api["thresholds_final"] is False


def test_the_missing_points_reach_the_step_and_one_less_does_not(
    client, ranked, registry, add_tournament
):
    snapshot = _live(registry)
    entries = list(RankingEntry.objects.filter(snapshot=snapshot).order_by("rank_order"))
    entry = next(e for k, e in enumerate(entries[1:], 1) if e.step != entries[k - 1].step)
    player = entry.player
    api = client.get(f"/api/pcn/ranking/players/{entry.licence_number}/").json()["my_points"]
    missing, target = api["next_step"]["missing_pcn"], api["next_step"]["step"]
    arbiter = ranked.players[22]
    add_tournament(registry.season, {player: (missing - 1, 0)}, club=registry.clubs[101],
                   arbiter=arbiter)  # fmt: skip
    full_recompute(season=registry.season)
    short = RankingEntry.objects.get(snapshot=_live(registry), player=player)
    assert POLICY.index_of(short.points_step) < POLICY.index_of(target)
    add_tournament(registry.season, {player: (1, 0)}, club=registry.clubs[101], arbiter=arbiter)
    full_recompute(season=registry.season)
    reached = RankingEntry.objects.get(snapshot=_live(registry), player=player)
    assert POLICY.index_of(reached.points_step) >= POLICY.index_of(target)


def test_the_carry_over_is_explained(client, ranked, registry):
    first = ranked.players[0]
    html = client.get(f"/classement/joueur/{first.licence_number}/").content.decode()
    entry = RankingEntry.objects.get(snapshot=_live(registry), player=first)
    assert entry.carried_pcn == 320  # 80 % of 400
    assert (
        "Report\xa0: <strong>320 PCN</strong> et 0 PP, soit 80 % de votre total au dernier "
        "classement officiel (400 PCN, 0 PP)" in html
    )
    assert "Cette saison\xa0: <strong>300 PCN</strong> et 0 PP, en 1 tournoi homologué." in html


def test_a_player_without_points_is_told_what_the_first_step_asks(client, ranked):
    newcomer = ranked.players[20]  # new this season, no tournament yet
    html = client.get(f"/classement/joueur/{newcomer.licence_number}/").content.decode()
    assert "Report\xa0: aucun" in html
    assert re.search(r"Il vous manque <strong>\d+ PCN</strong> pour 4e série Carreau\.", html)


def test_without_a_live_ranking_there_is_no_section(client, registry):
    html = client.get("/classement/joueur/1001/").content.decode()
    assert 'id="mes-points"' not in html
    api = client.get("/api/pcn/ranking/players/1001/").json()
    assert api["my_points"] is None


def test_the_player_page_keeps_a_fixed_number_of_queries(
    client, ranked, django_assert_max_num_queries
):
    with django_assert_max_num_queries(18):
        response = client.get(f"/classement/joueur/{ranked.players[5].licence_number}/")
    assert response.status_code == 200
    assert response.context["my_points"] is not None
