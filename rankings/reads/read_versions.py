"""The version of what a public ranking read shows: the identity the read cache keys on.

One query reads every season with its ranking state (a row per season: a few dozen),
and :func:`ranking_version` says which snapshot a reader of ``(season, kind)`` sees and
the version of its content:

- an **official** snapshot is immutable: its id is its version;
- the **live** ranking's token is ``engines.live_version`` from the state read here
  (with the Redis store, one round trip to it): with the store
  (``rankings/season/live_store.py``), the inputs version and the store's version and
  generation; without, the provisional snapshot and the season's inputs and live
  versions. A homologation, a correction, a licence move or a manual
  placement raises the inputs version in its transaction, and the store's update or
  the refresh follows, so the key changes when what readers see changes.

The read cache (``core/http/http_cache.py``) puts the version in its keys and never deletes
anything: a new version is a new key, old keys expire. ``registry`` is the version of
every season's state at once (a player's page shows the official rankings of every
season and the previous season's series) and of the players' privacy choices
(``privacy``: the latest change of ``Player.name_hidden``, read in the same query): a
player who objects to appearing by name is a new version of every read naming players.

Each process reuses the seasons' state it read, and the versions it derived from it
(the live store's round trip included), for ``READ_VERSION_MAX_AGE_MS`` milliseconds
(default 200; 0: read them on every request): a cached read then costs no database or
Redis round trip at all. Once the memo is older, the reader still gets it, and the
process's refresher thread (:class:`_Refresher`) reads the state again and derives again
every version asked since the last read, off the request (stale while revalidate): no
reader waits for that query and round trip, which were the tail of the cached reads
(``benchmarks/ranking_load.py``). A memo older than ``READ_VERSION_STALE_MS`` (default
500: a process that was idle, or a refresher that fell behind) is read again in the
request, as is every read when that setting is not above ``READ_VERSION_MAX_AGE_MS``. So
a reader sees a new version at most ``READ_VERSION_STALE_MS`` after it is committed, and
under steady traffic about ``READ_VERSION_MAX_AGE_MS`` after.

Callers only read :class:`ReadVersion`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import os
import threading
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db import close_old_connections, connections
from django.db.models import Subquery
from django.http import HttpRequest
from django.utils import timezone
from django.utils.dateparse import parse_date

from core.db_router import public_reads, reads_own_writes
from core.digits import ascii_digits
from federation.models import Player, Season
from rankings.season import engines
from rankings.season.ranking import LIVE, OFFICIAL

MEMO_VERSIONS = 256
"""At most this many ``(season, kind)`` versions are kept in a process's memo."""


@dataclass(frozen=True)
class SeasonState:
    season_id: int
    name: str
    start_date: dt.date
    end_date: dt.date
    live_id: int | None
    live_version: int
    inputs_version: int
    official_id: int | None
    live_at: dt.datetime | None
    official_at: dt.datetime | None
    has_ranking: bool = True  # the season has its ranking row (SeasonRanking)
    privacy: str = "p0"  # the version of the players' privacy choices (federation/privacy.py)


@dataclass(frozen=True)
class ReadVersion:
    season_id: int
    season_name: str
    kind: str | None  # the kind of the snapshot shown (live / official), None: no snapshot
    snapshot_id: int | None
    token: str  # the identity of the ranking shown
    registry: str  # the identity of every season's ranking state and privacy choices
    modified: dt.datetime | None  # when the snapshot shown was computed
    privacy: str = "p0"  # the players' privacy choices: who is named (federation/privacy.py)


Asked = tuple[int | str | None, str | None]
"""A question to :func:`ranking_version`: the season (its id, its name, None: the current
one) and the kind asked."""


@dataclass(frozen=True)
class _Memo:
    """What this process read at ``read_at``: the seasons' states, the versions derived
    from them (with the live store's round trip) by question, and the questions asked of
    this memo (the refresher derives those again for the next one)."""

    read_at: float
    states: list[SeasonState]
    versions: dict[Asked, ReadVersion | None]
    asked: set[Asked] = field(default_factory=set)


_memo: _Memo | None = None
_memo_lock = threading.Lock()
log = logging.getLogger(__name__)


def _max_age() -> float:
    return int(getattr(settings, "READ_VERSION_MAX_AGE_MS", 200)) / 1000


def _stale_limit() -> float:
    return int(getattr(settings, "READ_VERSION_STALE_MS", 500)) / 1000


def season_states() -> list[SeasonState]:
    """Every season with its ranking pointers, latest first: one query, or none when this
    process read them less than ``READ_VERSION_MAX_AGE_MS`` ago (or its refresher is
    reading them again, :func:`_states_memo`)."""
    return _states_memo().states


def _states_memo() -> _Memo:
    """The memo: fresh, else still served while the refresher reads it again (younger
    than ``READ_VERSION_STALE_MS``), else read now in the request. A reader who has just
    written (``core.db_router.own_writes``) reads the primary now, and the memo is left as
    it was: a version from the primary handed to a replica reader would store the
    replica's older rows under it."""
    if reads_own_writes():  # a recent writer: read now from the primary, kept for no one
        return _Memo(time.monotonic(), _read_states(), {})
    memo = _memo
    max_age = _max_age()
    if max_age > 0 and memo is not None:
        age = time.monotonic() - memo.read_at
        if age < max_age:
            return memo
        if age < _stale_limit():
            refresher.wake()
            return memo
    return _read_memo(carried=set())


def _read_memo(carried: set[Asked]) -> _Memo:
    """Read the seasons' state now, derive the versions of the ``carried`` questions, and
    keep the new memo (unless the memo is off)."""
    global _memo
    now = time.monotonic()
    with public_reads():  # from the database the answers are built from (core/db_router.py)
        states = _read_states()
        versions = {asked: _version(states, *asked) for asked in carried}
    memo = _Memo(now, states, versions)
    with _memo_lock:
        _memo = memo if _max_age() > 0 else None  # off: nothing kept for later
    return memo


class _Refresher:
    """A daemon thread per process that reads the memo again when a reader found it stale
    (:func:`_states_memo`), so that no reader waits for it. It sleeps until woken; one
    read at a time; it keeps its own database connection (as a request would:
    ``CONN_MAX_AGE``, broken connections replaced). A failed read is logged and the memo
    kept: past ``READ_VERSION_STALE_MS`` the readers read it themselves (and meet the
    error, as without the refresher). Started by the first reader that needs it, in the
    process that reads (a forked web worker starts its own)."""

    def __init__(self) -> None:
        self._wanted = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._stopping = False

    def wake(self) -> None:
        if not self._wanted.is_set():
            self._wanted.set()
        thread = self._thread
        if thread is None or self._pid != os.getpid() or not thread.is_alive():
            self._start()

    def _start(self) -> None:
        with self._lock:
            thread = self._thread
            if thread is not None and self._pid == os.getpid() and thread.is_alive():
                return
            self._stopping = False
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name="read-versions", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            while True:
                self._wanted.wait()
                self._wanted.clear()
                if self._stopping:
                    return
                memo = _memo
                if memo is not None and time.monotonic() - memo.read_at < _max_age():
                    continue  # a reader past the stale limit read it meanwhile
                close_old_connections()
                try:
                    _read_memo(carried=set(memo.asked) if memo is not None else set())
                except Exception:
                    log.exception("reading the ranking versions again failed")
        finally:
            connections.close_all()  # this thread's connections

    def stop(self) -> None:
        """End the thread and close its connection (tests: before their database goes)."""
        thread = self._thread
        if thread is None or not thread.is_alive():
            return
        self._stopping = True
        self._wanted.set()
        thread.join(timeout=10)


refresher = _Refresher()


def memo_forget() -> None:
    """Forget what this process read (tests and benchmarks: the next read asks again)."""
    global _memo
    with _memo_lock:
        _memo = None


def _read_states() -> list[SeasonState]:
    # The latest privacy choice, in the same query (an index on name_hidden_changed_at):
    # a player hidden or shown again is a new version of every public read naming players.
    latest_choice = Subquery(
        Player.objects.filter(name_hidden_changed_at__isnull=False)
        .order_by("-name_hidden_changed_at")
        .values("name_hidden_changed_at")[:1]
    )
    rows = Season.objects.annotate(privacy=latest_choice).order_by("-start_date").values_list(
        "pk", "name", "start_date", "end_date", "ranking__live_id", "ranking__live_version",
        "ranking__inputs_version", "ranking__official_id", "ranking__live__computed_at",
        "ranking__official__computed_at", "ranking__pk", "privacy",
    )  # fmt: skip
    return [_state(*row) for row in rows]


def _state(pk, name, start, end, live, live_v, inputs_v, official, l_at, o_at, ranking, privacy):
    return SeasonState(
        pk, name, start, end, live, live_v or 0, inputs_v or 0, official, l_at, o_at,
        ranking is not None, _privacy_token(privacy),
    )  # fmt: skip


def _privacy_token(latest: dt.datetime | None) -> str:
    return f"p{int(latest.timestamp() * 1_000_000)}" if latest else "p0"


def privacy_version() -> str:
    """The version of the players' privacy choices (``federation/privacy.py``), from the
    seasons' state already read: for public reads keyed otherwise (a snapshot by id)."""
    states = season_states()
    return states[0].privacy if states else "p0"


def _current(states: list[SeasonState]) -> SeasonState | None:
    """As ``federation.selectors.current_season``: the season containing today, else the
    latest declared one."""
    today = timezone.localdate()
    for state in states:
        if state.start_date <= today <= state.end_date:
            return state
    return states[0] if states else None


def ranking_version(season: Season | str | None, kind: str | None) -> ReadVersion | None:
    """The version of the ranking a reader of ``season`` (a season, its name, or None
    for the current one) and ``kind`` (``live``, ``official``, None: official if
    published, else live) sees; None for an unknown season. One query (and, with the
    live store, one Redis round trip for a live ranking), or none at all when this
    process answered the same question less than ``READ_VERSION_MAX_AGE_MS`` ago (or its
    refresher derived it again)."""
    memo = _states_memo()
    asked: Asked = (season.pk if isinstance(season, Season) else season or None, kind)
    if len(memo.asked) < MEMO_VERSIONS:  # a client's made-up season names stay bounded
        memo.asked.add(asked)  # a set: adds are atomic under the GIL
    if asked in memo.versions:  # a dict: reads and writes are atomic under the GIL
        return memo.versions[asked]
    version = _version(memo.states, *asked)
    if len(memo.versions) < MEMO_VERSIONS:
        memo.versions[asked] = version
    return version


def _version(states: list[SeasonState], season: int | str | None, kind: str | None
             ) -> ReadVersion | None:  # fmt: skip
    """The version seen by a reader of ``season`` (its id, its name, None: the current
    one) and ``kind``, from the seasons' states."""
    if isinstance(season, int):
        state = next((s for s in states if s.season_id == season), None)
    elif season:
        state = next((s for s in states if s.name == season), None)
    else:
        state = _current(states)
    if state is None:
        return None
    every = [(s.season_id, s.live_id, s.live_version, s.inputs_version, s.official_id)
             for s in states] + [state.privacy]  # fmt: skip
    registry = hashlib.sha1(repr(every).encode()).hexdigest()[:16]
    shown_kind: str | None
    if kind == LIVE or (kind != OFFICIAL and state.official_id is None):
        snapshot_id = state.live_id
        live = engines.live_version(
            season_id=state.season_id, inputs_version=state.inputs_version,
            live_version=state.live_version, live_id=state.live_id,
            official_id=state.official_id, live_at=state.live_at,
            has_ranking=state.has_ranking,
        )  # fmt: skip
        modified, shown_kind = live.modified, LIVE if live.shown else None
        token = f"l{snapshot_id}.{live.token}"
    else:
        snapshot_id, modified = state.official_id, state.official_at
        shown_kind = OFFICIAL if snapshot_id else None
        token = f"o{snapshot_id}"
    return ReadVersion(
        state.season_id, state.name, shown_kind, snapshot_id, token, registry, modified,
        state.privacy,
    )  # fmt: skip


def snapshot_version(snapshot_id: int) -> str:
    """The version of a snapshot read by its id: an official one is immutable; a
    provisional one is versioned as the live ranking of its season (one query)."""
    from rankings.models import RankingSnapshot

    with public_reads():
        row = (
            RankingSnapshot.objects.filter(pk=snapshot_id)
            .values_list("kind", "season__ranking__live_version", "season__ranking__inputs_version")
            .first()
        )
    if row is None:
        return f"s{snapshot_id}.missing"
    kind, live_version, inputs_version = row
    if kind == "official":
        return f"o{snapshot_id}"
    return f"l{snapshot_id}.{live_version or 0}.{inputs_version or 0}"


def as_of_version(season: str | None, day: dt.date) -> ReadVersion | None:
    """The version of the ranking of ``season`` (its name, None: the current one) as of
    ``day`` (``rankings/season/as_of.py``): the fingerprint of that day's inputs
    (``as_of.as_of_key``, remembered per inputs version); None for an unknown season."""
    return _as_of_version(season_states(), season, day)


def _as_of_version(states: list[SeasonState], season: str | None, day: dt.date
                   ) -> ReadVersion | None:  # fmt: skip
    state = next((s for s in states if s.name == season), None) if season else _current(states)
    if state is None:
        return None
    every = [(s.season_id, s.live_id, s.live_version, s.inputs_version, s.official_id)
             for s in states] + [state.privacy]  # fmt: skip
    registry = hashlib.sha1(repr(every).encode()).hexdigest()[:16]
    from rankings.season.as_of import as_of_key

    season_row = Season(pk=state.season_id, name=state.name, start_date=state.start_date,
                        end_date=state.end_date)  # fmt: skip
    token = f"a{state.season_id}.{day.isoformat()}.{as_of_key(season_row, day)}"
    return ReadVersion(
        state.season_id, state.name, "as_of", None, token, registry, None, state.privacy
    )


# --- the versions of the public reads, from their raw parameters -----------------------
# ``core.http.http_cache.public_read`` keys each public read on these (``rankings/urls.py``,
# ``rankings/pages.py``): the views only build their answers. Each is read from the raw
# query (a stored answer was a valid one when it was built: only 200s are stored); None:
# no version (an unknown season, a day refused), the view answers and nothing is stored.

RANKING_API = "ranking-api"
PLAYER_API = "player-api"
"""The read cache's namespaces of the API's ranking and player's record."""

PAGE_KINDS = {"provisoire": LIVE, "officiel": OFFICIAL}
"""The pages' ``classement`` parameter: the kind of ranking shown (a French URL)."""


def ranking_api_version(request: HttpRequest) -> tuple[str, dt.datetime | None] | None:
    """``GET /api/pcn/ranking/``: a past snapshot's version (``snapshot``), the ranking
    of a day's (``as_of``, who is named too), else the version of the ranking of
    ``season`` and ``kind``."""
    params = request.GET
    if "as_of" in params:
        if "kind" in params or "snapshot" in params:  # refused by the view
            return None
        day = parse_date_or_none(params.get("as_of", ""))
        as_of = as_of_read_version(params.get("season"), day) if day else None
        return (f"{as_of.token}.{as_of.privacy}", None) if as_of else None
    snapshot = params.get("snapshot", "")
    if snapshot:  # who is named too (federation/privacy.py)
        token = snapshot_version(int(snapshot)) if ascii_digits(snapshot) else "-"
        return f"{token}.{privacy_version()}", None
    kind = params.get("kind")
    version = ranking_version(params.get("season"), kind if kind in (LIVE, OFFICIAL) else None)
    return (f"{version.token}.{version.privacy}", version.modified) if version else None


def player_api_version(
    request: HttpRequest, licence_number: int
) -> tuple[str, dt.datetime | None] | None:
    """``GET /api/pcn/ranking/players/<licence>/``: :func:`registry_version`."""
    return registry_version(request.GET.get("season"), request.GET.get("kind"))


def page_version(request: HttpRequest, *args: object, **kwargs: object
                 ) -> tuple[str, dt.datetime | None] | None:  # fmt: skip
    """A public ranking page (``/classement/``, a committee's, a club's, a player's): the
    ranking shown and every season's state (:func:`registry_version`: the pages' menu of
    seasons; a player's page shows every season's official ranking); with ``au``, the
    ranking of that day and every season's state."""
    season = request.GET.get("saison")
    raw = (request.GET.get("au") or "").strip()
    if raw:
        day = _iso_day(raw)
        as_of = as_of_read_version(season, day) if day else None
        return (f"{as_of.token}.{as_of.registry}", None) if as_of else None
    return registry_version(season, PAGE_KINDS.get(request.GET.get("classement", "")))


def registry_version(season: str | None, kind: str | None) -> tuple[str, dt.datetime | None] | None:
    """The ranking shown and every season's state: a player's record, API and page (it
    shows the official rankings of every season), and the ranking pages (their menu of
    seasons)."""
    version = ranking_version(season, kind if kind in (LIVE, OFFICIAL) else None)
    return (f"{version.token}.{version.registry}", version.modified) if version else None


def as_of_read_version(season: str | None, day: dt.date) -> ReadVersion | None:
    """:func:`as_of_version` of a day a reader may ask: within the season, and past
    (before today in Paris); None otherwise (the view says why)."""
    from rankings.season.as_of import PARIS

    states = season_states()
    state = next((s for s in states if s.name == season), None) if season else _current(states)
    if state is None or not state.start_date <= day <= state.end_date:
        return None
    if day >= timezone.localdate(timezone=PARIS):
        return None
    return _as_of_version(states, state.name, day)


def _iso_day(raw: str) -> dt.date | None:
    """A page's ``au``: ``YYYY-MM-DD`` only."""
    try:
        return dt.date.fromisoformat(raw) if len(raw) == 10 else None
    except ValueError:
        return None


def parse_date_or_none(raw: str) -> dt.date | None:
    """The API's ``as_of`` as its serializer reads it (ISO 8601)."""
    try:
        return parse_date(raw) if raw else None
    except ValueError:
        return None
