"""Reading the live ranking from the order-statistics store (``rankings/live_store.py``).

A player's place is 1 + the number of smaller scores in the season's sorted set
(``ZCOUNT``, O(log n)), the same in their committee's and club's sets; the ranked
count is a ``ZCOUNT`` of the scores of players with points. Their step then comes from
the pure core's ``entry_for`` with the step criteria of this ranking's size, the
series policy the store's scores were computed with and the manual placements read
from the database. Nothing here knows a rule.

:class:`LiveRanking` stands where readers expect a snapshot (same attributes), and
:class:`LiveEntry` where they expect a snapshot's entry; the selectors dispatch.
"""

from __future__ import annotations

import datetime as dt
import heapq
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db import transaction

from federation.models import Club, Committee, Player, Season
from rankings import live_store
from rankings.live_store import Meta, StoredPlayer
from rankings.models import ManualPlacement, RankingKind, SeasonRanking, SeriesPolicyVersion
from rankings.rules.live_order import RANKED_MAX_SCORE, licence_of, member, place_from
from rankings.rules.national_ranking import (
    Places,
    RankingEntry,
    compute_ranking,
    entry_for,
    step_criteria,
)
from rankings.rules.series import ManualPlacement as Placement
from rankings.rules.series import SeriesPolicy


@lru_cache(maxsize=16)
def _policy(data: str) -> SeriesPolicy:
    return SeriesPolicy.from_dict(json.loads(data))


@dataclass
class LiveRanking:
    """The season's live ranking as readers see it (a snapshot's attributes)."""

    season: Season
    meta: Meta
    policy: SeriesPolicyVersion
    player_count: int
    ranked_count: int
    inputs_version: int
    kind: str = RankingKind.PROVISIONAL.value
    pk: None = None
    series_counts: dict[str, int] = field(default_factory=dict)

    @property
    def id(self) -> None:
        return None

    @property
    def computed_at(self) -> dt.datetime:
        return self.meta.updated

    @property
    def rules(self) -> SeriesPolicy:
        return _policy(json.dumps(self.policy.data, sort_keys=True))

    @property
    def share_cutoffs(self) -> list[dict[str, Any]]:
        criteria = step_criteria(self.rules, self.ranked_count, self.player_count)
        return [
            {"step": c.step, "top_share": str(c.top_share), "last_place": c.last_place}
            for c in criteria.cutoffs
        ]

    @property
    def version(self) -> str:
        return f"{self.inputs_version}.{self.meta.version}.{self.meta.gen}"


@dataclass
class LiveEntry:
    """One line of the live ranking, with the attributes of a snapshot's entry."""

    line: RankingEntry
    stored: StoredPlayer
    player: Player | None = None
    committee: Committee | None = None
    club: Club | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.line, name)

    @property
    def licence_number(self) -> int:
        return self.line.player

    @property
    def player_id(self) -> int:
        return self.stored.player_id

    @property
    def committee_id(self) -> int:
        return self.line.committee

    @property
    def club_id(self) -> int | None:
        return self.line.club

    @property
    def tournaments(self) -> int:
        return self.stored.tournaments

    @property
    def step_source(self) -> str:
        return self.line.step_source.value


def live_ranking(season: Season, state: SeasonRanking | None = None) -> LiveRanking:
    """The season's live ranking; the store is rebuilt from the database first when it
    has no generation for the season, or is ahead of the database (a rolled-back write,
    a restored database)."""
    state = state or SeasonRanking.objects.filter(season=season).first()
    inputs_version = state.inputs_version if state else 0
    meta = live_store.read_meta(season.pk)
    if meta is None or meta.version > inputs_version:
        with transaction.atomic():  # under the writer lock: one rebuild, others wait and reuse it
            meta = live_store.sync(season=season)
    pipe = live_store.client().pipeline(transaction=False)
    pipe.zcard(meta.key("all"))
    pipe.zcount(meta.key("all"), "-inf", RANKED_MAX_SCORE)
    player_count, ranked_count = pipe.execute()
    return LiveRanking(
        season=season,
        meta=meta,
        policy=SeriesPolicyVersion.objects.get(pk=meta.policy_id),
        player_count=player_count,
        ranked_count=ranked_count,
        inputs_version=inputs_version,
    )


def lines(ranking: LiveRanking, licences: Sequence[int]) -> list[LiveEntry]:
    """The lines of these players (absent ones left out), in the given order: two
    round trips to Redis and one query for the placements."""
    if not licences:
        return []
    meta, redis_client = ranking.meta, live_store.client()
    members = [member(n) for n in licences]
    raw = redis_client.hmget(meta.key("p"), members)
    stored = [StoredPlayer.decode(n, r) for n, r in zip(licences, raw, strict=True) if r]
    pipe = redis_client.pipeline(transaction=False)
    for p in stored:
        below = f"({p.score}"
        pipe.zcount(meta.key("all"), "-inf", below)
        pipe.zcount(meta.key(f"c:{p.standing.committee}"), "-inf", below)
        if p.standing.club is not None:
            pipe.zcount(meta.key(f"k:{p.standing.club}"), "-inf", below)
    counts = iter(pipe.execute())
    placements = {
        number: Placement(number, step, reason)
        for number, step, reason in ManualPlacement.objects.filter(
            season_id=ranking.season.pk,
            player__licence_number__in=[p.standing.player for p in stored],
        ).values_list("player__licence_number", "step", "reason")
    }
    criteria = step_criteria(ranking.rules, ranking.ranked_count, ranking.player_count)
    found = []
    for p in stored:
        overall, in_committee = place_from(next(counts)), place_from(next(counts))
        in_club = place_from(next(counts)) if p.standing.club is not None else None
        line = entry_for(
            p.standing,
            Places(overall, in_committee, in_club),
            criteria,
            placements.get(p.standing.player),
        )
        found.append(LiveEntry(line, p))
    return found


def with_names(entries: list[LiveEntry]) -> list[LiveEntry]:
    """Attach the player, committee and club rows (three queries)."""
    players = Player.objects.in_bulk([e.stored.player_id for e in entries])
    committees = Committee.objects.in_bulk({e.line.committee for e in entries})
    clubs = Club.objects.in_bulk({e.line.club for e in entries if e.line.club is not None})
    for e in entries:
        e.player = players.get(e.stored.player_id)
        e.committee = committees.get(e.line.committee)
        e.club = clubs.get(e.line.club) if e.line.club is not None else None
    return entries


def group_key(ranking: LiveRanking, committee_id: int | None, club_id: int | None) -> str:
    if club_id is not None:
        return ranking.meta.key(f"k:{club_id}")
    if committee_id is not None:
        return ranking.meta.key(f"c:{committee_id}")
    return ranking.meta.key("all")


def members_page(key: str, start: int, size: int) -> list[int]:
    """Licence numbers of one page of a sorted set, in ranking order."""
    return [licence_of(m) for m in live_store.client().zrange(key, start, start + size - 1)]


def members_count(key: str) -> int:
    return int(live_store.client().zcard(key))


def ordered(ranking: LiveRanking, licences: Sequence[int]) -> list[int]:
    """These players in ranking order (score, then licence number); absent ones dropped."""
    if not licences:
        return []
    scores = live_store.client().zmscore(ranking.meta.key("all"), [member(n) for n in licences])
    found = [(s, n) for n, s in zip(licences, scores, strict=True) if s is not None]
    return [n for _s, n in sorted(found)]


def name_matches(text: str, limit: int | None = None) -> list[int]:
    """Licence numbers of the players the text names (at most ``limit``), in no order:
    the same rules and indexes as a snapshot's search (``rankings/search.py``,
    ``Player.search_name``). Not narrowed to the season's ranked players: :func:`ordered`
    keeps those the season's store holds (a join with the season's standings cost more
    than the search itself)."""
    from rankings.search import player_matches

    return player_matches(Player.objects.all(), text, limit)


WIDE_SEARCH = 2_000
"""A search by name alone whose first this many players named hold more than the
search's count cap in the store is answered by :func:`named_in_order` (a common name,
two letters): its count is capped without reading every match."""
WALK_LIMIT = 20_000
"""The most members of the season's sorted set :func:`named_in_order` expects to read."""
WALK_CHUNK = (500, 5_000)
"""The fewest and most members it reads at a time."""


def named_in_order(ranking: LiveRanking, text: str, needed: int) -> list[int] | None:
    """The first ``needed`` players the text names in the season's order, found by
    walking the season's sorted set from the top and asking the database which of each
    chunk the text names (``search.named_among``: the search's own rules). For a name
    that thousands share this reads about ``needed`` ÷ (their share of the season)
    members whatever the season's size, where scoring every match (:func:`ordered`)
    costs in proportion to the matches. Each chunk is sized by the share found so far.
    None when that share says more than :data:`WALK_LIMIT` members would be read (a
    deep page, or a name rarer than it seemed): the caller scores every match instead."""
    from rankings.search import named_among

    key, redis_client = ranking.meta.key("all"), live_store.client()
    found: list[int] = []
    walked = 0
    while len(found) < needed:
        missing = needed - len(found)
        expected = missing * walked / max(len(found), 1) if walked else WALK_CHUNK[0]
        if walked + expected > WALK_LIMIT:
            return None
        chunk = min(max(round(expected * 1.1), WALK_CHUNK[0]), WALK_CHUNK[1])
        licences = [licence_of(m) for m in redis_client.zrange(key, walked, walked + chunk - 1)]
        named = named_among(licences, text)
        found.extend(n for n in licences if n in named)
        walked += len(licences)
        if len(licences) < chunk:  # the end of the ranking: every match is found
            break
    return found[:needed]


_FULL: dict[tuple[int, str], list[RankingEntry]] = {}


def full_ranking(ranking: LiveRanking) -> list[RankingEntry]:
    """Every line, by the pure core over the store's standings (for the reads a sorted
    set cannot answer: a series filter over the whole country, the desk's comparison).
    Computed once per live version in a process."""
    cache_key = (ranking.season.pk, ranking.version)
    cached = _FULL.get(cache_key)
    if cached is not None:
        return cached
    raw = live_store.client().hgetall(ranking.meta.key("p"))
    standings = [StoredPlayer.decode(licence_of(m), r).standing for m, r in raw.items()]
    known = {s.player for s in standings}
    placements = [
        Placement(number, step, reason)
        for number, step, reason in ManualPlacement.objects.filter(season_id=ranking.season.pk)
        .order_by("player__licence_number")
        .values_list("player__licence_number", "step", "reason")
        if number in known
    ]
    entries = list(compute_ranking(standings, ranking.rules, placements).entries)
    _FULL.clear()
    _FULL[cache_key] = entries
    return entries


def merged_members(ranking: LiveRanking, keys: list[str], chunk: int) -> Iterator[int]:
    """Licence numbers of the union of these sorted sets (disjoint), in ranking order."""
    redis_client = live_store.client()

    def each(key: str) -> Iterator[tuple[float, str]]:
        start = 0
        while True:
            batch = redis_client.zrange(key, start, start + chunk - 1, withscores=True)
            if not batch:
                return
            for m, s in batch:
                yield s, m
            start += chunk

    for _score, m in heapq.merge(*(each(k) for k in keys)):
        yield licence_of(m)
