"""The site's pages that compose several apps.

- ``/``: the home page, the site's entrance for everyone. It composes the national
  ranking (rankings' selectors) with the latest homologated tournaments (competitions'
  selectors) and the way in for clubs and staff (the account pages). It costs a fixed
  number of queries (tests/portal/test_home.py).
- ``/compte/mes-donnees/``: everything held about the signed-in player, readable
  (portal/personal_data.py); ``?format=json`` downloads the document.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from competitions.tournaments.selectors import latest_homologated
from core.errors import NotFound
from portal.personal_data import own_player, personal_data
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


@require_safe
def home(request):
    context = {
        "ranking": _top_of_live_ranking(),
        "tournaments": latest_homologated(LATEST_TOURNAMENTS),
    }
    return render(request, "portal/home.html", context)


@require_safe
def help_page(request):
    """/aide/: the public's help (PCN, PP, series, homologation, reading the ranking)."""
    return render(request, "portal/help.html")


@require_safe
@login_required
def my_data_page(request):
    """/compte/mes-donnees/: the readable page; ``?format=json`` downloads the document."""
    try:
        player = own_player(request.user)
    except NotFound as refusal:
        raise Http404(refusal.message) from refusal
    data = personal_data(player=player, by=request.user)
    if request.GET.get("format") == "json":
        response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = (
            f'attachment; filename="mes-donnees-{player.licence_number}.json"'
        )
        return response
    context = {"data": data, "player": player, "sections": _sections(data)}
    return render(request, "portal/my_data.html", context)


SECTIONS = {
    "identity": gettext_lazy("Identity"),
    "privacy": gettext_lazy("Privacy"),
    "accounts": gettext_lazy("Accounts and roles"),
    "api_tokens": gettext_lazy("API tokens (their first characters only)"),
    "licences": gettext_lazy("Licences"),
    "arbiter_accreditations": gettext_lazy("Arbiter grades"),
    "sanctions": gettext_lazy("Sanctions"),
    "tournament_results": gettext_lazy("Tournament results"),
    "allocations": gettext_lazy("PCN and PP by tournament"),
    "season_totals": gettext_lazy("Season totals"),
    "ranking_lines": gettext_lazy("Ranking lines"),
    "manual_placements": gettext_lazy("Manual placements"),
    "championship_entries": gettext_lazy("Championship entries"),
    "qualifications": gettext_lazy("Qualifications"),
    "titles": gettext_lazy("Titles"),
}
"""The readable page's sections, in the document's order (its keys: the JSON's)."""


FIELDS = {
    "licence_number": gettext_lazy("Licence number"),
    "last_name": gettext_lazy("Last name"),
    "first_name": gettext_lazy("First name"),
    "birth_date": gettext_lazy("Birth date"),
    "email": gettext_lazy("E-mail"),
    "phone": gettext_lazy("Phone"),
    "name_hidden": gettext_lazy("Name hidden from the public"),
    "recorded_at": gettext_lazy("Recorded on"),
    "recorded_by": gettext_lazy("Recorded by"),
    "username": gettext_lazy("Username"),
    "joined": gettext_lazy("Account created on"),
    "last_login": gettext_lazy("Last sign-in"),
    "roles": gettext_lazy("Roles"),
    "token_key": gettext_lazy("Token (first characters)"),
    "created": gettext_lazy("Created on"),
    "expiry": gettext_lazy("Expires on"),
    "season": gettext_lazy("Season"),
    "club": gettext_lazy("Club"),
    "club_name": gettext_lazy("Club name"),
    "committee": gettext_lazy("Committee"),
    "issued_on": gettext_lazy("Issued on"),
    "grade": gettext_lazy("Grade"),
    "kind": gettext_lazy("Kind"),
    "starts": gettext_lazy("Starts"),
    "ends": gettext_lazy("Ends"),
    "reason": gettext_lazy("Reason"),
    "tournament": gettext_lazy("Tournament"),
    "name": gettext_lazy("Name"),
    "date": gettext_lazy("Date"),
    "name_as_submitted": gettext_lazy("Name as submitted"),
    "entry": gettext_lazy("Entry"),
    "place": gettext_lazy("Place"),
    "total": gettext_lazy("Total"),
    "abandoned": gettext_lazy("Withdrew"),
    "pcn": "PCN",
    "pp": "PP",
    "current": gettext_lazy("Current"),
    "tournaments": gettext_lazy("Tournaments"),
    "snapshot": gettext_lazy("Ranking"),
    "computed_at": gettext_lazy("Computed on"),
    "total_pcn": gettext_lazy("Total PCN"),
    "total_pp": gettext_lazy("Total PP"),
    "step": gettext_lazy("Series"),
    "series": gettext_lazy("Series number"),
    "championship": gettext_lazy("Championship"),
    "stage": gettext_lazy("Stage"),
    "status": gettext_lazy("Status"),
    "active": gettext_lazy("Active"),
    "target": gettext_lazy("Qualified for"),
    "right": gettext_lazy("Right"),
    "title": gettext_lazy("Title"),
}
"""The readable page's words for the document's fields (the JSON keeps its keys)."""


def _cell(value: Any) -> Any:
    if isinstance(value, list):  # an account's roles
        return "; ".join(f"{v['role']} ({v['scope']})" if v["scope"] else v["role"] for v in value)
    return value


def _sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    sections = []
    for key, title in SECTIONS.items():
        value = data[key]
        section: dict[str, Any] = {"key": key, "title": title, "fields": None, "rows": None}
        if isinstance(value, dict):
            section["fields"] = {FIELDS.get(k, k): _cell(v) for k, v in value.items()}
        elif value:
            section["columns"] = [FIELDS.get(k, k) for k in value[0]]
            section["rows"] = [[_cell(v) for v in row.values()] for row in value]
        sections.append(section)
    return sections
