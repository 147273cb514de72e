"""The home page (/): the site's entrance for everyone.

It sits in config/, beside the URLs, because it belongs to no single app: it composes
the national ranking (rankings' selectors) with the latest homologated tournaments
(competitions' selectors) and the way in for clubs and staff (the account pages). It
costs a fixed number of queries (tests/test_home.py)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from competitions.tournaments.selectors import latest_homologated
from rankings import selectors as rankings

TOP_OF_RANKING = 10
LATEST_TOURNAMENTS = 10


def _top_of_live_ranking() -> dict:
    season = rankings.season_named(None)
    snapshot = rankings.ranking_snapshot(season, rankings.LIVE) if season else None
    if snapshot is None:
        return {"season": season, "snapshot": None, "rows": []}
    everyone = rankings.RankingFilter()
    entries = rankings.entries_page(
        rankings.ranking_entries(snapshot, everyone), everyone, 0, TOP_OF_RANKING
    )
    labels = rankings.step_labels(snapshot)
    return {
        "season": season,
        "snapshot": snapshot,
        "rows": [{"entry": e, "label": labels.get(e.step, (e.step,))[0]} for e in entries],
    }


@require_GET
def home(request):
    context = {
        "ranking": _top_of_live_ranking(),
        "tournaments": latest_homologated(LATEST_TOURNAMENTS),
    }
    return render(request, "home.html", context)
