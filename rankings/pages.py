"""Public web pages of the national ranking, French first (English on request), rendered
on the server:
the ranking (search, filters, pages), a player's page (place, series, points,
tournaments, PCN over the seasons), a committee's and a club's ranking.

Each page costs a fixed number of queries (tests/rankings/test_ranking_pages.py). An
anonymous reader's page is cached by the version of the ranking it shows: the views are
wrapped in ``core.http.http_cache.public_read`` keyed by ``read_versions.page_version`` and
the parameters each page reads (``RANKING_PARAMS``…), and only build the page. A page
number past the last is sent to the last (a redirect, never stored): every number asked
is not a page stored."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from urllib.parse import urlencode

from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, pgettext
from django.views.decorators.http import require_safe

from competitions.championships.titles import titles as championship_titles
from core.db_router import primary_reads
from core.digits import ascii_digits
from core.http.http_cache import number_or_absent, public_read, text
from core.messages import problem_message
from core.problems import Problem, RuleViolation
from federation.access import scope_of
from federation.models import Club, Committee, Player, Season
from federation.privacy import sees_hidden_player
from rankings.models import SeasonRanking
from rankings.reads import public_reads, read_versions, selectors
from rankings.reads.my_points import my_points
from rankings.reads.pcn_plot import SeasonPoint, pcn_plot_svg
from rankings.reads.place_plot import PlaceMark, place_plot_svg
from rankings.season.as_of import (
    PARIS,
    AsOfQueueFull,
    RankingBeingComputed,
    as_of_days_prepare,
    check_day,
    places_over_season,
    sample_days,
)
from rankings.season.ranking import Labels, Ranking, ladder_labels

PAGE_SIZE = 50
KIND_PARAM = read_versions.PAGE_KINDS
KIND_NAME = {kind: name for name, kind in KIND_PARAM.items()}
"""The ``classement`` parameter of a ranking's kind (a French URL, as the others)."""
PLAYER_PARAMS = {"saison": None, "classement": None, "au": text}
"""The query parameters a page reads, and how (the read cache keys on these only:
``core.http.http_cache.canonical_query``)."""
GROUP_PARAMS = {
    **PLAYER_PARAMS, "q": lambda value: value.strip()[:100] or None,
    "serie": lambda value: n if (n := number_or_absent(value)) in ("1", "2", "3", "4") else None,
    "page": number_or_absent,
}  # fmt: skip
RANKING_PARAMS = {**GROUP_PARAMS, "comite": number_or_absent}


def _kind_label(kind: str) -> str:
    """A snapshot's kind as the page names it."""
    if kind == selectors.LIVE:
        return pgettext("ranking", "provisional")
    return pgettext("ranking", "official")


def _step_label(labels: Labels, step: str) -> str:
    """A step's label in the page's language (the ladder names each step in French and in
    English)."""
    names = labels.get(step)
    if names is None:
        return step
    return names[1] if (get_language() or "fr").startswith("en") else names[0]


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _seasons_with_ranking() -> list[Season]:
    ids = SeasonRanking.objects.values("season_id")
    return list(Season.objects.filter(pk__in=ids).order_by("-start_date"))


def _shown(request) -> tuple[str | None, str | None]:
    """The season name and kind a page shows (its ``saison`` and ``classement``)."""
    return request.GET.get("saison"), KIND_PARAM.get(request.GET.get("classement", ""))


def _season(request) -> Season:
    season = selectors.season_named(request.GET.get("saison"))
    if season is None:
        raise Http404(gettext("Unknown season."))
    return season


def _rows(rows: list[dict], labels) -> list[dict]:
    """The page's lines from ``.values()`` rows, shaped as the template reads an entry."""
    lines = []
    for row in rows:
        # Named on the page through federation.public_names (the ``public_identity`` filter).
        player = SimpleNamespace(
            last_name=row["player__last_name"], first_name=row["player__first_name"],
            name_hidden=row["player__name_hidden"], licence_number=row["licence_number"],
        )  # fmt: skip
        club = (
            SimpleNamespace(number=row["club__number"], name=row["club__name"])
            if row["club__number"] is not None
            else None
        )
        committee = SimpleNamespace(number=row["committee__number"])
        entry = SimpleNamespace(**row, player=player, club=club, committee=committee)
        lines.append({"entry": entry, "label": _step_label(labels, row["step"])})
    return lines


def _as_of(request, season: Season) -> tuple[dt.date | None, Problem | None]:
    """The day of ``?au=YYYY-MM-DD`` (the ranking as of that day), or why not: a past
    day of the season, else a problem on the field ``au``."""
    raw = (request.GET.get("au") or "").strip()
    if not raw:
        return None, None
    try:
        day = dt.date.fromisoformat(raw) if len(raw) == 10 else None
    except ValueError:
        day = None
    if day is None:
        return None, Problem("au", "as_of_not_a_date", f"{raw!r} is not a date (YYYY-MM-DD).",
                             {"value": raw[:20]})  # fmt: skip
    try:
        check_day(season, day, field="au")
    except RuleViolation as refused:
        return None, refused.problems[0]
    today = timezone.localdate(timezone=PARIS)
    if day >= today:
        latest = (today - dt.timedelta(days=1)).isoformat()
        return None, Problem(
            "au", "as_of_in_future", f"{raw} is not past yet.", {"date": raw, "latest": latest}
        )
    return day, None


def _status(context: dict) -> int:
    """400 when the day asked (``au``) is refused: the page shows why; 202 while the
    ranking of that day is being computed, 503 while the season has as many days queued
    as it may (neither stored by the read cache)."""
    if context.get("as_of_busy"):
        return 503
    if context.get("as_of_error"):
        return 400
    return 202 if context.get("as_of_computing") else 200


def _ranking_answer(request, context: dict):
    """A ranking page, or a redirect to the page shown when the one asked is past the
    last (or before the first): the read cache then stores one page per page shown, not
    one per number asked."""
    page = context.get("canonical_page")
    if page is None:
        return render(request, "rankings/ranking.html", context, status=_status(context))
    query = request.GET.copy()
    query["page"] = str(page)
    return redirect(f"{request.path}?{query.urlencode()}")


def _day_label(day: dt.date) -> str:
    """« 15 mars 2026 », « 1er mars 2026 » (French), "15 March 2026"."""
    label = date_format(day, "j F Y")
    if day.day == 1 and (get_language() or "fr").startswith("fr"):
        label = "1er" + label[1:]
    return label


def _rendered(request, build):
    """A page of the ranking as of a day (``au``) is built from the primary: its snapshot
    may have been computed by this very read."""
    if request.GET.get("au"):
        with primary_reads():
            return build()
    return build()


def _ranking_context(request, *, committee=None, club=None) -> dict:
    season = _season(request)
    kind = KIND_PARAM.get(request.GET.get("classement", ""))
    day, as_of_problem = _as_of(request, season)
    computing = busy = False
    ranking: Ranking | None
    if day is not None:
        try:
            ranking = selectors.ranking_as_of(season, day)
        except RankingBeingComputed:  # a first read: a worker computes it (202, reloads)
            ranking, computing = None, True
        except AsOfQueueFull as full:  # the season's bound of queued days is reached (503)
            ranking, as_of_problem, busy = None, full.problem, True
    elif as_of_problem is not None:
        ranking = None
    else:
        ranking = selectors.ranking_for_season(season, kind)
    today = timezone.localdate(timezone=PARIS)
    latest = min(season.end_date, today - dt.timedelta(days=1))
    series = _int(request.GET.get("serie"))
    query = (request.GET.get("q") or "").strip()[:100]
    filters = selectors.RankingFilter(
        committee=committee,
        club=club,
        series=series if series in (1, 2, 3, 4) else None,
        query=query,
    )
    context = {
        "season": season,
        "seasons": _seasons_with_ranking(),
        "ranking": ranking,
        "kind": KIND_NAME.get(ranking.kind) if ranking else None,
        "kind_label": _kind_label(ranking.kind) if ranking else "",
        "as_of": day,
        "as_of_label": _day_label(day) if day else "",
        "as_of_value": (request.GET.get("au") or "").strip()[:20],
        "as_of_error": problem_message(as_of_problem) if as_of_problem else "",
        "as_of_computing": computing,
        "as_of_busy": busy,
        "retry_after": RankingBeingComputed.retry_after,
        "as_of_min": season.start_date.isoformat(),
        "as_of_max": latest.isoformat() if latest >= season.start_date else "",
        "as_of_heading": (
            gettext("Ranking as of %(day)s") % {"day": _day_label(day)} if day else ""
        ),
        "filters": filters,
        "query": query,
        "series_choices": (1, 2, 3, 4),
        "committee": committee,
        "club": club,
        "player_base": reverse("ranking-page") + "joueur/",
        "club_base": reverse("ranking-page") + "club/",
    }
    if ranking is None:
        return context
    entries = ranking.entries(filters)
    matches = entries.count()
    count = matches.value
    pages = max(1, -(-count // PAGE_SIZE))
    asked = _int(request.GET.get("page"))
    page = min(max(asked or 1, 1), pages)
    if asked is not None and asked != page:  # past the last page: sent to it (module doc)
        context["canonical_page"] = page
    start = (page - 1) * PAGE_SIZE
    params = {
        key: value
        for key, value in (
            ("saison", season.name),
            ("classement", request.GET.get("classement", "")),
            ("au", day.isoformat() if day else ""),
            ("serie", filters.series or ""),
            ("q", query),
        )
        if value
    }
    scope = scope_of(request.user)
    export = None
    export_params: dict[str, object] = {"season": season.name, "kind": ranking.kind}
    if club is not None and scope.covers_club(club):
        export_params["club"] = club.number
    elif committee is not None and scope.covers_committee(committee):
        export_params["committee"] = committee.number
    elif club is not None or committee is not None or not scope.is_staff:
        export_params = {}  # not theirs to export
    if export_params and day is None:  # the ranking as of a day is read, not exported
        export = reverse("ranking-export") + "?" + urlencode(export_params)
    context.update(
        rows=_rows(entries.rows(start, PAGE_SIZE), ranking.step_labels()),
        count=count,
        count_capped=matches.capped,
        page=page,
        pages=pages,
        previous_url=("?" + urlencode({**params, "page": page - 1})) if page > 1 else None,
        next_url=("?" + urlencode({**params, "page": page + 1})) if page < pages else None,
        export_url=export,
    )
    return context


@require_safe
def ranking_page(request):
    """/classement/: the national ranking, with search and filters. A licence number
    searched leads to the player's page when there is one to show (before the cache)."""
    query = (request.GET.get("q") or "").strip()
    if ascii_digits(query) and "page" not in request.GET:
        url = reverse("ranking-player-page", args=[int(query)])
        if request.GET.get("saison"):
            url += "?" + urlencode({"saison": request.GET["saison"]})
        if Player.objects.filter(licence_number=int(query), name_hidden=False).exists():
            return redirect(url)
    return _national_page(request)


@public_read("ranking-page", read_versions.page_version, params=RANKING_PARAMS, html=True)
def _national_page(request):
    def build():
        committee = selectors.committee_numbered(_int(request.GET.get("comite")))
        context = _ranking_context(request, committee=committee)
        context["committees"] = list(Committee.objects.order_by("number"))
        context["title"] = gettext("National ranking")
        return _ranking_answer(request, context)

    return _rendered(request, build)


@public_read("committee-page", read_versions.page_version, params=GROUP_PARAMS, html=True)
@require_safe
def committee_page(request, number: int):
    """/classement/comite/<n>/: the ranking of one committee's players."""

    def build():
        committee = selectors.committee_numbered(number)
        if committee is None:
            raise Http404(gettext("Unknown committee."))
        context = _ranking_context(request, committee=committee)
        context["title"] = gettext("Ranking of committee %(number)s – %(name)s") % {
            "number": f"{committee.number:02d}",
            "name": committee.name,
        }
        return _ranking_answer(request, context)

    return _rendered(request, build)


@public_read("club-page", read_versions.page_version, params=GROUP_PARAMS, html=True)
@require_safe
def club_page(request, number: int):
    """/classement/club/<n>/: the ranking of one club's players."""

    def build():
        club = selectors.club_numbered(number)
        if club is None:
            raise Http404(gettext("Unknown club."))
        context = _ranking_context(request, club=club)
        context["title"] = gettext("Ranking of club %(number)s – %(name)s") % {
            "number": club.number,
            "name": club.name,
        }
        return _ranking_answer(request, context)

    return _rendered(request, build)


def _season_points(record: selectors.PlayerRecord) -> list[SeasonPoint]:
    """One point per season: season PCN, and the ranking total (with carry-over) of the
    official ranking of that season, or of the ranking shown for the season asked."""
    points: dict[int, tuple[Season, int, int | None]] = {}
    for total in record.season_totals:
        points[total.season_id] = (total.season, total.pcn, None)
    for entry in record.history:
        season = entry.snapshot.season
        points[season.pk] = (season, entry.season_pcn, entry.total_pcn)
    if record.entry is not None:
        points[record.season.pk] = (record.season, record.entry.season_pcn, record.entry.total_pcn)
    return [
        SeasonPoint(season.name, pcn, total)
        for season, pcn, total in sorted(points.values(), key=lambda p: p[0].start_date)
    ]


def _places(record: selectors.PlayerRecord, season: Season) -> tuple[list[PlaceMark], str]:
    """The player's place at the end of each month of the season (and of yesterday),
    read from the stored rankings as of those days (``as_of.places_over_season``, one
    query), with the SVG plot; a day not stored yet is computed in the background
    (shown on a later read); nothing when the player is not a licensee of the season."""
    if record.licence is None:
        return [], ""
    days = sample_days(season, timezone.localdate(timezone=PARIS))
    points = places_over_season(season=season, player_id=record.player.pk, days=days)
    if any(p.players == 0 for p in points):  # a day not computed yet: in the background
        as_of_days_prepare(season=season, days=[p.day for p in points if p.players == 0])
    marks = [PlaceMark(p.day, p.place, p.players) for p in points]
    name = f"{record.player.first_name} {record.player.last_name}"
    describe = "; ".join(
        gettext("%(day)s: place %(place)s of %(players)s")
        % {"day": _day_label(m.day), "place": m.place, "players": m.players}
        for m in marks
        if m.place is not None
    )
    svg = place_plot_svg(
        marks,
        gettext("Place of %(name)s in the ranking, season %(season)s")
        % {"name": name, "season": season.name},
        describe,
    )
    return marks, svg


@public_read("player-page", read_versions.page_version, params=PLAYER_PARAMS, html=True)
@require_safe
def player_page(request, licence_number: int):
    """/classement/joueur/<licence>/: a player's place, series, points and tournaments."""
    try:
        return _player_page(request, licence_number)
    except public_reads.PlayerMoved as moved:
        # a merged record's old link (portal/merging.py): never stored by the read
        # cache (not a 200), and the merge moved every version it keys on
        url = reverse("ranking-player-page", args=[moved.licence_number])
        query = request.GET.urlencode()
        return HttpResponsePermanentRedirect(f"{url}?{query}" if query else url)


def _player_page(request, licence_number: int):
    kind = KIND_PARAM.get(request.GET.get("classement", ""))
    season, record = public_reads.player_record(licence_number, request.GET.get("saison"), kind)
    if season is None:
        raise Http404(gettext("Unknown season."))
    if record is None or (
        record.player.name_hidden
        and not sees_hidden_player(scope_of(request.user), record.player.pk, _club(record))
    ):  # a player who asked for anonymity is unknown to the public (docs/privacy.md)
        raise Http404(gettext("No player with this licence number."))
    context_points = _season_points(record)
    marks, place_svg = _places(record, season)
    labels = record.ranking.step_labels() if record.ranking else {}
    held_labels = record.held_ranking.step_labels() if record.held_ranking else {}
    history = [
        {"entry": e, "label": _step_label(ladder_labels(e.snapshot.policy), e.step)}
        for e in reversed(record.history)
    ]
    context = {
        "title": f"{record.player.first_name} {record.player.last_name}",
        "record": record,
        "season": season,
        "seasons": _seasons_with_ranking(),
        "kind": KIND_NAME[record.ranking.kind] if record.ranking else None,
        "kind_label": _kind_label(record.ranking.kind) if record.ranking else "",
        "label": _step_label(labels, record.entry.step) if record.entry else None,
        "held_label": _step_label(held_labels, record.held.step) if record.held else None,
        "history": history,
        "plot": mark_safe(
            pcn_plot_svg(
                context_points,
                gettext("PCN of %(name)s")
                % {"name": f"{record.player.first_name} {record.player.last_name}"},
            )
        ),
        "tournament_total": sum(a.pcn for a in record.tournaments),
        "place_marks": marks,
        "place_plot": mark_safe(place_svg),
        "titles": list(championship_titles().filter(player=record.player)),
        # « Mes points » (rankings/reads/my_points.py): the live figures explained.
        "my_points": my_points(record.player, season, record=record),
    }
    return render(request, "rankings/player.html", context)


def _club(record) -> Club | None:
    """The player's club in the season read (``record.licence``), for the staff covering it."""
    return record.licence.club if record.licence is not None else None
