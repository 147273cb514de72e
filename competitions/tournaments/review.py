"""What staff read to review a tournament's results (the desk's homologation queue):
the tournaments waiting in the caller's scope, a revision's rows with the points
homologation would award, and what changed between two revisions.

Reads only: the points are computed by ``homologation.compute_allocations`` (the one
PCN computation) inside a transaction rolled back, so that a first read of the
season's rulebook (which stores its version 1) leaves nothing behind either.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, JSONField, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from competitions.models import ResultPlayer, ResultRevision, Tournament, TournamentStatus
from competitions.rulebooks import rulebook_in_force
from competitions.rules.homologation import check_homologation
from competitions.rules.rulebook import Rulebook
from competitions.tournaments import selectors
from competitions.tournaments.homologation import compute_allocations
from competitions.tournaments.homologation_conditions import homologation_facts
from core.problems import Problem, RuleViolation
from federation.access import Scope


def in_scope(scope: Scope) -> Q:
    """The tournaments whose organiser ``scope``'s staff cover (``access.may_homologate``,
    as a filter): federation staff every one, zone staff their zone's, committee staff
    their committee's. Nothing for anyone else."""
    if not scope.is_staff:
        return Q(pk__in=[])
    if scope.national:
        return Q()
    return (
        Q(organizer_club_id__in=scope.club_ids)
        | Q(organizer_club__committee_id__in=scope.committee_ids)
        | Q(organizer_club__committee__zone_id__in=scope.zone_ids)
        | Q(organizer_committee_id__in=scope.committee_ids)
        | Q(organizer_committee__zone_id__in=scope.zone_ids)
        | Q(organizer_zone_id__in=scope.zone_ids)
    )


@dataclass
class QueueFilter:
    """The queue's filters, as the form read them (``None``: not filtered)."""

    status: str = TournamentStatus.RESULTS_SUBMITTED
    committee: int | None = None  # number
    club: int | None = None  # number
    format: str = ""
    date_from: dt.date | None = None
    date_to: dt.date | None = None

    def q(self) -> Q:
        q = Q(status=self.status) if self.status else Q()
        if self.committee is not None:
            q &= Q(organizer_committee__number=self.committee) | Q(
                organizer_club__committee__number=self.committee
            )
        if self.club is not None:
            q &= Q(organizer_club__number=self.club)
        if self.format:
            q &= Q(format=self.format)
        if self.date_from is not None:
            q &= Q(date__gte=self.date_from)
        if self.date_to is not None:
            q &= Q(date__lte=self.date_to)
        return q


def _latest_revisions() -> QuerySet[ResultRevision]:
    return ResultRevision.objects.filter(tournament=OuterRef("pk")).order_by("-number")


def homologation_queue(scope: Scope, filters: QueueFilter) -> QuerySet[Tournament]:
    """The tournaments of the queue, oldest first, scoped in the query, each with its
    latest revision's number, warnings and entry count (one query per page)."""
    latest = _latest_revisions()
    # The latest revision's entries, counted in that revision's own subquery (a nested
    # subquery's OuterRef would point at the entries, not the tournament).
    entries = latest.annotate(count=Count("entries")).values("count")[:1]
    return (
        selectors.tournaments()
        .select_related("organizer_club__committee")
        .filter(in_scope(scope), filters.q())
        .annotate(
            latest_number=Subquery(latest.values("number")[:1]),
            latest_warnings=Subquery(latest.values("warnings")[:1], output_field=JSONField()),
            entry_count=Coalesce(Subquery(entries), 0),
        )
        .order_by("date", "pk")
    )


def clean_waiting(scope: Scope) -> QuerySet[Tournament]:
    """The tournaments waiting for homologation in ``scope`` whose latest revision has
    no warning: those a bulk homologation may take."""
    # Q: the annotations of homologation_queue, which the stubs do not see
    return homologation_queue(scope, QueueFilter()).filter(
        Q(latest_number__isnull=False) & Q(latest_warnings=[])
    )


@dataclass(frozen=True)
class PlayerRow:
    licence_number: int | None
    name: str
    licensed: bool
    pcn: int | None
    pp: int | None


@dataclass(frozen=True)
class EntryRow:
    number: int
    place: int
    total: int
    abandoned: bool
    players: tuple[PlayerRow, ...]


@dataclass
class Review:
    """A revision as staff review it: its rows with the points it would award (or the
    points it awarded, homologated), the unmet homologation conditions, the warnings."""

    revision: ResultRevision
    entries: list[EntryRow]
    conditions: list[Problem] = field(default_factory=list)
    points_problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def revision_review(
    tournament: Tournament,
    revision: ResultRevision,
    *,
    more_conditions: Callable[[Rulebook], Sequence[Problem]] = lambda _rulebook: (),
) -> Review:
    """The revision's ranking with each licensed player's PCN and PP under the season's
    rulebook in force, the conditions of chapter 5 (and ``more_conditions``: a
    championship stage's, under the same rulebook) and the warnings; writes nothing."""
    entries = list(
        revision.entries.prefetch_related(
            Prefetch("players", ResultPlayer.objects.select_related("player"))
        ).order_by("place", "number")
    )
    review = Review(
        revision=revision,
        entries=[],
        warnings=[Problem(**w) for w in revision.warnings],
    )
    points: dict[int, tuple[int, int]] = {}
    with transaction.atomic():
        version, rulebook = rulebook_in_force(season=tournament.season)
        review.conditions = [
            *check_homologation(homologation_facts(tournament, revision), rulebook),
            *more_conditions(rulebook),
        ]
        try:
            rows = compute_allocations(tournament, revision, version, rulebook)
        except RuleViolation as refusal:
            review.points_problems = list(refusal.problems)
        else:
            points = {row.player_id: (row.pcn, row.pp) for row in rows}
        transaction.set_rollback(True)
    for entry in entries:
        players = []
        for p in entry.players.all():
            pcn, pp = points.get(p.player_id, (None, None)) if p.player_id else (None, None)
            players.append(PlayerRow(p.licence_number, p.shown_name, p.licensed, pcn, pp))
        review.entries.append(
            EntryRow(entry.number, entry.place, entry.total, entry.abandoned, tuple(players))
        )
    return review


@dataclass(frozen=True)
class EntryChange:
    number: int
    before: str
    after: str
    what: str  # "place", "total", "players"


@dataclass
class RevisionDiff:
    """What changed from revision ``old`` to revision ``new``, entry by entry number."""

    old: ResultRevision
    new: ResultRevision
    added: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    changed: list[EntryChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


def _entry_facts(revision: ResultRevision) -> dict[int, tuple[int, int, str]]:
    facts = {}
    lines = ResultPlayer.objects.select_related("player")
    for entry in revision.entries.prefetch_related(Prefetch("players", lines)):
        players = ", ".join(
            f"{p.shown_name} ({p.licence_number})" if p.licence_number else p.shown_name
            for p in sorted(entry.players.all(), key=lambda p: p.pk)
        )
        facts[entry.number] = (entry.place, entry.total, players)
    return facts


def revision_diff(old: ResultRevision, new: ResultRevision) -> RevisionDiff:
    """Entries added and removed, and each kept entry's place, total and players
    (names and licence numbers) that changed (four queries)."""
    before, after = _entry_facts(old), _entry_facts(new)
    diff = RevisionDiff(
        old=old,
        new=new,
        added=sorted(after.keys() - before.keys()),
        removed=sorted(before.keys() - after.keys()),
    )
    for number in sorted(before.keys() & after.keys()):
        for index, what in enumerate(("place", "total", "players")):
            if before[number][index] != after[number][index]:
                diff.changed.append(
                    EntryChange(number, str(before[number][index]), str(after[number][index]), what)
                )
    return diff
