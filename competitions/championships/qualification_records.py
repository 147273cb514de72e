"""Recording the qualifications as they stand, and registering the national final's field
from them (CCN)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from competitions.championships import selectors
from competitions.championships.entries import (
    EntryRequest,
    deactivate_entry,
    entry_problems,
    store_entry,
)
from competitions.championships.facts import players_facts
from competitions.championships.preconditions import (
    locked_championship,
    locked_stage,
    refuse,
    require,
    stage_not_played,
)
from competitions.championships.qualification_status import (
    ChampionshipQualification,
    entry_key,
    qualification_status,
)
from competitions.championships.settings_versions import (
    championship_rules_in_force,
)
from competitions.models import (
    Championship,
    ChampionshipEntry,
    ChampionshipStage,
    ChampionshipStageKind,
    EntryStatus,
    Qualification,
    QualificationStatus,
    QualificationTarget,
    TournamentStatus,
)
from competitions.rules.championships.qualification import QualificationRight
from core.problems import Problem, RuleViolation
from federation.access import scope_of
from federation.models import (
    Club,
    Committee,
)


@dataclass(frozen=True)
class Recorded:
    status: ChampionshipQualification
    qualifications: list[Qualification]


def qualification_rows(status: ChampionshipQualification) -> list[dict]:
    """The qualifications of a live status as rows (what recording stores)."""
    rows = []
    national = status.national
    if national is not None:
        for q in national.qualified:
            rows.append(_row(status, q, QualificationTarget.NATIONAL_FINAL, "qualified", ""))
        for lost in national.lost:
            rows.append(
                _row(
                    status,
                    lost.qualification,
                    QualificationTarget.NATIONAL_FINAL,
                    QualificationStatus.LOST,
                    lost.message,
                )
            )
    for q in status.carry_over.qualified:
        rows.append(_row(status, q, QualificationTarget.REGIONAL_FINAL, "qualified", ""))
    return rows


def _one_row_per_entry(rows: list[dict]) -> list[dict]:
    """An entry that lost its place by playing the national qualifier and won one back there
    is recorded once, qualified, with the loss in its message."""
    merged: dict[tuple[str, str], dict] = {}
    for row in rows:
        key = (row["target"], row["key"])
        found = merged.get(key)
        if found is None:
            merged[key] = row
        elif row["status"] == QualificationStatus.QUALIFIED:
            merged[key] = {**row, "message": found["message"] or row["message"]}
        else:
            found["message"] = row["message"]
    return list(merged.values())


def _row(status: ChampionshipQualification, q, target: str, state: str, message: str) -> dict:
    right = QualificationRight(q.right)
    if right is QualificationRight.COMMITTEE_QUOTA:
        source = status.regional_finals.get(q.committee)
    elif right in (QualificationRight.NATIONAL_QUALIFIER, QualificationRight.REATTRIBUTED_PLACE):
        source = status.qualifier
    elif right is QualificationRight.REGIONAL_CHAMPION:
        source = status.previous_finals.get(q.committee)
    else:
        source = None
    team = q.entry.team
    return {
        "target": target,
        "key": entry_key(q.entry.licence_numbers),
        "licence_numbers": sorted(int(n) for n in q.entry.licence_numbers),
        "right": str(q.right),
        "status": state,
        "committee": int(q.committee) if q.committee else None,
        "place": q.place,
        "source_stage": source,
        "team": team,
        "message": message,
    }


@transaction.atomic
def qualification_record(*, championship: Championship, by) -> Recorded:
    """Record the qualifications as they stand (CCN). A row no longer computed is kept as
    ``withdrawn``; an interclubs team keeps the snapshot of its first recording."""
    require(scope_of(by).national, "Only federation staff (CCN) record the qualifications.")
    championship = locked_championship(championship)
    status = qualification_status(championship)
    rows = _one_row_per_entry(qualification_rows(status))
    existing = {
        (q.target, q.key): q for q in Qualification.objects.filter(championship=championship)
    }
    saved = _store(championship, rows, existing, by)
    return Recorded(status, saved)


def _store(
    championship: Championship, rows: list[dict], existing: dict[tuple[str, str], Qualification], by
) -> list[Qualification]:
    """Write ``rows`` over the ``existing`` recorded qualifications; an existing one not
    among the rows becomes ``withdrawn``. Inside the caller's transaction."""
    committees = {
        c.number: c
        for c in Committee.objects.filter(
            number__in=[int(r["committee"]) for r in rows if r["committee"]]
            + [int(r["team"].committee) for r in rows if r["team"]]
        )
    }
    clubs = {
        c.number: c
        for c in Club.objects.filter(number__in=[int(r["team"].club) for r in rows if r["team"]])
    }
    seen = set()
    saved = []
    for row in rows:
        seen.add((row["target"], row["key"]))
        q = existing.get((row["target"], row["key"])) or Qualification(
            championship=championship, target=row["target"], key=row["key"]
        )
        q.licence_numbers = row["licence_numbers"]
        q.right = row["right"]
        q.status = row["status"]
        q.committee = committees.get(row["committee"]) if row["committee"] else None
        q.place = row["place"]
        q.source_stage = row["source_stage"]
        q.message = row["message"]
        team = row["team"]
        if team is not None and q.team_club_id is None:
            q.team_club = clubs.get(int(team.club))
            q.team_committee = committees.get(int(team.committee))
            q.team_series = list(team.series)
            q.team_taken_on = team.taken_on
        q.recorded_by = by
        q._history_user = by
        q.save()
        saved.append(q)
    for key, q in existing.items():
        if key not in seen and q.status != QualificationStatus.WITHDRAWN:
            q.status = QualificationStatus.WITHDRAWN
            q.message = f"No longer qualified on {timezone.localdate():%Y-%m-%d}."
            q.recorded_by = by
            q._history_user = by
            q.save()
            saved.append(q)
    return saved


@transaction.atomic
def committee_qualification_record(
    *, championship: Championship, committee: Committee, by
) -> Recorded:
    """Record the places a committee's regional final gives at the national final (its
    quota), as they stand: the committee's staff (CCR) or the staff above them. Only that
    committee's quota rows are written; one no longer computed becomes ``withdrawn``. The
    rest of the championship is the CCN's (:func:`qualification_record`)."""
    require(
        scope_of(by).covers_committee(committee),
        "Only the committee's staff (CCR) or the staff above them record its qualification.",
    )
    championship = locked_championship(championship)
    status = qualification_status(championship)
    number = str(committee.number)
    final = status.regional_finals.get(number)
    counted = final is not None and not any(
        p.field.startswith(f"regional_finals.{number}.") or p.field == f"quotas.{number}"
        for p in status.problems
    )
    homologated = final is not None and final.tournament.status == TournamentStatus.HOMOLOGATED
    if not (counted and homologated):
        raise RuleViolation.single(
            "committee",
            "regional_final_not_counted",
            f"Committee {number}'s regional final is not counted yet (not played, not "
            "homologated, its results do not comply or it has no quota): there is nothing "
            "to record.",
            {"committee": number},
        )
    rows = [
        row
        for row in _one_row_per_entry(qualification_rows(status))
        if row["target"] == QualificationTarget.NATIONAL_FINAL
        and row["right"] == QualificationRight.COMMITTEE_QUOTA
        and row["committee"] == committee.number
    ]
    existing = {
        (q.target, q.key): q
        for q in Qualification.objects.filter(
            championship=championship,
            target=QualificationTarget.NATIONAL_FINAL,
            right=QualificationRight.COMMITTEE_QUOTA,
            committee=committee,
        )
    }
    return Recorded(status, _store(championship, rows, existing, by))


@dataclass(frozen=True)
class FinalField:
    created: list[ChampionshipEntry] = field(default_factory=list)
    withdrawn: list[ChampionshipEntry] = field(default_factory=list)
    refused: list[Problem] = field(default_factory=list)


@transaction.atomic
def national_final_register(*, championship: Championship, by) -> FinalField:
    """Record the qualifications, then enter every qualified entry in the national final,
    each checked on the day of the final (licence of the season then in course). Entries
    whose qualification was lost or withdrawn are withdrawn. Refusals are listed, the
    others entered."""
    require(scope_of(by).national, "Only federation staff (CCN) register the national final.")
    final = (
        ChampionshipStage.objects.filter(
            championship=championship, kind=ChampionshipStageKind.NATIONAL_FINAL
        )
        .select_related(*selectors.STAGE_RELATED)
        .first()
    )
    if final is None:
        raise RuleViolation.single(
            "stage",
            "no_national_final",
            f"{championship} has no national final yet.",
            {"championship": str(championship)},
        )
    final = locked_stage(final)
    refuse(stage_not_played(final))
    recorded = qualification_record(championship=championship, by=by)
    _version, rules = championship_rules_in_force(
        season=championship.season, kind=championship.kind
    )
    result = FinalField()
    entries = list(final.entries.select_related("qualification"))
    for entry in entries:
        q = entry.qualification
        if entry.status == EntryStatus.ELIGIBLE and (
            q is None or q.status != QualificationStatus.QUALIFIED
        ):
            deactivate_entry(entry, EntryStatus.WITHDRAWN, by)
            result.withdrawn.append(entry)
    registered = {e.qualification_id for e in entries if e.status == EntryStatus.ELIGIBLE}
    qualified = [
        q
        for q in recorded.qualifications
        if q.target == QualificationTarget.NATIONAL_FINAL
        and q.status == QualificationStatus.QUALIFIED
        and q.pk not in registered
    ]
    facts = players_facts(
        season=final.tournament.season,
        licence_numbers=[n for q in qualified for n in q.licence_numbers],
    )
    active = {n for key in selectors.entries_by_players(final) for n in key}
    number = max((e.number for e in entries), default=0)
    for q in qualified:
        prefix = f"qualified.{q.key}"
        problems = entry_problems(final, list(q.licence_numbers), facts, rules, prefix)
        problems += [
            Problem(
                prefix,
                "already_entered",
                f"licence {n} is already in the national final.",
                {"licence": n},
            )
            for n in q.licence_numbers
            if n in active
        ]
        if problems:
            result.refused.extend(problems)
            continue
        number += 1
        extra = {"right": q.right, "qualification": q}
        entry = store_entry(
            final, number, EntryRequest(tuple(q.licence_numbers)), facts, rules, by, **extra
        )
        if q.team_club_id is not None:  # article 16: the team as on its qualification day
            entry.club = q.team_club
            entry.committee = q.team_committee
            entry.series = q.team_series
            entry.save(update_fields=["club", "committee", "series"])
        active |= set(q.licence_numbers)
        result.created.append(entry)
    return result
