"""An independent, deliberately naive computation of the national ranking, written
from docs/rankings-series.md and docs/rankings-national.md (not from the code), to
check what the service stores: totals, carry-over, places, steps."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from competitions.models import Allocation
from federation.models import Licence, Season
from rankings.models import ManualPlacement, RankingEntry, SeasonRanking
from rankings.rules.series import SeriesPolicy


def reference_ranking(season: Season, policy: SeriesPolicy) -> dict[int, dict]:
    """licence number → expected line of the season's ranking."""
    seasons = list(Season.objects.order_by("start_date"))
    order = {s.pk: i for i, s in enumerate(seasons)}
    licensed = {
        lic.player.licence_number: lic
        for lic in Licence.objects.filter(season=season).select_related("player", "club")
    }
    season_pcn: dict[int, int] = defaultdict(int)
    season_pp: dict[int, int] = defaultdict(int)
    for a in Allocation.objects.filter(season=season, current=True).select_related("player"):
        season_pcn[a.player.licence_number] += a.pcn
        season_pp[a.player.licence_number] += a.pp
    # last published official entry of an earlier season
    previous: dict[int, tuple[int, RankingEntry]] = {}
    for state in SeasonRanking.objects.exclude(official=None).select_related("season"):
        if state.season.start_date >= season.start_date:
            continue
        for entry in RankingEntry.objects.filter(snapshot_id=state.official_id):
            rank = order[state.season_id]
            if entry.licence_number not in previous or previous[entry.licence_number][0] < rank:
                previous[entry.licence_number] = (rank, entry)
    licences_by_player = defaultdict(set)
    for player, season_id in Licence.objects.values_list("player__licence_number", "season_id"):
        licences_by_player[player].add(season_id)
    ladder = [s.code for s in policy.ladder]
    rows = {}
    for number, lic in licensed.items():
        carried_pcn = carried_pp = 0
        season_index = ladder.index(policy.entry_step)
        if number in previous:
            rank, entry = previous[number]
            missed = sum(
                1 for s in seasons[rank + 1 : order[season.pk]]
                if s.pk not in licences_by_player[number]
            )  # fmt: skip
            series = policy.step(entry.step).series if entry.step in ladder else entry.series
            factor = Fraction(policy.carry_over[series - 1]) ** (1 + missed)
            carried_pcn = int(entry.total_pcn * factor)
            carried_pp = int(entry.total_pp * factor)
            season_index = max(ladder.index(entry.step) - policy.returning_drop_steps * missed, 0)
        rows[number] = {
            "committee": lic.club.committee_id,
            "club": lic.club_id,
            "season_pcn": season_pcn[number],
            "carried_pcn": carried_pcn,
            "total_pcn": season_pcn[number] + carried_pcn,
            "total_pp": season_pp[number] + carried_pp,
            "season_index": season_index,
        }

    def key(row):
        return (row["total_pcn"], row["total_pp"] if policy.pp_breaks_ties else 0)

    ranked = sum(1 for r in rows.values() if r["total_pcn"] > 0)
    placements = dict(
        ManualPlacement.objects.filter(season=season).values_list("player__licence_number", "step")
    )
    for number, row in rows.items():
        row["place"] = 1 + sum(1 for other in rows.values() if key(other) > key(row))
        row["place_in_committee"] = 1 + sum(
            1 for o in rows.values() if o["committee"] == row["committee"] and key(o) > key(row)
        )
        row["place_in_club"] = 1 + sum(
            1 for o in rows.values() if o["club"] == row["club"] and key(o) > key(row)
        )
        points = 0
        for index in range(len(policy.ladder) - 1, 0, -1):
            step = policy.ladder[index]
            if step.top_share is not None:
                ok = row["total_pcn"] >= 1 and row["place"] <= int(
                    Fraction(step.top_share) * ranked
                )
            else:
                ok = row["total_pcn"] >= step.min_pcn
            if ok and row["total_pp"] >= (step.min_pp or 0):
                points = index
                break
        final = points
        limit = policy.max_demotion_steps
        if limit is not None and row["season_index"] - limit > points:
            final = row["season_index"] - limit
        step = placements.get(number, ladder[final])
        row["step"] = step
        row["series"] = policy.step(step).series
    return rows


def stored_ranking(snapshot) -> dict[int, dict]:
    return {
        e.licence_number: {
            "committee": e.committee_id,
            "club": e.club_id,
            "season_pcn": e.season_pcn,
            "carried_pcn": e.carried_pcn,
            "total_pcn": e.total_pcn,
            "total_pp": e.total_pp,
            "place": e.place,
            "place_in_committee": e.place_in_committee,
            "place_in_club": e.place_in_club,
            "step": e.step,
            "series": e.series,
        }
        for e in RankingEntry.objects.filter(snapshot=snapshot)
    }


def comparable(rows: dict[int, dict]) -> dict[int, dict]:
    return {n: {k: v for k, v in r.items() if k != "season_index"} for n, r in rows.items()}
