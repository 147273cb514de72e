"""A series of the whole country read from the live store (``rankings/season/live_series.py``):
its pages and counts equal the full computation by the pure core after any sequence of
homologations, corrections, licence moves and manual placements, under the default and
modified policies (PP thresholds inside and across series, absolute thresholds, PP not
breaking ties, other demotion limits); and no web process computes the whole ranking
for it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rankings import tasks
from rankings.reads import selectors
from rankings.rules import national_ranking
from rankings.rules.series import SeriesPolicy, Step
from rankings.season import live_reads, live_store
from rankings.season.recompute import full_recompute
from rankings.season.series_policies import series_policy_update
from tests.rankings.conftest import clear_live_store
from tests.rankings.season.test_live_store import full, placement_event, replay_with_placements
from tests.rankings.season.test_standings_replay import event, publish_previous

pytestmark = pytest.mark.django_db


def _policies() -> list[SeriesPolicy]:
    default = SeriesPolicy.default()
    ladder = list(default.ladder)
    # PP needed at a series' lowest step (2T, 1T) and two thresholds
    at_boundaries = [replace(s, min_pp={"2T": 1, "1T": 3, "1N": 4}.get(s.code, s.min_pp))
                     for s in ladder]  # fmt: skip
    thresholds = [ladder[0]] + [
        Step(s.code, s.series, s.label_fr, s.label_en, min_pcn=30 * i, min_pp=(i // 6) or None)
        for i, s in enumerate(ladder[1:], start=1)
    ]  # fmt: skip
    return [
        default,
        replace(default, ladder=tuple(at_boundaries), max_demotion_steps=2),
        replace(
            default,
            ladder=tuple(thresholds),
            entry_step="4K",
            max_demotion_steps=None,
            pp_breaks_ties=False,
        ),
        replace(default, pp_breaks_ties=False, returning_drop_steps=3, max_demotion_steps=6),
    ]


POLICIES = _policies()


def assert_series_read_from_the_store(season) -> None:
    expected = full(season)
    ranking = selectors.ranking_for_season(season, selectors.LIVE)
    assert isinstance(ranking, live_reads.LiveRanking)
    for series in (1, 2, 3, 4):
        wanted = sorted((row[9], row[0]) for row in expected.values() if row[15] == series)
        entries = ranking.entries(selectors.RankingFilter(series=series))
        assert entries.count().value == len(wanted), series
        for start, size in [(0, 100), (0, 3), (2, 5), (7, 4), (len(wanted) - 1, 3), (40, 5)]:
            rows = ranking.entries(selectors.RankingFilter(series=series)).page(start, size)
            assert [(e.place, e.licence_number) for e in rows] == wanted[start : start + size]
            for e in rows:
                assert e.series == series


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    events=st.lists(st.one_of(event, placement_event), min_size=1, max_size=6),
    previous=st.booleans(),
    policy=st.sampled_from(range(len(POLICIES))),
)
def test_a_series_read_from_the_bands_equals_the_full_computation(
    live_store_redis, federation, add_tournament, correct_tournament, events, previous, policy,
    monkeypatch,
):  # fmt: skip
    # no web process computes the whole ranking for a series filter
    monkeypatch.setattr(national_ranking, "compute_ranking", _forbidden)
    for name in ("compute_ranking", "compute"):
        monkeypatch.setattr(live_reads, name, _forbidden, raising=False)
    clear_live_store()  # each example's database rolls back; Redis must too
    season = federation.registry.season
    with transaction.atomic():
        if previous:
            publish_previous(federation, add_tournament)
        if POLICIES[policy] != SeriesPolicy.default():
            series_policy_update(season=season, data=POLICIES[policy].to_dict(),
                                 by=federation.registry.users["federation_staff"])  # fmt: skip
        full_recompute(season=season)
        replay_with_placements(federation, add_tournament, correct_tournament, events)
        assert_series_read_from_the_store(season)
        transaction.set_rollback(True)


def _forbidden(*args, **kwargs):
    raise AssertionError("the whole ranking computed in a web process")


def test_every_player_is_in_one_band_through_homologations(
    live_store_redis, federation, add_tournament
):
    """The band sets are kept with the season's set: every player in exactly one, with
    their current score, after a rebuild and after a homologation applied in place."""
    registry, p = federation.registry, federation.players
    season = registry.season
    publish_previous(federation, add_tournament)
    full_recompute(season=season)
    add_tournament(season, {p[3]: (300, 2), p[7]: (120, 0)}, club=registry.clubs[102],
                   arbiter=p[2])  # fmt: skip
    tasks.refresh_season_totals(season.pk, [p[3].pk, p[7].pk])
    meta = live_store.read_meta(season.pk)
    redis_client = live_store.client()
    everyone = redis_client.zrange(meta.key("all"), 0, -1, withscores=True)
    banded = []
    for key in redis_client.scan_iter(match=meta.key("b:*")):
        banded += redis_client.zrange(key, 0, -1)
    assert sorted(banded) == sorted(f"{int(s) + (1 << 53):016d}:{m}" for m, s in everyone)
    assert_series_read_from_the_store(season)
