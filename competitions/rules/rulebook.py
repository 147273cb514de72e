"""A season's rulebook: every figure of chapter 5 the federation may amend.

The federation amends its regulations between seasons (the *Fascicule 2* of
2016 already carries a *rectificatif* of 2017), so nothing in the points rules
is a constant of the code: coefficients (*abattement*), floor (*plancher*),
caps (*plafonds*), indices (*indices*), minimum participation, the fixed
national-final tables and the homologation conditions are all fields of a
frozen :class:`Rulebook`. :meth:`Rulebook.default` is the current regulation;
:meth:`Rulebook.to_dict` / :meth:`Rulebook.from_dict` give a JSON shape that
can be stored per season and edited by federation staff;
:meth:`Rulebook.validate` refuses nonsense with located problems.

The shared vocabulary of the points rules (:class:`Format`, :class:`StageKind`,
:class:`NationalFinal`, :class:`Organizer`, :class:`EventKind`) lives here too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from competitions.rules.engine.eliminations import EliminatedOrder, HalvingRounding
from competitions.rules.engine.movements.settings import (
    MovementSettings,
    ShortTableRule,
    TeamPositionLimit,
)
from competitions.rules.engine.penalties import PenaltySchedule, RepeatScope, SheetFaultCharge
from competitions.rules.engine.scoring import ChelemAfterAnnounced, ScoringRules
from core.problems import Problem, RuleViolation
from core.settings_reader import read_settings
from core.vocabulary import Format, StageKind

# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------


class NationalFinal(StrEnum):
    """Which national final (*finale nationale*) a fixed table belongs to."""

    INDIVIDUAL = "individual"
    """*Libre individuel*."""
    DUO = "duo"
    """*Libre duo*."""
    TEAM4 = "team4"
    """*Libre par 4* (interclubs)."""
    SENIORS = "seniors"
    """*Libre seniors*: an individual championship."""

    # Shadows ``str.format`` on purpose (see ``ChampionshipKind.format``).
    @property
    def format(self) -> Format:  # type: ignore[override]
        """The format the final is played in (seniors play individually)."""
        return {
            NationalFinal.INDIVIDUAL: Format.INDIVIDUAL,
            NationalFinal.DUO: Format.DUO,
            NationalFinal.TEAM4: Format.TEAM4,
            NationalFinal.SENIORS: Format.INDIVIDUAL,
        }[self]


class IndexOrder(StrEnum):
    """Where the stage index (*indice*) sits relative to the floor and the cap."""

    INDEX_BEFORE_BOUNDS = "index_before_bounds"
    """value = min(cap, max(floor, ⌊raw × index⌋)): the bounds limit the final figure."""
    INDEX_AFTER_BOUNDS = "index_after_bounds"
    """value = ⌊min(cap, max(floor, ⌊raw⌋)) × index⌋: the bounds limit the index-1 figure."""


class BeneficiaryRounding(StrEnum):
    """How a fractional number of beneficiaries (e.g. half of 11) is rounded."""

    DOWN = "down"
    """Round down: half of 11 players is 5."""
    HALF_UP = "half_up"
    """Round to nearest, .5 up (*arrondi à l'unité supérieure si 0.5*): half of 5 teams is 3."""


class Organizer(StrEnum):
    """Who organises a tournament (chapter 5, *Organisateur*)."""

    FFT = "fft"
    ZONE = "zone"
    REGIONAL_COMMITTEE = "regional_committee"
    AFFILIATED_CLUB = "affiliated_club"
    UNAFFILIATED_CLUB = "unaffiliated_club"
    OTHER = "other"


class EventKind(StrEnum):
    """The kind of event (chapter 5, *Arbitrage*: « sauf lors des championnats officiels,
    des matches par équipes et des festivals de tarot »): what the arbiter's right to play,
    and whether the sessions may span days or places, hang on. Orthogonal to the format
    (who plays for whom) and to the stage (where in a championship)."""

    FREE_TOURNAMENT = "free_tournament"
    """An ordinary free tournament (*tournoi libre*)."""
    OFFICIAL_CHAMPIONSHIP = "official_championship"
    """A stage of an official championship: never declared as such, it is the stage's."""
    TEAM_MATCH = "team_match"
    """*Match par équipes*: teams meet, in a team format (the season's ``team_match_formats``)."""
    FESTIVAL = "festival"
    """*Festival de tarot*: a tournament held as part of a festival."""


DECLARABLE_EVENT_KINDS = (EventKind.FREE_TOURNAMENT, EventKind.TEAM_MATCH, EventKind.FESTIVAL)
"""The kinds an organiser declares; an official championship is a championship's stage."""


# --------------------------------------------------------------------------
# The rulebook
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reduction:
    """The base reduction coefficient (*abattement*) between consecutive places.

    base(tables) = coefficient_at_reference + step_per_table × (tables − reference_tables),
    at most ``maximum``. Each format raises it to its own exponent.
    """

    reference_tables: int
    coefficient_at_reference: Decimal
    step_per_table: Decimal
    maximum: Decimal


@dataclass(frozen=True, slots=True)
class FormatRules:
    """What differs between individual, duo and teams-of-4 scales."""

    coefficient_exponent: int
    """The base coefficient is raised to this power (1, 2 = *0.95²*, 4 = *0.95⁴*)."""
    minimum_coefficient: Decimal
    """Applied after the exponent (*0.5 mini*)."""
    minimum_entries: int
    """Minimum participation for homologation (players, duos or teams)."""
    beneficiary_fraction: Decimal
    """Share of the first session's entries with a right to points (*la moitié*)."""
    beneficiary_rounding: BeneficiaryRounding


@dataclass(frozen=True, slots=True)
class Formats:
    individual: FormatRules
    duo: FormatRules
    team4: FormatRules

    def of(self, fmt: Format) -> FormatRules:
        return {Format.INDIVIDUAL: self.individual, Format.DUO: self.duo, Format.TEAM4: self.team4}[
            fmt
        ]


@dataclass(frozen=True, slots=True)
class StageRules:
    """Index, cap and tie rule of one kind of stage that uses a scale."""

    index: Decimal
    """*Indice*: 1 ordinary, 1.5 regional semi-final, 1.8 regional final."""
    cap: int
    """*Plafond*: 1500 in ordinary free tournaments, 3000 in regional championships."""
    tie_break_rules: bool
    """The competition has its own tie-break rules (article 29), so ties are not shared."""


@dataclass(frozen=True, slots=True)
class Stages:
    """The stages that allocate by scale (the national final has fixed tables)."""

    ordinary: StageRules
    regional_stage: StageRules
    regional_semi_final: StageRules
    regional_final: StageRules
    national_qualifier: StageRules

    def of(self, kind: StageKind) -> StageRules:
        if kind is StageKind.NATIONAL_FINAL:
            raise RuleViolation.single(
                "stage",
                "national_final_has_no_scale",
                "A national final allocates by its fixed table "
                "(national_finals.allocate_national_final), not by a scale.",
                {},
            )
        rules: StageRules = getattr(self, kind.value)
        return rules


@dataclass(frozen=True, slots=True)
class PlaceRange:
    """One line of a national-final table: places first..last receive pcn and pp each."""

    first: int
    last: int
    pcn: int
    pp: int


@dataclass(frozen=True, slots=True)
class NationalFinals:
    """The fixed tables of *Attribution de PCN et PP au niveau national*."""

    tie_break_rules: bool
    """National finals are championships with tie-break rules (article 29)."""
    individual: tuple[PlaceRange, ...]
    duo: tuple[PlaceRange, ...]
    team4: tuple[PlaceRange, ...]
    seniors: tuple[PlaceRange, ...]

    def table(self, kind: NationalFinal) -> tuple[PlaceRange, ...]:
        places: tuple[PlaceRange, ...] = getattr(self, kind.value)
        return places


@dataclass(frozen=True, slots=True)
class Homologation:
    """Homologation conditions that are lists the federation may amend."""

    organizers: frozenset[Organizer]
    """Who may organise a homologated tournament."""
    arbiter_may_not_play_in: frozenset[EventKind]
    """Events in which the directing arbiter may not also play."""
    forbidden_table_size: int
    """Tournaments with a table of this many players are not homologable (5)."""
    team_match_formats: frozenset[Format] = frozenset({Format.DUO, Format.TEAM4})
    """The formats a team match (*match par équipes*) is played in: the text's team forms,
    DUO and teams of 4 (chapter 2, *Tournoi en donnes libres par équipes*)."""
    several_days_in: frozenset[EventKind] = frozenset({EventKind.OFFICIAL_CHAMPIONSHIP})
    """Events whose sessions may be played on different days (chapter 3, art. 19: a
    qualifier « sur 2 après-midi »); any other is played in one day."""
    several_venues_in: frozenset[EventKind] = frozenset()
    """Events whose sessions may be played at different places; chapter 5 asks every
    tournament to be played « sur le même lieu », so none by default."""


@dataclass(frozen=True, slots=True)
class Movements:
    """The season's choices for the movements of chapter 2 (``docs/engine-movements.md``)."""

    short_table_rule: ShortTableRule
    """Whether a player may sit at a table of 3 more than once: ``strict`` (never, so fewer
    positions) or ``best_effort`` (as few players as possible, each repeat reported)."""
    team_position_limit: TeamPositionLimit = TeamPositionLimit.MOVEMENT_ROWS
    """Whether the 7-position limit of a team tournament counts the movement's rows (its
    first row is not played) or the positions played."""

    def settings(self, short_table_rule: ShortTableRule | None = None) -> MovementSettings:
        """The engine's movement settings with the season's choices."""
        return MovementSettings(
            short_table_rule=short_table_rule or self.short_table_rule,
            team_position_limit=self.team_position_limit,
        )


# --------------------------------------------------------------------------
# Settings the federation decides: one block per area, listed with their
# defaults and texts in docs/rulebook-settings.md
# --------------------------------------------------------------------------


class TieAcrossLastPaidPlace(StrEnum):
    """Entries tied across the last place with a right to points (chapter 5, « Ex-æquo »)."""

    FLOOR_EACH = "floor_each"
    """Each receives at least the floor (50): they are all ranked at a paid place."""
    SHARE_ONLY = "share_only"
    """They share the places' total, unpaid places adding 0, with no floor."""


class CappedPlaces(StrEnum):
    """How the cap (*plafond*) bounds a scale whose first place exceeds it."""

    CLAMP_EACH = "clamp_each"
    """Every place is computed from 40 × tables then clamped: at 100 tables the first 20
    places of an ordinary tournament receive 1,500 each."""
    REDUCE_FROM_CAPPED_FIRST = "reduce_from_capped_first"
    """The first place receives the cap and each next place the reduction of the previous:
    at 100 tables 1,500, 1,425, 1,353, …"""


class UnlicensedPlaces(StrEnum):
    """What the place of an entry without a licensed player gives (chapter 5 is silent)."""

    KEEP = "keep"
    """Its place keeps its points, given to nobody; the next entries keep their places."""
    PASS_TO_NEXT = "pass_to_next"
    """Its points pass to the next entries: they are allocated as if it were not ranked
    (the number of entries with a right to points still counts it)."""


class UnapprovedRegionalRules(StrEnum):
    """A regional stage held under rules the zone has not approved (preamble of chapter 3,
    « Les épreuves se déroulant sans son aval sont nulles »)."""

    VOID = "void"
    """The stage is void: its results are not homologated (no PCN) and it qualifies nobody."""
    WARNING = "warning"
    """The stage counts; the missing approval is a warning to staff."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """Chapter 1's choices on scoring a deal."""

    defence_chelem_after_announced_chelem: ChelemAfterAnnounced = ChelemAfterAnnounced.ADD

    def rules(self) -> ScoringRules:
        """The engine's scoring rules with the season's choices."""
        return ScoringRules(
            defence_chelem_after_announced_chelem=self.defence_chelem_after_announced_chelem
        )


@dataclass(frozen=True, slots=True)
class Awards:
    """Chapter 5's choices on allocating a scale."""

    tie_across_last_paid_place: TieAcrossLastPaidPlace = TieAcrossLastPaidPlace.FLOOR_EACH
    capped_places: CappedPlaces = CappedPlaces.CLAMP_EACH
    unlicensed_places: UnlicensedPlaces = UnlicensedPlaces.KEEP


class SuspendedPlayerResults(StrEnum):
    """What results naming a player suspended on the tournament's day get (chapter 4:
    « suspendue de jeu en donnes libres (tournois et compétition) »)."""

    FLAG = "flag"
    """Taken, with the warning ``suspended_player_in_results`` shown to staff before they
    homologate (the tournament took place; its other players keep their points)."""
    REFUSE = "refuse"
    """Refused (``suspended_player_refused``): the organiser sends them again without the
    suspended player, or staff record the suspension's end first."""


@dataclass(frozen=True, slots=True)
class Arbitration:
    """Chapter 4's choices (the arbitration code)."""

    score_sheet_fault_charge: SheetFaultCharge = SheetFaultCharge.PER_PLAYER
    repeat_scope: RepeatScope = RepeatScope.SAME_FAULT_SAME_TOURNAMENT
    suspended_player_results: SuspendedPlayerResults = SuspendedPlayerResults.FLAG

    def schedule(self) -> PenaltySchedule:
        """The engine's penalty schedule with the season's choices."""
        return PenaltySchedule(score_sheet_fault_charge=self.score_sheet_fault_charge)


@dataclass(frozen=True, slots=True)
class Championships:
    """Chapter 3's choices that bear on PCN and qualification alike."""

    unapproved_regional_rules: UnapprovedRegionalRules = UnapprovedRegionalRules.VOID


_DEFAULT_SCORING = Scoring()
_DEFAULT_AWARDS = Awards()
_DEFAULT_ARBITRATION = Arbitration()
_DEFAULT_CHAMPIONSHIPS = Championships()


# --------------------------------------------------------------------------
# results: sessions and article 29
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Eliminations:
    """The season's choices for sessions with eliminations and divided scores (chapter 3,
    art. 3; chapter 2 « abattre les scores »), which the texts leave open
    (``docs/results-format.md``, « Sessions with eliminations »)."""

    halving_rounding: HalvingRounding
    """How a carried score is rounded when its division is not whole."""
    eliminated_order: EliminatedOrder
    """How the entries eliminated at one cut rank among themselves."""


def has_tie_break_rules(rulebook: Rulebook, stage: StageKind) -> bool:
    """Whether ``stage`` has its own tie-break rules (article 29): then the submitted
    tie-break data decides level entries' places, and only ties that survive it share."""
    if stage is StageKind.NATIONAL_FINAL:
        return rulebook.national_finals.tie_break_rules
    return rulebook.stages.of(stage).tie_break_rules


_DEFAULT_ELIMINATIONS = Eliminations(
    halving_rounding=HalvingRounding.HALF_AWAY_FROM_ZERO,
    eliminated_order=EliminatedOrder.SCORE_THEN_ARTICLE_29,
)

# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rulebook:
    """Every figure of chapter 5 for one season, and the movements' choices of chapter 2.
    See ``docs/rankings-pcn.md`` and ``docs/engine-movements.md``."""

    source: str
    """Which text these figures come from."""
    first_place_points_per_table: int
    """The first place receives this many PCN per table (40)."""
    floor: int
    """*Attribution minimale* of a place with a right to points (50)."""
    index_order: IndexOrder
    reduction: Reduction
    formats: Formats
    stages: Stages
    national_finals: NationalFinals
    homologation: Homologation
    movements: Movements
    eliminations: Eliminations = _DEFAULT_ELIMINATIONS  # results: sessions and article 29
    # Settings the federation decides (docs/rulebook-settings.md).
    scoring: Scoring = _DEFAULT_SCORING
    awards: Awards = _DEFAULT_AWARDS
    arbitration: Arbitration = _DEFAULT_ARBITRATION
    championships: Championships = _DEFAULT_CHAMPIONSHIPS

    @classmethod
    def default(cls) -> Rulebook:
        """The regulations in force: Fascicule 2 (2016, rectified 1 July 2017)."""
        return _DEFAULT

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (decimals as strings, enums as their values)."""
        dumped: dict[str, Any] = _dump(self)
        return dumped

    @classmethod
    def from_dict(cls, data: object) -> Rulebook:
        """Read and validate a dict made by :meth:`to_dict` (or edited by staff).

        Raises :class:`RuleViolation` locating every missing, unknown or ill-typed
        key, then every figure :meth:`validate` refuses.
        """
        # Every key is required but ``movements``, added after versions were stored: a version
        # without it takes the current regulations' choice.
        rulebook = read_settings(
            cls,
            data,
            root="rulebook",
            optional={
                cls: {
                    "movements": _DEFAULT_MOVEMENTS,
                    "eliminations": _DEFAULT_ELIMINATIONS,  # results: sessions and article 29
                    # Settings the federation decides: added after versions
                    # were stored, each takes today's reading when absent.
                    "scoring": _DEFAULT_SCORING,
                    "awards": _DEFAULT_AWARDS,
                    "arbitration": _DEFAULT_ARBITRATION,
                    "championships": _DEFAULT_CHAMPIONSHIPS,
                },
                Movements: {"team_position_limit": TeamPositionLimit.MOVEMENT_ROWS},
                Scoring: {"defence_chelem_after_announced_chelem": ChelemAfterAnnounced.ADD},
                Awards: {
                    "tie_across_last_paid_place": TieAcrossLastPaidPlace.FLOOR_EACH,
                    "capped_places": CappedPlaces.CLAMP_EACH,
                    "unlicensed_places": UnlicensedPlaces.KEEP,
                },
                Arbitration: {
                    "score_sheet_fault_charge": SheetFaultCharge.PER_PLAYER,
                    "repeat_scope": RepeatScope.SAME_FAULT_SAME_TOURNAMENT,
                    "suspended_player_results": SuspendedPlayerResults.FLAG,
                },
                Championships: {"unapproved_regional_rules": UnapprovedRegionalRules.VOID},
                Homologation: {
                    "team_match_formats": _DEFAULT_HOMOLOGATION_EXTRAS.team_match_formats,
                    "several_days_in": _DEFAULT_HOMOLOGATION_EXTRAS.several_days_in,
                    "several_venues_in": _DEFAULT_HOMOLOGATION_EXTRAS.several_venues_in,
                },
            },
        )
        rulebook.validate()
        return rulebook

    def validate(self) -> None:
        """Raise :class:`RuleViolation` listing every figure that makes no sense."""
        problems = _validation_problems(self)
        if problems:
            raise RuleViolation(problems)


# --------------------------------------------------------------------------
# The current regulation
# --------------------------------------------------------------------------


def _table(*rows: tuple[int, int, int, int]) -> tuple[PlaceRange, ...]:
    return tuple(PlaceRange(first, last, pcn, pp) for first, last, pcn, pp in rows)


_HALF = Decimal("0.5")

# "veillez à supprimer les joueurs NORD correctement de façon à ce qu'un joueur ne repasse une
# nouvelle fois à une table à 3 joueurs" (page 17) is advice the arithmetic cannot always
# follow: best effort lets every field play the positions the movement allows.
_DEFAULT_MOVEMENTS = Movements(short_table_rule=ShortTableRule.BEST_EFFORT)

_DEFAULT_HOMOLOGATION_EXTRAS = Homologation(
    organizers=frozenset(), arbiter_may_not_play_in=frozenset(), forbidden_table_size=5
)
"""The defaults of the homologation settings added after versions were stored."""

_DEFAULT = Rulebook(
    source="FFT Fascicule 2 donnes libres, 1 July 2016, rectificatif 1 of 1 July 2017, chapter 5",
    first_place_points_per_table=40,
    floor=50,
    index_order=IndexOrder.INDEX_BEFORE_BOUNDS,
    reduction=Reduction(
        reference_tables=3,
        coefficient_at_reference=Decimal("0.69"),
        step_per_table=Decimal("0.01"),
        maximum=Decimal("0.95"),
    ),
    formats=Formats(
        individual=FormatRules(1, _HALF, 11, _HALF, BeneficiaryRounding.DOWN),
        duo=FormatRules(2, _HALF, 6, _HALF, BeneficiaryRounding.DOWN),
        team4=FormatRules(4, _HALF, 5, _HALF, BeneficiaryRounding.HALF_UP),
    ),
    stages=Stages(
        ordinary=StageRules(Decimal("1"), 1500, tie_break_rules=False),
        regional_stage=StageRules(Decimal("1"), 3000, tie_break_rules=True),
        regional_semi_final=StageRules(Decimal("1.5"), 3000, tie_break_rules=True),
        regional_final=StageRules(Decimal("1.8"), 3000, tie_break_rules=True),
        national_qualifier=StageRules(Decimal("1"), 3000, tie_break_rules=True),
    ),
    national_finals=NationalFinals(
        tie_break_rules=True,
        individual=_table(
            (1, 1, 4000, 17),
            (2, 2, 3500, 11),
            (3, 3, 3000, 8),
            (4, 4, 2500, 7),
            (5, 8, 2200, 6),
            (9, 12, 1900, 5),
            (13, 16, 1600, 4),
            (17, 24, 1400, 3),
            (25, 32, 1200, 2),
            (33, 52, 1000, 1),
            (53, 125, 750, 0),
            (126, 240, 500, 0),
        ),
        duo=_table(
            (1, 1, 4000, 10),
            (2, 2, 3500, 7),
            (3, 3, 3000, 5),
            (4, 4, 2500, 4),
            (5, 6, 2200, 3),
            (7, 10, 1900, 2),
            (11, 15, 1600, 1),
            (16, 20, 1400, 1),
            (21, 28, 1200, 0),
            (29, 56, 1000, 0),
            (57, 100, 500, 0),
        ),
        team4=_table(
            (1, 1, 4000, 10),
            (2, 2, 3500, 7),
            (3, 3, 3000, 5),
            (4, 4, 2500, 4),
            (5, 6, 2200, 3),
            (7, 8, 1900, 2),
            (9, 10, 1600, 1),
            (11, 16, 1400, 0),
            (17, 20, 1200, 0),
            (21, 28, 1000, 0),
            (29, 50, 500, 0),
        ),
        seniors=_table(
            (1, 1, 5000, 10),
            (2, 2, 4500, 7),
            (3, 3, 4000, 5),
            (4, 4, 3500, 4),
            (5, 8, 3200, 3),
            (9, 12, 2900, 2),
            (13, 16, 2600, 1),
            (17, 24, 2400, 1),
            (25, 40, 1500, 0),
            (41, 52, 1000, 0),
            # Printed "43ème au 86ème": read as 53rd to 86th (the range after 41–52).
            (53, 86, 750, 0),
            (87, 172, 500, 0),
        ),
    ),
    homologation=Homologation(
        organizers=frozenset(
            {Organizer.FFT, Organizer.ZONE, Organizer.REGIONAL_COMMITTEE, Organizer.AFFILIATED_CLUB}
        ),
        arbiter_may_not_play_in=frozenset(
            {EventKind.OFFICIAL_CHAMPIONSHIP, EventKind.TEAM_MATCH, EventKind.FESTIVAL}
        ),
        forbidden_table_size=5,
    ),
    movements=_DEFAULT_MOVEMENTS,
)


# --------------------------------------------------------------------------
# Validation of the figures
# --------------------------------------------------------------------------


def _validation_problems(book: Rulebook) -> list[Problem]:
    problems: list[Problem] = []

    def refuse(field: str, code: str, message: str, params: Mapping[str, object]) -> None:
        problems.append(Problem(field, code, message, params))

    if book.first_place_points_per_table <= 0:
        refuse(
            "first_place_points_per_table",
            "not_positive",
            "The first place's points per table must be positive.",
            {},
        )
    if book.floor < 0:
        refuse("floor", "negative", "The floor of PCN cannot be negative.", {})

    red = book.reduction
    if red.reference_tables < 1:
        refuse(
            "reduction.reference_tables",
            "not_positive",
            "The reference table count must be ≥ 1.",
            {},
        )
    if not 0 < red.coefficient_at_reference <= 1:
        refuse(
            "reduction.coefficient_at_reference",
            "coefficient_out_of_range",
            "A reduction coefficient must be in ]0, 1]: places must not gain points.",
            {},
        )
    if red.step_per_table < 0:
        refuse(
            "reduction.step_per_table",
            "negative",
            "The step per table cannot be negative: more tables must not reduce faster.",
            {},
        )
    if not 0 < red.maximum <= 1:
        refuse(
            "reduction.maximum",
            "coefficient_out_of_range",
            "The maximum reduction coefficient must be in ]0, 1]: places must not gain points.",
            {},
        )

    for fmt in Format:
        rules = book.formats.of(fmt)
        path = f"formats.{fmt.value}"
        if rules.coefficient_exponent < 1:
            refuse(
                f"{path}.coefficient_exponent",
                "not_positive",
                "The exponent must be at least 1.",
                {},
            )
        if not 0 < rules.minimum_coefficient <= 1:
            refuse(
                f"{path}.minimum_coefficient",
                "coefficient_out_of_range",
                "The minimum reduction coefficient must be in ]0, 1].",
                {},
            )
        elif (
            0 < red.maximum <= 1
            and rules.coefficient_exponent >= 1
            and rules.minimum_coefficient > red.maximum**rules.coefficient_exponent
        ):
            refuse(
                f"{path}.minimum_coefficient",
                "minimum_above_maximum",
                f"The minimum coefficient {rules.minimum_coefficient} exceeds the maximum "
                f"{red.maximum}^{rules.coefficient_exponent} of this format.",
                {
                    "minimum": rules.minimum_coefficient,
                    "maximum": f"{red.maximum}^{rules.coefficient_exponent}",
                },
            )
        if rules.minimum_entries < 1:
            refuse(
                f"{path}.minimum_entries",
                "not_positive",
                "The minimum participation must be ≥ 1.",
                {},
            )
        if not 0 < rules.beneficiary_fraction <= 1:
            refuse(
                f"{path}.beneficiary_fraction",
                "fraction_out_of_range",
                "The share of entries with a right to points must be in ]0, 1].",
                {},
            )

    for kind in StageKind:
        if kind is StageKind.NATIONAL_FINAL:
            continue
        stage = book.stages.of(kind)
        path = f"stages.{kind.value}"
        if stage.index <= 0:
            refuse(f"{path}.index", "not_positive", "A stage index must be positive.", {})
        if stage.cap < 0:
            refuse(f"{path}.cap", "negative", "A cap of PCN cannot be negative.", {})
        elif stage.cap < book.floor:
            refuse(
                f"{path}.cap",
                "cap_below_floor",
                f"The cap {stage.cap} is below the floor {book.floor}: no value can satisfy both.",
                {"cap": stage.cap, "floor": book.floor},
            )

    for final in NationalFinal:
        problems.extend(
            _table_problems(book.national_finals.table(final), f"national_finals.{final}")
        )

    if not book.homologation.organizers:
        refuse(
            "homologation.organizers",
            "empty",
            "At least one kind of organiser must be allowed, or no tournament is homologable.",
            {},
        )
    if book.homologation.forbidden_table_size < 1:
        refuse(
            "homologation.forbidden_table_size",
            "not_positive",
            "The forbidden table size must be a positive number of players.",
            {},
        )
    return problems


def _table_problems(table: tuple[PlaceRange, ...], path: str) -> list[Problem]:
    problems: list[Problem] = []
    if not table:
        return [
            Problem(path, "empty", "A national-final table needs at least one place range.", {})
        ]
    expected_first = 1
    previous: PlaceRange | None = None
    for i, row in enumerate(table):
        here = f"{path}[{i}]"
        if row.first > row.last:
            problems.append(
                Problem(
                    f"{here}.last",
                    "range_reversed",
                    f"The range {row.first}–{row.last} ends before it starts.",
                    {"first": row.first, "last": row.last},
                )
            )
        if row.first < expected_first:
            problems.append(
                Problem(
                    f"{here}.first",
                    "ranges_overlap",
                    f"The range starting at {row.first} overlaps the previous one, "
                    f"which ends at {expected_first - 1}.",
                    {"first": row.first, "previous_last": expected_first - 1},
                )
            )
        elif row.first > expected_first:
            problems.append(
                Problem(
                    f"{here}.first",
                    "ranges_gap",
                    f"Places {expected_first}–{row.first - 1} are in no range; "
                    f"the range should start at {expected_first}.",
                    {"first": expected_first, "last": row.first - 1},
                )
            )
        for name in ("pcn", "pp"):
            value = getattr(row, name)
            if value < 0:
                problems.append(
                    Problem(f"{here}.{name}", "negative", f"{name} cannot be negative.", {})
                )
            elif previous is not None and value > getattr(previous, name):
                problems.append(
                    Problem(
                        f"{here}.{name}",
                        "increasing",
                        f"Places {row.first}–{row.last} would receive more {name} "
                        f"({value}) than the better places before them "
                        f"({getattr(previous, name)}).",
                        {
                            "first": row.first,
                            "last": row.last,
                            "name": name,
                            "value": value,
                            "previous": getattr(previous, name),
                        },
                    )
                )
        expected_first = max(expected_first, row.last + 1)
        previous = row
    return problems


# --------------------------------------------------------------------------
# JSON shape: a dict per dataclass, decimals as strings, enums as values
# --------------------------------------------------------------------------


def _dump(value: object) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, frozenset):
        return sorted(_dump(v) for v in value)
    if isinstance(value, tuple):
        return [_dump(v) for v in value]
    return value


__all__ = [
    "DECLARABLE_EVENT_KINDS",
    "Arbitration",
    "Awards",
    "BeneficiaryRounding",
    "CappedPlaces",
    "Championships",
    "EventKind",
    "Format",
    "FormatRules",
    "Formats",
    "Homologation",
    "IndexOrder",
    "Movements",
    "NationalFinal",
    "NationalFinals",
    "Organizer",
    "PlaceRange",
    "Reduction",
    "Rulebook",
    "Scoring",
    "StageKind",
    "StageRules",
    "Stages",
    "TieAcrossLastPaidPlace",
    "UnapprovedRegionalRules",
    "UnlicensedPlaces",
]
