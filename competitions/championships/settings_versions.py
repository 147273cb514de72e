"""Storage of the championships' settings and of the committees' published regional rules,
as immutable versions (:mod:`core.versioned_settings`), the latest in force.

A season's ``ChampionshipRules`` of a kind is created at version 1 from the current
regulation (``ChampionshipRules.current``) on first read; the CCN adds versions. A
committee's regional rules exist only once published, by its staff (CCR) or the staff
above them, and only once they pass ``check_regional_rules`` under the rules in force.
"""

from __future__ import annotations

from competitions.models import ChampionshipRulesVersion, RegionalChampionship, RegionalRulesVersion
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import RegionalRules
from competitions.rules.championships.seasons import Season as PureSeason
from core.problems import Problem
from core.versioned_settings import SettingsKind, settings_in_force, settings_publish
from core.vocabulary import ChampionshipKind
from federation.access import scope_of
from federation.models import Season

CHAMPIONSHIP_RULES: SettingsKind[ChampionshipRulesVersion, ChampionshipRules] = SettingsKind(
    model=ChampionshipRulesVersion,
    read=ChampionshipRules.from_dict,
    write=ChampionshipRules.to_dict,
    default=lambda scope: ChampionshipRules.current(scope["kind"]),
    default_note="Règlement en vigueur (par défaut)",  # stored and shown to staff: French
    may_publish=lambda by, scope: scope_of(by).national,
    refusal="Only federation staff (CCN) set championship rules.",
    lock="season",
)
"""A championship's settings for a season (scope: season and kind): the CCN publishes them."""

REGIONAL_RULES: SettingsKind[RegionalRulesVersion, RegionalRules] = SettingsKind(
    model=RegionalRulesVersion,
    read=RegionalRules.from_dict,
    write=RegionalRules.to_dict,
    may_publish=lambda by, scope: scope_of(by).covers_committee(scope["regional"].committee),
    refusal=(
        "Only the committee's staff (CCR) or the staff above them publish its regional rules."
    ),
    lock="regional",
)
"""A committee's regional rules (scope: the regional championship); no default."""


def pure_season(season: Season) -> PureSeason:
    """The registry's season as the pure core sees it."""
    return PureSeason(season.start_date, season.end_date)


def championship_rules_in_force(
    *, season: Season, kind: str
) -> tuple[ChampionshipRulesVersion, ChampionshipRules]:
    """The latest version of the season's rules for ``kind``, created from the default if none."""
    scope = {"season": season, "kind": ChampionshipKind(kind)}
    return settings_in_force(CHAMPIONSHIP_RULES, scope=scope)  # type: ignore[return-value]


def store_championship_rules(
    *, season: Season, kind: str, data: dict, by, note: str = ""
) -> ChampionshipRulesVersion:
    """Publish a version of the season's settings for ``kind`` (federation staff only).

    ``data`` is validated by ``ChampionshipRules.from_dict``; its ``kind``, if given, must
    be ``kind``.
    """
    kind = ChampionshipKind(kind)
    return settings_publish(
        CHAMPIONSHIP_RULES,
        scope={"season": season, "kind": kind},
        data=data,
        by=by,
        note=note,
        prepare=lambda data: {**data, "kind": data.get("kind", str(kind))},
        checks=lambda rules: _kind_mismatch(rules, kind),
    )


def _kind_mismatch(rules: ChampionshipRules, kind: ChampionshipKind) -> list[Problem]:
    if rules.kind == kind:
        return []
    return [
        Problem(
            "kind",
            "kind_mismatch",
            f"These settings are for {rules.kind}, not {kind}.",
            {"given": rules.kind, "kind": kind},
        )
    ]


def regional_rules_in_force(
    regional: RegionalChampionship,
) -> tuple[RegionalRulesVersion, RegionalRules] | None:
    """The committee's latest published rules, or ``None`` if it published none."""
    return settings_in_force(REGIONAL_RULES, scope={"regional": regional})
