"""``{{ player|public_name }}``: a player's name on a public page (federation.public_names)."""

from django import template

from federation import public_names
from federation.models import Player

register = template.Library()


@register.filter
def public_name(player: Player | None) -> str:
    return public_names.public_name(player) if player is not None else ""


@register.filter
def public_identity(player) -> public_names.PublicIdentity:
    """``{% with who=e.player|public_identity %}``: ``who.name``, ``who.licence_number``
    (None for a player who asked for anonymity: no number, no link)."""
    if player is None:
        return public_names.PublicIdentity("", None)
    return public_names.public_identity(player)
