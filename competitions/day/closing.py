"""The day's standings and its end: what the tables entered, read once
(:func:`day_results`), ranked after any position (:func:`day_standings`), and at the end
written as a score-sheets document that goes through the one door of an upload
(``competitions.homologation``: the same one-pass check and preview, then
``results_submit`` with source ``sheets``). Nothing is typed twice.

Reads are for those who see the day; the end's preview and submission are for those who run
it, and the door itself asks what it asks of an upload (the organiser's managers and the staff
above them). Each write is one transaction (the door's).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from competitions import homologation
from competitions.championships.qualification_status import published_plan
from competitions.championships.stage_results import stage_of
from competitions.day.access import may_run_day, may_see_day
from competitions.models import (
    DayPenalty,
    DealRecord,
    EntryMember,
    EntryState,
    PlayedSession,
    TableTotals,
    Tournament,
    TournamentEntry,
)
from competitions.models.tournaments import Stage
from competitions.rulebooks import rulebook_in_force
from competitions.rules.championships.stage_compliance import bracket_for
from competitions.rules.day.layout import layout_from_json, seating_from_json
from competitions.rules.day.results_document import (
    Cut,
    DayDeal,
    DayEntry,
    DayMember,
    DayResults,
    DaySession,
    DayTotals,
    score_sheets_document,
)
from competitions.rules.day.results_document import (
    DayPenalty as PurePenalty,
)
from competitions.rules.day.standings import (
    Standings,
    played_rounds,
    standings_after,
    still_in,
)
from competitions.rules.engine.eliminations import EliminatedOrder, HalvingRounding
from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.engine.scoring import ScoringRules
from competitions.rules.engine.standings import RankingMode
from competitions.tournaments import access
from competitions.tournaments.preview import Preview
from competitions.tournaments.submission import Submitted
from core.errors import Conflict, NotFound, PermissionDenied
from core.problems import RuleViolation
from federation.access import Actor, scope_of

SOURCE = "sheets"


def require_runner(tournament: Tournament, by: Actor) -> None:
    """Those who run the day, else a refusal that says nothing of the tournament."""
    if not may_run_day(by, tournament):
        raise PermissionDenied(
            "Only the tournament's arbiter and its organiser's managers run its day.",
            code="day_run_refused",
        )


def may_send_results(user: Actor | None, tournament: Tournament) -> bool:
    """May ``user`` preview and send the results? The door asks what it asks of an upload:
    the organiser's managers and the staff above them (an arbiter who is not one of them
    runs the day, and a manager sends its results)."""
    return access.may_manage(scope_of(user), tournament)


def require_reader(tournament: Tournament, by: Actor | None) -> None:
    if not may_see_day(by, tournament):
        raise PermissionDenied(
            "Only those who run or oversee the tournament see its day.", code="day_see_refused"
        )


def member_name(member: EntryMember) -> str:
    """A member's name as the results write it: the registry's « NOM Prénom », or the
    non-licensee's name."""
    player = member.player
    return member.name if player is None else f"{player.last_name} {player.first_name}"


def day_results(*, tournament: Tournament) -> DayResults:
    """Everything the day entered, read once (a few queries, whatever the field's size)."""
    entries = []
    members_of: dict[int, list[DayMember]] = {}
    for member in EntryMember.objects.select_related("player").filter(
        tournament=tournament, active=True, entry__state=EntryState.ENTERED
    ):
        members_of.setdefault(member.entry_id, []).append(
            DayMember(
                member.order,
                member.player.licence_number if member.player is not None else None,
                member_name(member),
            )
        )
    for entry in TournamentEntry.objects.filter(tournament=tournament, state=EntryState.ENTERED):
        abandoned = (
            (entry.abandoned_session, entry.abandoned_position)
            if entry.abandoned_session is not None and entry.abandoned_position is not None
            else None
        )
        entries.append(DayEntry(entry.number, tuple(members_of.get(entry.pk, ())), abandoned))
    sessions = tuple(
        DaySession(s.number, layout_from_json(s.plan), seating_from_json(s.seating))
        for s in PlayedSession.objects.filter(tournament=tournament).order_by("number")
    )
    deals = tuple(
        DayDeal(session, position, table, deal, line, marks or {})
        for session, position, table, deal, line, marks in DealRecord.objects.filter(
            session__tournament=tournament
        )
        .order_by("session__number", "position", "table", "deal")
        .values_list("session__number", "position", "table", "deal", "line", "marks")
    )
    totals = tuple(
        DayTotals(session, position, table, values)
        for session, position, table, values in TableTotals.objects.filter(
            session__tournament=tournament
        ).values_list("session__number", "position", "table", "totals")
    )
    penalties = tuple(
        PurePenalty(
            p.member.player.licence_number,  # type: ignore[union-attr]  # filtered below
            PenaltyKind(p.kind),
            p.points,
            p.reason,
            (p.session, p.position) if p.session is not None and p.position is not None else None,
        )
        for p in DayPenalty.objects.select_related("member__player").filter(
            tournament=tournament, removed_at__isnull=True, member__player__isnull=False
        )
    )
    return DayResults(tuple(entries), sessions, deals, totals, penalties)


def first_session_field(day: DayResults) -> int:
    """The entries seated at the first session (the committee's table is chosen by it)."""
    first = min(day.sessions, key=lambda s: s.number, default=None)
    if first is None:
        return len(day.entries)
    return len({holder.entry for holder in first.seating.values()})


def ranking_mode(tournament: Tournament) -> RankingMode:
    """Article 29 separates level entries in a championship stage (as the results do)."""
    return RankingMode.PLAIN if tournament.stage == Stage.ORDINARY else RankingMode.CHAMPIONSHIP


def stage_cuts(tournament: Tournament, field: int) -> tuple[Cut, ...]:
    """The cuts the committee's table asks for this field (the entries at the first
    session): before a session, and between two positions of a session (chapter 3, arts.
    3, 9 and 15: « la division ou non des points entre chaque séance ou position »); none
    outside a championship stage."""
    stage = stage_of(tournament)
    plan = published_plan(stage) if stage is not None else None
    bracket = bracket_for(plan, field) if plan is not None else None
    if bracket is None:
        return ()
    cuts: list[Cut] = []
    for k, session in enumerate(bracket.sessions):
        if k and (session.entries is not None or session.points_divisor != 1):
            cuts.append(Cut(k + 1, session.entries, max(1, int(session.points_divisor))))
        cuts += [
            Cut(k + 1, cut.entries, max(1, int(cut.points_divisor)), cut.after_position)
            for cut in session.position_cuts
        ]
    return tuple(cuts)


def day_cuts(tournament: Tournament, day: DayResults) -> tuple[Cut, ...]:
    """The stage's cuts for the field of the day's first session (its entries present
    when it is not drawn yet)."""
    return stage_cuts(tournament, first_session_field(day))


@dataclass(frozen=True)
class DayRules:
    """How the day ranks: article 29 or not, the cuts, the season's rounding of divided
    scores and order of the eliminated, the scoring rules."""

    mode: RankingMode
    cuts: tuple[Cut, ...]
    rounding: HalvingRounding
    eliminated_order: EliminatedOrder
    rules: ScoringRules


def day_rules(tournament: Tournament, day: DayResults) -> DayRules:
    _, rulebook = rulebook_in_force(season=tournament.season)
    return DayRules(
        ranking_mode(tournament),
        day_cuts(tournament, day),
        rulebook.eliminations.halving_rounding,
        rulebook.eliminations.eliminated_order,
        rulebook.scoring.rules(),
    )


def entries_still_in(tournament: Tournament, day: DayResults, start: tuple[int, int]) -> set[int]:
    """The entries that play from (session, position) ``start``: the stage's cuts before it
    applied from the standings at each cut (article 29 on a tie in a championship), those
    who abandoned before it left out (the draw of a session or of a phase after a cut)."""
    how = day_rules(tournament, day)
    return set(
        still_in(day, start, cuts=how.cuts, mode=how.mode, rounding=how.rounding, rules=how.rules)
    )


@dataclass(frozen=True)
class StandingsView:
    """The standings with the entries' names, for a page."""

    standings: Standings
    names: dict[int, str]
    """Entry number → its players' names (the results' names; public pages rename them)."""
    cuts: tuple[Cut, ...]
    rounds: tuple[tuple[int, int], ...]
    """Every (session, position) something was entered at."""


def day_standings(
    *, tournament: Tournament, by: Actor | None, after: tuple[int, int] | None = None
) -> StandingsView:
    """The standings after ``after`` (None: the last position entered), for those who see
    the day."""
    require_reader(tournament, by)
    return standings_view(tournament, day_results(tournament=tournament), after)


def live_standings(*, tournament: Tournament) -> StandingsView:
    """The standings now, for anyone, when the organiser opened the tournament's live page
    (else not found: the page does not exist)."""
    if not tournament.live_page:
        raise NotFound("This tournament has no live page.", code="not_found")
    return standings_view(tournament, day_results(tournament=tournament), None)


def standings_view(
    tournament: Tournament, day: DayResults, after: tuple[int, int] | None
) -> StandingsView:
    rounds = played_rounds(day)
    if after is not None and after not in rounds:
        after = None
    how = day_rules(tournament, day)
    last = after or (rounds[-1] if rounds else None)
    session_over = last is not None and any(
        s.number == last[0] and len(s.layout.positions) == last[1] for s in day.sessions
    )
    standings = standings_after(
        day,
        after=after,
        # Article 29: « en cas d'égalité après chaque séance ».
        mode=how.mode if session_over else RankingMode.PLAIN,
        cuts=how.cuts,
        rounding=how.rounding,
        eliminated_order=how.eliminated_order,
        rules=how.rules,
        cut_mode=how.mode,
    )
    names = {e.number: " – ".join(m.name for m in e.members) for e in day.entries}
    return StandingsView(standings, names, how.cuts, rounds)


def closing_document(*, tournament: Tournament, by: Actor) -> dict[str, Any]:
    """The day's results as a score-sheets document, for those who run the day, with the
    stage's cuts (``docs/results-format.md``, « Score sheets with eliminations »); refused
    when nothing was entered."""
    require_runner(tournament, by)
    day = day_results(tournament=tournament)
    if not day.deals and not day.totals:
        raise RuleViolation.single(
            "score_sheets", "day_nothing_entered", "No deal was entered: there are no results."
        )
    return score_sheets_document(day, day_cuts(tournament, day))


def document_digest(document: dict[str, Any]) -> str:
    """A fingerprint of the built document: what was previewed is what is sent."""
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class ClosingPreview:
    preview: Preview
    digest: str


def closing_preview(
    *, tournament: Tournament, by: Actor, confirmed_licences: Collection[int] = ()
) -> ClosingPreview:
    """The preview of the day's results (places, PCN, PP), as an upload of them would show
    it; refused, with every problem, as the submission would refuse it."""
    document = closing_document(tournament=tournament, by=by)
    preview = homologation.content_preview(
        tournament=tournament,
        content=document,
        source=SOURCE,
        by=by,
        confirmed_licences=confirmed_licences,
    )
    return ClosingPreview(preview, document_digest(document))


def closing_submit(
    *,
    tournament: Tournament,
    by: Actor,
    digest: str | None = None,
    confirmed_licences: Sequence[int] = (),
) -> Submitted:
    """Send the day's results for homologation through the one door (``results_submit``,
    source ``sheets``). ``digest``: the previewed document's (:func:`closing_preview`); if
    the day's records changed since, nothing is sent (the new preview must be seen)."""
    document = closing_document(tournament=tournament, by=by)
    if digest is not None and digest != document_digest(document):
        raise Conflict(
            "The scores changed since the preview: check the new preview before sending.",
            code="day_changed_since_preview",
        )
    return homologation.results_submit(
        tournament=tournament,
        content=document,
        source=SOURCE,
        by=by,
        confirmed_licences=confirmed_licences,
    )
