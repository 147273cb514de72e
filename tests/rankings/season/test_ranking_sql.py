"""The set-wise SQL ranking (rankings/season/ranking_sql.py) equals the pure core row for row.

Seeded random seasons are written straight into ``SeasonStanding`` (so every shape
the core accepts appears: ties on PCN and on PP, players without club, returning
players after missed seasons, previous steps the ladder no longer has, manual
placements, placements of players who are not licensees), ranked both ways, and
every column of every entry compared. PostgreSQL only: on SQLite the SQL path says
it does not apply and the Python path runs (checked as well).
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest
from django.db import connection, transaction

from federation.models import Club, Player
from rankings.models import (
    ManualPlacement,
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    SeasonRanking,
    SeasonStanding,
)
from rankings.rules.series import SeriesPolicy, Step
from rankings.season.ranking_sql import fold_sql, ranking_statement, sql_ranking_possible
from rankings.season.recompute import full_recompute
from rankings.season.series_policies import series_policy_update
from rankings.season.snapshots import ENTRY_COLUMNS, _entry_rows, compute, fold, load_inputs

pytestmark = pytest.mark.django_db

NAMES = ["Lefèvre", "Dubœuf", "Quéré", "Müller", "O’Brien", "Łukasz", "ÆSIR", "Straße",
         "Ðorđe", "Ångström", "Çelik", "Ørsted", "Ÿvon", "Nguyễn", "Σωκράτης", "İpek",
         "Martin", "DE LA TOUR", "Ĳssel", "Ǆuro"]  # fmt: skip


def _policy(rng: random.Random) -> SeriesPolicy:
    """The default policy or a modified one (thresholds, coefficients, rules)."""
    policy = SeriesPolicy.default()
    choice = rng.randrange(4)
    if choice == 1:
        return replace(
            policy,
            carry_over=(Decimal("0.75"), Decimal("0.8"), Decimal("0.9"), Decimal("1")),
            pp_breaks_ties=False,
            max_demotion_steps=None,
            returning_drop_steps=2,
        )
    if choice == 2:  # absolute thresholds with PP, entry step above the lowest
        ladder = [policy.ladder[0]]
        for index, step in enumerate(policy.ladder[1:], start=1):
            ladder.append(
                Step(step.code, step.series, step.label_fr, step.label_en,
                     min_pcn=40 * index, min_pp=(index // 5) or None)
            )  # fmt: skip
        return replace(policy, ladder=tuple(ladder), entry_step="4K", max_demotion_steps=3)
    if choice == 3:  # a ladder without some default steps (renamed or dropped)
        kept = tuple(s for s in policy.ladder if s.code not in {"3C", "2P", "1K"})
        return replace(policy, ladder=kept, carry_over=(Decimal("0.333"),) * 4)
    return policy


def _season(registry, rng: random.Random, size: int, policy: SeriesPolicy):
    """``size`` licensees' standings, players and placements, written directly."""
    season = registry.season
    clubs = list(Club.objects.select_related("committee"))
    codes = [s.code for s in SeriesPolicy.default().ladder]  # some no longer in ``policy``
    players = Player.objects.bulk_create(
        Player(
            licence_number=500_000 + rng.randrange(10**6) * 7 + i,
            last_name=rng.choice(NAMES),
            first_name=rng.choice(NAMES),
        )
        for i in range(size + 5)
    )
    standings = []
    for player in players[:size]:
        club = rng.choice(clubs)
        previous = rng.random() < 0.7
        step = rng.choice(codes) if previous else ""
        standings.append(
            SeasonStanding(
                season=season,
                player=player,
                committee_id=club.committee_id,
                club=None if rng.random() < 0.1 else club,
                season_pcn=rng.choice([0, 0, 10, 50, 100, rng.randrange(400)]),
                season_pp=rng.choice([0, 0, 1, 2]),
                tournaments=rng.randrange(5),
                previous_pcn=rng.choice([0, 25, 100, rng.randrange(600)]) if previous else 0,
                previous_pp=rng.choice([0, 1, 3]) if previous else 0,
                previous_step=step,
                previous_season=registry.previous if previous else None,
                previous_series=int(step[0]) if step else None,
                missed_seasons=rng.choice([0, 0, 0, 1, 3]) if previous else 0,
            )
        )
    SeasonStanding.objects.bulk_create(standings)
    codes_now = [s.code for s in policy.ladder]
    placed = rng.sample(players, 6)  # some of them are not licensees: ignored
    ManualPlacement.objects.bulk_create(
        ManualPlacement(season=season, player=p, step=rng.choice(codes_now), reason="CCN")
        for p in placed
    )
    return season


def _sql_rows(season, policy: SeriesPolicy) -> list[tuple[object, ...]]:
    statement = ranking_statement(policy, select_only=True)
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, {**statement.params, "season": season.pk, "snapshot": 0})
        return sorted(cursor.fetchall(), key=lambda row: row[1])


@pytest.mark.parametrize("seed", range(8))
def test_the_sql_ranking_equals_the_pure_core(registry, seed):
    rng = random.Random(seed)
    policy = _policy(rng)
    season = _season(registry, rng, rng.choice([1, 40, 300]), policy)
    if policy != SeriesPolicy.default():
        series_policy_update(
            season=season, data=policy.to_dict(), by=registry.users["federation_staff"]
        )
    inputs = load_inputs(season=season, inputs_version=0)
    assert inputs.policy == policy
    python_rows = list(_entry_rows(0, inputs, compute(inputs)))
    if connection.vendor != "postgresql":
        assert not sql_ranking_possible(season=season, policy=policy)
        return
    assert sql_ranking_possible(season=season, policy=policy)
    # The folded names of the SQL table, fixed in Python for what it leaves out.
    sql_rows = [
        (*row[:-1], fold(_name(row[2])) if _unfolded(row[-1]) else row[-1])
        for row in _sql_rows(season, policy)
    ]
    assert len(sql_rows) == len(python_rows)
    for sql_row, python_row in zip(sql_rows, python_rows, strict=True):
        assert dict(zip(ENTRY_COLUMNS, sql_row, strict=True)) == dict(
            zip(ENTRY_COLUMNS, python_row, strict=True)
        )


def _name(player_id: int) -> str:
    player = Player.objects.get(pk=player_id)
    return f"{player.last_name} {player.first_name}"


def _unfolded(text: str) -> bool:
    return not text.isascii()


def test_the_sql_folding_equals_fold_on_every_latin_character(db):
    if connection.vendor != "postgresql":
        return
    texts = [chr(code) for code in range(0x20, 0x250) if code != 0x7F] + NAMES
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT t, {fold_sql('t')} FROM unnest(%s::text[]) AS t", [texts])
        folded = cursor.fetchall()
    left = []
    for text, sql in folded:
        if sql.isascii():
            assert sql == fold(text), text
        else:  # the writer folds these rows again in Python
            left.append(text)
    # only characters fold decomposes (its Unicode fallback) are left to Python
    assert {"Nguyễn", "Σωκράτης"} <= set(left)
    assert not set("ÀÉÈÊËÎÏÔÖÙÛÜŸÇŒÆàéèêëîïôöùûüÿçœæßŁłØøÅåÑñ") & set(left)


def test_the_full_recompute_writes_the_pure_cores_ranking(federation, add_tournament):
    """Through the service: the full recompute (SQL on PostgreSQL) stores the same
    snapshot as the Python path, counts and cut-offs included."""
    registry, p = federation.registry, federation.players
    add_tournament(
        registry.season,
        {p[i]: (300 - 20 * (i // 2), i % 3) for i in range(16)},  # ties in pairs
        club=registry.clubs[101],
        arbiter=p[1],
    )
    ManualPlacement.objects.create(season=registry.season, player=p[3], step="2T", reason="CCN")
    # names the SQL table does not fold (the writer folds them in Python)
    Player.objects.filter(pk=p[5].pk).update(last_name="Σωκράτης", first_name="Nguyễn")
    full_recompute(season=registry.season)
    snapshot = SeasonRanking.objects.get(season=registry.season).live
    stored = list(
        RankingEntry.objects.filter(snapshot=snapshot)
        .order_by("rank_order")
        .values_list(*[c for c in ENTRY_COLUMNS if c != "snapshot_id"])
    )
    with transaction.atomic():
        inputs = load_inputs(season=registry.season, inputs_version=0)
    ranking = compute(inputs)
    expected = [row[1:] for row in _entry_rows(snapshot.pk, inputs, ranking)]
    assert stored == expected
    assert "σωκρατης nguyen" in [row[-1] for row in stored]
    assert snapshot.kind == RankingKind.PROVISIONAL
    assert snapshot.player_count == len(ranking.entries)
    assert snapshot.ranked_count == ranking.ranked_count
    assert snapshot.share_cutoffs == [
        {"step": c.step, "top_share": str(c.top_share), "last_place": c.last_place}
        for c in ranking.share_cutoffs
    ]
    assert RankingSnapshot.objects.filter(season=registry.season).count() == 1


def test_with_the_redis_store_the_recompute_writes_no_snapshot_and_publication_uses_sql(
    live_store_redis, federation, add_tournament, settings, monkeypatch
):
    """Store on: the full recompute rebuilds the standings and the store (live-rank's
    path), writes no provisional snapshot and discards the one the SQL path left; the
    official publication still writes its snapshot with the SQL statement."""
    from rankings.season import live_store, ranking_sql
    from rankings.season.official_ranking import official_ranking_publish

    registry, p = federation.registry, federation.players
    season = registry.season
    add_tournament(
        season, {p[i]: (200 - 10 * i, i % 2) for i in range(10)},
        club=registry.clubs[101], arbiter=p[1],
    )  # fmt: skip
    url, settings.RANKING_STORE_URL = settings.RANKING_STORE_URL, ""
    full_recompute(season=season)  # store off: the SQL path's provisional snapshot
    left = SeasonRanking.objects.get(season=season).live
    assert left is not None
    assert left.kind == RankingKind.PROVISIONAL
    settings.RANKING_STORE_URL = url
    assert live_store.enabled()
    full_recompute(season=season)
    assert SeasonRanking.objects.get(season=season).live is None
    assert not RankingSnapshot.objects.filter(season=season).exists()
    meta = live_store.read_meta(season.pk)
    assert meta is not None
    assert meta.version == SeasonRanking.objects.get(season=season).inputs_version

    written: list[str] = []
    real = ranking_sql.write_ranking_snapshot

    def spy(**kwargs):
        written.append(kwargs["kind"])
        return real(**kwargs)

    monkeypatch.setattr(ranking_sql, "write_ranking_snapshot", spy)
    snapshot = official_ranking_publish(season=season, by=None, note="test", early_reason="AG")
    assert written == ([RankingKind.OFFICIAL] if connection.vendor == "postgresql" else [])
    assert SeasonRanking.objects.get(season=season).official == snapshot
    assert snapshot.player_count == SeasonStanding.objects.filter(season=season).count()
