"""The site's pages that compose several apps.

- ``/``: the home page, the site's entrance for everyone. It composes the national
  ranking (rankings' selectors) with the latest homologated tournaments (competitions'
  selectors) and the way in for clubs and staff (the account pages). It costs a fixed
  number of queries (tests/portal/test_home.py).
- ``/compte/mes-donnees/``: everything held about the signed-in player, readable
  (portal/personal_data.py: dates, moments, yes/no and codes in words); ``?format=json``
  downloads the document, ``?format=csv`` the page as a table.
- ``/aide/``: the public's help (PCN, PP, series, homologation, reading the ranking).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Model
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from competitions.models import Championship, ChampionshipEntry, Qualification
from competitions.tournaments.selectors import latest_homologated
from core.errors import NotFound
from core.export_formats import export_response
from core.templatetags.french import human
from federation.models import ArbiterAccreditation, Role, Sanction
from portal.personal_data import own_player, personal_data, personal_data_values
from rankings.models import RankingSnapshot
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
    wanted = request.GET.get("format")
    if wanted == "json":
        data = personal_data(player=player, by=request.user)
        response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
        response["Content-Disposition"] = (
            f'attachment; filename="mes-donnees-{player.licence_number}.json"'
        )
        return response
    values = personal_data_values(player=player, by=request.user)
    sections = _sections(values)
    if wanted == "csv":
        return export_response(
            PersonalDataTable(sections, player.licence_number), "csv", sheet_title=""
        )
    context = {"data": values, "player": player, "sections": sections}
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


RECORDED_BY = {"self": gettext_lazy("yourself"), "staff": gettext_lazy("federation staff")}


def _choices(model: type[Model], name: str) -> dict[str, Any]:
    return dict(model._meta.get_field(name).flatchoices)  # type: ignore[union-attr]


def _words() -> dict[tuple[str, str], dict[str, Any]]:
    """The document's codes a person reads in words: (section, field) → code → label."""
    return {
        ("privacy", "recorded_by"): RECORDED_BY,
        ("arbiter_accreditations", "grade"): _choices(ArbiterAccreditation, "grade"),
        ("sanctions", "kind"): _choices(Sanction, "kind"),
        ("ranking_lines", "kind"): _choices(RankingSnapshot, "kind"),
        ("championship_entries", "championship"): _choices(Championship, "kind"),
        ("championship_entries", "status"): _choices(ChampionshipEntry, "status"),
        ("qualifications", "championship"): _choices(Championship, "kind"),
        ("qualifications", "target"): _choices(Qualification, "target"),
        ("qualifications", "right"): _choices(Qualification, "right"),
        ("qualifications", "status"): _choices(Qualification, "status"),
        ("titles", "championship"): _choices(Championship, "kind"),
    }


def _cell(words: dict[tuple[str, str], dict[str, Any]], section: str, key: str, value: Any) -> Any:
    """A value as the readable page and the CSV write it (the filter ``human`` writes
    dates, moments and yes/no)."""
    if isinstance(value, list):  # an account's roles
        roles = dict(Role.choices)
        return "; ".join(
            f"{roles.get(v['role'], v['role'])} ({v['scope']})"
            if v["scope"]
            else str(roles.get(v["role"], v["role"]))
            for v in value
        )
    labels = words.get((section, key))
    if labels is not None and value in labels:
        return labels[value]
    return value


def _sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    words = _words()
    sections = []
    for key, title in SECTIONS.items():
        value = data[key]
        section: dict[str, Any] = {"key": key, "title": title, "fields": None, "rows": None}
        if isinstance(value, dict):
            section["fields"] = {
                FIELDS.get(k, k): _cell(words, key, k, v) for k, v in value.items()
            }
        elif value:
            section["columns"] = [FIELDS.get(k, k) for k in value[0]]
            section["rows"] = [
                [(FIELDS.get(k, k), _cell(words, key, k, v)) for k, v in row.items()]
                for row in value
            ]
        sections.append(section)
    return sections


@dataclass(frozen=True)
class PersonalDataTable:
    """The readable page as a CSV (core/export_formats.py): one line per value, with its
    section, its line in the section and its field, in words."""

    sections: list[dict[str, Any]]
    licence_number: int

    @property
    def title(self) -> str:
        return str(gettext_lazy("My data"))

    @property
    def subtitle(self) -> str:
        return ""

    @property
    def header(self) -> list[str]:
        return [gettext("Section"), gettext("Line"), gettext("Field"), gettext("Value")]

    def rows(self) -> Iterator[list[object]]:
        for section in self.sections:
            if section["fields"]:
                for field, value in section["fields"].items():
                    yield [str(section["title"]), "", str(field), human(value)]
            for number, row in enumerate(section["rows"] or [], start=1):
                for field, value in row:
                    yield [str(section["title"]), number, str(field), human(value)]

    def file_name(self, extension: str) -> str:
        return f"mes-donnees-{self.licence_number}.{extension}"
