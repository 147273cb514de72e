"""The home page (/): the site's entrance for everyone.

It sits in config/, beside the URLs, because it belongs to no single app: it composes
the national ranking (rankings' selectors) with the latest homologated tournaments
(competitions' selectors) and the way in for clubs and staff (the account pages). It
costs a fixed number of queries (tests/test_home.py)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from competitions.tournaments.selectors import latest_homologated
from rankings.reads import selectors as rankings

TOP_OF_RANKING = 10
LATEST_TOURNAMENTS = 10


def _top_of_live_ranking() -> dict:
    season = rankings.season_named(None)
    ranking = rankings.ranking_for_season(season, rankings.LIVE) if season else None
    if ranking is None:
        return {"season": season, "snapshot": None, "rows": []}
    entries = ranking.entries(rankings.RankingFilter()).page(0, TOP_OF_RANKING)
    labels = ranking.step_labels()
    return {
        "season": season,
        "snapshot": ranking,
        "rows": [{"entry": e, "label": labels.get(e.step, (e.step,))[0]} for e in entries],
    }


@require_GET
def home(request):
    context = {
        "ranking": _top_of_live_ranking(),
        "tournaments": latest_homologated(LATEST_TOURNAMENTS),
    }
    return render(request, "home.html", context)
