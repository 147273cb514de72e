"""Regional championships and their published rules (CCR); the zone approves them
(« aval du responsable de zone »)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from competitions.championships.calendar_checks import calendar_problems
from competitions.championships.preconditions import (
    refuse,
    require,
)
from competitions.championships.settings_versions import (
    REGIONAL_RULES,
    championship_rules_in_force,
    pure_season,
)
from competitions.models import (
    Championship,
    RegionalChampionship,
    RegionalRulesVersion,
)
from competitions.rules.championships.regional_rules import (
    RegionalRules,
    check_regional_rules,
)
from core.problems import Problem, RuleViolation
from core.versioned_settings import settings_publish
from federation.access import scope_of
from federation.models import (
    Committee,
)


@transaction.atomic
def regional_create(
    *, championship: Championship, committee: Committee, by
) -> tuple[RegionalChampionship, bool]:
    """Open a committee's regional championship (its staff or above); idempotent."""
    require(
        scope_of(by).covers_committee(committee),
        "Only the committee's staff (CCR) or the staff above them run its regional championship.",
    )
    regional, created = RegionalChampionship.objects.get_or_create(
        championship=championship, committee=committee, defaults={"created_by": by}
    )
    return regional, created


def _regional_rules_document(regional: RegionalChampionship, data: dict) -> dict:
    """The rules with the committee and the kind filled, or refused if they name others."""
    if not isinstance(data, dict):
        raise RuleViolation.single(
            "rules", "malformed", "The regional rules are a JSON object.", {}
        )
    committee = str(regional.committee.number)
    kind = regional.championship.kind
    problems = []
    if str(data.get("committee", committee)) != committee:
        problems.append(
            Problem(
                "committee",
                "committee_mismatch",
                f"These rules name committee {data.get('committee')}; they are published for "
                f"committee {committee}.",
                {"given": data.get("committee"), "committee": committee},
            )
        )
    if str(data.get("kind", kind)) != kind:
        problems.append(
            Problem(
                "kind",
                "kind_mismatch",
                f"These rules are for the {data.get('kind')} championship, not {kind}.",
                {"given": data.get("kind"), "kind": kind},
            )
        )
    refuse(problems)
    return {**data, "committee": committee, "kind": kind}


def regional_rules_check(*, regional: RegionalChampionship, data: dict) -> list[Problem]:
    """Every problem of rules a committee would publish (nothing stored)."""
    regional_rules = RegionalRules.from_dict(_regional_rules_document(regional, data))
    return _compliance_problems(regional, regional_rules)


def _compliance_problems(
    regional: RegionalChampionship, regional_rules: RegionalRules
) -> list[Problem]:
    """How the rules break chapter 3 or the national dates under the rules in force."""
    championship = regional.championship
    _version, rules = championship_rules_in_force(
        season=championship.season, kind=championship.kind
    )
    problems = check_regional_rules(regional_rules, pure_season(championship.season), rules)
    problems += calendar_problems(championship, rules, regional_rules=regional_rules)
    return problems


@transaction.atomic
def regional_rules_publish(
    *, regional: RegionalChampionship, data: dict, note: str = "", by
) -> RegionalRulesVersion:
    """Publish a new version of the committee's regional rules, once they comply."""
    regional = RegionalChampionship.objects.select_related(
        "championship__season", "committee__zone"
    ).get(pk=regional.pk)
    return settings_publish(
        REGIONAL_RULES,
        scope={"regional": regional},
        data=data,
        by=by,
        note=note,
        prepare=lambda data: _regional_rules_document(regional, data),
        checks=lambda regional_rules: _compliance_problems(regional, regional_rules),
    )


@transaction.atomic
def regional_rules_approve(*, version: RegionalRulesVersion, by) -> RegionalRulesVersion:
    """Record the zone's approval (« aval du responsable de zone ») of published rules."""
    version = (
        RegionalRulesVersion.objects.select_for_update(of=("self",))
        .select_related("regional__committee__zone")
        .get(pk=version.pk)
    )
    scope = scope_of(by)
    committee = version.regional.committee
    require(
        scope.national or committee.zone_id in scope.zone_ids,
        "Only the staff of the committee's zone (or federation staff) approve regional rules.",
    )
    if version.approved_at is None:
        version.approved_at = timezone.now()
        version.approved_by = by
        version._history_user = by
        version.save(update_fields=["approved_at", "approved_by"])
    return version
