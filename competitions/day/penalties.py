"""Penalties and abandons of the day, recorded by those who run it.

- **A penalty** (chapter 4) hits one licensed player: its kind from the catalogue, its amount
  from the season's schedule and repeat rule (``competitions.tournaments.repeats.offence_cost``:
  the player's offences earlier in this tournament, and under ``same_fault_same_season`` in the
  season's earlier tournaments); a late arrival costs so much per started period of lateness
  (article 26); ethics and smoking have no amount in the texts, so the arbiter gives it. An
  amount other than the schedule's is refused, saying which amount applies and why.
- **A score-sheet fault** (« les 4 joueurs sont responsables ») hits every player of the table
  at that position, each the whole amount or a share, as the season's rulebook says.
- **A removal** keeps the penalty, with who, when and why; it no longer counts.
- **An abandon** (article 27): after which session and position the entry left, and whether
  the arbiter agreed; it is ranked last either way (the accord spares the sanction, for the
  committee to judge from the arbiter's report).

Only those who run the day act here (``competitions.day.access.may_run_day``); anyone else is
refused without learning anything. Each write is one transaction.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from competitions.day.access import author, locked
from competitions.day.closing import day_results, require_runner
from competitions.models import (
    DayPenalty,
    EntryMember,
    EntryState,
    PlayedSession,
    Tournament,
    TournamentEntry,
)
from competitions.rulebooks import rulebook_in_force
from competitions.rules.day.layout import layout_from_json
from competitions.rules.day.results_document import seated_players
from competitions.rules.engine.penalties import (
    CATALOGUE,
    SCORE_SHEET_KINDS,
    AmountRule,
    Penalty,
    PenaltyKind,
    check_penalty,
    late_arrival,
    score_sheet_fault,
)
from competitions.tournaments.repeats import offence_cost
from core.problems import RuleViolation
from federation.access import Actor

MAX_PENALTY_POINTS = 10_000
MAX_LATENESS_MINUTES = 600


def penalty_kind(value: str) -> PenaltyKind:
    try:
        return PenaltyKind(value)
    except ValueError:
        raise RuleViolation.single(
            "kind",
            "unknown_penalty_kind",
            f"{value!r} is not a kind of penalty.",
            {"value": value, "kinds": ", ".join(CATALOGUE[k].label_fr for k in PenaltyKind)},
        ) from None


def _round_checked(tournament: Tournament, session: int | None, position: int | None) -> None:
    """A (session, position) the penalty or abandon refers to must have been drawn."""
    if session is None and position is None:
        return
    if session is None or position is None:
        raise RuleViolation.single(
            "position" if position is None else "session",
            "day_round_incomplete",
            "Give both the session and the position, or neither.",
        )
    played = PlayedSession.objects.filter(tournament=tournament, number=session).first()
    if played is None or not 1 <= position <= played.positions:
        raise RuleViolation.single(
            "position",
            "day_round_unknown",
            f"Session {session}, position {position} has not been drawn.",
            {"session": session, "position": position},
        )


def _reason(reason: str, field: str = "reason") -> str:
    reason = (reason or "").strip()
    if not reason:
        raise RuleViolation.single(field, "blank_reason", "A penalty is recorded with its reason.")
    if len(reason) > 300:
        raise RuleViolation.single(
            field, "day_reason_too_long", "At most 300 characters.", {"limit": 300}
        )
    return reason


def penalty_amount(
    *,
    tournament: Tournament,
    member: EntryMember,
    kind: PenaltyKind,
    points: int | None,
    lateness_minutes: int | None,
    by: Actor,
) -> int:
    """The points this offence costs this player now (the schedule, the repeat rule); a
    ``points`` given that differs from it is refused."""
    assert member.player is not None
    _, rulebook = rulebook_in_force(season=tournament.season)
    schedule = rulebook.arbitration.schedule()
    earlier = [
        PenaltyKind(k)
        for k in DayPenalty.objects.filter(
            tournament=tournament, member=member, removed_at__isnull=True
        ).values_list("kind", flat=True)
    ]
    cost = offence_cost(
        tournament=tournament,
        licence_number=member.player.licence_number,
        kind=kind,
        in_tournament=earlier,
        by=by,
    )
    label = CATALOGUE[kind].label_fr
    if cost.amount_rule is AmountRule.PER_STARTED_PERIOD:
        if lateness_minutes is None or not 1 <= lateness_minutes <= MAX_LATENESS_MINUTES:
            raise RuleViolation.single(
                "lateness_minutes",
                "day_lateness_required",
                "Give the lateness in minutes: a late arrival costs so much per started period.",
                {"period": int(schedule.late_arrival_period.total_seconds() // 60)},
            )
        expected = late_arrival(timedelta(minutes=lateness_minutes), schedule).points
    elif cost.amount_rule is AmountRule.ARBITER_JUDGEMENT:
        if points is None or not 0 <= points <= MAX_PENALTY_POINTS:
            raise RuleViolation.single(
                "points",
                "day_points_required",
                f"The texts set no amount for '{kind}': give the points (0 to "
                f"{MAX_PENALTY_POINTS}).",
                {"label": label, "limit": MAX_PENALTY_POINTS},
            )
        return points
    else:
        assert cost.points is not None
        expected = cost.points
    if points is not None and points != expected:
        raise RuleViolation.single(
            "points",
            "day_penalty_amount_differs",
            f"This '{kind}' penalty costs {expected} points here (offence number "
            f"{cost.offence_number}), not {points}.",
            {
                "label": label,
                "expected": expected,
                "points": points,
                "offence": cost.offence_number,
            },
        )
    return expected


@transaction.atomic
def penalty_record(
    *,
    tournament: Tournament,
    member_id: int,
    kind: str,
    reason: str,
    by: Actor,
    points: int | None = None,
    lateness_minutes: int | None = None,
    session: int | None = None,
    position: int | None = None,
) -> DayPenalty:
    """Record a penalty against a licensed player of the tournament (its amount from the
    schedule and the repeat rule, see :func:`penalty_amount`)."""
    require_runner(tournament, by)
    # Penalties of one tournament are recorded one at a time: a repeat's rank is exact.
    locked(tournament)
    found = penalty_kind(kind)
    member = (
        EntryMember.objects.select_related("player", "entry")
        .filter(pk=member_id, tournament=tournament, active=True)
        .first()
    )
    if member is None:
        raise RuleViolation.single(
            "member", "day_member_unknown", "This player is not entered in this tournament."
        )
    if member.player is None:
        raise RuleViolation.single(
            "member",
            "day_penalty_non_licensee",
            f"{member.name} has no licence number: the results carry a penalty only on a "
            "licence number.",
            {"name": member.name},
        )
    if found in SCORE_SHEET_KINDS:
        raise RuleViolation.single(
            "kind",
            "day_sheet_fault_is_the_tables",
            "A score-sheet fault is the whole table's: record it for the table.",
        )
    text = _reason(reason)
    _round_checked(tournament, session, position)
    amount = penalty_amount(
        tournament=tournament,
        member=member,
        kind=found,
        points=points,
        lateness_minutes=lateness_minutes,
        by=by,
    )
    _, rulebook = rulebook_in_force(season=tournament.season)
    check_penalty(
        Penalty(str(member.player.licence_number), found, amount, text),
        rulebook.arbitration.schedule(),
    )
    return DayPenalty.objects.create(
        tournament=tournament,
        member=member,
        kind=found.value,
        points=amount,
        session=session,
        position=position,
        reason=text,
        recorded_by=author(by),
    )


@transaction.atomic
def sheet_fault_record(
    *,
    tournament: Tournament,
    session: int,
    position: int,
    table: int,
    kind: str,
    reason: str,
    by: Actor,
) -> list[DayPenalty]:
    """A fault on a table's score sheet at a position: every licensed player of the table
    is penalised (the whole amount each, or the table's share, as the rulebook says)."""
    require_runner(tournament, by)
    locked(tournament)
    found = penalty_kind(kind)
    if found not in SCORE_SHEET_KINDS:
        raise RuleViolation.single(
            "kind",
            "not_a_score_sheet_fault",
            f"'{found}' is not a score-sheet fault.",
            {"kind": found.value},
        )
    text = _reason(reason)
    _round_checked(tournament, session, position)
    played = PlayedSession.objects.get(tournament=tournament, number=session)
    day = day_results(tournament=tournament)
    day_session = next(s for s in day.sessions if s.number == session)
    try:
        table_at = layout_from_json(played.plan).table(position, table)
    except RuleViolation:
        raise RuleViolation.single(
            "table",
            "day_table_unknown",
            f"Table {table} does not play position {position}.",
            {"table": table, "position": position},
        ) from None
    keys = list(seated_players(day, day_session, table_at).values())
    _, rulebook = rulebook_in_force(season=tournament.season)
    charged = score_sheet_fault(
        found, [str(k) for k in keys], text, rulebook.arbitration.schedule()
    )
    members = {
        m.player.licence_number: m  # type: ignore[union-attr]  # licensees only
        for m in EntryMember.objects.select_related("player").filter(
            tournament=tournament,
            active=True,
            player__licence_number__in=[k for k in keys if isinstance(k, int)],
        )
    }
    recorded = []
    for penalty in charged:
        member = members.get(int(penalty.player)) if penalty.player.isdigit() else None
        if member is None:
            continue  # a non-licensee: the results carry penalties on licence numbers only
        recorded.append(
            DayPenalty.objects.create(
                tournament=tournament,
                member=member,
                kind=found.value,
                points=penalty.points,
                session=session,
                position=position,
                reason=text,
                recorded_by=author(by),
            )
        )
    return recorded


@transaction.atomic
def penalty_remove(*, penalty: DayPenalty, reason: str, by: Actor) -> DayPenalty:
    """Take a penalty back: it stays recorded, with who removed it, when and why."""
    require_runner(penalty.tournament, by)
    locked = DayPenalty.objects.select_for_update().get(pk=penalty.pk)
    if locked.removed_at is not None:
        raise RuleViolation.single(
            "penalty", "day_penalty_already_removed", "This penalty was already removed."
        )
    locked.removal_reason = _reason(reason, "removal_reason")
    locked.removed_at = timezone.now()
    locked.removed_by = author(by)
    locked.save(update_fields=["removal_reason", "removed_at", "removed_by"])
    return locked


@transaction.atomic
def abandon_record(
    *,
    tournament: Tournament,
    entry_number: int,
    session: int,
    position: int,
    agreed: bool,
    by: Actor,
) -> TournamentEntry:
    """An entry left the tournament after ``position`` of ``session``, with or without the
    arbiter's accord (article 27: ranked last either way)."""
    require_runner(tournament, by)
    entry = (
        TournamentEntry.objects.select_for_update()
        .filter(tournament=tournament, number=entry_number, state=EntryState.ENTERED)
        .first()
    )
    if entry is None:
        raise RuleViolation.single(
            "entry",
            "day_entry_unknown",
            f"No entry numbered {entry_number} is entered in this tournament.",
            {"number": entry_number},
        )
    if entry.abandoned_session is not None:
        raise RuleViolation.single(
            "entry",
            "day_abandon_already",
            f"Entry {entry_number} already abandoned (session {entry.abandoned_session}, after "
            f"position {entry.abandoned_position}).",
            {
                "number": entry_number,
                "session": entry.abandoned_session,
                "position": entry.abandoned_position,
            },
        )
    _round_checked(tournament, session, position)
    entry.abandoned_session = session
    entry.abandoned_position = position
    entry.abandon_agreed = bool(agreed)
    entry.save(update_fields=["abandoned_session", "abandoned_position", "abandon_agreed"])
    return entry


@transaction.atomic
def abandon_cancel(*, tournament: Tournament, entry_number: int, by: Actor) -> TournamentEntry:
    """An abandon recorded by mistake: the entry plays on."""
    require_runner(tournament, by)
    entry = (
        TournamentEntry.objects.select_for_update()
        .filter(tournament=tournament, number=entry_number, abandoned_session__isnull=False)
        .first()
    )
    if entry is None:
        raise RuleViolation.single(
            "entry",
            "day_abandon_unknown",
            f"Entry {entry_number} has not abandoned.",
            {"number": entry_number},
        )
    entry.abandoned_session = entry.abandoned_position = entry.abandon_agreed = None
    entry.save(update_fields=["abandoned_session", "abandoned_position", "abandon_agreed"])
    return entry
