"""Searching the ranking (rankings/season/search.py): the player's folded name computed by
PostgreSQL equals ``core.folding.fold``; words, prefixes and licence numbers; a capped
count; the trigram index serves the search; the SQLite fallback gives the same rows."""

from __future__ import annotations

import pytest
from django.db import connection
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core.folding import _FOLDING, fold
from federation.models import Player
from rankings.reads.selectors import RankingFilter, ranking_for_season
from rankings.season import search
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the folding function is PostgreSQL's"
)
LETTERS = sorted({chr(c) for c in _FOLDING} | {chr(c).upper() for c in _FOLDING if
                 len(chr(c).upper()) == 1} | set("abcdeXYZ -'"))  # fmt: skip


@postgresql_only
@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=LETTERS, max_size=30))
def test_the_database_folds_as_python(text):
    with connection.cursor() as cursor:
        cursor.execute("SELECT fft_fold(%s)", [text])
        assert cursor.fetchone()[0] == fold(text)


@postgresql_only
def test_every_player_has_a_folded_name(db):
    player = Player.objects.create(licence_number=99001, last_name="QUÉRÉ-Lœb", first_name="Ærwan")
    player.refresh_from_db()
    assert player.search_name == "quere-loeb aerwan" == fold("QUÉRÉ-Lœb Ærwan")
    Player.objects.filter(pk=player.pk).update(first_name="Élise")  # any write path
    player.refresh_from_db()
    assert player.search_name == "quere-loeb elise"


@pytest.fixture
def ranked(registry, federation, add_tournament):
    p = federation.players
    add_tournament(registry.season, {p[i]: (300 - 10 * i, 0) for i in range(12)},
                   club=registry.clubs[102], arbiter=p[21])  # fmt: skip
    full_recompute(season=registry.season)
    return ranking_for_season(registry.season)


def _found(ranking, text) -> list[int]:
    entries = ranking.entries(RankingFilter(query=text)).page(0, 10_000)
    return [e.licence_number for e in entries]


def test_words_prefixes_and_licence_numbers(ranked):
    everyone = [e.licence_number for e in ranked.entries(RankingFilter()).page(0, 10_000)]
    assert _found(ranked, "QUERE") == _found(ranked, "quéré") == [2002]
    assert _found(ranked, "joueur03 elise") == [3004]
    assert _found(ranked, "elise joueur03") == [3004]  # words in any order
    loics = [n for n in everyone if 3001 <= n <= 3020 and (n - 3001) % 2 == 0]
    assert _found(ranked, "loïc") == loics  # ranking order
    # one or two letters: the start of the name ("jo" is not inside "martin")
    assert _found(ranked, "jo") == [n for n in everyone if 3001 <= n <= 3020]
    assert _found(ranked, "oue") == _found(ranked, "jo")  # three letters: anywhere
    assert _found(ranked, "3004") == [3004]
    assert _found(ranked, "  ") == everyone
    assert _found(ranked, "zzzz") == []
    assert _found(ranked, "100%") == []  # a LIKE wildcard is a letter


NAMES = [("Le Gall", "Anaïs"), ("Lefèvre", "Jérôme"), ("Leroy", "Zoé"), ("L'Hôte", "Noël"),
         ("Dupont-Morel", "Éric"), ("Martin", "Léa"), ("Mart_in", "100%"), ("Œuvray", "Ève"),
         ("Le", "Ma"), ("Martinez", "Loïc")]  # fmt: skip
QUERY_LETTERS = sorted(set("lemartinogdupz'%_- ÉéœŒ"))


@pytest.fixture
def named_players(db) -> dict[int, str]:
    """The players above (one hidden from the public), with their folded names."""
    for n, (last, first) in enumerate(NAMES):
        Player.objects.create(licence_number=70_001 + n, last_name=last, first_name=first,
                              name_hidden=n == 5)  # fmt: skip
    return dict(Player.objects.filter(licence_number__gt=70_000, name_hidden=False)
                .values_list("licence_number", "search_name"))  # fmt: skip


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=QUERY_LETTERS, max_size=9))
@example("le")
@example("l'h")
@example("mart_")
@example("MARTIN")
@example("e")
@example("œ")
@example("le ma")
@example("eve oeuv")
@example("%")
def test_a_name_is_tested_alike_by_the_database_and_in_python(named_players, text):
    """``NameSearch.lookups`` (the database's ``LIKE``) and ``NameSearch.names`` (Python,
    for a walk of the live ranking) find the same players, and ``named_among`` too."""
    wanted = search.name_search(text)
    licences = sorted(named_players)
    players = Player.objects.filter(licence_number__gt=70_000)
    found = set(search.player_matches(players, text))
    if wanted is None:
        assert found == search.named_among(licences, text) == set()
        return
    assert found == {n for n, name in named_players.items() if wanted.names(name)}
    assert search.named_among(licences, text) == found
    assert search.named_among(licences[::3], text) == found & set(licences[::3])


def test_the_sqlite_fallback_finds_the_same(ranked, monkeypatch):
    queries = ["quere", "joueur03 elise", "loïc", "jo", "oue", "3004", "zzzz"]
    expected = [_found(ranked, q) for q in queries]
    monkeypatch.setattr(search, "_name_field", lambda: "search_name")  # the snapshot's names
    assert [_found(ranked, q) for q in queries] == expected


def test_counts_from_the_players_side_equal_the_matches(api, ranked):
    for text in ("joueur", "elise joueur", "jo", "quere", "zzzz", "3004", "loïc"):
        answer = api.get("/api/pcn/ranking/", {"q": text, "page_size": 200}).json()
        assert answer["count"] == len(answer["results"]) == len(_found(ranked, text))
        assert answer["count_capped"] is False
    committee = api.get("/api/pcn/ranking/", {"q": "joueur", "committee": 1}).json()
    assert committee["count"] == len(committee["results"]) < 20


def test_the_count_stops_at_the_cap(api, client, ranked, monkeypatch):
    monkeypatch.setattr(search, "COUNT_CAP", 3)
    answer = api.get("/api/pcn/ranking/", {"q": "joueur"}).json()
    assert answer["count"] == 3
    assert answer["count_capped"] is True
    assert len(answer["results"]) == 20  # the page still shows its matches
    exact = api.get("/api/pcn/ranking/", {"q": "quere"}).json()
    assert (exact["count"], exact["count_capped"]) == (1, False)
    page = client.get("/classement/", {"q": "joueur"}).content.decode()
    assert "plus de 1\xa0000 résultats" in page


def test_a_search_in_few_queries(api, ranked, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        assert api.get("/api/pcn/ranking/", {"q": "joueur elise"}).status_code == 200


@postgresql_only
def test_the_indexes_serve_the_search(ranked):
    for text, index in (("joueur", "player_search_trgm"), ("jo", "player_search_prefix")):
        players = Player.objects.all()
        field = "search_name__startswith" if len(text) < 3 else "search_name__contains"
        sql, params = players.filter(**{field: text}).query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}", params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert index in plan, plan
