"""The zone's approval of a committee's regional rules (preamble of chapter 3, fasc. 1040):
« Le règlement du championnat régional doit être adressé, en début de saison, au responsable
de zone pour aval. Les épreuves se déroulant sans son aval sont nulles. »

A regional stage is held under the rules version it was created from
(``ChampionshipStage.rules_version``). Under the season's rulebook setting
``championships.unapproved_regional_rules`` = ``void`` (the default, as the text says), a
stage whose version has no approval of the zone is void: its results are not homologated
(so no PCN, whichever path homologates it) and it qualifies nobody, nor makes a regional
champion. Under ``warning`` the stage counts and staff are warned.
See docs/championships-service.md and docs/rulebook-settings.md.
"""

from __future__ import annotations

from competitions.models import ChampionshipStage
from competitions.rules.rulebook import Rulebook, UnapprovedRegionalRules
from core.batch_memo import memoized
from core.problems import Problem


def void_stage_problem(stage: ChampionshipStage, rulebook: Rulebook) -> Problem | None:
    """Why ``stage`` is void for want of the zone's approval, or None if it counts."""
    if rulebook.championships.unapproved_regional_rules is not UnapprovedRegionalRules.VOID:
        return None
    if stage.regional_id is None:  # national stages are the CCN's: no zone approves them
        return None
    version = stage.rules_version
    if version is not None and version.approved_at is not None:
        return None
    committee = stage.regional.committee.number  # type: ignore[union-attr]  # regional_id set
    number = version.version if version is not None else 0
    return Problem(
        "stage",
        "regional_stage_without_zone_approval",
        f"This stage of committee {committee} is held under version {number} of its regional "
        "rules, which the zone has not approved: the stage is void (« Les épreuves se "
        "déroulant sans son aval sont nulles »), so it gives no PCN and qualifies nobody.",
        {"committee": committee, "version": number},
    )


def championship_stage_of(tournament_id: int) -> ChampionshipStage | None:
    """The championship stage played as this tournament, if any, with what its
    homologation reads (its championship, regional championship and committee, rules
    version); read once per batch of a bulk load (:mod:`core.batch_memo`)."""
    return memoized(
        ("championship_stage_of", tournament_id),
        lambda: (
            ChampionshipStage.objects.filter(tournament_id=tournament_id)
            .select_related("championship", "regional__committee", "rules_version")
            .first()
        ),
    )
