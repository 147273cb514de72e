"""How a player is named on the public pages, the public API and public exports.

Every public rendering of a player goes through :func:`public_identity` (or its
shorthands :func:`public_name` and the ``public_name`` template filter), so that a rule
about who may appear by name (a player's objection under the GDPR, for instance) is
applied here and nowhere else. Staff pages and the ranking computation read the
registry directly."""

from __future__ import annotations

from dataclasses import dataclass

from federation.models import Player


@dataclass(frozen=True)
class PublicIdentity:
    """What the public may read of a player: a display name and, if shown, the licence
    number (``None`` when it is not to be shown)."""

    name: str
    licence_number: int | None


def public_identity(player: Player) -> PublicIdentity:
    """The public identity of a registered player: "NAME First name" and the licence."""
    return PublicIdentity(f"{player.last_name.upper()} {player.first_name}", player.licence_number)


def public_name(player: Player) -> str:
    """The name the public pages show for ``player``."""
    return public_identity(player).name


def public_result_name(*, player: Player | None, name_as_submitted: str) -> PublicIdentity:
    """The public identity of a line of results: the registry's player when the licence
    number is known, else the name the organiser submitted (a non-licensee, no number)."""
    if player is not None:
        return public_identity(player)
    return PublicIdentity(name_as_submitted, None)
