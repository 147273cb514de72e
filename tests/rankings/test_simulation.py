"""« Et si… »: the page and the API price a result with the season's rulebook, place the
player in the live ranking as a recomputation would, refuse every bad input on its field,
and store nothing."""

from __future__ import annotations

import pytest

from competitions.models import Allocation
from rankings import selectors
from rankings.models import RankingEntry
from rankings.official_ranking import official_ranking_publish
from rankings.recompute import full_recompute

pytestmark = pytest.mark.django_db

URL = "/api/pcn/simulation/"
PAGE = "/classement/simulation/"


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


def _errors(response) -> dict[str, str]:
    return {e["field"]: e["code"] for e in response.json()["errors"]}


def test_a_second_place_in_a_20_table_regional_final(client, registry):
    query = {"event": "regional_final", "tables": 20, "place": 2}
    body = client.get(URL, query).json()
    # The printed table (index 1) gives 688 at 20 tables, 2nd place; × 1.8, truncated.
    assert (body["pcn"], body["pp"], body["index"], body["cap"]) == (1238, 0, "1.8", 3000)
    assert (body["entries"], body["places_with_points"], body["has_right"]) == (80, 40, True)
    assert body["season"] == "2026-2027"
    assert body["player"] is None
    html = client.get(PAGE, {"type": "regional_final", "formule": "individual", "tables": 20,
                             "place": 2}).content.decode()  # fmt: skip
    assert '<div class="v" data-testid="pcn">1238</div>' in html
    assert "Finale régionale" in html
    assert "Les 40 premières places ont droit à des points." in html


def test_a_national_final(client, registry):
    body = client.get(URL, {"event": "national_final_seniors", "tables": 50, "place": 87}).json()
    assert (body["pcn"], body["pp"], body["format"], body["index"]) == (500, 0, "individual", None)
    body = client.get(URL, {"event": "national_final_individual", "tables": 60, "place": 1}).json()
    assert (body["pcn"], body["pp"]) == (4000, 17)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"event": "ordinary", "tables": 20, "place": 81}, {"place": "place_beyond_entries"}),
        ({"event": "ordinary", "tables": 0, "place": 1}, {"tables": "min_value"}),
        ({"event": "ordinary", "tables": 1001, "place": 1}, {"tables": "max_value"}),
        ({"event": "ordinary", "tables": 2, "place": 1},
         {"entries": "below_minimum_participation"}),
        ({"event": "final", "tables": 5, "place": 1}, {"event": "invalid_choice"}),
        ({"event": "ordinary", "tables": "x", "place": 1}, {"tables": "invalid"}),
        ({"event": "ordinary", "tables": 5, "place": 1, "licence_number": 999999},
         {"licence_number": "no_player_with_licence"}),
        ({"event": "ordinary", "tables": 5, "place": 1, "licence_number": 10**30},
         {"licence_number": "no_player_with_licence"}),
        ({"event": "ordinary", "tables": 5, "place": 10**30},
         {"place": "place_beyond_entries"}),
    ],
)  # fmt: skip
def test_every_bad_input_is_a_400_on_its_field(client, registry, query, expected):
    response = client.get(URL, query)
    assert response.status_code == 400
    assert _errors(response) == expected


def test_the_page_shows_each_refusal_on_its_field(client, registry):
    html = client.get(PAGE, {"type": "ordinary", "formule": "individual", "tables": 20,
                             "place": 81}).content.decode()  # fmt: skip
    assert "La place 81 n’existe pas\xa0: le tournoi ne compte que 80 inscrits." in html
    assert 'id="id_place_error"' in html
    html = client.get(PAGE, {"type": "ordinary", "formule": "individual", "tables": 0,
                             "place": 1}).content.decode()  # fmt: skip
    assert 'id="id_tables_error"' in html
    html = client.get(PAGE, {"type": "nope", "tables": 5, "place": 1}).content.decode()
    assert 'id="id_type_error"' in html
    assert 'data-testid="pcn"' not in html


def test_the_player_lands_where_a_recomputation_puts_them(client, ranked, registry, add_tournament):
    player = ranked.players[15]
    before = RankingEntry.objects.get(
        snapshot=selectors.ranking_snapshot(registry.season, selectors.LIVE), player=player
    )
    allocations = Allocation.objects.count()
    query = {"event": "regional_final", "tables": 5, "place": 1,
             "licence_number": player.licence_number}  # fmt: skip
    body = client.get(URL, query).json()
    assert Allocation.objects.count() == allocations  # nothing stored
    assert body["player"]["before"]["place"] == before.place
    after = body["player"]["after"]
    assert after["total_pcn"] == before.total_pcn + body["pcn"]
    form = {"type": "regional_final", "formule": "individual", "tables": 5, "place": 1,
            "licence": player.licence_number}  # fmt: skip
    html = client.get(PAGE, form).content.decode()
    assert f'<div class="v" data-testid="place-after">{after["place"]}</div>' in html
    # Now for real: the same points homologated, the ranking recomputed.
    add_tournament(registry.season, {player: (body["pcn"], 0)}, club=registry.clubs[101],
                   arbiter=ranked.players[22])  # fmt: skip
    full_recompute(season=registry.season)
    real = RankingEntry.objects.get(
        snapshot=selectors.ranking_snapshot(registry.season, selectors.LIVE), player=player
    )
    assert (after["place"], after["step"], after["total_pcn"]) == (
        real.place, real.step, real.total_pcn,
    )  # fmt: skip


def test_a_player_outside_the_live_ranking_is_named(client, registry):
    response = client.get(URL, {"event": "ordinary", "tables": 5, "place": 1,
                                "licence_number": 1001})  # fmt: skip
    assert response.status_code == 400
    assert _errors(response) == {"licence_number": "not_in_live_ranking"}


def test_the_page_is_linked_from_the_player_page_and_prefilled(client, ranked):
    licence = ranked.players[3].licence_number
    html = client.get(f"/classement/joueur/{licence}/").content.decode()
    assert f'href="/classement/simulation/?saison=2026-2027&amp;licence={licence}"' in html
    html = client.get(PAGE, {"licence": licence}).content.decode()
    assert f'value="{licence}"' in html
    assert "Et si… simuler un résultat" in html
    assert 'for="id_tables"' in html


def test_the_page_and_the_api_cost_a_few_queries(client, ranked, django_assert_max_num_queries):
    query = {"event": "ordinary", "tables": 12, "place": 3,
             "licence_number": ranked.players[4].licence_number}  # fmt: skip
    with django_assert_max_num_queries(8):
        assert client.get(URL, query).status_code == 200
    with django_assert_max_num_queries(8):
        page = client.get(PAGE, {"type": "ordinary", "formule": "individual", "tables": 12,
                                 "place": 3, "licence": query["licence_number"]})  # fmt: skip
    assert page.status_code == 200


def test_the_players_ahead_are_found_by_two_reads(ranked, registry, django_assert_num_queries):
    from rankings.my_points import snapshot_policy
    from rankings.rules.national_ranking import order_key
    from rankings.simulation import _players_ahead

    snapshot = selectors.ranking_snapshot(registry.season, selectors.LIVE)
    policy = snapshot_policy(snapshot)
    keys = [
        order_key(e.total_pcn, e.total_pp, policy)
        for e in RankingEntry.objects.filter(snapshot=snapshot)
    ]
    candidates = {(pcn + d, pp) for pcn, pp in keys for d in (-1, 0, 1)} | {(0, 0), (10**6, 0)}
    for key in sorted(candidates):
        with django_assert_num_queries(2):
            found = _players_ahead(snapshot, key, policy)
        assert found == sum(1 for k in keys if k > key), key


def test_the_page_speaks_english_on_request(client, registry):
    query = {"type": "regional_final", "formule": "individual", "tables": 20, "place": 2}
    html = client.get(PAGE, query, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>What if… simulate a result</h1>" in html
    assert "The first 40 places have a right to points." in html
    assert "Finale régionale" not in html


def test_the_redis_store_gives_the_same_answers_as_the_snapshot(
    client, ranked, registry, settings, live_store_redis
):
    """With the live ranking in Redis (``rankings/live_store.py``), « Mes points » and
    « Et si… » read it and answer exactly as from the provisional snapshot."""
    store_url = settings.RANKING_STORE_URL
    assert store_url
    licences = [p.licence_number for p in ranked.players]

    def answers() -> list:
        found = []
        for n in licences:
            points = client.get(f"/api/pcn/ranking/players/{n}/").json()["my_points"]
            body = client.get(URL, {"event": "regional_final", "tables": 5, "place": 2,
                                    "licence_number": n}).json()  # fmt: skip
            found.append((points, body))
        return found

    from_store = answers()
    settings.RANKING_STORE_URL = ""
    from_snapshot = answers()
    assert from_store == from_snapshot
    assert any(p["next_step"] and p["next_step"]["missing_pcn"] for p, _ in from_store)
