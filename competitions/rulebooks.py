"""Storage of each season's rulebook as immutable versions (:mod:`core.versioned_settings`).

The first read of a season's rulebook creates version 1 from the current
regulations (``Rulebook.default()``); every edit by federation staff adds a
version, validated before it is stored. Allocations record the version used,
so a past season is always recomputed with its own rules.
"""

from __future__ import annotations

from typing import Any

from competitions.models import RulebookVersion
from competitions.rules.rulebook import Movements, Rulebook
from core.batch_memo import memoized
from core.versioned_settings import (
    SettingsKind,
    parsed_version,
    settings_in_force,
    settings_publish,
)
from federation.access import Actor, scope_of
from federation.models import Season
from federation.selectors import current_season

RULEBOOKS: SettingsKind[RulebookVersion, Rulebook] = SettingsKind(
    model=RulebookVersion,
    read=Rulebook.from_dict,
    write=Rulebook.to_dict,
    default=lambda scope: Rulebook.default(),
    default_note="Règlement en vigueur (par défaut)",  # stored and shown to staff: French
    may_publish=lambda by, scope: scope_of(by).national,
    refusal="Only federation staff may change a season's rulebook.",
    lock="season",
)
"""A season's rulebook: federation staff publish it."""


def rulebook_in_force(*, season: Season) -> tuple[RulebookVersion, Rulebook]:
    """The latest version of the season's rulebook, created from the default if none."""
    return memoized(  # once per batch of a bulk load (core.batch_memo)
        ("rulebook_in_force", season.pk),
        lambda: settings_in_force(RULEBOOKS, scope={"season": season}),  # type: ignore[return-value]
    )


def rulebook_version(pk: int, created_at: Any) -> Rulebook:
    """The rulebook of version ``pk`` (created at ``created_at``), whose key the caller read
    in its own statement as its season's latest (``competitions.day.table_tokens``): parsed
    once per process per version, never stale (staff's change adds a version, with a new
    key)."""
    return parsed_version(RULEBOOKS, pk, created_at)


def movements_in_force() -> Movements:
    """The movements' choices of the current season's rulebook; the current regulations'
    when the federation has declared no season."""
    season = current_season()
    rulebook = Rulebook.default() if season is None else rulebook_in_force(season=season)[1]
    return rulebook.movements


def rulebook_update(*, season: Season, data: object, by: Actor, note: str = "") -> RulebookVersion:
    """Store a new version of the season's rulebook (federation staff only).

    Raises PermissionDenied, or RuleViolation locating every problem of ``data``.
    """
    return settings_publish(RULEBOOKS, scope={"season": season}, data=data, by=by, note=note)
