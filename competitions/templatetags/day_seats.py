"""``{{ seat|seat_word }}`` and ``{{ seat|seat_letter }}``: a seat's code (N, S, E, W, 5:
the engine's and the documents') written for a French reader, « Ouest » and « O » for W."""

from django import template

from competitions.day.room_pages import SEAT_WORDS

register = template.Library()


@register.filter
def seat_word(seat: str) -> str:
    """« Nord », « Sud », « Est », « Ouest », « 5e »; an unknown code as it is."""
    return SEAT_WORDS.get(str(seat), str(seat))


@register.filter
def seat_letter(seat: str) -> str:
    """The word's initial, as a French score sheet heads its columns: N, S, E, O, 5."""
    return seat_word(seat)[:1]
