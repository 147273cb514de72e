"""The iCalendar feeds (RFC 5545) of a committee's and a club's tournaments, written with
the ``icalendar`` library (line folding, escaping and CRLF done by it). Each tournament is
an all-day event whose UID is stable, so a subscribed calendar updates it in place.

An event's ``DTSTAMP`` is when the tournament was last changed (``last_change``, from its
history), not the time of the request: the same tournaments give the same bytes, so the
feed's ETag (``competitions/public/pages.py``) only changes when a tournament does, and a
calendar polling every hour gets ``304 Not Modified``. A tournament whose results were
refused is ``STATUS:CANCELLED`` (no homologated tournament took place under that
declaration), the others ``CONFIRMED``."""

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
        status = public_status(tournament, today)
        event = Event()
        event.add("uid", f"tournoi-{tournament.pk}@{UID_DOMAIN}")
        event.add("dtstamp", getattr(tournament, "last_change", None) or tournament.declared_at)
        event.add("dtstart", tournament.date)
        event.add("dtend", tournament.date + dt.timedelta(days=1))
        event.add("summary", tournament.name)
        event.add("location", tournament.venue)
        event.add(
            "description",
            "\n".join(
                [
                    f"{tournament.get_format_display()} · {tournament.get_stage_display()}",
                    gettext("Organiser: %(name)s") % {"name": organiser_name(tournament)},
                    gettext("Status: %(status)s") % {"status": status_labels()[status]},
                ]
            ),
        )
        event.add("url", url_of(tournament))
        cancelled = tournament.status == TournamentStatus.REFUSED
        event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
        event.add("transp", "TRANSPARENT")
        calendar.add_component(event)
    return calendar.to_ical()
