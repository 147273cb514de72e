"""Per-season settings of a championship: every figure the federation may change.

The defaults are the regulations of chapter 3 of the fascicule 2 (2016, rectified 2017).
A ``ChampionshipRules`` is stored per season and per championship kind as JSON
(``to_dict`` / ``from_dict``) and checked with ``validate``.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import date
from typing import Any

from core.problems import Problem, RuleViolation
from core.settings_reader import Codes, SettingsReader
from core.vocabulary import ChampionshipKind

MonthDay = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ChampionshipRules:
    """The figures of one championship for one season.

    Build the current regulation with :meth:`current`; the field defaults are the
    figures common to the four championships.
    """

    kind: ChampionshipKind
    minimum_age: int | None = None
    """Seniors: « au moins 60 ans le 31 décembre de la saison en cours »."""
    age_reference_day: MonthDay = (12, 31)
    regional_final_min_field: int = 20
    """Entries (players, duos or teams) at the first session of a regional final."""
    min_field_applies_to_every_stage: bool = False
    """Seniors, article 19: « chaque tournoi de ces qualificatifs » must meet the minima."""
    min_sessions: int = 2
    """« Au moins deux séances »."""
    min_deals_per_session: int = 20
    """« de 20 donnes minimum chacune »."""
    regional_window_start: MonthDay | None = None
    """DUO, article 8: from 1 October."""
    regional_window_end: MonthDay | None = None
    """DUO, article 8: until 20 December; interclubs, article 14: finished by 30 June."""
    max_points_divisor: float = 2.0
    """« Les points peuvent être divisés au maximum par 2 »."""
    min_eliminated_share: float = 0.2
    """« à condition d'éliminer au moins 20% des participants »."""
    national_qualifier_quota: int | None = None
    """First N of the national qualifier qualify (80 / 40 DUO / 50 seniors); None: no qualifier."""
    national_qualifier_days_before_final: int = 1
    """« le jour précédant la finale nationale »."""
    national_final_next_season: bool = False
    """Interclubs, article 16: the national final « se joue sur la saison d'après »."""
    series_product_threshold: int = 16
    """Interclubs: the product of the four series must be strictly greater than this."""
    series_product_exceptions: tuple[tuple[int, ...], ...] = ((1, 1, 3, 4), (1, 1, 4, 4))
    """Interclubs: compositions allowed below the threshold (two 1st series with 3+4 or 4+4)."""
    unlicensed_previous_season_series: int = 4
    """Interclubs: « les joueurs non licenciés l'année précédente étant considérés comme
    4ème Série »."""
    lowest_series: int = 4

    @classmethod
    def current(cls, kind: ChampionshipKind) -> ChampionshipRules:
        """The regulation in force (fascicule 2, rectified 1 July 2017) for ``kind``."""
        kind = ChampionshipKind(kind)
        match kind:
            case ChampionshipKind.INDIVIDUAL:
                return cls(kind, regional_final_min_field=20, national_qualifier_quota=80)
            case ChampionshipKind.DUO:
                return cls(
                    kind,
                    regional_final_min_field=10,
                    regional_window_start=(10, 1),
                    regional_window_end=(12, 20),
                    national_qualifier_quota=40,
                )
            case ChampionshipKind.INTERCLUBS:
                return cls(
                    kind,
                    regional_final_min_field=5,
                    regional_window_end=(6, 30),
                    national_qualifier_quota=None,
                    national_final_next_season=True,
                )
            case ChampionshipKind.SENIORS:
                return cls(
                    kind,
                    minimum_age=60,
                    regional_final_min_field=20,
                    min_field_applies_to_every_stage=True,
                    national_qualifier_quota=50,
                )

    def validate(self) -> list[Problem]:
        """Every inconsistency of these settings (empty list: usable)."""
        problems: list[Problem] = []

        def bad(name: str, code: str, message: str, params: Mapping[str, object]) -> None:
            problems.append(Problem(name, code, message, params))

        if self.minimum_age is not None and not 0 < self.minimum_age < 130:
            bad("minimum_age", "out_of_range", "minimum_age must be between 1 and 129 years.", {})
        for name in ("age_reference_day", "regional_window_start", "regional_window_end"):
            value = getattr(self, name)
            if value is not None and not _is_month_day(value):
                bad(
                    name,
                    "invalid_month_day",
                    f"{name} must be a real (month, day), got {value}.",
                    {"value": value},
                )
        for name in ("regional_final_min_field", "min_sessions", "min_deals_per_session"):
            if getattr(self, name) < 1:
                bad(name, "out_of_range", f"{name} must be at least 1.", {})
        if self.max_points_divisor < 1:
            bad(
                "max_points_divisor",
                "out_of_range",
                "max_points_divisor must be at least 1 (1 forbids any division of points).",
                {},
            )
        if not 0 <= self.min_eliminated_share <= 1:
            bad(
                "min_eliminated_share",
                "out_of_range",
                "min_eliminated_share must be in [0, 1].",
                {},
            )
        if self.national_qualifier_quota is not None and self.national_qualifier_quota < 1:
            bad(
                "national_qualifier_quota",
                "out_of_range",
                "national_qualifier_quota must be at least 1, or null when there is no qualifier.",
                {},
            )
        if self.national_qualifier_days_before_final < 1:
            bad(
                "national_qualifier_days_before_final",
                "out_of_range",
                "The national qualifier is held before the final: at least 1 day.",
                {},
            )
        if self.lowest_series < 1:
            bad("lowest_series", "out_of_range", "lowest_series must be at least 1.", {})
        if not 1 <= self.unlicensed_previous_season_series <= self.lowest_series:
            bad(
                "unlicensed_previous_season_series",
                "out_of_range",
                f"unlicensed_previous_season_series must be a series in 1..{self.lowest_series}.",
                {},
            )
        if self.series_product_threshold < 0:
            bad("series_product_threshold", "out_of_range", "The threshold cannot be negative.", {})
        size = ChampionshipKind.INTERCLUBS.team_size  # the series rules concern teams of 4
        for i, exception in enumerate(self.series_product_exceptions):
            if len(exception) != size or not all(1 <= s <= self.lowest_series for s in exception):
                bad(
                    f"series_product_exceptions[{i}]",
                    "invalid_composition",
                    f"An exception must list {size} series in 1..{self.lowest_series}, "
                    f"got {exception}.",
                    {"size": size, "lowest": self.lowest_series, "value": exception},
                )
        return problems

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (tuples become lists)."""
        result: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            result[f.name] = str(value) if f.name == "kind" else value
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChampionshipRules:
        """Read settings stored by :meth:`to_dict` (or sent by the CCN).

        ``kind`` is required; every other key is optional and, when absent, takes the
        current regulation of the kind (:meth:`current`, the one place its figures are
        declared). Raises ``RuleViolation`` with every unknown or ill-typed key and an
        unknown kind, then with every setting :meth:`validate` refuses.
        """
        if not isinstance(data, Mapping):
            raise RuleViolation.single(
                "settings", "wrong_type", "The settings are a JSON object of settings.", {}
            )
        try:
            kind: ChampionshipKind | None = ChampionshipKind(typing.cast(str, data.get("kind")))
        except ValueError:
            kind = None
        # Without a known kind, the other keys are still read (against the figures common to
        # the four championships) so that every problem is reported at once.
        defaults = cls.current(kind) if kind is not None else cls(ChampionshipKind.INDIVIDUAL)
        optional = {f.name: getattr(defaults, f.name) for f in fields(cls) if f.name != "kind"}
        reader = SettingsReader(codes=_CODES, optional={cls: optional})
        if kind is None:
            reader.add(
                "kind",
                "unknown_kind",
                f"kind must be one of {', '.join(ChampionshipKind)}, got {data.get('kind')!r}.",
                {"kind": str(data.get("kind")), "kinds": ", ".join(ChampionshipKind)},
            )
        rules = reader.read_object(cls, {**data, "kind": str(defaults.kind)}, "")
        reader.raise_if_any()
        problems = rules.validate()
        if problems:
            raise RuleViolation(problems)
        return typing.cast(ChampionshipRules, rules)


_CODES = Codes(unknown_key="unknown_setting")
"""The codes championship settings have always reported (``unknown_setting``)."""


def _is_month_day(value: object) -> bool:
    if not (isinstance(value, tuple) and len(value) == 2):
        return False
    try:
        date(2000, value[0], value[1])  # a leap year, so 29 February is a real day
    except (TypeError, ValueError):
        return False
    return True
