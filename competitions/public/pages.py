"""Public pages of the tournaments, French first (English on request): the calendar
(filters, pages), a tournament's page (its homologated ranking), a club's and a
committee's page, and their iCalendar feeds. No sign-in; a fixed number of queries
each (tests/competitions/public/). Reads go through competitions/public/selectors.py."""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from competitions.public import ical, selectors
from competitions.public.labels import organiser_name, status_labels
from competitions.public.selectors import CalendarFilter, PublicStatus
from core.digits import ascii_digits
from federation.models import Season
from federation.selectors import current_season
from rankings.reads import selectors as rankings

RANKING_PREVIEW = 10
"""How many players of a club's or a committee's ranking its page shows."""
SEASON_LIST = 60
"""How many of the season's tournaments a club's or a committee's page lists (the rest:
the calendar, linked)."""


def _season_rows(filters: CalendarFilter) -> tuple[list[dict], bool]:
    """The first tournaments of ``filters`` and whether there are more (one query)."""
    tournaments = list(selectors.calendar(filters)[: SEASON_LIST + 1])
    return _rows(tournaments[:SEASON_LIST]), len(tournaments) > SEASON_LIST


def _number(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if ascii_digits(text) and len(text) < 10 else None


def _rows(tournaments) -> list[dict]:
    labels = status_labels()
    return [
        {
            "tournament": t,
            "status": selectors.public_status(t),
            "status_label": labels[selectors.public_status(t)],
            "organiser": organiser_name(t),
        }
        for t in tournaments
    ]


@require_safe
def calendar_page(request):
    """/calendrier/: declared and played tournaments by season, committee, club, format,
    month and status, 50 a page. Opened without a filter, the coming tournaments of every
    season, soonest first; the filters reach the past ones."""
    problems: list[str] = []
    seasons = list(Season.objects.order_by("-start_date"))
    opening = not (set(request.GET) - {"page"})
    season_name = "toutes" if opening else request.GET.get("saison", "")
    season = None
    if season_name == "toutes":
        season = None
    elif season_name:
        season = next((s for s in seasons if s.name == season_name), None)
        if season is None:
            problems.append(gettext("Unknown season “%(value)s”.") % {"value": season_name[:20]})
    else:
        season = current_season()
    committees = list(selectors.committees())
    committee = None
    if request.GET.get("comite"):
        number = _number(request.GET["comite"])
        committee = next((c for c in committees if c.number == number), None)
        if committee is None:
            problems.append(gettext("Unknown committee."))
    club = None
    if request.GET.get("club"):
        club = selectors.club_numbered(_number(request.GET["club"]) or 0)
        if club is None:
            problems.append(gettext("Unknown club."))
    fmt = request.GET.get("format", "")
    formats = selectors.format_choices()
    if fmt and fmt not in dict(formats):
        problems.append(gettext("Unknown format."))
        fmt = ""
    month = None
    month_text = request.GET.get("mois", "")
    if month_text:
        try:
            month = selectors.parse_month(month_text)
        except ValueError:
            problems.append(gettext("The month is written YYYY-MM, e.g. 2026-12."))
    status = PublicStatus.UPCOMING if opening else request.GET.get("statut", "")
    if status and status not in PublicStatus.ALL:
        problems.append(gettext("Unknown status."))
        status = ""
    filters = CalendarFilter(
        season=season, committee=committee, club=club, format=fmt or None, month=month,
        status=status or None,
    )  # fmt: skip
    paginator = Paginator(selectors.calendar(filters), selectors.PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    params = {
        key: value
        for key, value in (
            ("saison", season_name),
            ("comite", committee.number if committee else ""),
            ("club", club.number if club else ""),
            ("format", fmt),
            ("mois", month_text if month else ""),
            ("statut", status),
        )
        if value
    }
    context = {
        "title": gettext("Tournament calendar"),
        "rows": _rows(page.object_list),
        "page": page,
        "previous_url": (
            "?" + urlencode({**params, "page": page.previous_page_number()})
            if page.has_previous()
            else None
        ),
        "next_url": (
            "?" + urlencode({**params, "page": page.next_page_number()})
            if page.has_next()
            else None
        ),
        "seasons": seasons,
        "season": season,
        "season_name": season_name,
        "committees": committees,
        "committee": committee,
        "club": club,
        "formats": formats,
        "format": fmt,
        "month": month_text if month else "",
        "statuses": list(status_labels().items()),
        "status": status,
        "problems": problems,
    }
    return render(request, "competitions/public/calendar.html", context)


@require_safe
def tournament_page(request, pk: int):
    """/calendrier/tournoi/<id>/: a tournament's public facts, and its ranking once
    homologated."""
    page = selectors.public_tournament(pk)
    if page is None:
        raise Http404(gettext("Unknown tournament."))
    context = {
        "title": page.tournament.name,
        "page": page,
        "t": page.tournament,
        "status_label": status_labels()[page.status],
        "organiser": organiser_name(page.tournament),
        "team": page.tournament.format != "individual",
    }
    return render(request, "competitions/public/tournament.html", context)


def _season(request) -> Season:
    season = rankings.season_named(request.GET.get("saison"))
    if season is None:
        raise Http404(gettext("Unknown season."))
    return season


def _ranking_preview(season: Season, *, committee=None, club=None) -> dict:
    ranking = rankings.ranking_for_season(season, rankings.LIVE)
    if ranking is None:
        return {"snapshot": None, "rows": []}
    filters = rankings.RankingFilter(committee=committee, club=club)
    entries = ranking.entries(filters).page(0, RANKING_PREVIEW)
    labels = ranking.step_labels()
    return {
        "snapshot": ranking,
        "rows": [{"entry": e, "label": labels.get(e.step, (e.step,))[0]} for e in entries],
    }


@require_safe
def club_page(request, number: int):
    """/clubs/<n>/: a club's committee, address, playing times, tournaments of the
    season and the top of its ranking."""
    club = selectors.club_numbered(number)
    if club is None:
        raise Http404(gettext("Unknown club."))
    season = _season(request)
    rows, more = _season_rows(CalendarFilter(season=season, club=club))
    context = {
        "title": club.name,
        "club": club,
        "season": season,
        "rows": rows,
        "more": more,
        "ranking": _ranking_preview(season, club=club),
        "feed_url": request.build_absolute_uri(reverse("public-club-feed", args=[club.number])),
    }
    return render(request, "competitions/public/club.html", context)


@require_safe
def committee_page(request, number: int):
    """/comites/<n>/: a committee's clubs, its calendar of the season and the top of
    its ranking."""
    committee = selectors.committee_numbered(number)
    if committee is None:
        raise Http404(gettext("Unknown committee."))
    season = _season(request)
    rows, more = _season_rows(CalendarFilter(season=season, committee=committee))
    context = {
        "title": gettext("Committee %(number)s – %(name)s")
        % {"number": f"{committee.number:02d}", "name": committee.name},
        "committee": committee,
        "season": season,
        "clubs": selectors.clubs_of(committee),
        "rows": rows,
        "more": more,
        "ranking": _ranking_preview(season, committee=committee),
        "feed_url": request.build_absolute_uri(
            reverse("public-committee-feed", args=[committee.number])
        ),
    }
    return render(request, "competitions/public/committee.html", context)


def _feed_response(request, name: str, tournaments, filename: str) -> HttpResponse:
    body = ical.feed(
        name,
        tournaments,
        url_of=lambda t: request.build_absolute_uri(reverse("public-tournament", args=[t.pk])),
    )
    # A strong ETag of the bytes: the same tournaments, the same feed (stable DTSTAMPs),
    # so a calendar that polls gets 304 until a tournament changes.
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    not_modified = get_conditional_response(request, etag=etag)
    response = not_modified or HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "public, no-cache"
    if not_modified is None:
        response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_safe
def committee_feed(request, number: int):
    """/calendrier/comite/<n>.ics: the committee's tournaments (its own and its clubs')."""
    committee = selectors.committee_numbered(number)
    if committee is None:
        raise Http404(gettext("Unknown committee."))
    name = gettext("FFT tournaments – committee %(name)s") % {"name": committee.name}
    tournaments = selectors.feed_tournaments(committee=committee)
    return _feed_response(request, name, tournaments, f"comite-{committee.number:02d}.ics")


@require_safe
def club_feed(request, number: int):
    """/calendrier/club/<n>.ics: the club's tournaments."""
    club = selectors.club_numbered(number)
    if club is None:
        raise Http404(gettext("Unknown club."))
    name = gettext("FFT tournaments – %(name)s") % {"name": club.name}
    return _feed_response(
        request, name, selectors.feed_tournaments(club=club), f"club-{club.number}.ics"
    )
