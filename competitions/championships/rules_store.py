"""Storage of the championships' settings and of the committees' published regional rules.

Both follow ``rankings.rulebooks``: immutable versions, the latest in force. A season's
``ChampionshipRules`` of a kind is created at version 1 from the current regulation
(``ChampionshipRules.current``) on first read; the CCN adds versions. A committee's regional
rules are stored only once they pass ``check_regional_rules`` under the rules in force.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from competitions.models import ChampionshipRulesVersion, RegionalChampionship, RegionalRulesVersion
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import RegionalRules
from competitions.rules.championships.seasons import Season as PureSeason
from core.problems import RuleViolation
from core.vocabulary import ChampionshipKind
from federation.models import Season


def pure_season(season: Season) -> PureSeason:
    """The registry's season as the pure core sees it."""
    return PureSeason(season.start_date, season.end_date)


def championship_rules_in_force(
    *, season: Season, kind: str
) -> tuple[ChampionshipRulesVersion, ChampionshipRules]:
    """The latest version of the season's rules for ``kind``, created from the default if none."""
    kind = ChampionshipKind(kind)
    version = (
        ChampionshipRulesVersion.objects.filter(season=season, kind=kind)
        .order_by("-version")
        .first()
    )
    if version is None:
        try:
            with transaction.atomic():
                version = ChampionshipRulesVersion.objects.create(
                    season=season,
                    kind=kind,
                    version=1,
                    data=ChampionshipRules.current(kind).to_dict(),
                    note="Current regulations (default)",
                )
        except IntegrityError:  # created concurrently: read the winner
            version = (
                ChampionshipRulesVersion.objects.filter(season=season, kind=kind)
                .order_by("-version")
                .first()
            )
    return version, ChampionshipRules.from_dict(version.data)


def store_championship_rules(
    *, season: Season, kind: str, data: dict, by, note: str = ""
) -> ChampionshipRulesVersion:
    """Add a version (the caller checked permissions and holds the transaction).

    ``data`` is validated by ``ChampionshipRules.from_dict``; its ``kind`` must be ``kind``.
    """
    data = {**data, "kind": data.get("kind", str(kind))}
    rules = ChampionshipRules.from_dict(data)  # raises RuleViolation, located
    if rules.kind != kind:
        raise RuleViolation.single(
            "kind", "kind_mismatch", f"These settings are for {rules.kind}, not {kind}."
        )
    Season.objects.select_for_update().get(pk=season.pk)  # one writer per season
    last = (
        ChampionshipRulesVersion.objects.filter(season=season, kind=kind)
        .order_by("-version")
        .first()
    )
    return ChampionshipRulesVersion.objects.create(
        season=season,
        kind=kind,
        version=(last.version + 1) if last else 1,
        data=rules.to_dict(),
        note=note,
        created_by=by,
    )


def regional_rules_in_force(
    regional: RegionalChampionship,
) -> tuple[RegionalRulesVersion, RegionalRules] | None:
    """The committee's latest published rules, or ``None`` if it published none."""
    version = regional.rules_versions.order_by("-version").first()
    if version is None:
        return None
    return version, RegionalRules.from_dict(version.data)
