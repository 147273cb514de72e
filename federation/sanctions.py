"""Sanctions against players (fascicule 2, chapter 4, the arbitration code): recorded by
federation staff with their dates and reason, listed to staff within their scope.

A suspended player may not play (docs/sanctions.md): the championships' facts
(:func:`competitions.championships.facts.players_facts`) and the results' registry lookup
(:func:`competitions.tournaments.submission.registry_lookup`) read suspensions inside
their own queries."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import QuerySet

from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from federation.access import Actor, Scope, scope_of
from federation.models import Licence, Player, Sanction, SanctionKind
from federation.selectors import current_season

REASON_MAX_LENGTH = 2000


@transaction.atomic
def sanction_record(
    *,
    player: Player,
    kind: str,
    starts: dt.date,
    ends: dt.date | None,
    reason: str,
    by: Actor,
) -> Sanction:
    """Record a sanction against ``player`` (federation staff only); every problem of the
    input is refused at once, located, and nothing is stored."""
    if not scope_of(by).national:
        raise PermissionDenied("Only federation staff may record a sanction.")
    reason = reason.strip()
    problems = _problems(kind, starts, ends, reason)
    if problems:
        raise RuleViolation(problems)
    # Past the permission check, ``by`` is a staff account, never anonymous.
    sanction = Sanction(
        player=player,
        kind=kind,
        starts=starts,
        ends=ends,
        reason=reason,
        decided_by=by,  # type: ignore[misc]
    )
    sanction._history_user = by  # type: ignore[attr-defined]
    sanction.save()
    return sanction


def _problems(kind: str, starts: dt.date, ends: dt.date | None, reason: str) -> list[Problem]:
    problems = []
    if kind not in SanctionKind.values:
        kinds = ", ".join(SanctionKind.values)
        problems.append(
            Problem(
                "kind",
                "unknown_sanction_kind",
                f"{kind!r} is not a kind of sanction; one of: {kinds}.",
                {"value": kind, "kinds": kinds},
            )
        )
    if kind == SanctionKind.SUSPENSION and ends is None:
        problems.append(
            Problem(
                "ends",
                "suspension_without_end",
                "A suspension has an end: its last day.",
                {},
            )
        )
    if kind in (SanctionKind.WARNING, SanctionKind.EXCLUSION) and ends is not None:
        problems.append(
            Problem(
                "ends",
                "sanction_without_duration",
                f"A {kind} is given on one day and has no end; leave the end empty.",
                {"kind": SanctionKind(kind).label},
            )
        )
    elif ends is not None and ends <= starts:
        problems.append(
            Problem(
                "ends",
                "sanction_ends_not_after_start",
                f"The sanction ends on {ends}, not after it starts on {starts}.",
                {"starts": starts, "ends": ends},
            )
        )
    if not reason:
        problems.append(Problem("reason", "required", "A sanction needs its reason.", {}))
    elif len(reason) > REASON_MAX_LENGTH:
        problems.append(
            Problem(
                "reason",
                "too_long",
                f"The reason has {len(reason)} characters; {REASON_MAX_LENGTH} at most.",
                {"maximum": REASON_MAX_LENGTH},
            )
        )
    return problems


def sanctions_visible_to(scope: Scope) -> QuerySet[Sanction]:
    """The sanctions ``scope`` may read: all for federation staff; for zone and committee
    staff, those of the players whose current-season licence is in a club of their scope
    (those whose private data they may see, docs/sanctions.md); none for anyone else."""
    sanctions = Sanction.objects.select_related("player", "decided_by").order_by("-starts", "-pk")
    if scope.national:
        return sanctions
    if not scope.is_staff:
        return sanctions.none()
    season = current_season()
    if season is None:
        return sanctions.none()
    covered = Licence.objects.filter(scope.club_filter("club__"), season=season)
    return sanctions.filter(player__in=covered.values("player_id"))
