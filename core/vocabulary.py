"""The one vocabulary of the competitions: tournament format, kind of event, championship.

Every layer speaks these: the pure rules (scales, movements, eligibility), the models
(their ``TextChoices`` take these values and add the French labels) and the API. No
Django import here.
"""

from __future__ import annotations

from enum import StrEnum


class Format(StrEnum):
    """The form of a tournament in free deals (*donnes libres*): who plays for whom."""

    INDIVIDUAL = "individual"
    """*Tournoi individuel libre*; the seniors championship is individual too."""
    DUO = "duo"
    """*Libre duo*: teams of 2 (*équipes de 2 joueurs*)."""
    TEAM4 = "team4"
    """*Libre par 4*: teams of 4 (*équipes de 4*)."""

    @property
    def team_size(self) -> int:
        """Players in one entry (a player, a duo or a team of 4)."""
        return _TEAM_SIZE[self]


_TEAM_SIZE = {Format.INDIVIDUAL: 1, Format.DUO: 2, Format.TEAM4: 4}


class StageKind(StrEnum):
    """What kind of event a tournament is (chapters 3 and 5): an ordinary tournament or a
    stage of a championship. The PCN index, cap and national-final tables hang on it."""

    ORDINARY = "ordinary"
    """An ordinary homologated free tournament (*tournoi libre*)."""
    REGIONAL_STAGE = "regional_stage"
    """A stage of a regional championship below the semi-final (*stade*)."""
    REGIONAL_SEMI_FINAL = "regional_semi_final"
    """*Demi-finale régionale* of an official championship (index 1.5)."""
    REGIONAL_FINAL = "regional_final"
    """*Finale régionale* of an official championship (index 1.8)."""
    NATIONAL_QUALIFIER = "national_qualifier"
    """*Qualificatif national*, held the day before the national final."""
    NATIONAL_FINAL = "national_final"
    """*Finale nationale*: fixed PCN/PP tables, no scale."""

    @property
    def is_regional(self) -> bool:
        """A stage of a committee's regional championship."""
        return self in REGIONAL_STAGE_KINDS


REGIONAL_STAGE_KINDS = frozenset(
    {StageKind.REGIONAL_STAGE, StageKind.REGIONAL_SEMI_FINAL, StageKind.REGIONAL_FINAL}
)
NATIONAL_STAGE_KINDS = frozenset({StageKind.NATIONAL_QUALIFIER, StageKind.NATIONAL_FINAL})
CHAMPIONSHIP_STAGE_KINDS = REGIONAL_STAGE_KINDS | NATIONAL_STAGE_KINDS
"""The kinds of stage a championship is played in (every kind but ``ordinary``)."""


def championship_stage(value: str) -> StageKind:
    """The stage kind named ``value``; a ``ValueError`` unless it is a championship stage."""
    kind = StageKind(value)
    if kind not in CHAMPIONSHIP_STAGE_KINDS:
        raise ValueError(f"{value!r} is not a stage of a championship")
    return kind


class ChampionshipKind(StrEnum):
    """Which championship (« championnat de France ... en donnes libres »)."""

    INDIVIDUAL = "individual"
    DUO = "duo"
    INTERCLUBS = "interclubs"
    SENIORS = "seniors"

    # Shadows ``str.format`` on purpose: « le format » is the regulations' word, and
    # nobody calls ``str.format`` on a member; mypy cannot tell the two apart.
    @property
    def format(self) -> Format:  # type: ignore[override]
        """The format its stages are played in (seniors play individually; interclubs
        teams are of 4)."""
        return _FORMAT_OF_KIND[self]

    @property
    def team_size(self) -> int:
        """Players per entry: 1, a pair (« duo ») or a team of 4 (« équipe de 4 »)."""
        return self.format.team_size


_FORMAT_OF_KIND = {
    ChampionshipKind.INDIVIDUAL: Format.INDIVIDUAL,
    ChampionshipKind.SENIORS: Format.INDIVIDUAL,
    ChampionshipKind.DUO: Format.DUO,
    ChampionshipKind.INTERCLUBS: Format.TEAM4,
}
