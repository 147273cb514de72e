"""``{% day_entry_counts tournament as counts %}``: a tournament's entries counted (entered,
waiting, withdrawn, fee paid), for the day's hub (``day/hub_entries.html``)."""

from django import template

from competitions.day.entries import EntryCounts, entry_counts
from competitions.models import Tournament

register = template.Library()


@register.simple_tag
def day_entry_counts(tournament: Tournament) -> EntryCounts:
    return entry_counts(tournament)
