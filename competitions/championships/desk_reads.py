"""Reads of the championships desk (/bureau/championnats/), scoped to the caller's role:
federation staff see every committee, zone staff their zone's, committee staff their
own. National stages are read by every staff member; a committee's regional stages, its
rules and its qualification only by the staff covering it. A fixed number of queries a
page, whatever the number of stages, entries or committees."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery

from competitions.championships import selectors
from competitions.championships.qualification_status import ChampionshipQualification
from competitions.models import (
    Championship,
    ChampionshipStage,
    CommitteeQuota,
    Qualification,
    QualificationTarget,
    RegionalChampionship,
    RegionalRulesVersion,
    StagePenalty,
)
from competitions.rules.championships.qualification import OpenPlaces, QualificationRight
from core.messages import problem_message
from federation.access import Scope
from federation.models import Committee, Player, Season


def committee_filter(scope: Scope, prefix: str = "") -> Q:
    """The committees a staff member covers, as a filter on a committee relation."""
    if scope.national:
        return Q()
    return Q(**{f"{prefix}pk__in": scope.committee_ids}) | Q(
        **{f"{prefix}zone_id__in": scope.zone_ids}
    )


def committees(scope: Scope) -> QuerySet[Committee]:
    return Committee.objects.filter(committee_filter(scope)).order_by("number")


def may_read_stage(scope: Scope, stage: ChampionshipStage) -> bool:
    """National stages: every staff member; a regional stage: the staff covering its
    committee."""
    if not scope.is_staff:
        return False
    if stage.regional is None:
        return True
    return scope.covers_committee(stage.regional.committee)


def season_championships(season: Season) -> list[Championship]:
    return list(selectors.championships().filter(season=season))


def stages_in_scope(scope: Scope, championships: list[Championship]) -> QuerySet:
    """The stages the caller reads, with their active entries counted (one query)."""
    found = selectors.stages().filter(championship__in=championships)
    if not scope.national:  # (an empty Q is dropped from an OR: filter only when needed)
        found = found.filter(Q(regional=None) | committee_filter(scope, "regional__committee__"))
    return found.annotate(
        active_entries=Count(
            "entries", filter=Q(entries__status__in=["eligible", "flagged"]), distinct=True
        )
    ).order_by("championship__kind", "tournament__date", "pk")


def regionals_in_scope(scope: Scope, championships: list[Championship]) -> list:
    """The committees' regional championships the caller covers, each with its rules
    versions (latest first)."""
    return list(
        selectors.regionals()
        .filter(championship__in=championships)
        .filter(committee_filter(scope, "committee__"))
        .order_by("championship__kind", "committee__number")
    )


def awaiting_approval(scope: Scope, season: Season) -> list[RegionalRulesVersion]:
    """The latest published rules of each regional championship of the season that the
    caller's zone (or the CCN) has not approved yet."""
    if not (scope.national or scope.zone_ids):
        return []
    zone = Q() if scope.national else Q(regional__committee__zone_id__in=scope.zone_ids)
    latest = (
        RegionalRulesVersion.objects.filter(regional_id=OuterRef("regional_id"))
        .order_by("-version")
        .values("version")[:1]
    )  # a subquery, not DISTINCT ON: the embedded default (SQLite) runs this page too
    versions = RegionalRulesVersion.objects.filter(
        zone, regional__championship__season=season, version=Subquery(latest)
    ).select_related("regional__committee", "regional__championship", "created_by")
    return sorted(
        (v for v in versions if v.approved_at is None),
        key=lambda v: (v.regional.championship.kind, v.regional.committee.number),
    )


def quotas_in_scope(scope: Scope, championship: Championship) -> list[CommitteeQuota]:
    return list(
        CommitteeQuota.objects.filter(championship=championship)
        .filter(committee_filter(scope, "committee__"))
        .select_related("committee", "set_by")
        .order_by("committee__number")
    )


def stage_penalties(stage: ChampionshipStage) -> QuerySet[StagePenalty]:
    return (
        StagePenalty.objects.filter(stage=stage)
        .select_related("player", "substitute", "entry", "recorded_by")
        .order_by("recorded_at", "pk")
    )


# ---------------------------------------------------------------------------------------------
# The qualification table, per committee


@dataclass
class Qualified:
    place: int | None
    players: list[Player | str]
    right: str
    recorded: bool


@dataclass(frozen=True)
class Recorded:
    """A recorded qualification and its players, by name (its key holds their numbers)."""

    qualification: Qualification
    players: list[Player | str]


@dataclass
class CommitteeTable:
    """One committee's part of the live qualification: its quota, its regional final,
    who is qualified by it now, what is open and what is recorded."""

    committee: Committee
    quota: int | None
    final: ChampionshipStage | None
    qualified: list[Qualified] = field(default_factory=list)
    open_places: list[tuple[OpenPlaces, list[list[Player | str]]]] = field(default_factory=list)
    problems: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    recorded: list[Recorded] = field(default_factory=list)

    @property
    def problem_rows(self) -> list[tuple[str, str]]:
        return [(p.field, problem_message(p)) for p in self.problems]

    @property
    def warning_texts(self) -> list[str]:
        return [problem_message(p) for p in self.warnings]


def _players(names: dict[int, Player], numbers) -> list[Player | str]:
    return [names.get(int(n)) or str(n) for n in numbers]


def committee_tables(scope: Scope, status: ChampionshipQualification) -> list[CommitteeTable]:
    """Each committee in the caller's scope that has a quota or a regional final, with its
    part of ``status`` (computed once by the caller) and its recorded qualifications."""
    championship = status.championship
    quotas = {q.committee.number: q for q in quotas_in_scope(scope, championship)}
    finals = {int(c): s for c, s in status.regional_finals.items()}
    numbers = set(quotas) | set(finals)
    shown = {c.number: c for c in committees(scope).filter(number__in=numbers)}
    recorded = Qualification.objects.filter(
        championship=championship,
        target=QualificationTarget.NATIONAL_FINAL,
        right=QualificationRight.COMMITTEE_QUOTA,
        committee__number__in=list(shown),
    ).order_by("place", "key")
    recorded_by: dict[int, list[Qualification]] = {}
    for row in recorded.select_related("committee", "recorded_by"):
        recorded_by.setdefault(row.committee.number, []).append(row)  # type: ignore[union-attr]  # filtered on committee
    national = status.national
    names = {**status.players, **tied_players(status)}
    recorded_numbers = {
        int(n) for rows in recorded_by.values() for r in rows for n in r.key.split("-")
    }
    names.update(
        (p.licence_number, p)
        for p in Player.objects.filter(licence_number__in=recorded_numbers - set(names))
    )
    keys_recorded = {
        (row.committee.number, row.key)  # type: ignore[union-attr]  # filtered on committee
        for rows in recorded_by.values()
        for row in rows
        if row.status == "qualified"
    }
    tables = []
    for number in sorted(shown):
        quota = quotas.get(number)
        table = CommitteeTable(shown[number], quota.places if quota else None, finals.get(number))
        text = str(number)
        if national is not None:
            for q in national.qualified:
                if q.right is QualificationRight.COMMITTEE_QUOTA and q.committee == text:
                    key = "-".join(str(n) for n in sorted(int(n) for n in q.entry.licence_numbers))
                    table.qualified.append(
                        Qualified(
                            q.place,
                            _players(names, q.entry.licence_numbers),
                            str(q.right),
                            (number, key) in keys_recorded,
                        )
                    )
            for o in national.open_places:
                if o.right is QualificationRight.COMMITTEE_QUOTA and o.committee == text:
                    tied = [_players(names, key.split("-")) for key in o.tied]
                    table.open_places.append((o, tied))
        table.qualified.sort(key=lambda q: q.place or 0)
        mine = (f"regional_finals.{text}.", f"quotas.{text}", f"regionals.{text}")
        table.problems = [p for p in status.problems if p.field.startswith(mine)]
        table.warnings = [p for p in status.warnings if p.field.startswith(mine)]
        table.recorded = [
            Recorded(row, _players(names, row.key.split("-")))
            for row in recorded_by.get(number, [])
        ]
        tables.append(table)
    return tables


def tied_players(status: ChampionshipQualification) -> dict[int, Player]:
    """The players named in ties (not among ``status.players``, which names the qualified)."""
    national = status.national
    if national is None:
        return {}
    numbers = {int(n) for o in national.open_places for key in o.tied for n in key.split("-")}
    missing = numbers - set(status.players)
    return {p.licence_number: p for p in Player.objects.filter(licence_number__in=missing)}


def regional_with_versions(pk: int) -> RegionalChampionship | None:
    return (
        RegionalChampionship.objects.select_related("championship__season", "committee__zone")
        .prefetch_related(
            Prefetch(
                "rules_versions",
                queryset=RegionalRulesVersion.objects.select_related(
                    "created_by", "approved_by"
                ).order_by("-version"),
            )
        )
        .filter(pk=pk)
        .first()
    )
