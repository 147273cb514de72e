"""How a player is named on the public pages, the public API and public exports.

Every public rendering of a player goes through :func:`public_identity` (or its
shorthands :func:`public_name`, :func:`public_row_identity` for ``.values()`` rows and
the ``public_name`` template filter), so that a rule about who may appear by name is
applied here and nowhere else. Staff pages and the ranking computation read the
registry directly.

The rule: a player who objected to appearing by name (``Player.name_hidden``,
``federation/privacy.py``, docs/privacy.md) is shown as « joueur ayant demandé
l'anonymat », without licence number, hence without a link to their player page; their
place, points and club stay (the ranking is unchanged)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from federation.models import Player


def anonymous_name() -> str:
    """The name a hidden player is shown by, in the active language: « joueur ayant
    demandé l'anonymat » (locale/fr), "player who asked for anonymity" in English."""
    return gettext("player who asked for anonymity")


@dataclass(frozen=True)
class PublicIdentity:
    """What the public may read of a player: a display name and, if shown, the licence
    number (``None`` when it is not to be shown: no link to the player's page either)."""

    name: str
    licence_number: int | None
    hidden: bool = False


def public_identity(player: Player) -> PublicIdentity:
    """The public identity of a registered player: "NAME First name" and the licence,
    or the anonymous name without licence for a player who objected."""
    if player.name_hidden:
        return PublicIdentity(anonymous_name(), None, hidden=True)
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


def public_submitted_line(
    *, player: Player | None, licence_number: int | None, name_as_submitted: str
) -> PublicIdentity:
    """A line of results as its organiser submitted it, made public: the name and licence
    number as submitted, unless the registry's player named by that number objected
    (then the anonymous name, without number)."""
    if player is not None and player.name_hidden:
        return public_identity(player)
    return PublicIdentity(name_as_submitted, licence_number)


def public_licence_number(player: Player, *, shown_to_reader: bool = False) -> int | None:
    """``player``'s licence number where a public reading shows a number without a name
    (a tournament's arbiter...): ``None`` for a player who objected, unless
    ``shown_to_reader`` (the reader may see them: the organiser's managers, staff...)."""
    if shown_to_reader:
        return player.licence_number
    return public_identity(player).licence_number


def public_row(row: dict[str, Any], prefix: str = "player__") -> dict[str, Any]:
    """A ``.values()`` row holding ``licence_number``, ``{prefix}last_name``,
    ``{prefix}first_name`` and ``{prefix}name_hidden``, made public: for a hidden player,
    the anonymous name in ``last_name``, an empty ``first_name``, no licence number."""
    if not row.get(f"{prefix}name_hidden"):
        return row
    return {
        **row,
        "licence_number": None,
        f"{prefix}last_name": anonymous_name(),
        f"{prefix}first_name": "",
    }


def hidden_numbers(numbers: Iterable[int]) -> frozenset[int]:
    """Which of these licence numbers belong to players who asked for anonymity (one
    query): for public reads that show licence numbers without names."""
    wanted = {int(n) for n in numbers}
    if not wanted:
        return frozenset()
    found = Player.objects.filter(licence_number__in=wanted, name_hidden=True)
    return frozenset(found.values_list("licence_number", flat=True))
