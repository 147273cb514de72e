"""The iCalendar feeds (RFC 5545) of a committee's and a club's tournaments, written with
the ``icalendar`` library (line folding, escaping and CRLF done by it). Each tournament is
an all-day event whose UID is stable, so a subscribed calendar updates it in place.

An event's ``DTSTAMP`` is when the tournament was last changed (``last_change``, from its
history), not the time of the request: the same tournaments give the same bytes, so the
feed's ETag (``competitions/public/pages.py``) only changes when a tournament does, and a
calendar polling every hour gets ``304 Not Modified``. A tournament whose results were
refused is ``STATUS:CANCELLED`` (no homologated tournament took place under that
declaration), the others ``CONFIRMED``.

A tournament whose declared sessions are played on several days (a qualifier « sur 2
après-midi ») is one event per day, each at that day's venue: the first day keeps the
tournament's UID, every other day's UID names its date, so a subscribed calendar never
shows one event across the days in between."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.utils import timezone
from django.utils.translation import gettext
from icalendar import Calendar, Event

from competitions.models import Tournament, TournamentStatus
from competitions.public.labels import organiser_name, status_labels
from competitions.public.selectors import public_status

PRODUCT_ID = "-//Fédération Française de Tarot//donnes libres//FR"
UID_DOMAIN = "donnes-libres.fftarot.fr"


def feed(name: str, tournaments: Iterable[Tournament], *, url_of) -> bytes:
    """The calendar ``name`` with one event per tournament; ``url_of(tournament)`` is the
    absolute address of its public page. A tournament's ``last_change`` (annotated by
    ``selectors.feed_tournaments``; else when it was declared) is its ``DTSTAMP``."""
    today = timezone.localdate()
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", "Europe/Paris")
    for tournament in tournaments:
        days = days_of(tournament)
        for number, (day, venue) in enumerate(days, start=1):
            calendar.add_component(
                _event(tournament, day, venue, (number, len(days)), today=today, url_of=url_of)
            )
    return calendar.to_ical()


def days_of(tournament: Tournament) -> list[tuple[dt.date, str]]:
    """Each day the tournament is played on, with that day's venue (its first session's
    that day): its declared sessions (prefetched by ``selectors.feed_tournaments``), else
    its date and venue."""
    days: dict[dt.date, str] = {}
    for session in sorted(tournament.declared_sessions.all(), key=lambda s: s.number):
        days.setdefault(session.date, session.venue)
    return sorted(days.items()) or [(tournament.date, tournament.venue)]


def _event(
    tournament: Tournament,
    day: dt.date,
    venue: str,
    of: tuple[int, int],
    *,
    today: dt.date,
    url_of,
) -> Event:
    number, count = of
    status = public_status(tournament, today)
    event = Event()
    suffix = "" if number == 1 else f"-{day:%Y%m%d}"
    event.add("uid", f"tournoi-{tournament.pk}{suffix}@{UID_DOMAIN}")
    event.add("dtstamp", getattr(tournament, "last_change", None) or tournament.declared_at)
    event.add("dtstart", day)
    event.add("dtend", day + dt.timedelta(days=1))
    summary = tournament.name
    if count > 1:
        summary += " " + gettext("(day %(number)s of %(count)s)") % {
            "number": number,
            "count": count,
        }
    event.add("summary", summary)
    event.add("location", venue)
    kind = (
        tournament.get_stage_display()
        if tournament.stage != "ordinary"
        else tournament.get_event_kind_display()
    )
    event.add(
        "description",
        "\n".join(
            [
                f"{tournament.get_format_display()} · {kind}",
                gettext("Organiser: %(name)s") % {"name": organiser_name(tournament)},
                gettext("Status: %(status)s") % {"status": status_labels()[status]},
            ]
        ),
    )
    event.add("url", url_of(tournament))
    cancelled = tournament.status == TournamentStatus.REFUSED
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    event.add("transp", "TRANSPARENT")
    return event
