"""The ranking as of a date (rankings/season/as_of.py) equals the pure core on the allocations
filtered by hand; a player's places over the season equal their places in those
rankings; the stored snapshot is reused per (season, day, inputs version)."""

from __future__ import annotations

import datetime as dt
import random
from unittest import mock

import pytest

from core.problems import RuleViolation
from rankings.models import RankingEntry, RankingKind, RankingSnapshot
from rankings.rules.national_ranking import PlayerStanding
from rankings.season.as_of import (
    AS_OF_KEEP,
    PARIS,
    as_of_days_compute,
    as_of_days_prepare,
    as_of_inputs,
    day_end,
    missing_days,
    places_over_season,
    ranking_as_of,
    sample_days,
)
from rankings.season.snapshots import (
    ENTRY_COLUMNS,
    RankingInputs,
    _entry_rows,
    compute,
    load_inputs,
)
from rankings.season.standings import standings_write

pytestmark = pytest.mark.django_db


def _paris(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=PARIS)


def _season_of_tournaments(federation, add_tournament, correct_tournament, rng):
    """Tournaments homologated at random times of the season (some at 23:59 and 00:00,
    Paris time, around the days the tests look at), one of them corrected later."""
    registry, players = federation.registry, federation.players
    season = registry.season
    played: list[tuple[dt.datetime, dict]] = []
    for _ in range(rng.randrange(4, 9)):
        day = season.start_date + dt.timedelta(days=rng.randrange(0, 200))
        at = _paris(day, *rng.choice([(0, 0), (12, 30), (23, 59)]))
        chosen = rng.sample(players, rng.randrange(4, 12))
        points = {p: (rng.choice([0, 50, 100, 100, rng.randrange(400)]), rng.choice([0, 0, 2]))
                  for p in chosen}  # fmt: skip
        tournament = add_tournament(
            season, points, club=registry.clubs[101], arbiter=players[0], homologated_at=at
        )
        played.append((at, points, tournament))
    # a correction (later than every homologation): its current figures count
    at, _points, tournament = played[0]
    corrected = {p: (rng.randrange(300), 1) for p in rng.sample(players, 5)}
    correct_tournament(tournament, corrected)
    played[0] = (at, corrected, tournament)
    standings_write(season=season, player_ids=None)
    return season, played


def _by_hand(season, played, day: dt.date) -> list[tuple]:
    """The pure core on the season's inputs, the season's points summed by hand from
    the tournaments homologated before the end of ``day`` (Paris)."""
    end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=PARIS)
    sums: dict[int, list[int]] = {}
    for at, points, _tournament in played:
        if at < end:
            for player, (pcn, pp) in points.items():
                total = sums.setdefault(player.pk, [0, 0, 0])
                total[0] += pcn
                total[1] += pp
                total[2] += 1
    inputs = load_inputs(season=season, inputs_version=0)
    standings, facts = [], {}
    for s in inputs.standings:
        fact = inputs.facts[s.player]
        pcn, pp, count = sums.get(fact.player_id, (0, 0, 0))
        standings.append(
            PlayerStanding(s.player, s.committee, s.club, pcn, pp, s.previous_pcn,
                           s.previous_pp, s.previous_step, s.missed_seasons)
        )  # fmt: skip
        facts[s.player] = type(fact)(fact.player_id, count, fact.previous_step, fact.search_name)
    hand = RankingInputs(season, inputs.policy_version, inputs.policy, 0, standings, facts,
                         inputs.placements)  # fmt: skip
    return [row[1:] for row in _entry_rows(0, hand, compute(hand))]


def _stored(snapshot) -> list[tuple]:
    return list(
        RankingEntry.objects.filter(snapshot=snapshot)
        .order_by("rank_order")
        .values_list(*[c for c in ENTRY_COLUMNS if c != "snapshot_id"])
    )


@pytest.mark.parametrize("seed", range(6))
def test_the_ranking_as_of_a_day_equals_the_pure_core_on_the_filtered_allocations(
    federation, add_tournament, correct_tournament, seed
):
    rng = random.Random(seed)
    season, played = _season_of_tournaments(federation, add_tournament, correct_tournament, rng)
    days = [at.date() for at, _p, _t in played]
    days += [d - dt.timedelta(days=1) for d in days] + [season.start_date, season.end_date]
    for day in rng.sample(days, 5):
        snapshot = ranking_as_of(season=season, day=day)
        assert snapshot.kind == RankingKind.AS_OF
        assert snapshot.as_of == day
        expected = _by_hand(season, played, day)
        assert _stored(snapshot) == expected, day
        # the Python path (SQLite, inputs the core refuses) gives the same rows
        inputs = as_of_inputs(season=season, day=day, inputs_version=0)
        assert [row[1:] for row in _entry_rows(0, inputs, compute(inputs))] == expected


def test_a_tournament_counts_from_its_homologation_day_in_paris(federation, add_tournament):
    registry, p = federation.registry, federation.players
    season = registry.season
    day = dt.date(2026, 11, 14)
    # homologated at 23:30 in Paris on the 14th (22:30 UTC): counts on the 14th
    add_tournament(season, {p[1]: (300, 0)}, club=registry.clubs[101], arbiter=p[0],
                   homologated_at=_paris(day, 23, 30))  # fmt: skip
    # played on the 1st but homologated on the 15th at 00:10: not yet on the 14th
    late = add_tournament(season, {p[2]: (500, 0)}, club=registry.clubs[101], arbiter=p[0],
                          homologated_at=_paris(day + dt.timedelta(days=1), 0, 10))  # fmt: skip
    late.date = dt.date(2026, 11, 1)
    late.save(update_fields=["date"])
    standings_write(season=season, player_ids=None)
    first = {e.player_id: e for e in ranking_as_of(season=season, day=day).entries.all()}
    assert first[p[1].pk].place == 1
    assert first[p[1].pk].season_pcn == 300
    assert first[p[2].pk].season_pcn == 0
    next_day = ranking_as_of(season=season, day=day + dt.timedelta(days=1))
    after = {e.player_id: e for e in next_day.entries.all()}
    assert after[p[2].pk].place == 1
    assert after[p[1].pk].place == 2
    assert day_end(day) == dt.datetime(2026, 11, 14, 23, 0, tzinfo=dt.UTC)


def test_a_day_outside_the_season_is_refused(registry):
    for day in (registry.season.start_date - dt.timedelta(days=1), dt.date(2027, 7, 1)):
        with pytest.raises(RuleViolation) as refused:
            ranking_as_of(season=registry.season, day=day)
        assert refused.value.problems[0].field == "as_of"
        assert refused.value.problems[0].code == "as_of_outside_season"


def test_a_stored_day_survives_later_homologations_not_a_backdated_correction(
    federation, add_tournament, correct_tournament
):
    registry, p = federation.registry, federation.players
    season = registry.season
    early = add_tournament(season, {p[1]: (300, 0)}, club=registry.clubs[101], arbiter=p[0],
                           homologated_at=_paris(dt.date(2026, 9, 1), 12))  # fmt: skip
    standings_write(season=season, player_ids=None)
    day = dt.date(2026, 10, 1)
    first = ranking_as_of(season=season, day=day)
    assert ranking_as_of(season=season, day=day).pk == first.pk
    # a tournament homologated after the day: the inputs version moves, the day's not
    add_tournament(season, {p[2]: (900, 0)}, club=registry.clubs[101], arbiter=p[0],
                   homologated_at=_paris(dt.date(2026, 10, 20), 12))  # fmt: skip
    standings_write(season=season, player_ids=None)
    assert ranking_as_of(season=season, day=day).pk == first.pk
    # a correction of a tournament homologated by then: a new snapshot, the old one gone
    correct_tournament(early, {p[1]: (100, 0), p[3]: (200, 0)})
    standings_write(season=season, player_ids=None)
    second = ranking_as_of(season=season, day=day)
    assert second.pk != first.pk
    assert not RankingSnapshot.objects.filter(pk=first.pk).exists()
    assert not RankingEntry.objects.filter(snapshot_id=first.pk).exists()
    top = second.entries.order_by("rank_order").first()
    assert (top.player_id, top.total_pcn) == (p[3].pk, 200)
    # a licence moved to another club: the registry changed, a new snapshot
    licence = p[3].licences.get(season=season)
    moved_to = registry.clubs[102 if licence.club_id == registry.clubs[201].pk else 201]
    licence.club = moved_to
    licence.save(update_fields=["club"])
    standings_write(season=season, player_ids=[p[3].pk])
    third = ranking_as_of(season=season, day=day)
    assert third.pk != second.pk
    assert third.entries.get(player=p[3]).club_id == moved_to.pk
    # at most AS_OF_KEEP per season
    for offset in range(AS_OF_KEEP + 2):
        ranking_as_of(season=season, day=dt.date(2026, 7, 1) + dt.timedelta(days=offset))
    assert RankingSnapshot.objects.filter(season=season, kind=RankingKind.AS_OF).count() == (
        AS_OF_KEEP
    )


@pytest.mark.parametrize("seed", range(3))
def test_places_over_the_season_are_read_from_the_stored_month_ends(
    federation, add_tournament, correct_tournament, seed
):
    rng = random.Random(100 + seed)
    season, played = _season_of_tournaments(federation, add_tournament, correct_tournament, rng)
    days = sample_days(season, dt.date(2027, 2, 10))
    assert days[0] == dt.date(2026, 7, 31)
    assert days[-1] == dt.date(2027, 2, 9)
    player = rng.choice(federation.players)
    assert missing_days(season, days) == days
    assert {p.place for p in places_over_season(season=season, player_id=player.pk, days=days)} == {
        None
    }
    assert as_of_days_compute(season_id=season.pk, days=[d.isoformat() for d in days]) == len(days)
    assert missing_days(season, days) == []
    for point in places_over_season(season=season, player_id=player.pk, days=days):
        # by hand: the pure core on the allocations homologated by then
        rows = _by_hand(season, played, point.day)
        mine = next(row for row in rows if row[1] == player.pk)
        place, total = (
            mine[ENTRY_COLUMNS.index("place") - 1],
            mine[ENTRY_COLUMNS.index("total_pcn") - 1],
        )
        assert (point.place, point.total_pcn, point.players) == (place, total, len(rows))


def test_month_ends_are_kept_beyond_the_other_days(federation, add_tournament):
    registry, p = federation.registry, federation.players
    season = registry.season
    add_tournament(season, {p[1]: (300, 0)}, club=registry.clubs[101], arbiter=p[0],
                   homologated_at=_paris(dt.date(2026, 9, 1), 12))  # fmt: skip
    standings_write(season=season, player_ids=None)
    ends = [dt.date(2026, 7, 31), dt.date(2026, 8, 31)]
    for day in ends:
        ranking_as_of(season=season, day=day)
    for offset in range(AS_OF_KEEP + 3):
        ranking_as_of(season=season, day=dt.date(2026, 9, 2) + dt.timedelta(days=offset))
    kept = set(
        RankingSnapshot.objects.filter(season=season, kind=RankingKind.AS_OF).values_list(
            "as_of", flat=True
        )
    )
    assert set(ends) <= kept
    assert len(kept) == AS_OF_KEEP + len(ends)


def test_a_page_asks_for_missing_days_once(registry, settings):
    days = [dt.date(2026, 7, 31)]
    from django.core.cache import caches

    caches["default"].clear()
    with mock.patch("rankings.season.as_of.send_on_commit") as send:
        assert as_of_days_prepare(season=registry.season, days=days)
        assert not as_of_days_prepare(season=registry.season, days=days)
    send.assert_called_once_with("rankings.as_of_days", registry.season.pk, ["2026-07-31"])


def test_the_last_day_of_a_season_equals_its_official_ranking(federation, add_tournament):
    """Consistent with the official ranking: published once every tournament of the
    season is homologated, it equals the ranking as of the season's last day (and a
    tournament homologated after that day is in neither the day's ranking nor, had it
    been published then, the official one)."""
    from rankings.season.official_ranking import official_ranking_publish

    registry, p = federation.registry, federation.players
    previous = registry.previous
    add_tournament(previous, {p[i]: (400 - 30 * i, i % 2) for i in range(8)},
                   club=registry.clubs[101], arbiter=p[20],
                   homologated_at=_paris(dt.date(2026, 3, 1), 12))  # fmt: skip
    add_tournament(previous, {p[i]: (100 + 10 * i, 0) for i in range(4, 12)},
                   club=registry.clubs[201], arbiter=p[20],
                   homologated_at=_paris(dt.date(2026, 6, 30), 23, 59))  # fmt: skip
    official = official_ranking_publish(season=previous)
    as_of = ranking_as_of(season=previous, day=previous.end_date)
    assert _stored(as_of) == _stored(official)
    assert len(_stored(as_of)) == official.player_count > 0


@pytest.mark.django_db(transaction=True)  # the statistics are renewed outside a transaction
def test_days_computed_by_the_worker_leave_the_planner_statistics(federation, add_tournament):
    from django.db import connection

    registry, p = federation.registry, federation.players
    season = registry.season
    add_tournament(season, {p[i]: (300 - 10 * i, 0) for i in range(8)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    standings_write(season=season, player_ids=None)
    assert as_of_days_compute(season_id=season.pk, days=["2026-11-14"]) == 1
    snapshot = RankingSnapshot.objects.get(season=season, kind=RankingKind.AS_OF)
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN (FORMAT JSON) SELECT * FROM rankings_rankingentry WHERE snapshot_id = %s",
            [snapshot.pk],
        )
        plan = cursor.fetchone()[0][0]["Plan"]
    assert plan["Plan Rows"] >= snapshot.player_count // 2  # not the one row of no statistics
