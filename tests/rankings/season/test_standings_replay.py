"""Incremental updates and the full recompute give exactly the same standings, totals
and live ranking: a season is replayed both ways and the tables compared row by row,
and both are checked against an independent computation."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Licence
from rankings import tasks
from rankings.models import PlayerSeasonTotal, SeasonRanking, SeasonStanding
from rankings.rules.series import SeriesPolicy
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import full_recompute
from rankings.season.series_policies import series_policy_in_force, series_policy_update
from rankings.season.standings import standings_write
from tests.rankings.reference_ranking import comparable, reference_ranking, stored_ranking

pytestmark = pytest.mark.django_db

FIELDS = ("player_id", "committee_id", "club_id", "season_pcn", "season_pp", "tournaments",
          "previous_season_id", "previous_pcn", "previous_pp", "previous_step",
          "previous_series", "missed_seasons")  # fmt: skip


def tables(season):
    return (
        sorted(SeasonStanding.objects.filter(season=season).values_list(*FIELDS)),
        sorted(
            PlayerSeasonTotal.objects.filter(season=season).values_list(
                "player_id", "pcn", "pp", "tournaments"
            )
        ),
    )


def live(season):
    return stored_ranking(SeasonRanking.objects.get(season=season).live)


def publish_previous(federation, add_tournament):
    """A previous season with points and a published official ranking."""
    registry = federation.registry
    p = federation.players
    add_tournament(
        registry.previous,
        {p[i]: (400 - 15 * i, 3 if i < 2 else 0) for i in range(0, 24, 2)},
        club=registry.clubs[101],
        arbiter=p[1],
    )
    return official_ranking_publish(season=registry.previous)


event = st.one_of(
    st.tuples(
        st.just("tournament"),
        st.lists(
            st.tuples(st.integers(0, 24), st.integers(0, 300), st.integers(0, 5)),
            min_size=1, max_size=12, unique_by=lambda t: t[0],
        ),
    ),
    st.tuples(
        st.just("correct"),
        st.integers(0, 20),
        st.lists(
            st.tuples(st.integers(0, 24), st.integers(0, 300), st.integers(0, 5)),
            min_size=0, max_size=8, unique_by=lambda t: t[0],
        ),
    ),
    st.tuples(st.just("licence"), st.integers(0, 24), st.sampled_from([101, 102, 201, None])),
)  # fmt: skip


def replay(federation, add_tournament, correct_tournament, events) -> None:
    """Apply the events the way production does (:func:`apply_event`)."""
    tournaments: list = []
    for item in events:
        apply_event(federation, add_tournament, correct_tournament, item, tournaments)


def apply_event(federation, add_tournament, correct_tournament, item, tournaments: list) -> None:
    """One event, the way production does: homologations send the incremental task;
    licence changes reach the standings at the next live-ranking refresh. ``tournaments``:
    those added so far (a correction picks one)."""
    registry = federation.registry
    season, p = registry.season, federation.players
    if item[0] == "tournament":
        points = {p[i]: (pcn, pp) for i, pcn, pp in item[1]}
        tournaments.append(add_tournament(season, points, club=registry.clubs[102], arbiter=p[2]))
        tasks.refresh_season_totals(season.pk, sorted(x.pk for x in points))
    elif item[0] == "correct" and tournaments:
        tournament = tournaments[item[1] % len(tournaments)]
        affected = correct_tournament(tournament, {p[i]: (pcn, pp) for i, pcn, pp in item[2]})
        tasks.refresh_season_totals(season.pk, sorted(affected))
    elif item[0] == "licence":
        player, club = p[item[1]], item[2]
        Licence.objects.filter(player=player, season=season).delete()
        if club is not None:
            Licence.objects.create(player=player, season=season, club=registry.clubs[club])
        tasks.refresh_live_ranking(season.pk)


def assert_both_ways_equal(federation) -> None:
    season = federation.registry.season
    incremental, ranking = tables(season), live(season)
    # 1. A full recompute now finds nothing to change …
    assert not standings_write(season=season, player_ids=None).changed
    # 2. … and rebuilding from empty tables gives the same rows, and the same ranking.
    SeasonStanding.objects.filter(season=season).delete()
    PlayerSeasonTotal.objects.filter(season=season).delete()
    full_recompute(season=season)
    assert tables(season) == incremental
    assert live(season) == ranking
    # 3. Both agree with an independent computation of totals, places and series.
    _version, policy = series_policy_in_force(season=season)
    assert ranking == comparable(reference_ranking(season, policy))


def test_a_season_replayed_both_ways(federation, add_tournament, correct_tournament):
    publish_previous(federation, add_tournament)
    season = federation.registry.season
    full_recompute(season=season)  # the season opens: every licensee has a standing
    replay(
        federation,
        add_tournament,
        correct_tournament,
        [
            ("tournament", [(0, 120, 0), (1, 82, 0), (5, 57, 0), (7, 50, 0), (9, 0, 0)]),
            ("tournament", [(1, 200, 2), (3, 150, 0), (5, 150, 0), (8, 60, 0)]),
            ("correct", 0, [(0, 82, 0), (1, 120, 0), (6, 57, 0)]),
            ("licence", 3, 201),  # moved to another club
            ("licence", 4, None),  # licence withdrawn
            ("tournament", [(10, 300, 0), (11, 300, 0), (12, 90, 1)]),  # a tie at 300
        ],
    )
    assert_both_ways_equal(federation)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(events=st.lists(event, min_size=1, max_size=7), previous=st.booleans())
def test_random_seasons_replayed_both_ways(
    federation, add_tournament, correct_tournament, events, previous
):
    with transaction.atomic():
        if previous:
            publish_previous(federation, add_tournament)
        full_recompute(season=federation.registry.season)
        replay(federation, add_tournament, correct_tournament, events)
        assert_both_ways_equal(federation)
        transaction.set_rollback(True)


def test_modified_policy_is_followed(federation, registry, add_tournament, correct_tournament):
    """Thresholds instead of shares, another carry-over, no demotion limit, PP not
    breaking ties: the stored ranking still matches the independent computation."""
    publish_previous(federation, add_tournament)
    data = SeriesPolicy.default().to_dict()
    for index, step in enumerate(data["ladder"][1:], start=1):
        step["top_share"], step["min_pcn"] = None, 20 * index
    data["carry_over"] = ["0.5", "0.6", "0.7", "0.9"]
    data["max_demotion_steps"] = None
    data["pp_breaks_ties"] = False
    series_policy_update(season=registry.season, data=data, by=registry.users["federation_staff"])
    full_recompute(season=registry.season)
    tournament = ("tournament", [(1, 150, 1), (3, 150, 0), (4, 40, 0), (6, 400, 0)])
    replay(federation, add_tournament, correct_tournament, [tournament])
    assert_both_ways_equal(federation)
    ranking = live(registry.season)
    assert ranking[1002]["place"] == ranking[2001]["place"]  # 150 PCN each: PP ignored


def test_incremental_update_is_idempotent(federation, registry, add_tournament):
    season, p = registry.season, federation.players
    full_recompute(season=season)
    add_tournament(season, {p[0]: (100, 0), p[1]: (80, 0)}, club=registry.clubs[101], arbiter=p[2])
    first = standings_write(season=season, player_ids=[p[0].pk, p[1].pk])
    again = standings_write(season=season, player_ids=[p[0].pk, p[1].pk])
    assert first.changed
    assert (first.totals_written, first.standings_written) == (2, 2)
    assert not again.changed
    version = SeasonRanking.objects.get(season=season).inputs_version
    tasks.refresh_season_totals(season.pk, [p[0].pk, p[1].pk])  # a retry
    assert SeasonRanking.objects.get(season=season).inputs_version == version


def test_previous_ranking_and_missed_seasons(federation, registry, add_tournament):
    """Carry-over comes from the last published official ranking; a season without a
    licence in between counts as missed."""
    import datetime as dt

    from federation.models import Season

    p = federation.players
    older = Season.objects.create(
        name="2024-2025", start_date=dt.date(2024, 7, 1), end_date=dt.date(2025, 6, 30)
    )
    returning = p[5]  # 3001+… : licensed in 2024-2025 and now, not in 2025-2026
    Licence.objects.filter(player=returning, season=registry.previous).delete()
    Licence.objects.create(player=returning, season=older, club=registry.clubs[101])
    add_tournament(older, {returning: (500, 0)}, club=registry.clubs[101], arbiter=p[1])
    official_ranking_publish(season=older)
    official_ranking_publish(season=registry.previous)  # returning is not in it
    full_recompute(season=registry.season)
    standing = SeasonStanding.objects.get(season=registry.season, player=returning)
    assert (standing.previous_season_id, standing.previous_pcn, standing.missed_seasons) == (
        older.pk,
        500,
        1,
    )
    entry = live(registry.season)[returning.licence_number]
    assert entry["carried_pcn"] == 320  # 500 × 0.8²
