"""``{{ seat|seat_word }}`` and ``{{ seat|seat_letter }}``: a seat's code (N, S, E, W, 5:
the engine's and the documents') written for a French reader, « Ouest » and « O » for W."""

from django import template

from competitions.rules.engine import tables

register = template.Library()

register.filter("seat_word", tables.seat_word)
register.filter("seat_letter", tables.seat_letter)
