"""The live ranking as an order-statistics store (Redis sorted sets), kept in step
with the season's standings: a homologation writes only the players it touches.

The database stays the source of truth (``SeasonStanding``, the series policy, the
manual placements). This store holds, per season and *generation*:

- ``all``: one sorted set of every licensee; ``c:<committee id>`` and ``k:<club id>``:
  one per committee and per club. Score and member are the pure encoding of
  ``rankings/rules/live_order.py`` (the core's order, ties by licence number);
- ``b:<band>``: one set per band of ``rankings/rules/live_series.py`` (the series of
  the player's demotion floor and the PP thresholds they meet), its members ordered by
  their bytes (``live_order.lex_member``: score, then licence): a series of the whole
  country is a range of each (``rankings/season/live_series.py``);
- ``p``: a hash licence → the player's ``PlayerStanding`` (as the core reads it,
  previous step already mapped to the policy's ladder), tournaments and score;
- ``meta`` (outside the generation): ``gen``, ``version`` (the
  ``SeasonRanking.inputs_version`` the store reflects), ``policy`` (the series policy
  version its scores were computed with) and ``updated``.

Writers (all under the season's writer lock, inside the transaction that writes the
standings, so they are applied in commit order):

- :func:`apply`: the players an incremental update touched: their standing rows are
  re-read and their members moved, in one ``MULTI``; ``version`` becomes the new
  inputs version. Only when ``version`` was the inputs version before this write
  (nothing else pending) and the policy is the same; else :func:`rebuild`.
- :func:`rebuild`: every standing, into a new generation, then ``meta`` flips to it
  in one command; the old generation expires a minute later (readers that read the
  old ``meta`` finish on it).

If the transaction fails after the store was written, the task retries and rewrites
the same players; a store ahead of the database (``version`` above the inputs version)
is rebuilt by the next reader or writer.

Readers (:mod:`rankings.season.live_reads`) derive places from counts of smaller scores and
steps from the pure core's ``entry_for``: no rule is written here.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from core.tasks import send_on_commit
from federation.models import Player, Season
from rankings.models import SeasonStanding
from rankings.rules.live_order import lex_member, member, score
from rankings.rules.live_series import band_of
from rankings.rules.national_ranking import PlayerStanding, order_key, player_totals
from rankings.rules.series import SeriesPolicy
from rankings.season.locks import season_writer_lock
from rankings.season.ranking_state import season_ranking
from rankings.season.series_policies import series_policy_in_force
from rankings.season.snapshots import _mapped_step

OLD_GENERATION_TTL_S = 60
CHUNK = 5000
LAYOUT = "2"
"""The keys a generation holds (``meta`` records it): a store written with other keys
(an older release's) reads as lost and is rebuilt."""


def enabled() -> bool:
    """Whether the live ranking lives in Redis (``RANKING_STORE_URL``, by default
    ``CACHE_URL``); otherwise it is a provisional snapshot (the embedded default)."""
    return bool(getattr(settings, "RANKING_STORE_URL", ""))


CONNECT_TIMEOUT_S = 2.0
"""How long a connection to the store may take before the store counts as unreachable
(its readers then read the database: ``rankings/season/engines.py``)."""


@lru_cache(maxsize=4)
def _client_for(url: str) -> Any:
    return redis.Redis.from_url(
        url, decode_responses=True, socket_connect_timeout=CONNECT_TIMEOUT_S
    )


def client() -> Any:
    """The store's Redis client (typed ``Any``: redis-py's stubs mix the sync and async
    return types)."""
    return _client_for(settings.RANKING_STORE_URL)


def meta_key(season_id: int) -> str:
    return f"fft:rank:{season_id}:meta"


def prefix(season_id: int, gen: str) -> str:
    return f"fft:rank:{season_id}:{gen}:"


@dataclass(frozen=True)
class Meta:
    season_id: int
    gen: str
    version: int
    policy_id: int
    updated: dt.datetime
    players: int = -1  # the standings the checksum counted (-1: unknown)

    @property
    def prefix(self) -> str:
        return prefix(self.season_id, self.gen)

    def key(self, name: str) -> str:
        return self.prefix + name


def read_meta(season_id: int) -> Meta | None:
    raw = client().hgetall(meta_key(season_id))
    if not raw or "gen" not in raw or raw.get("layout") != LAYOUT:
        return None
    sums = json.loads(raw.get("sums") or "null")
    return Meta(
        season_id,
        raw["gen"],
        int(raw["version"]),
        int(raw["policy"]),
        dt.datetime.fromisoformat(raw["updated"]),
        int(sums[0]) if sums else -1,
    )


# --- one player's line in the store ------------------------------------------------------


@dataclass(frozen=True)
class StoredPlayer:
    """A player as the store holds them."""

    standing: PlayerStanding
    player_id: int
    tournaments: int
    score: int

    def encode(self) -> str:
        s = self.standing
        return "|".join(
            str(v)
            for v in (
                self.player_id, s.committee, "" if s.club is None else s.club, s.season_pcn,
                s.season_pp, s.previous_pcn, s.previous_pp, s.previous_step or "",
                s.missed_seasons, self.tournaments, self.score,
            )
        )  # fmt: skip

    def sums(self) -> list[int]:
        """This player's part of the store's checksum (see :data:`_SUMS_SQL`)."""
        s = self.standing
        return [
            1, s.season_pcn, s.season_pp, self.tournaments, s.committee, s.club or 0,
            s.previous_pcn, s.previous_pp, s.missed_seasons,
            self.player_id * (s.season_pcn + 1) + s.season_pp * 7 + (s.club or 0) * 13,
        ]  # fmt: skip

    def band(self, policy: SeriesPolicy, index_of: dict[str, int]) -> str:
        """The band set that holds this player (``rankings/rules/live_series.py``)."""
        total_pp = player_totals(self.standing, policy, index_of)[3]
        return band_of(self.standing, policy, index_of, total_pp)

    def lex(self) -> str:
        return lex_member(self.score, self.standing.player)

    @classmethod
    def decode(cls, licence: int, raw: str) -> StoredPlayer:
        (player_id, committee, club, pcn, pp, previous_pcn, previous_pp, previous_step, missed,
         tournaments, value) = raw.split("|")  # fmt: skip
        standing = PlayerStanding(
            player=licence,
            committee=int(committee),
            club=int(club) if club else None,
            season_pcn=int(pcn),
            season_pp=int(pp),
            previous_pcn=int(previous_pcn),
            previous_pp=int(previous_pp),
            previous_step=previous_step or None,
            missed_seasons=int(missed),
        )
        return cls(standing, int(player_id), int(tournaments), int(value))


_ROWS_SQL = f"""
    SELECT s.player_id, p.licence_number, s.committee_id, s.club_id, s.season_pcn, s.season_pp,
           s.tournaments, s.previous_pcn, s.previous_pp, s.previous_step, s.previous_series,
           s.missed_seasons
    FROM {SeasonStanding._meta.db_table} s
    JOIN {Player._meta.db_table} p ON p.id = s.player_id
    WHERE s.season_id = %s
"""


def stored_players(
    season: Season, policy: SeriesPolicy, player_ids: list[int] | None
) -> list[StoredPlayer]:
    """The standings of these players (``None``: every one) as the store holds them:
    the same reading of the rows as ``snapshots.load_inputs``."""
    sql, params = _ROWS_SQL, [season.pk]
    if player_ids is not None:
        sql += f" AND s.player_id IN ({', '.join(['%s'] * len(player_ids))})"
        params += player_ids
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found = []
    index_of = {step.code: index for index, step in enumerate(policy.ladder)}
    for (player_id, licence, committee, club, pcn, pp, tournaments, previous_pcn, previous_pp,
         previous_step, previous_series, missed) in rows:  # fmt: skip
        step = _mapped_step(policy, previous_step, previous_series)
        standing = PlayerStanding(
            player=licence,
            committee=committee,
            club=club,
            season_pcn=pcn,
            season_pp=pp,
            previous_pcn=previous_pcn if step else 0,
            previous_pp=previous_pp if step else 0,
            previous_step=step,
            missed_seasons=missed,
        )
        _cp, _cpp, total_pcn, total_pp = player_totals(standing, policy, index_of)
        value = score(order_key(total_pcn, total_pp, policy))
        found.append(StoredPlayer(standing, player_id, tournaments, value))
    return found


# The same sums from the database: the store's checksum. ``previous_pcn``/``pp`` count
# only with a previous step, as ``stored_players`` reads them.
_SUMS_SQL = f"""
    SELECT COUNT(*), SUM(season_pcn), SUM(season_pp), SUM(tournaments), SUM(committee_id),
           SUM(COALESCE(club_id, 0)),
           SUM(CASE WHEN previous_step <> '' THEN previous_pcn ELSE 0 END),
           SUM(CASE WHEN previous_step <> '' THEN previous_pp ELSE 0 END),
           SUM(missed_seasons),
           SUM(player_id * (season_pcn + 1) + season_pp * 7 + COALESCE(club_id, 0) * 13)
    FROM {SeasonStanding._meta.db_table} WHERE season_id = %s
"""


def database_sums(season_id: int) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(_SUMS_SQL, [season_id])
        row = cursor.fetchone()
    return [int(v or 0) for v in row]


def _total(players: Iterable[StoredPlayer]) -> list[int]:
    total = [0] * 10
    for p in players:
        for index, value in enumerate(p.sums()):
            total[index] += value
    return total


# --- writers (under the season's writer lock, in the standings' transaction) ------------


def rebuild(*, season: Season) -> Meta:
    """Write every standing of the season into a new generation and flip to it."""
    season_writer_lock(season.pk)
    state = season_ranking(season.pk)
    policy_version, policy = series_policy_in_force(season=season)
    players = stored_players(season, policy, None)
    gen = uuid.uuid4().hex[:12]
    base = prefix(season.pk, gen)
    redis_client = client()
    groups: dict[str, dict[str, int]] = defaultdict(dict)
    everyone: dict[str, int] = {}
    lines: dict[str, str] = {}
    index_of = ladder_index(policy)
    for p in players:
        m = member(p.standing.player)
        everyone[m] = p.score
        groups[f"c:{p.standing.committee}"][m] = p.score
        if p.standing.club is not None:
            groups[f"k:{p.standing.club}"][m] = p.score
        groups[f"b:{p.band(policy, index_of)}"][p.lex()] = 0
        lines[m] = p.encode()
    commands: list[list[str]] = []
    _zadd_commands(commands, base + "all", everyone)
    for name, scores in groups.items():
        _zadd_commands(commands, base + name, scores)
    items = list(lines.items())
    for start in range(0, len(items), CHUNK):
        command = ["HSET", base + "p"]
        for field_name, value in items[start : start + CHUNK]:
            command += (field_name, value)
        commands.append(command)
    _send_bulk(redis_client, commands)
    old = redis_client.hget(meta_key(season.pk), "gen")
    now = timezone.now()
    redis_client.hset(
        meta_key(season.pk),
        mapping={
            "gen": gen,
            "version": state.inputs_version,
            "policy": policy_version.pk,
            "updated": now.isoformat(),
            "sums": json.dumps(_total(players)),
            "layout": LAYOUT,
        },
    )
    if old and old != gen:
        _expire_generation(redis_client, prefix(season.pk, old))
    return Meta(season.pk, gen, state.inputs_version, policy_version.pk, now, len(players))


def ladder_index(policy: SeriesPolicy) -> dict[str, int]:
    return {step.code: index for index, step in enumerate(policy.ladder)}


def _zadd_commands(commands: list[list[str]], key: str, scores: dict[str, int]) -> None:
    items = list(scores.items())
    for start in range(0, len(items), CHUNK):
        command = ["ZADD", key]
        for m, value in items[start : start + CHUNK]:
            command += (str(value), m)
        commands.append(command)


def _send_bulk(redis_client: Any, commands: list[list[str]]) -> None:
    """Send many commands packed at once (redis-py's own packing costs ~8 µs an
    argument: seconds for a season's 600,000); raises on the first error reply."""
    connection = redis_client.connection_pool.get_connection()
    try:
        for start in range(0, len(commands), 64):
            batch = commands[start : start + 64]
            parts: list[bytes] = []
            for command in batch:
                parts.append(b"*%d\r\n" % len(command))
                for argument in command:
                    data = argument.encode()
                    parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
            connection.send_packed_command([b"".join(parts)])
            for _command in batch:
                connection.read_response()
    except BaseException:
        connection.disconnect()
        raise
    finally:
        redis_client.connection_pool.release(connection)


def _expire_generation(redis_client: Any, base: str) -> None:
    pipe = redis_client.pipeline(transaction=False)
    for key in redis_client.scan_iter(match=base + "*", count=1000):
        pipe.expire(key, OLD_GENERATION_TTL_S)
    pipe.execute()


def apply(*, season: Season, player_ids: Iterable[int], version_before: int) -> Meta:
    """Move the members of these players (ids of ``Player``) to their current standings.

    ``version_before`` is the season's inputs version read under the writer lock
    before the standings were written: the store must have been exactly there (and
    on the policy in force), else it is rebuilt (something else changed meanwhile).
    """
    season_writer_lock(season.pk)
    ids = sorted(set(player_ids))
    meta = read_meta(season.pk)
    policy_version, policy = series_policy_in_force(season=season)
    if meta is None or meta.version != version_before or meta.policy_id != policy_version.pk:
        return rebuild(season=season)
    state = season_ranking(season.pk)
    current = {p.standing.player: p for p in stored_players(season, policy, ids)} if ids else {}
    licences = dict(Player.objects.filter(pk__in=ids).values_list("pk", "licence_number"))
    members = [member(licences[i]) for i in ids if i in licences]
    redis_client = client()
    old_lines = redis_client.hmget(meta.key("p"), members) if members else []
    now = timezone.now()
    sums = json.loads(redis_client.hget(meta_key(season.pk), "sums") or "[]") or [0] * 10
    pipe = redis_client.pipeline(transaction=True)
    index_of = ladder_index(policy)
    for m, raw in zip(members, old_lines, strict=True):
        licence = int(m)
        old = StoredPlayer.decode(licence, raw) if raw else None
        new = current.get(licence)
        for part, sign in ((old, -1), (new, 1)):
            if part is not None:
                sums = [a + sign * b for a, b in zip(sums, part.sums(), strict=True)]
        if old is not None:
            pipe.zrem(meta.key(f"b:{old.band(policy, index_of)}"), old.lex())
            if new is None or new.standing.committee != old.standing.committee:
                pipe.zrem(meta.key(f"c:{old.standing.committee}"), m)
            if old.standing.club is not None and (
                new is None or new.standing.club != old.standing.club
            ):
                pipe.zrem(meta.key(f"k:{old.standing.club}"), m)
        if new is None:
            pipe.zrem(meta.key("all"), m)
            pipe.hdel(meta.key("p"), m)
            continue
        pipe.zadd(meta.key("all"), {m: new.score})
        pipe.zadd(meta.key(f"b:{new.band(policy, index_of)}"), {new.lex(): 0})
        pipe.zadd(meta.key(f"c:{new.standing.committee}"), {m: new.score})
        if new.standing.club is not None:
            pipe.zadd(meta.key(f"k:{new.standing.club}"), {m: new.score})
        pipe.hset(meta.key("p"), m, new.encode())
    pipe.hset(
        meta_key(season.pk),
        mapping={
            "version": state.inputs_version,
            "updated": now.isoformat(),
            "sums": json.dumps(sums),
        },
    )
    pipe.execute()
    return Meta(season.pk, meta.gen, state.inputs_version, meta.policy_id, now, int(sums[0]))


def sync(*, season: Season) -> Meta:
    """Bring the store up to the database (under the writer lock). On the policy in
    force and at the inputs version: nothing. On the policy in force, behind, with the
    same checksum of the standings as the database (a manual placement, read at read
    time, or a full recompute that changed nothing): only the version moves. Else (a
    new policy, standings it never saw, a store ahead of the database): a rebuild."""
    season_writer_lock(season.pk)
    state = season_ranking(season.pk)
    meta = read_meta(season.pk)
    in_force, _policy = series_policy_in_force(season=season)
    if meta is None or meta.policy_id != in_force.pk or meta.version > state.inputs_version:
        return rebuild(season=season)
    if meta.version == state.inputs_version:
        return meta
    redis_client = client()
    stored = json.loads(redis_client.hget(meta_key(season.pk), "sums") or "null")
    if stored != database_sums(season.pk):
        return rebuild(season=season)
    now = timezone.now()
    redis_client.hset(
        meta_key(season.pk), mapping={"version": state.inputs_version, "updated": now.isoformat()}
    )
    return Meta(season.pk, meta.gen, state.inputs_version, meta.policy_id, now, meta.players)


def damaged(meta: Meta) -> bool:
    """Whether the generation lost members since it was written (an evicting Redis):
    its season's set or its hash no longer holds every standing its checksum counted."""
    pipe = client().pipeline(transaction=False)
    pipe.zcard(meta.key("all"))
    pipe.hlen(meta.key("p"))
    held, lines = pipe.execute()
    return not whole(meta, held, lines)


def whole(meta: Meta, held: int, lines: int) -> bool:
    """Whether a generation whose season's set holds ``held`` members and whose hash
    ``lines`` lines still holds every standing its checksum counted."""
    return meta.players < 0 or held == lines == meta.players


def restore(*, season: Season) -> Meta:
    """Bring a lost, damaged or stale store back to the database (under the writer
    lock, in the caller's transaction): a rebuild when it has no generation, a damaged
    one or one ahead of the database, else :func:`sync`. Then readers may ask again
    (:func:`rebuild_ask`)."""
    season_writer_lock(season.pk)
    meta = read_meta(season.pk)
    meta = rebuild(season=season) if meta is None or damaged(meta) else sync(season=season)
    client().delete(rebuild_asked_key(season.pk))
    return meta


REBUILD_ASKED_TTL_S = 120
"""A rebuild asked of a worker is asked again after this long if the store is still not
back (a worker lost on the way)."""


def rebuild_asked_key(season_id: int) -> str:
    return f"fft:rank:{season_id}:rebuild-asked"


def rebuild_ask(season_id: int, seen: Meta | None) -> bool:
    """Ask a worker to rebuild the season's store (task ``rankings.rebuild_live_store``,
    sent after the caller's commit); once however many readers ask at the same time: the
    first to set the store's marker (``SET NX``, for :data:`REBUILD_ASKED_TTL_S`) sends
    it. ``seen`` is the store's meta the reader found wanting: if a rebuild wrote another
    since (and cleared the marker), the reader's verdict is stale and nothing is sent.
    Whether this call sent it."""
    redis_client = client()
    if not redis_client.set(rebuild_asked_key(season_id), "1", nx=True, ex=REBUILD_ASKED_TTL_S):
        return False
    if read_meta(season_id) != seen:
        redis_client.delete(rebuild_asked_key(season_id))
        return False
    send_on_commit("rankings.rebuild_live_store", season_id)
    return True


def clear(season_id: int) -> None:
    """Forget a season's store (tests, ``verify_live_ranking --rebuild``)."""
    redis_client = client()
    for key in redis_client.scan_iter(match=f"fft:rank:{season_id}:*", count=1000):
        redis_client.unlink(key)
