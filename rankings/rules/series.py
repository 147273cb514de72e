"""Series policy: the ladder of series and steps, and how a player climbs it.

The regulations rank players in four series (*séries*, 1st the strongest)
but leave the details to a "fascicule 1" we do not have. This module holds
everything about the series that the federation could change between
seasons, as one frozen :class:`SeriesPolicy` stored per season (JSON through
:meth:`SeriesPolicy.to_dict` / :meth:`SeriesPolicy.from_dict`).

The ladder is listed from the lowest step upwards. Following the French
bridge federation, series 4, 3 and 2 each have five steps (*paliers*)
Trèfle < Carreau < Cœur < Pique < Promotion, and the 1st series has
Trèfle < Carreau < Cœur < Pique < Nationale. See ``docs/rankings-series.md``
for every default and the public fact it rests on.

No Django, no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeGuard

from core.problems import Problem, RuleViolation
from core.settings_reader import Codes, read_settings

SERIES_NUMBERS = (1, 2, 3, 4)
"""The four series of the regulations, 1st the strongest."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the ladder (*palier*), e.g. ``1N`` "1re série Nationale".

    A step is reached by meeting its criterion, which is exactly one of:

    - ``min_pcn``: an absolute threshold, total PCN ≥ ``min_pcn``;
    - ``top_share``: a share of the ranked players counted from the top,
      place ≤ ⌊``top_share`` × ranked players⌋ (cumulative: the share of
      ``1T`` includes every step above it);

    and, when ``min_pp`` is set, total PP ≥ ``min_pp`` as well. The lowest
    step of the ladder has no criterion: every player reaches it.
    """

    code: str
    series: int
    label_fr: str
    label_en: str
    min_pcn: int | None = None
    top_share: Decimal | None = None
    min_pp: int | None = None


@dataclass(frozen=True, slots=True)
class ManualPlacement:
    """A step set by the CCN for one player, overriding the computed one.

    Stands in for the cases fascicule 1 covers and we cannot see (its
    articles 7 and 12). ``reason`` is mandatory and is kept with the ranking.
    """

    player: int
    step: str
    reason: str


# The default ladder, lowest step first: code, series, name (French, English),
# cumulative top share of the ranked players, minimum total PP.
# 1st series = top 5 %, 2nd = next 16 %, 3rd = next 34 %, 4th = the other 45 %
# and every player without points; each series is cut into five equal slices.
_DEFAULT_LADDER: tuple[tuple[str, int, str, str, str | None, int | None], ...] = (
    ("4T", 4, "Trèfle", "Clubs", None, None),
    ("4K", 4, "Carreau", "Diamonds", "0.91", None),
    ("4C", 4, "Cœur", "Hearts", "0.82", None),
    ("4P", 4, "Pique", "Spades", "0.73", None),
    ("4PR", 4, "Promotion", "Promotion", "0.64", None),
    ("3T", 3, "Trèfle", "Clubs", "0.55", None),
    ("3K", 3, "Carreau", "Diamonds", "0.482", None),
    ("3C", 3, "Cœur", "Hearts", "0.414", None),
    ("3P", 3, "Pique", "Spades", "0.346", None),
    ("3PR", 3, "Promotion", "Promotion", "0.278", None),
    ("2T", 2, "Trèfle", "Clubs", "0.21", None),
    ("2K", 2, "Carreau", "Diamonds", "0.178", None),
    ("2C", 2, "Cœur", "Hearts", "0.146", None),
    ("2P", 2, "Pique", "Spades", "0.114", None),
    ("2PR", 2, "Promotion", "Promotion", "0.082", None),
    ("1T", 1, "Trèfle", "Clubs", "0.05", None),
    ("1K", 1, "Carreau", "Diamonds", "0.04", None),
    ("1C", 1, "Cœur", "Hearts", "0.03", None),
    ("1P", 1, "Pique", "Spades", "0.02", None),
    ("1N", 1, "Nationale", "National", "0.01", 1),
)
_ORDINAL_FR = {1: "1re", 2: "2e", 3: "3e", 4: "4e"}  # French typography: 1re, 2e
_ORDINAL_EN = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def _default_ladder() -> tuple[Step, ...]:
    return tuple(
        Step(
            code=code,
            series=series,
            label_fr=f"{_ORDINAL_FR[series]} série {name_fr}",
            label_en=f"{_ORDINAL_EN[series]} series {name_en}",
            top_share=None if share is None else Decimal(share),
            min_pp=min_pp,
        )
        for code, series, name_fr, name_en, share, min_pp in _DEFAULT_LADDER
    )


@dataclass(frozen=True, slots=True)
class SeriesPolicy:
    """Everything about the series that can change between seasons.

    Fields (defaults are those of :meth:`default`, see the docs page):

    - ``ladder``: the steps, **lowest first**; series numbers never increase
      going up, and each of the four series has at least one step.
    - ``carry_over``: coefficient applied to a player's previous official
      total PCN and PP, by series of the step that ranking gave them
      (index 0 = 1st series … index 3 = 4th series). Default 0.8 for all
      (20 % cut after each yearly ranking, as in bridge).
    - ``entry_step``: step of a player new to the federation (default ``4T``).
    - ``returning_drop_steps``: steps lost per missed season by a player
      coming back after a gap (default 1).
    - ``max_demotion_steps``: at most this many steps lost in one ranking
      relative to the step held during the season; ``None`` = no limit
      (default 1).
    - ``pp_breaks_ties``: whether equal total PCN are ordered by total PP
      (default ``True``); players equal on every compared total share a place.
    """

    ladder: tuple[Step, ...]
    carry_over: tuple[Decimal, ...] = (Decimal("0.8"),) * 4
    entry_step: str = "4T"
    returning_drop_steps: int = 1
    max_demotion_steps: int | None = 1
    pp_breaks_ties: bool = True

    @classmethod
    def default(cls) -> SeriesPolicy:
        """The documented default policy (see ``docs/rankings-series.md``)."""
        return cls(ladder=_default_ladder())

    # --- lookups -----------------------------------------------------------

    def index_of(self, code: str) -> int:
        """Position of a step in the ladder, 0 = lowest. Raises on unknown code."""
        for index, step in enumerate(self.ladder):
            if step.code == code:
                return index
        raise RuleViolation.single(
            "step",
            "unknown_step",
            f"Step {code!r} is not in the ladder of this policy.",
            {"step": code},
        )

    def step(self, code: str) -> Step:
        """The step with this code. Raises :class:`RuleViolation` if unknown."""
        return self.ladder[self.index_of(code)]

    def series_of(self, code: str) -> int:
        """Series number (1–4) of a step, as the interclubs rule needs it."""
        return self.step(code).series

    def carry_over_for(self, series: int) -> Decimal:
        """Carry-over coefficient for a player whose last official step is in ``series``."""
        return self.carry_over[series - 1]

    def season_step(self, last_official_step: str | None, missed_seasons: int = 0) -> str:
        """The step a player holds during the current season.

        - never ranked (new to the federation): :attr:`entry_step`;
        - ranked in the last official ranking (``missed_seasons`` = 0): that step;
        - back after ``missed_seasons`` seasons without a licence: the last
          official step dropped by ``returning_drop_steps`` per missed season,
          never below the lowest step.
        """
        if last_official_step is None:
            return self.entry_step
        if missed_seasons < 0:
            raise RuleViolation.single(
                "missed_seasons", "negative", "The number of missed seasons cannot be negative.", {}
            )
        index = self.index_of(last_official_step) - self.returning_drop_steps * missed_seasons
        return self.ladder[max(index, 0)].code

    # --- validation --------------------------------------------------------

    def problems(self) -> list[Problem]:
        """Every problem with this policy (empty when valid)."""
        found: list[Problem] = []
        found.extend(_ladder_problems(self.ladder))
        if len(self.carry_over) != len(SERIES_NUMBERS):
            found.append(
                Problem(
                    "carry_over",
                    "wrong_length",
                    f"carry_over needs one coefficient per series ({len(SERIES_NUMBERS)}), "
                    f"got {len(self.carry_over)}.",
                    {"expected": len(SERIES_NUMBERS), "count": len(self.carry_over)},
                )
            )
        for index, coefficient in enumerate(self.carry_over):
            if not isinstance(coefficient, Decimal) or not Decimal(0) <= coefficient <= 1:
                found.append(
                    Problem(
                        f"carry_over[{index}]",
                        "coefficient_out_of_range",
                        f"The carry-over coefficient of series {index + 1} must be "
                        f"a decimal between 0 and 1, got {coefficient!r}.",
                        {"series": index + 1, "value": repr(coefficient)},
                    )
                )
        if all(step.code != self.entry_step for step in self.ladder):
            found.append(
                Problem(
                    "entry_step",
                    "unknown_step",
                    f"The entry step {self.entry_step!r} is not in the ladder.",
                    {"step": self.entry_step},
                )
            )
        if not _is_int(self.returning_drop_steps) or self.returning_drop_steps < 0:
            found.append(
                Problem(
                    "returning_drop_steps",
                    "negative",
                    "returning_drop_steps must be a whole number of steps, 0 or more.",
                    {},
                )
            )
        if self.max_demotion_steps is not None and (
            not _is_int(self.max_demotion_steps) or self.max_demotion_steps < 0
        ):
            found.append(
                Problem(
                    "max_demotion_steps",
                    "negative",
                    "max_demotion_steps must be a whole number of steps, 0 or more, or null.",
                    {},
                )
            )
        if not isinstance(self.pp_breaks_ties, bool):
            found.append(
                Problem("pp_breaks_ties", "wrong_type", "pp_breaks_ties must be true or false.", {})
            )
        return found

    def validate(self) -> SeriesPolicy:
        """Return ``self`` if valid, else raise :class:`RuleViolation` with every problem."""
        found = self.problems()
        if found:
            raise RuleViolation(found)
        return self

    # --- JSON --------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form; decimals are written as strings to stay exact."""
        return {
            "ladder": [
                {
                    "code": step.code,
                    "series": step.series,
                    "label_fr": step.label_fr,
                    "label_en": step.label_en,
                    "min_pcn": step.min_pcn,
                    "top_share": None if step.top_share is None else str(step.top_share),
                    "min_pp": step.min_pp,
                }
                for step in self.ladder
            ],
            "carry_over": [str(coefficient) for coefficient in self.carry_over],
            "entry_step": self.entry_step,
            "returning_drop_steps": self.returning_drop_steps,
            "max_demotion_steps": self.max_demotion_steps,
            "pp_breaks_ties": self.pp_breaks_ties,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeriesPolicy:
        """Read and validate a policy; raise :class:`RuleViolation` with located problems.

        Every policy field is required (``max_demotion_steps`` may be null);
        a step's ``min_pcn``, ``top_share`` and ``min_pp`` may be null or
        absent (:data:`OPTIONAL_STEP_FIELDS`). Decimals may be strings or numbers.
        """
        policy = read_settings(
            cls,
            data,
            codes=Codes(unknown_key="unknown_field"),
            optional={Step: OPTIONAL_STEP_FIELDS},
        )
        return policy.validate()


OPTIONAL_STEP_FIELDS: Mapping[str, Any] = {"min_pcn": None, "top_share": None, "min_pp": None}
"""A step without a criterion (the lowest) may leave these out: the only absent keys read."""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _ladder_problems(ladder: tuple[Step, ...]) -> list[Problem]:
    """Problems with the ladder: codes, series order, criteria and their order."""
    found: list[Problem] = []
    if not ladder:
        return [Problem("ladder", "empty_ladder", "The ladder needs at least one step.", {})]
    seen: set[str] = set()
    previous_series: int | None = None
    last_min_pcn: tuple[int, int] | None = None  # (index, value) of the last threshold step
    last_share: tuple[int, Decimal] | None = None
    for index, step in enumerate(ladder):
        where = f"ladder[{index}]"
        if not isinstance(step.code, str) or not step.code.strip():
            found.append(Problem(f"{where}.code", "missing_code", "Every step needs a code.", {}))
        elif step.code in seen:
            found.append(
                Problem(
                    f"{where}.code",
                    "duplicate_step_code",
                    f"Step code {step.code!r} appears more than once in the ladder.",
                    {"step": step.code},
                )
            )
        else:
            seen.add(step.code)
        for label in ("label_fr", "label_en"):
            value = getattr(step, label)
            if not isinstance(value, str) or not value.strip():
                found.append(
                    Problem(
                        f"{where}.{label}",
                        "missing_label",
                        f"Step needs a {label}.",
                        {"label": label},
                    )
                )
        if not _is_int(step.series) or step.series not in SERIES_NUMBERS:
            found.append(
                Problem(
                    f"{where}.series",
                    "series_out_of_range",
                    f"A step's series must be 1, 2, 3 or 4, got {step.series!r}.",
                    {"series": repr(step.series), "lowest": max(SERIES_NUMBERS)},
                )
            )
        else:
            if previous_series is not None and step.series > previous_series:
                found.append(
                    Problem(
                        f"{where}.series",
                        "series_out_of_order",
                        f"Step {step.code!r} (series {step.series}) is above a step of "
                        f"series {previous_series}; the ladder goes from the lowest step up, "
                        "so series numbers may only decrease.",
                        {"step": step.code, "series": step.series, "previous": previous_series},
                    )
                )
            previous_series = step.series
        has_pcn = step.min_pcn is not None
        has_share = step.top_share is not None
        if index == 0:
            if has_pcn or has_share or step.min_pp is not None:
                found.append(
                    Problem(
                        where,
                        "lowest_step_has_criterion",
                        "The lowest step is where every player starts: it takes no "
                        "min_pcn, top_share or min_pp.",
                        {},
                    )
                )
            continue
        if has_pcn and has_share:
            found.append(
                Problem(
                    where,
                    "ambiguous_criterion",
                    f"Step {step.code!r} sets both min_pcn and top_share; set exactly one.",
                    {"step": step.code},
                )
            )
        elif not has_pcn and not has_share:
            found.append(
                Problem(
                    where,
                    "missing_criterion",
                    f"Step {step.code!r} needs either min_pcn or top_share.",
                    {"step": step.code},
                )
            )
        if has_pcn:
            if not _is_int(step.min_pcn) or step.min_pcn < 1:
                found.append(
                    Problem(
                        f"{where}.min_pcn",
                        "threshold_out_of_range",
                        f"min_pcn must be a whole number of PCN, 1 or more, got {step.min_pcn!r}.",
                        {"value": repr(step.min_pcn)},
                    )
                )
            else:
                if last_min_pcn is not None and step.min_pcn <= last_min_pcn[1]:
                    found.append(
                        Problem(
                            f"{where}.min_pcn",
                            "threshold_not_increasing",
                            f"min_pcn of {step.code!r} ({step.min_pcn}) must be greater than "
                            f"that of ladder[{last_min_pcn[0]}] ({last_min_pcn[1]}) below it.",
                            {"step": step.code, "value": step.min_pcn, "below": last_min_pcn[1]},
                        )
                    )
                last_min_pcn = (index, step.min_pcn)
        if has_share:
            share = step.top_share
            if not isinstance(share, Decimal) or not share.is_finite() or not 0 < share <= 1:
                found.append(
                    Problem(
                        f"{where}.top_share",
                        "share_out_of_range",
                        f"top_share must be a decimal above 0 and at most 1, got {share!r}.",
                        {"value": repr(share)},
                    )
                )
            else:
                if last_share is not None and share >= last_share[1]:
                    found.append(
                        Problem(
                            f"{where}.top_share",
                            "share_not_decreasing",
                            f"top_share of {step.code!r} ({share}) must be smaller than that of "
                            f"ladder[{last_share[0]}] ({last_share[1]}) below it: shares are "
                            "cumulative from the top.",
                            {"step": step.code, "value": share, "below": last_share[1]},
                        )
                    )
                last_share = (index, share)
        if step.min_pp is not None and (not _is_int(step.min_pp) or step.min_pp < 0):
            found.append(
                Problem(
                    f"{where}.min_pp",
                    "threshold_out_of_range",
                    f"min_pp must be a whole number of PP, 0 or more, got {step.min_pp!r}.",
                    {"value": repr(step.min_pp)},
                )
            )
    missing = [s for s in SERIES_NUMBERS if all(step.series != s for step in ladder)]
    if missing:
        found.append(
            Problem(
                "ladder",
                "missing_series",
                "The ladder has no step for series " + ", ".join(map(str, missing)) + ".",
                {"series": ", ".join(map(str, missing))},
            )
        )
    return found
