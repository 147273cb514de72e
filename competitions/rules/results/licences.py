"""What the registry says of the players of a results file, for the tournament's season.

The caller fills a :class:`LicenceStatus` for every licence number from the registry;
:func:`~competitions.rules.results.validation.validate` returns a
:class:`NameConfirmation` for each licence number whose name the submitter confirmed
although the registry spells it differently
(:func:`~competitions.rules.results.names.same_name`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class LicenceStatus(StrEnum):
    """What the registry says of a licence number, for the tournament's season."""

    LICENSED = "licensed"
    """Licensed for the tournament's season: may receive points."""
    NOT_LICENSED_THIS_SEASON = "not_licensed_this_season"
    """A known player without a licence for that season: ranked, no points."""
    UNKNOWN = "unknown"
    """No such licence number: ranked, no points."""


@dataclass(frozen=True, slots=True)
class NameConfirmation:
    """A licence number under a name the registry spells differently, confirmed."""

    licence_number: int
    name_in_file: str
    registry_name: str
