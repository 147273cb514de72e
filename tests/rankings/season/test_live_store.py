"""The live ranking read from Redis sorted sets (``rankings/season/live_store.py``,
``rankings/season/live_reads.py``) equals the full computation by the pure core after any
sequence of homologations, corrections, licence moves and manual placements; a
homologation moves only the players it touches; readers (API, pages, exports, player
record) read it; a store lost, stale or ahead of the database is rebuilt."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.models import Licence, Player
from rankings import tasks
from rankings.models import RankingEntry, RankingKind, RankingSnapshot, SeasonRanking
from rankings.reads import selectors
from rankings.season import live_reads, live_store
from rankings.season.manual_placements import manual_placement_remove, manual_placement_set
from rankings.season.recompute import full_recompute
from rankings.season.snapshot_ranking import SnapshotRanking
from rankings.season.snapshots import compute, load_inputs
from rankings.season.statement_ranking import StatementRanking
from tests.rankings.conftest import clear_live_store
from tests.rankings.season.test_standings_replay import apply_event, event, publish_previous

pytestmark = pytest.mark.django_db

FIELDS = ("player", "committee", "club", "season_pcn", "season_pp", "carried_pcn",
          "carried_pp", "total_pcn", "total_pp", "place", "place_in_committee",
          "place_in_club", "season_step", "points_step", "step", "series", "step_source",
          "manual_reason")  # fmt: skip


def full(season) -> dict[int, tuple]:
    """The full computation: every standing, the policy and placements, the pure core."""
    state = SeasonRanking.objects.get(season=season)
    ranking = compute(load_inputs(season=season, inputs_version=state.inputs_version))
    return {e.player: tuple(getattr(e, f) for f in FIELDS) for e in ranking.entries}


def read_live(season) -> dict[int, tuple]:
    """What readers see: the live ranking paged through the selectors."""
    ranking = selectors.ranking_for_season(season, selectors.LIVE)
    assert isinstance(ranking, live_reads.LiveRanking)
    entries = ranking.entries(selectors.RankingFilter())
    count = entries.count().value
    rows = []
    for start in range(0, count, 7):
        rows += entries.page(start, 7)
    assert [(e.place, e.licence_number) for e in rows] == sorted(
        (e.place, e.licence_number) for e in rows
    )
    return {e.licence_number: tuple(getattr(e.line, f) for f in FIELDS) for e in rows}


def read_in_place(season) -> dict[int, tuple]:
    """What readers see while the store cannot answer: the ranking computed in place by
    the database, paged through the selectors."""
    ranking = selectors.ranking_for_season(season, selectors.LIVE)
    assert isinstance(ranking, StatementRanking)
    entries = ranking.entries(selectors.RankingFilter())
    rows = []
    for start in range(0, entries.count().value, 7):
        rows += entries.page(start, 7)
    names = {"player": "licence_number", "committee": "committee_id", "club": "club_id"}
    return {
        e.licence_number: tuple(
            (e.manual_reason or None) if f == "manual_reason" else getattr(e, names.get(f, f))
            for f in FIELDS
        )
        for e in rows
    }


ELISES = {3002, 3004, 3006, 3008, 3010, 3012, 3014, 3016, 3018, 3020}  # "Élise" players

placement_event = st.tuples(
    st.just("placement"), st.integers(0, 24), st.sampled_from(["1N", "2T", "4PR", None])
)


def replay_with_placements(federation, add_tournament, correct_tournament, events) -> None:
    registry = federation.registry
    season, p = registry.season, federation.players
    staff = registry.users["federation_staff"]
    tournaments: list = []
    for item in events:
        if item[0] != "placement":
            apply_event(federation, add_tournament, correct_tournament, item, tournaments)
        else:
            number = p[item[1]].licence_number
            if not Licence.objects.filter(player=p[item[1]], season=season).exists():
                continue
            if item[2] is None:
                manual_placement_remove(season=season, licence_number=number, by=staff)
            else:
                manual_placement_set(
                    season=season, licence_number=number, step=item[2], reason="CCN", by=staff
                )
            tasks.refresh_live_ranking(season.pk)
        assert read_live(season) == full(season), item


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    events=st.lists(st.one_of(event, placement_event), min_size=1, max_size=8),
    previous=st.booleans(),
)
def test_live_reads_equal_the_full_computation_after_any_sequence(
    live_store_redis, federation, add_tournament, correct_tournament, events, previous
):
    clear_live_store()  # each example's database rolls back; Redis must too
    with transaction.atomic():
        if previous:
            publish_previous(federation, add_tournament)
        full_recompute(season=federation.registry.season)
        replay_with_placements(federation, add_tournament, correct_tournament, events)
        transaction.set_rollback(True)


def test_a_homologation_moves_only_the_players_it_touches(
    live_store_redis, federation, add_tournament
):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    meta = live_store.read_meta(season.pk)
    assert meta is not None
    before = live_store_redis.hgetall(meta.key("p"))
    points = {p[3]: (300, 1), p[7]: (120, 0)}
    add_tournament(season, points, club=registry.clubs[102], arbiter=p[2])
    tasks.refresh_season_totals(season.pk, sorted(x.pk for x in points))
    after_meta = live_store.read_meta(season.pk)
    assert after_meta.gen == meta.gen  # updated in place, not rebuilt
    assert after_meta.version == SeasonRanking.objects.get(season=season).inputs_version
    after = {m: live_store_redis.hget(meta.key("p"), m) for m in before}
    changed = {int(m) for m in before if before[m] != after[m]}
    assert changed == {p[3].licence_number, p[7].licence_number}
    assert read_live(season) == full(season)
    # no provisional snapshot is written
    assert not RankingSnapshot.objects.filter(season=season, kind=RankingKind.PROVISIONAL).exists()
    assert SeasonRanking.objects.get(season=season).live_id is None


def test_a_lost_or_stale_store_is_rebuilt(live_store_redis, federation, add_tournament):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    points = {p[5]: (200, 0)}
    add_tournament(season, points, club=registry.clubs[101], arbiter=p[2])
    tasks.refresh_season_totals(season.pk, [p[5].pk])
    expected = full(season)
    clear_live_store()  # Redis flushed: read from the database, a rebuild asked
    assert read_in_place(season) == expected
    tasks.rebuild_live_store(season.pk)
    assert read_live(season) == expected
    # a store ahead of the database (a rolled-back write): the same
    meta = live_store.read_meta(season.pk)
    live_store_redis.hset(live_store.meta_key(season.pk), "version", meta.version + 5)
    live_store_redis.hset(meta.key("p"), "000000009999", "1|1||0|0|0|0||0|0|0")
    assert read_in_place(season) == expected
    tasks.rebuild_live_store(season.pk)
    assert read_live(season) == expected
    # a generation that lost members (an evicting Redis): the same
    live_store_redis.zrem(live_store.read_meta(season.pk).key("all"), live_store.member(3004))
    assert read_in_place(season) == expected
    tasks.rebuild_live_store(season.pk)
    assert read_live(season) == expected
    # a store behind (a change it never saw) is rebuilt by the next writer
    live_store_redis.hset(live_store.meta_key(season.pk), "version", 0)
    tasks.refresh_live_ranking(season.pk)
    assert (
        live_store.read_meta(season.pk).version
        == SeasonRanking.objects.get(season=season).inputs_version
    )
    assert read_live(season) == expected


def test_filters_player_record_and_export_read_the_store(
    live_store_redis, federation, add_tournament, django_assert_max_num_queries
):
    registry, p = federation.registry, federation.players
    season = registry.season
    publish_previous(federation, add_tournament)
    full_recompute(season=season)
    points = {p[i]: (50 * (i % 7), i % 2) for i in range(0, 24, 3)}
    add_tournament(season, points, club=registry.clubs[102], arbiter=p[2])
    tasks.refresh_season_totals(season.pk, sorted(x.pk for x in points))
    expected = full(season)
    # named like the searched players, but not in this season's ranking: never found
    Player.objects.create(licence_number=99_999, last_name="Joueur0", first_name="Élise")
    ranking = selectors.ranking_for_season(season, selectors.LIVE)
    club = registry.clubs[102]
    licence = p[6].licence_number
    for filters, keep in [
        (selectors.RankingFilter(club=club), lambda row: row[2] == club.pk),
        (selectors.RankingFilter(committee=club.committee), lambda r: r[1] == club.committee_id),
        (selectors.RankingFilter(series=4), lambda row: row[15] == 4),
        (
            selectors.RankingFilter(committee=club.committee, series=4),
            lambda r: r[1] == club.committee_id and r[15] == 4,
        ),
        (selectors.RankingFilter(query="joueur0"), lambda row: 3001 <= row[0] <= 3010),
        (selectors.RankingFilter(query="ELISE joueur"), lambda row: row[0] in ELISES),
        (selectors.RankingFilter(query=str(p[6].licence_number)), lambda row: row[0] == licence),
    ]:  # fmt: skip
        entries = ranking.entries(filters)
        count = entries.count().value
        rows = entries.page(0, 200)
        wanted = sorted((row[9], row[0]) for row in expected.values() if keep(row))
        assert count == len(wanted), filters
        assert [(e.place, e.licence_number) for e in rows] == wanted, filters
        for e in rows:
            assert tuple(getattr(e.line, f) for f in FIELDS) == expected[e.licence_number]
            assert e.player.licence_number == e.licence_number
    # a page costs a fixed number of queries (the snapshot, the placements, the names)
    with django_assert_max_num_queries(8):
        ranking = selectors.ranking_for_season(season, selectors.LIVE)
        ranking.entries(selectors.RankingFilter()).page(0, 50)
    record = selectors.player_record(p[6].licence_number, season, selectors.LIVE)
    assert record.entry.place == expected[p[6].licence_number][9]
    exported = list(ranking.export_rows(None, None, chunk_size=4))
    assert [(row[0], row[1]) for row in exported] == sorted(
        (row[9], row[0]) for row in expected.values()
    )
    committee = club.committee_id
    exported = list(ranking.export_rows({committee}, None, chunk_size=3))
    assert [row[1] for row in exported] == [
        n for _place, n in sorted((r[9], r[0]) for r in expected.values() if r[1] == committee)
    ]


def test_live_version_changes_with_what_readers_see(live_store_redis, federation, add_tournament):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    first = selectors.live_version(season)
    assert selectors.live_version(season) == first
    add_tournament(season, {p[4]: (80, 0)}, club=registry.clubs[102], arbiter=p[2])
    tasks.refresh_season_totals(season.pk, [p[4].pk])
    second = selectors.live_version(season)
    assert second != first
    manual_placement_set(
        season=season, licence_number=p[4].licence_number, step="2T", reason="CCN",
        by=registry.users["federation_staff"],
    )  # fmt: skip
    assert selectors.live_version(season) != second


def test_without_redis_the_live_ranking_is_a_snapshot(federation, add_tournament, settings):
    settings.RANKING_STORE_URL = ""
    season = federation.registry.season
    full_recompute(season=season)
    ranking = selectors.ranking_for_season(season, selectors.LIVE)
    assert isinstance(ranking, SnapshotRanking)
    assert RankingEntry.objects.filter(snapshot=ranking.snapshot).count() == len(full(season))


def test_verify_live_ranking_command(live_store_redis, federation, add_tournament):
    from io import StringIO

    from django.core.management import CommandError, call_command

    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    add_tournament(season, {p[4]: (80, 0), p[9]: (40, 2)}, club=registry.clubs[102], arbiter=p[2])
    tasks.refresh_season_totals(season.pk, [p[4].pk, p[9].pk])
    out = StringIO()
    call_command("verify_live_ranking", "--season", season.name, stdout=out)
    assert "0 differences" in out.getvalue()
    meta = live_store.read_meta(season.pk)
    live_store_redis.zadd(meta.key("all"), {live_store.member(p[9].licence_number): -1})
    with pytest.raises(CommandError):
        call_command("verify_live_ranking", "--season", season.name, stdout=StringIO())
    out = StringIO()
    call_command("verify_live_ranking", "--season", season.name, "--rebuild", stdout=out)
    assert "0 differences" in out.getvalue()


def test_verify_live_ranking_reports_an_allocation_on_a_retired_record(
    live_store_redis, federation, add_tournament
):
    """The database and the store equally wrong: a current allocation left on a record
    merged into another (what a merge racing a homologation could leave). The command
    says so, naming both records."""
    from io import StringIO

    from django.core.management import CommandError, call_command

    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    add_tournament(season, {p[4]: (80, 0)}, club=registry.clubs[102], arbiter=p[2])
    tasks.refresh_season_totals(season.pk, [p[4].pk])
    call_command("verify_live_ranking", "--season", season.name, stdout=StringIO())
    kept = Player.objects.create(licence_number=99001, last_name="Gardé", first_name="Paul")
    Player.objects.filter(pk=p[4].pk).update(merged_into=kept)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_live_ranking", "--season", season.name, stdout=out)
    assert f"{p[4].licence_number}: an allocation of tournament" in out.getvalue()
    assert "merged into 99001" in out.getvalue()


def test_a_placement_or_an_unchanged_recompute_does_not_rebuild(
    live_store_redis, federation, add_tournament
):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    gen = live_store.read_meta(season.pk).gen
    manual_placement_set(
        season=season, licence_number=p[8].licence_number, step="1N", reason="CCN",
        by=registry.users["federation_staff"],
    )  # fmt: skip
    tasks.refresh_live_ranking(season.pk)
    full_recompute(season=season)
    meta = live_store.read_meta(season.pk)
    assert meta.gen == gen
    assert meta.version == SeasonRanking.objects.get(season=season).inputs_version
    assert read_live(season) == full(season)
    # standings changed behind the store's back: the checksum differs, it is rebuilt
    from rankings.models import SeasonStanding

    SeasonStanding.objects.filter(season=season, player=p[8]).update(season_pcn=777)
    from rankings.season.ranking_state import inputs_changed

    inputs_changed(season_id=season.pk)
    tasks.refresh_live_ranking(season.pk)
    assert live_store.read_meta(season.pk).gen != gen
    assert read_live(season) == full(season)


def test_the_desk_reads_the_store(live_store_redis, federation, add_tournament, client, settings):
    """The desk's live ranking card and its "what changes if I publish" counts are the
    same with the store as with the provisional snapshot."""
    from federation.access import scope_of
    from rankings.reads.desk_reads import publish_comparison
    from rankings.season.live_ranking import live_ranking_refresh

    registry, p = federation.registry, federation.players
    season = registry.season
    publish_previous(federation, add_tournament)
    full_recompute(season=season)
    add_tournament(season, {p[i]: (90 * i, 0) for i in range(1, 20, 4)},
                   club=registry.clubs[102], arbiter=p[2])  # fmt: skip
    tasks.refresh_season_totals(season.pk, [p[i].pk for i in range(1, 20, 4)])
    staff = registry.users["federation_staff"]
    client.force_login(staff)
    page = client.get("/bureau/classement/", {"season": season.name}).content.decode()
    assert "behind" not in page
    assert "retard" not in page
    with_store = publish_comparison(selectors.ranking_for_season(season, "live"), scope_of(staff))
    assert client.get("/bureau/classement/publication/", {"season": season.name}).status_code == 200
    settings.RANKING_STORE_URL = ""
    live_ranking_refresh(season=season)
    ranking = selectors.ranking_for_season(season, "live")
    assert isinstance(ranking, SnapshotRanking)
    without = publish_comparison(ranking, scope_of(staff))
    assert (with_store.players, with_store.up, with_store.down, with_store.same,
            with_store.new) == (without.players, without.up, without.down, without.same,
                                without.new)  # fmt: skip


def test_a_licence_change_rides_along_with_the_next_homologation(
    live_store_redis, federation, add_tournament
):
    registry, p = federation.registry, federation.players
    season = registry.season
    full_recompute(season=season)
    Licence.objects.filter(player=p[6], season=season).update(club=registry.clubs[201])
    Licence.objects.filter(player=p[7], season=season).delete()  # withdrawn
    add_tournament(season, {p[3]: (60, 0)}, club=registry.clubs[102], arbiter=p[2])
    tasks.refresh_season_totals(season.pk, [p[3].pk])
    seen = read_live(season)
    assert seen[p[6].licence_number][2] == registry.clubs[201].pk
    assert p[7].licence_number not in seen
    assert seen == full(season)


def test_api_pages_and_exports_read_the_store_the_same_as_the_snapshot(
    live_store_redis, federation, add_tournament, api, client, settings
):
    """Every public reader answers the same from the store as from the provisional
    snapshot (but the snapshot's id and its counts per series)."""
    from tests.rankings.reads.test_exports import read_csv

    registry, p = federation.registry, federation.players
    season = registry.season
    publish_previous(federation, add_tournament)
    full_recompute(season=season)
    add_tournament(season, {p[i]: (40 * i, i % 3) for i in range(2, 22, 3)},
                   club=registry.clubs[101], arbiter=p[2])  # fmt: skip
    tasks.refresh_season_totals(season.pk, [p[i].pk for i in range(2, 22, 3)])
    licence = p[5].licence_number
    committee = registry.clubs[101].committee.number
    reads = [
        ("/api/pcn/ranking/", {"season": season.name, "kind": "live", "page_size": 7, "page": 2}),
        ("/api/pcn/ranking/", {"season": season.name, "kind": "live", "club": 101}),
        ("/api/pcn/ranking/", {"season": season.name, "kind": "live", "q": "joueur1"}),
        ("/api/pcn/ranking/", {"season": season.name, "kind": "live", "series": 4}),
        (f"/api/pcn/ranking/players/{licence}/", {"season": season.name, "kind": "live"}),
    ]
    pages = [
        ("/classement/", {"saison": season.name, "classement": "provisoire"}),
        (f"/classement/joueur/{licence}/", {"saison": season.name, "classement": "provisoire"}),
        (f"/classement/comite/{committee}/", {"saison": season.name, "classement": "provisoire"}),
        ("/", {}),  # the home page's top of the live ranking
    ]

    def answers():
        found = []
        for url, query in reads:
            body = api.get(url, query).json()
            for part in (body.get("snapshot") or {}, body.get("ranking") or {}):
                for key in ("id", "snapshot", "series_counts", "computed_at"):
                    part.pop(key, None)
            found.append(body)
        for url, query in pages:
            response = client.get(url, query)
            assert response.status_code == 200, url
        api.force_authenticate(registry.users["federation_staff"])
        found.append(read_csv(api.get("/api/pcn/ranking/export/", {"kind": "live"})))
        found.append(read_csv(api.get("/api/pcn/ranking/export/", {"kind": "live", "club": 101})))
        api.force_authenticate(None)
        return found

    with_store = answers()
    assert with_store[0]["count"] == len(full(season))
    settings.RANKING_STORE_URL = ""
    from rankings.season.live_ranking import live_ranking_refresh

    live_ranking_refresh(season=season)
    assert isinstance(selectors.ranking_for_season(season, "live"), SnapshotRanking)
    assert answers() == with_store


def test_a_common_name_is_found_by_walking_the_ranking_as_by_scoring_every_match(
    live_store_redis, federation, add_tournament, monkeypatch
):
    """A search by name that many share reads the season's order from the top and keeps
    those named (``live_reads.named_in_order``), with a capped count; its pages and
    counts equal those of scoring every match, on every page, whether the walk ends the
    page, meets the end of the ranking or gives up (sizes shrunk to this federation)."""
    from rankings.season import search

    registry, p = federation.registry, federation.players
    season = registry.season
    publish_previous(federation, add_tournament)
    full_recompute(season=season)
    add_tournament(season, {p[i]: (25 * (i % 9), i % 2) for i in range(0, 25, 2)},
                   club=registry.clubs[101], arbiter=p[2])  # fmt: skip
    tasks.refresh_season_totals(season.pk, [p[i].pk for i in range(0, 25, 2)])
    # named like the others: not licensed this season, or hidden from the public
    Player.objects.create(licence_number=99_998, last_name="Joueur07", first_name="Loïc")
    Player.objects.filter(licence_number=3005).update(name_hidden=True)
    for n in range(5):
        Player.objects.create(licence_number=99_990 + n, last_name="Nouveau", first_name="Léa")
    ranking = selectors.ranking_for_season(season, selectors.LIVE)
    walks = []
    walk = live_reads.named_in_order
    monkeypatch.setattr(live_reads, "named_in_order",
                        lambda *a: walks.append(walk(*a)) or walks[-1])  # fmt: skip

    def answers(text, walking):
        monkeypatch.setattr(live_reads, "WIDE_SEARCH", 5 if walking else 10**9)
        filters = selectors.RankingFilter(query=text)
        found = []
        for start, size in [(0, 2), (0, 50), (1, 3), (4, 4), (9, 7), (30, 5)]:
            entries = ranking.entries(filters)
            rows = entries.rows(start, size)
            found.append(([(r["place"], r["licence_number"]) for r in rows],
                          entries.count()))  # fmt: skip
        return found

    monkeypatch.setattr(search, "COUNT_CAP", 3)
    monkeypatch.setattr(live_reads, "COUNT_CAP", 3)
    monkeypatch.setattr(live_reads, "WALK_CHUNK", (2, 3))
    for limit in (10**6, 8):  # the walk reads the whole ranking, or gives up past 8
        monkeypatch.setattr(live_reads, "WALK_LIMIT", limit)
        for text in ("joueur", "jo", "j", "joueur0 loic", "elise joueur1", "l", "nouveau"):
            walks.clear()
            walked = answers(text, walking=True)
            # "l": fewer than 5 players named, all scored; "nouveau": five players in
            # the registry, none in this season's ranking: every match scored
            assert bool(walks) == (text not in ("l", "nouveau")), text
            assert limit == 8 or None not in walks, text
            scored = answers(text, walking=False)
            assert walked == scored, text
    everyone = answers("joueur", walking=False)[1]
    assert everyone[1] == search.SearchCount(3, True)
    shown = [n for _place, n in everyone[0]]
    assert len(shown) == 19  # Joueur00…19 but the hidden one
    assert 3005 not in shown
    assert 99_998 not in shown
    assert [n for _place, n in answers("joueur", walking=True)[1][0]] == shown
