"""Public reads of tournaments: the calendar, a tournament's public page, the clubs and
committees. Shared by the pages (competitions/public/pages.py), the iCalendar feeds
(competitions/public/ical.py) and the API (competitions/api/public.py).

What is public (docs/public-pages.md): of every tournament, its declaration's public facts
(name, date, venue, format, stage, kind of event, organiser, arbiter, planned sessions,
each declared session's day and venue; what a player needs before the day: start time,
address, contact, entry fee, cap, whether entries are open online) and a public status; how
many entries are entered (never who: the list of entrants is the organiser's); of a
homologated tournament, also its homologated sessions and its full ranking
with each player's place, PCN and PP. A refused or not yet homologated tournament shows
no result. Players are named through ``federation.public_names`` only; no e-mail,
phone or birth date is ever read here."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from competitions.models import (
    DeclaredSession,
    EntryState,
    ResultEntry,
    ResultPlayer,
    ResultSession,
    Tournament,
    TournamentEntry,
    TournamentFormat,
    TournamentStatus,
)
from federation.models import Club, Committee, Season
from federation.public_names import PublicIdentity, public_identity, public_result_name

PAGE_SIZE = 50
FEED_PAST_DAYS = 366
"""The iCalendar feeds carry the tournaments of the last year and every later one."""

_MONTH = re.compile(r"^([0-9]{4})-([0-9]{2})$")


class PublicStatus:
    """The status the public reads: a refused tournament is only "not homologated"
    (the reasons are for the organiser and staff)."""

    UPCOMING = "upcoming"
    AWAITING_RESULTS = "awaiting_results"
    HOMOLOGATED = "homologated"
    NOT_HOMOLOGATED = "not_homologated"
    ALL = (UPCOMING, AWAITING_RESULTS, HOMOLOGATED, NOT_HOMOLOGATED)


def public_status(tournament: Tournament, today: dt.date | None = None) -> str:
    today = today or timezone.localdate()
    if tournament.status == TournamentStatus.HOMOLOGATED:
        return PublicStatus.HOMOLOGATED
    if tournament.status == TournamentStatus.REFUSED:
        return PublicStatus.NOT_HOMOLOGATED
    if tournament.status == TournamentStatus.DECLARED and tournament.date >= today:
        return PublicStatus.UPCOMING
    return PublicStatus.AWAITING_RESULTS


def parse_month(text: str) -> dt.date:
    """``"2026-12"`` → 1 December 2026; ``ValueError`` when it is not a month."""
    match = _MONTH.match(text.strip())
    if not match:
        raise ValueError("month must be written YYYY-MM")
    year, month = int(match[1]), int(match[2])
    if not 1 <= month <= 12 or year < 1900:
        raise ValueError("month must be written YYYY-MM")
    return dt.date(year, month, 1)


def _next_month(day: dt.date) -> dt.date:
    return dt.date(day.year + (day.month == 12), day.month % 12 + 1, 1)


@dataclass(frozen=True)
class CalendarFilter:
    """The calendar's filters; every one optional. ``committee`` keeps the tournaments
    the committee organises and those of its clubs."""

    season: Season | None = None
    committee: Committee | None = None
    club: Club | None = None
    format: str | None = None
    month: dt.date | None = None
    status: str | None = None
    since: dt.date | None = None


def _players_of_homologated_results() -> Subquery:
    return Subquery(
        ResultPlayer.objects.filter(revision=OuterRef("homologated_revision"))
        .order_by()
        .values("revision")
        .annotate(count=Count("pk"))
        .values("count"),
        output_field=IntegerField(),
    )


def _entrants() -> Subquery:
    return Subquery(
        TournamentEntry.objects.filter(tournament=OuterRef("pk"), state=EntryState.ENTERED)
        .order_by()
        .values("tournament")
        .annotate(count=Count("pk"))
        .values("count"),
        output_field=IntegerField(),
    )


def _last_day() -> Coalesce:
    """The day of the last declared session, else the tournament's date."""
    latest = DeclaredSession.objects.filter(tournament=OuterRef("pk")).order_by("-date")
    return Coalesce(Subquery(latest.values("date")[:1]), "date")


def calendar(filters: CalendarFilter) -> QuerySet[Tournament]:
    """The tournaments matching ``filters``, soonest first (by date and start time),
    each with its organiser, ``last_date`` (its last session's day: the date unless declared
    sessions span days), ``player_count`` (players of its homologated results, 0 otherwise)
    and ``entrant_count`` (its entries entered, not waiting): one query."""
    tournaments: QuerySet[Tournament] = (
        Tournament.objects.select_related(
            "season",
            "organizer_zone",
            "organizer_committee",
            "organizer_club__committee",
        )
        .annotate(
            player_count=Coalesce(_players_of_homologated_results(), Value(0)),
            last_date=_last_day(),
            entrant_count=Coalesce(_entrants(), Value(0)),
        )
        .order_by("date", "start_time", "name", "pk")
    )
    if filters.season is not None:
        tournaments = tournaments.filter(season=filters.season)
    if filters.committee is not None:
        tournaments = tournaments.filter(
            Q(organizer_committee=filters.committee)
            | Q(organizer_club__committee=filters.committee)
        )
    if filters.club is not None:
        tournaments = tournaments.filter(organizer_club=filters.club)
    if filters.format:
        tournaments = tournaments.filter(format=filters.format)
    if filters.month is not None:
        tournaments = tournaments.filter(
            date__gte=filters.month, date__lt=_next_month(filters.month)
        )
    if filters.since is not None:
        tournaments = tournaments.filter(date__gte=filters.since)
    if filters.status:
        tournaments = _with_status(tournaments, filters.status)
    return tournaments


def _with_status(tournaments: QuerySet[Tournament], status: str) -> QuerySet[Tournament]:
    today = timezone.localdate()
    if status == PublicStatus.HOMOLOGATED:
        return tournaments.filter(status=TournamentStatus.HOMOLOGATED)
    if status == PublicStatus.NOT_HOMOLOGATED:
        return tournaments.filter(status=TournamentStatus.REFUSED)
    if status == PublicStatus.UPCOMING:
        return tournaments.filter(status=TournamentStatus.DECLARED, date__gte=today)
    return tournaments.filter(
        Q(status=TournamentStatus.RESULTS_SUBMITTED)
        | Q(status=TournamentStatus.DECLARED, date__lt=today)
    )


def feed_tournaments(*, committee: Committee | None = None, club: Club | None = None):
    """The tournaments of a committee's or a club's iCalendar feed, each with
    ``last_change``: when its row was last written (its latest history row; every write
    of a tournament writes one, ``competitions/tournaments/tournament_rows.py``)."""
    since = timezone.localdate() - dt.timedelta(days=FEED_PAST_DAYS)
    history = Tournament.history.model.objects.filter(id=OuterRef("pk"))
    last_change = history.order_by("-history_date").values("history_date")[:1]
    return (
        calendar(CalendarFilter(committee=committee, club=club, since=since))
        .annotate(last_change=Coalesce(Subquery(last_change), "declared_at"))
        .prefetch_related("declared_sessions")
    )


def format_choices() -> list[tuple[str, str]]:
    return [(value, str(label)) for value, label in TournamentFormat.choices]


# --- one tournament -------------------------------------------------------------------


@dataclass(frozen=True)
class RankedPlayer:
    identity: PublicIdentity
    licensed: bool
    pcn: int
    pp: int


@dataclass(frozen=True)
class RankedEntry:
    place: int
    number: int
    total: int
    abandoned: bool
    players: list[RankedPlayer]


@dataclass(frozen=True)
class PublicTournament:
    """A tournament as the public reads it. ``sessions`` and ``ranking`` are empty unless
    it is homologated (they are those of the homologated revision)."""

    tournament: Tournament
    status: str
    arbiter: PublicIdentity
    committee: Committee | None
    sessions: list[ResultSession] = field(default_factory=list)
    ranking: list[RankedEntry] = field(default_factory=list)
    declared_sessions: list[DeclaredSession] = field(default_factory=list)
    """Each session's day and venue as declared; empty: one day at the tournament's venue."""

    @property
    def last_date(self) -> dt.date:
        """The day of the last declared session (the date for a tournament of one day)."""
        return max((s.date for s in self.declared_sessions), default=self.tournament.date)

    entrant_count: int = 0
    """Its entries entered (not waiting, not withdrawn): public, the list is not."""

    @property
    def homologated(self) -> bool:
        return self.status == PublicStatus.HOMOLOGATED

    @property
    def tables(self) -> int:
        """The largest number of tables of a session (the tournament's size)."""
        return max((s.tables for s in self.sessions), default=0)

    @property
    def player_count(self) -> int:
        return sum(len(entry.players) for entry in self.ranking)


def tournament_committee(tournament: Tournament) -> Committee | None:
    """The committee a tournament belongs to in the calendar: the organising committee,
    or the organising club's; none for a zone's or the federation's."""
    if tournament.organizer_committee is not None:
        return tournament.organizer_committee
    if tournament.organizer_club is not None:
        return tournament.organizer_club.committee
    return None


def public_tournament(pk: int) -> PublicTournament | None:
    """A tournament's public page: one query (one more for the declared sessions of a
    tournament of several sessions), four more when homologated (sessions, entries, their
    players, the allocations)."""
    from competitions.models import Allocation

    tournament = (
        Tournament.objects.select_related(
            "season",
            "organizer_zone",
            "organizer_committee__zone",
            "organizer_club__committee",
            "arbiter",
        )
        .annotate(entrant_count=Coalesce(_entrants(), Value(0)))
        .filter(pk=pk)
        .first()
    )
    if tournament is None:
        return None
    status = public_status(tournament)
    declared = (
        list(DeclaredSession.objects.filter(tournament=tournament).order_by("number"))
        if tournament.planned_sessions > 1
        else []
    )
    page = PublicTournament(
        tournament=tournament,
        status=status,
        arbiter=public_identity(tournament.arbiter),
        committee=tournament_committee(tournament),
        declared_sessions=declared,
        entrant_count=tournament.entrant_count,
    )
    revision_id = tournament.homologated_revision_id
    if status != PublicStatus.HOMOLOGATED or revision_id is None:
        return page
    sessions = list(ResultSession.objects.filter(revision_id=revision_id).order_by("number"))
    points = {
        a.player_id: (a.pcn, a.pp)
        for a in Allocation.objects.filter(revision_id=revision_id).only("player_id", "pcn", "pp")
    }
    players: dict[int, list[RankedPlayer]] = {}
    for p in (
        ResultPlayer.objects.filter(revision_id=revision_id)
        .select_related("player")
        .order_by("entry_id", "pk")
    ):
        pcn, pp = points.get(p.player_id, (0, 0)) if p.player_id else (0, 0)
        players.setdefault(p.entry_id, []).append(
            RankedPlayer(
                identity=public_result_name(player=p.player, name_as_submitted=p.name),
                licensed=p.licensed,
                pcn=pcn,
                pp=pp,
            )
        )
    ranking = [
        RankedEntry(e.place, e.number, e.total, e.abandoned, players.get(e.pk, []))
        for e in ResultEntry.objects.filter(revision_id=revision_id).order_by("place", "number")
    ]
    return PublicTournament(
        tournament=tournament,
        status=status,
        arbiter=page.arbiter,
        committee=page.committee,
        sessions=sessions,
        ranking=ranking,
        declared_sessions=declared,
        entrant_count=page.entrant_count,
    )


# --- clubs and committees ---------------------------------------------------------------


def clubs() -> QuerySet[Club]:
    return Club.objects.select_related("committee__zone").order_by("number")


def committees() -> QuerySet[Committee]:
    return Committee.objects.select_related("zone").order_by("number")


def club_numbered(number: int) -> Club | None:
    return clubs().filter(number=number).first()


def committee_numbered(number: int) -> Committee | None:
    return committees().filter(number=number).first()


def clubs_of(committee: Committee) -> list[Club]:
    return list(Club.objects.filter(committee=committee).order_by("name", "number"))
