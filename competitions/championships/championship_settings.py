"""The season's championships, their settings, the committees' quotas and the outgoing
champion: the CCN's writes (federation staff only)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db import transaction

from competitions.championships.preconditions import (
    locked_championship,
    refuse,
    require,
)
from competitions.championships.settings_versions import (
    championship_rules_in_force,
    store_championship_rules,
)
from competitions.models import (
    Championship,
    ChampionshipKindChoice,
    CommitteeQuota,
)
from core.problems import Problem
from core.vocabulary import ChampionshipKind
from federation.access import scope_of
from federation.models import (
    Committee,
    Player,
    Season,
)


@transaction.atomic
def championships_create(
    *, season: Season, kinds: Iterable[str] | None = None, by
) -> list[tuple[Championship, bool]]:
    """Create the season's championships (the four by default); existing ones are returned."""
    require(scope_of(by).national, "Only federation staff (CCN) create championships.")
    kinds = list(kinds) if kinds is not None else list(ChampionshipKindChoice.values)
    unknown = [k for k in kinds if k not in ChampionshipKindChoice.values]
    refuse(
        [
            Problem(
                f"kinds[{kinds.index(k)}]",
                "unknown_kind",
                f"{k!r} is not a championship; one of {', '.join(ChampionshipKindChoice.values)}.",
                {"kind": k, "kinds": ", ".join(ChampionshipKindChoice.values)},
            )
            for k in unknown
        ]
    )
    made = []
    for kind in dict.fromkeys(kinds):
        championship, created = Championship.objects.get_or_create(
            season=season, kind=kind, defaults={"created_by": by}
        )
        championship_rules_in_force(season=season, kind=kind)  # version 1 from the regulation
        made.append((championship, created))
    return made


@transaction.atomic
def championship_rules_update(*, championship: Championship, data: dict, note: str = "", by):
    """Publish a new version of the championship's settings for its season (CCN; the
    permission is the store's, ``settings_versions.CHAMPIONSHIP_RULES``)."""
    return store_championship_rules(
        season=championship.season, kind=championship.kind, data=data, by=by, note=note
    )


@transaction.atomic
def quotas_set(
    *, championship: Championship, quotas: Mapping[int, int], by
) -> list[CommitteeQuota]:
    """Set committees' places at the national final (CCN); committees not named keep theirs."""
    require(scope_of(by).national, "Only federation staff (CCN) set the quotas.")
    championship = locked_championship(championship)
    committees = {c.number: c for c in Committee.objects.filter(number__in=list(quotas))}
    problems = []
    for number, places in quotas.items():
        if number not in committees:
            problems.append(
                Problem(
                    f"quotas.{number}",
                    "unknown_committee",
                    f"No committee numbered {number}.",
                    {"committee": number},
                )
            )
        if not isinstance(places, int) or isinstance(places, bool) or places < 0:
            problems.append(
                Problem(
                    f"quotas.{number}",
                    "invalid_quota",
                    f"A quota is a number of places of at least 0, got {places!r}.",
                    {"committee": number, "value": places},
                )
            )
    refuse(problems)
    saved = []
    for number, places in sorted(quotas.items()):
        quota = CommitteeQuota.objects.filter(
            championship=championship, committee=committees[number]
        ).first() or CommitteeQuota(championship=championship, committee=committees[number])
        quota.places = places
        quota.set_by = by
        quota._history_user = by
        quota.save()
        saved.append(quota)
    return saved


@transaction.atomic
def outgoing_champion_set(
    *, championship: Championship, licence_numbers: list[int] | None, note: str = "", by
) -> Championship:
    """Name the outgoing national champion (CCN). ``None``: derive it from the previous
    season's national final; ``[]``: no outgoing champion (article 30 of fascicule 1)."""
    require(scope_of(by).national, "Only federation staff (CCN) set the outgoing champion.")
    championship = locked_championship(championship)
    if licence_numbers:
        kind = ChampionshipKind(championship.kind)
        known = set(
            Player.objects.filter(licence_number__in=licence_numbers).values_list(
                "licence_number", flat=True
            )
        )
        problems = [
            Problem(
                f"licence_numbers[{i}]",
                "unknown_player",
                f"No player with licence {n}.",
                {"licence": n},
            )
            for i, n in enumerate(licence_numbers)
            if n not in known
        ]
        if len(set(licence_numbers)) != kind.team_size:
            problems.append(
                Problem(
                    "licence_numbers",
                    "wrong_team_size",
                    f"A {kind} champion is {kind.team_size} player(s), got "
                    f"{len(set(licence_numbers))}.",
                    {"size": kind.team_size, "players": len(set(licence_numbers))},
                )
            )
        refuse(problems)
        licence_numbers = sorted(set(licence_numbers))
    championship.outgoing_champion = licence_numbers
    championship.outgoing_champion_note = note
    championship._history_user = by
    championship.save(update_fields=["outgoing_champion", "outgoing_champion_note"])
    return championship
