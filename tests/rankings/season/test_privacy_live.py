"""The live ranking read from the Redis store (rankings/season/live_reads.py) names a player who
objected to appearing by name (docs/privacy.md) as the database's reads do: anonymous,
no licence number, found by no search; their place unchanged."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

ANONYMOUS = "joueur ayant demandé l'anonymat"


def test_the_live_store_reads_follow_the_rule(client, live_store_redis, federation, add_tournament):
    from federation.privacy import player_privacy_set
    from rankings.season.recompute import full_recompute

    registry, p = federation.registry, federation.players
    season = registry.season
    target = p[6]  # 3002, "Joueur01 Élise"
    add_tournament(season, {target: (500, 2), p[7]: (300, 1)}, club=registry.clubs[101],
                   arbiter=p[1])  # fmt: skip
    full_recompute(season=season)
    number = re.compile(rf"(?<![0-9]){target.licence_number}(?![0-9])")
    before = client.get("/api/pcn/ranking/", {"kind": "live"}).json()["results"]
    assert before[0]["licence_number"] == target.licence_number
    assert "JOUEUR01" in client.get("/classement/", {"classement": "provisoire"}).content.decode()

    player_privacy_set(player=target, hidden=True, by=registry.users["federation_staff"])

    after = client.get("/api/pcn/ranking/", {"kind": "live"}).json()["results"]
    assert (after[0]["place"], after[0]["licence_number"], after[0]["last_name"]) == (
        before[0]["place"], None, ANONYMOUS)  # fmt: skip
    for url, query in [
        ("/classement/", {"classement": "provisoire"}),
        ("/classement/", {"classement": "provisoire", "q": "joueur01"}),
        ("/classement/club/101/", {"classement": "provisoire"}),
        ("/api/pcn/ranking/", {"kind": "live", "q": "joueur01"}),
        ("/api/pcn/ranking/", {"kind": "live", "club": 101}),
    ]:
        text = client.get(url, query).content.decode()
        assert "Joueur01" not in text, (url, query)
        assert "JOUEUR01" not in text, (url, query)
        assert not number.search(text), (url, query)
    found = client.get("/api/pcn/ranking/", {"kind": "live", "q": str(target.licence_number)})
    assert found.json()["count"] == 0
