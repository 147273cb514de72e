"""The four championships in donnes libres and the kinds of stage they are played in.

Chapter 3 of the fascicule 2 defines four championships (« championnats de France en
donnes libres »): individual, DUO, interclubs teams of 4 and seniors. Each is played in
regional stages run by each committee (« stades du championnat régional », ending with a
« demi-finale » and a « finale régionale »), then at the national level (« qualificatif
national », « finale nationale »).
"""

from __future__ import annotations

from enum import StrEnum


class ChampionshipKind(StrEnum):
    """Which championship (« championnat de France ... en donnes libres »)."""

    INDIVIDUAL = "individual"
    DUO = "duo"
    INTERCLUBS = "interclubs"
    SENIORS = "seniors"

    @property
    def team_size(self) -> int:
        """Players per entry: 1, a pair (« duo ») or a team of 4 (« équipe de 4 »)."""
        return _TEAM_SIZE[self]


_TEAM_SIZE = {
    ChampionshipKind.INDIVIDUAL: 1,
    ChampionshipKind.DUO: 2,
    ChampionshipKind.INTERCLUBS: 4,
    ChampionshipKind.SENIORS: 1,
}


class StageKind(StrEnum):
    """A stage of a championship.

    The string values are the ones ``rankings.rules`` uses for PCN indices (which also has
    ``ordinary`` for a tournament that is no championship stage), so they map 1:1.
    ``regional_semi_final`` (« demi-finale régionale ») and ``regional_final`` (« finale
    régionale ») carry the PCN indices 1.5 and 1.8 and the 3000 PCN cap of chapter 5.
    """

    REGIONAL_STAGE = "regional_stage"
    REGIONAL_SEMI_FINAL = "regional_semi_final"
    REGIONAL_FINAL = "regional_final"
    NATIONAL_QUALIFIER = "national_qualifier"
    NATIONAL_FINAL = "national_final"

    @property
    def is_regional(self) -> bool:
        return self in REGIONAL_STAGE_KINDS


REGIONAL_STAGE_KINDS = frozenset(
    {StageKind.REGIONAL_STAGE, StageKind.REGIONAL_SEMI_FINAL, StageKind.REGIONAL_FINAL}
)
