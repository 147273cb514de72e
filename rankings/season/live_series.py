"""A series of the whole country read from the live store, in O(log n) a page.

The store keeps every player in one *band* set (``live_store``, ``b:<band>``) whose
members sort as the ranking does (``live_order.lex_member``). Within a band the players
of a series are one range of scores (``rankings/rules/live_series.py``, from the
ranking's step criteria and the scores at their cut-off places), so the series is the
union of one range per band, less the players the CCN placed elsewhere and plus those
it placed in the series (read from the database: a few):

- its count: one ``ZLEXCOUNT`` per band;
- a page from ``start``: the ``start``-th player of the union is found by probing the
  season's set (``all``) at a few ranks at a time and counting, for each probe, the
  union's players up to it (one ``ZRANGE`` and one ``ZLEXCOUNT`` per band, pipelined);
  then each band's range is read from there (``ZRANGE … BYLEX LIMIT``) and merged.

Nothing is computed for players off the page and nothing is kept between requests;
the lines of the page are the store's usual ones (``live_reads.lines``).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from rankings.models import ManualPlacement
from rankings.rules.live_order import lex_high, lex_licence, lex_low, lex_member, member
from rankings.rules.live_series import ScoreRange, cut_places, series_ranges
from rankings.rules.national_ranking import step_criteria
from rankings.rules.series import ManualPlacement as Placement
from rankings.season import live_store
from rankings.season.live_store import StoredPlayer, ladder_index

if TYPE_CHECKING:
    from rankings.season.live_reads import LiveRanking


PROBES = 16
"""Ranks of the season's set probed at a time when looking for a page's first player."""


_PLACEMENTS: dict[tuple[int, int, str], dict[int, Placement]] = {}
_PLACEMENTS_KEPT = 16


def season_placements(ranking: LiveRanking) -> dict[int, Placement]:
    """The season's manual placements by licence number, read once per inputs version
    and store generation in a process (a placement set or removed raises the season's
    inputs version in its transaction; a database restored to older versions finds the
    store ahead and gets a new generation; a season holds a few hundred at most)."""
    season_id = ranking.season.pk
    key = (season_id, ranking.inputs_version, ranking.meta.gen)
    found = _PLACEMENTS.get(key)
    if found is None:
        found = {
            number: Placement(number, step, reason)
            for number, step, reason in ManualPlacement.objects.filter(
                season_id=season_id
            ).values_list("player__licence_number", "step", "reason")
        }
        if len(_PLACEMENTS) >= _PLACEMENTS_KEPT:
            _PLACEMENTS.clear()
        _PLACEMENTS[key] = found
    return found


class SeriesMembers:
    """The players of one series over the whole country, in ranking order."""

    def __init__(self, ranking: LiveRanking, series: int) -> None:
        self.ranking, self.series = ranking, series
        policy = ranking.rules()
        criteria = step_criteria(policy, ranking.ranked_count, ranking.player_count)
        redis_client = live_store.client()
        places = cut_places(criteria, ranking.player_count)
        pipe = redis_client.pipeline(transaction=False)
        for place in places:
            pipe.zrange(ranking.meta.key("all"), place - 1, place - 1, withscores=True)
        cut_scores = {
            place: int(found[0][1]) for place, found in zip(places, pipe.execute(), strict=True)
        }
        ranges = series_ranges(criteria, ranking.player_count, cut_scores, series)
        self.bands: list[tuple[str, str, str]] = [
            (ranking.meta.key(f"b:{band}"), lex_low(r.low), lex_high(r.high))
            for band, r in ranges.items()
        ]
        self.excluded, self.included = self._placed(ranges, ladder_index(policy))

    def _placed(self, ranges: dict[str, ScoreRange], index_of: dict[str, int]
                ) -> tuple[set[str], list[str]]:  # fmt: skip
        """The placed players the bands count in the series but who are not in it, and
        those in it whom the bands do not count (their ``lex_member``)."""
        ranking = self.ranking
        placed = {
            number: placement.step for number, placement in season_placements(ranking).items()
        }
        if not placed:
            return set(), []
        numbers = list(placed)
        raw = live_store.client().hmget(ranking.meta.key("p"), [member(n) for n in numbers])
        policy = ranking.rules()
        excluded, included = set(), []
        for number, line in zip(numbers, raw, strict=True):
            if not line or placed[number] not in index_of:
                continue
            stored = StoredPlayer.decode(number, line)
            band = stored.band(policy, index_of)
            counted = band in ranges and ranges[band].holds(stored.score)
            placed_in = policy.ladder[index_of[placed[number]]].series == self.series
            if counted and not placed_in:
                excluded.add(stored.lex())
            elif placed_in and not counted:
                included.append(stored.lex())
        return excluded, sorted(included)

    def count(self) -> int:
        pipe = live_store.client().pipeline(transaction=False)
        for key, low, high in self.bands:
            pipe.zlexcount(key, low, high)
        return sum(pipe.execute()) - len(self.excluded) + len(self.included)

    def _counts_up_to(self, lexes: list[str]) -> list[int]:
        """For each of these members, the players of the series up to it, included."""
        pipe = live_store.client().pipeline(transaction=False)
        for lex in lexes:
            for key, low, high in self.bands:
                pipe.zlexcount(key, low, min(high, f"[{lex}", key=_bound_order))
        counts = pipe.execute()
        width = len(self.bands)
        return [
            sum(counts[i * width : (i + 1) * width])
            - sum(1 for e in self.excluded if e <= lex)
            + sum(1 for e in self.included if e <= lex)
            for i, lex in enumerate(lexes)
        ]

    def _first_at(self, start: int) -> str | None:
        """The member of the series' ``start``-th player (0: the first), None past the end."""
        if start == 0:
            return "-"
        key, redis_client = self.ranking.meta.key("all"), live_store.client()
        low, high = 0, int(redis_client.zcard(key)) - 1
        while low < high:
            ranks = sorted({low + (high - low) * k // PROBES for k in range(1, PROBES + 1)})
            pipe = redis_client.pipeline(transaction=False)
            for rank in ranks:
                pipe.zrange(key, rank, rank, withscores=True)
            lexes = [lex_member(int(s), int(m)) for [(m, s)] in pipe.execute()]
            counts = self._counts_up_to(lexes)
            below = low
            for rank, count in zip(ranks, counts, strict=True):
                if count >= start + 1:
                    low, high = below, rank
                    break
                below = rank + 1
            else:
                return None
        [(m, s)] = redis_client.zrange(key, low, low, withscores=True)
        lex = lex_member(int(s), int(m))
        return f"[{lex}" if self._counts_up_to([lex])[0] >= start + 1 else None

    def page(self, start: int, size: int) -> list[int]:
        """Licence numbers of the series' players ``start`` to ``start + size``."""
        first = self._first_at(start)
        if first is None or size <= 0:
            return []
        pipe = live_store.client().pipeline(transaction=False)
        extra = len(self.excluded)
        for key, low, high in self.bands:
            pipe.zrange(key, max(low, first, key=_bound_order), high, bylex=True,
                        offset=0, num=size + extra)  # fmt: skip
        streams = [[m for m in found if m not in self.excluded] for found in pipe.execute()]
        placed = [m for m in self.included if first == "-" or m >= first[1:]]
        merged = heapq.merge(*streams, placed)
        return [lex_licence(m) for _i, m in zip(range(size), merged, strict=False)]


def _bound_order(bound: str) -> tuple[int, str]:
    """Orders the bytes-order bounds ``-``, ``[x``, ``(x`` and ``+`` as the members they
    admit: a bound's text after its bracket, ``-`` first and ``+`` last."""
    if bound == "-":
        return (0, "")
    if bound == "+":
        return (2, "")
    return (1, bound[1:])
