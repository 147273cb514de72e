"""Sessions with eliminations and divided scores, between sessions and between the
positions of a session: each phase (a session, or a session's positions after one of its
cuts) lists the entries that play it, the first every entry, each later one entries of the
one before carrying in their score divided by the phase's divisor (rounded as the season
says); the scores of a phase sum to zero; no entry eliminated had a better score than one
that plays on; an entry's total is its score at the end of the last phase it played, less
its penalties; the entries that played further rank ahead.

Sources: Fascicule 2, ch. 3 art. 3, 27 and 29; ch. 2 (*Etablissement des résultats*,
« abattre les scores »).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace

from competitions.rules.engine.eliminations import EliminatedOrder, divided
from competitions.rules.engine.standings import Contender
from competitions.rules.results.checks.places import article_29_figures, compare_places
from competitions.rules.results.checks.run import CheckRun, Phase
from competitions.rules.results.document import SessionEntry

_SESSION_LIST_CODES = frozenset(
    {
        "session_entries_missing",
        "duplicate_session_entry",
        "session_entry_unknown",
        "session_entry_not_in_previous",
        "session_entry_missing",
        "cut_without_entries",
        "cut_positions_not_increasing",
        "duplicate_cut_entry",
        "cut_entry_unknown",
        "cut_entry_not_in_previous",
    }
)
"""The codes of a session list found wrong: who played what is then not known."""


def _where(phase: Phase) -> dict[str, int]:
    """The parameters that locate a phase in a message: its session (and cut's position)."""
    if phase.cut is None:
        return {"session": phase.session}
    return {"session": phase.session, "position": phase.after_position}


def check_eliminations(check: CheckRun) -> None:
    """Each phase lists the entries that play it: session 1 every entry, each later one
    (a session, or a session's positions after one of its cuts) entries of the one before,
    carrying in their score at its end divided by the phase's divisor (rounded as the
    season's rulebook says); the scores of a phase sum to zero among those who play it, and
    no entry eliminated before it had a better score than an entry that plays it."""
    if check.gaps.sessions or check.gaps.entries_incomplete:
        return
    entries = check.document.entries
    numbers = {e.number: i for i, e in enumerate(entries)}
    rounding = check.halving_rounding
    previous: Phase | None = None
    for phase in check.phases:
        at, number, cut = phase.at, phase.session, phase.cut
        if cut is None and not phase.listed:
            check.error(
                f"{at}.entries",
                "session_entries_missing",
                f"Session {number} does not list the entries that play it, while other "
                f"sessions do; with eliminations every session lists them.",
                session=number,
            )
            previous = None
            continue
        if cut is not None:
            before = previous.after_position if previous and previous.session == number else 0
            if cut.after_position <= before:
                check.error(
                    f"{at}.after_position",
                    "cut_positions_not_increasing",
                    f"The cut after position {cut.after_position} of session {number} does "
                    f"not follow the one after position {before}; a session's cuts are given "
                    f"in the order of its positions.",
                    session=number,
                    position=cut.after_position,
                    previous=before,
                )
            if not phase.listed:
                check.error(
                    f"{at}.entries",
                    "cut_without_entries",
                    f"The cut after position {cut.after_position} of session {number} lists "
                    f"no entry; it lists those that play on.",
                    session=number,
                    position=cut.after_position,
                )
                previous = None
                continue
        listed: dict[int, SessionEntry] = {}
        for j, played in enumerate(phase.listed):
            where = f"{at}.entries[{j}]"
            if played.number in listed:
                check.error(
                    f"{where}.number",
                    "duplicate_session_entry" if phase.cut is None else "duplicate_cut_entry",
                    f"Entry {played.number} is listed twice in {phase.named()}.",
                    entry=played.number,
                    **_where(phase),
                )
                continue
            if played.number not in numbers:
                check.error(
                    f"{where}.number",
                    "session_entry_unknown" if phase.cut is None else "cut_entry_unknown",
                    f"{phase.named().capitalize()} lists entry {played.number}, which is not "
                    f"an entry of these results.",
                    entry=played.number,
                    **_where(phase),
                )
                continue
            listed[played.number] = played
            if previous is None:
                if number == 1 and cut is None and played.carried != 0:
                    check.error(
                        f"{where}.carried",
                        "carried_into_first_session",
                        f"Entry {played.number} carries {played.carried} into session 1; no "
                        f"score is carried into the first session.",
                        entry=played.number,
                        carried=played.carried,
                    )
                continue
            before_it = previous.entries.get(played.number)
            if before_it is None:
                check.error(
                    f"{where}.number",
                    "session_entry_not_in_previous"
                    if phase.cut is None
                    else "cut_entry_not_in_previous",
                    f"Entry {played.number} plays {phase.named()} but not {previous.named()}; "
                    f"an entry eliminated does not come back.",
                    entry=played.number,
                    **_where(phase),
                )
                continue
            expected = divided(before_it.end, phase.points_divisor, rounding)
            if played.carried != expected:
                check.error(
                    f"{where}.carried",
                    "carried_score_mismatch" if phase.cut is None else "cut_carried_score_mismatch",
                    f"Entry {played.number} carries {played.carried} into {phase.named()}, "
                    f"but it ended {previous.named()} on {before_it.end}, divided by "
                    f"{phase.points_divisor} ({rounding.value}): {expected}.",
                    entry=played.number,
                    **_where(phase),
                    carried=played.carried,
                    end=before_it.end,
                    divisor=phase.points_divisor,
                    expected=expected,
                )
        if number == 1 and cut is None:
            _check_first_session_list(check, phase, listed)
        _check_seats(check, phase, listed)
        scored = sum(p.score for p in listed.values())
        if scored != 0:
            check.error(
                f"{at}.entries",
                "session_scores_do_not_sum_to_zero"
                if phase.cut is None
                else "cut_scores_do_not_sum_to_zero",
                f"The scores of {phase.named()} sum to {scored:+d}, not 0: every table "
                f"balances at every position among the entries that play it (chapter 2, "
                f"'Etablissement des résultats').",
                **_where(phase),
                sum=f"{scored:+d}",
            )
        if previous is not None and (cut is not None or number > 1):
            _check_cut(check, phase, previous, listed)
        previous = replace(phase, entries=listed)
    _check_session_scores(check)


def _check_first_session_list(
    check: CheckRun, phase: Phase, listed: Mapping[int, SessionEntry]
) -> None:
    """Session 1 is played by every entry, with nothing carried in, so nothing divided."""
    if phase.points_divisor != 1:
        check.error(
            f"{phase.at}.points_divisor",
            "first_session_divisor",
            "No score is carried into the first session, so none is divided; its divisor is 1.",
            divisor=phase.points_divisor,
        )
    missing = [e.number for e in check.document.entries if e.number not in listed]
    if missing:
        shown = ", ".join(str(n) for n in missing[:10])
        check.error(
            f"{phase.at}.entries",
            "session_entry_missing",
            f"Session 1 is played by every entry; it does not list entry(ies) {shown}.",
            entries=shown,
        )


def _check_seats(check: CheckRun, phase: Phase, listed: Mapping[int, SessionEntry]) -> None:
    """A later session's tables, and a cut's, seat the players of the entries it lists."""
    seats = len(listed) * check.format.team_size
    cut = phase.cut
    if cut is not None:
        if seats != cut.players:
            check.error(
                f"{phase.at}.tables",
                "cut_entries_seats_mismatch",
                f"After position {cut.after_position} of session {phase.session}, "
                f"{len(listed)} entries ({seats} players) play on, but the cut declares "
                f"{cut.tables} table(s), {cut.tables_of_three} of them of 3 players, which "
                f"seat {cut.players}.",
                session=phase.session,
                position=cut.after_position,
                entries=len(listed),
                players=seats,
                seats=cut.players,
            )
        return
    session = check.sessions.get(phase.session, (0, None))[1]
    if session is None or phase.session == 1 or session.tables_of_three > session.tables:
        return
    if seats != session.players:
        check.error(
            f"{phase.at}.tables",
            "session_entries_seats_mismatch",
            f"Session {phase.session} lists {len(listed)} entries ({seats} players) but declares "
            f"{session.tables} table(s), {session.tables_of_three} of them of 3 players, "
            f"which seat {session.players}.",
            session=phase.session,
            entries=len(listed),
            players=seats,
            seats=session.players,
        )


def _check_cut(
    check: CheckRun,
    phase: Phase,
    previous: Phase,
    listed: Mapping[int, SessionEntry],
) -> None:
    """The entries that play on are the best of the phase before (art. 29 « pour le tour
    suivant » orders the level ones; the document does not carry their figures at the cut,
    so only a better score left out is refused). An entry that abandoned is not
    eliminated."""
    entries = check.document.entries
    abandoned = {e.number for e in entries if e.abandoned}
    before = previous.entries
    out = [n for n in before if n not in listed and n not in abandoned]
    kept = [n for n in listed if n in before]
    if not out or not kept:
        return
    best_out = max(out, key=lambda n: before[n].end)
    worst_in = min(kept, key=lambda n: before[n].end)
    if before[best_out].end > before[worst_in].end:
        check.error(
            f"{phase.at}.entries",
            "eliminated_ahead_of_continuing"
            if phase.cut is None
            else "eliminated_at_cut_ahead_of_continuing",
            f"Entry {best_out} ended {previous.named()} on {before[best_out].end} and is "
            f"eliminated, while entry {worst_in}, on {before[worst_in].end}, plays "
            f"{phase.named()}; the entries that play on are the best of the phase before.",
            eliminated=best_out,
            eliminated_score=before[best_out].end,
            kept=worst_in,
            kept_score=before[worst_in].end,
            **_where(phase),
        )


def _check_session_scores(check: CheckRun) -> None:
    """When position scores are given, an entry's score in a phase is its players' scores
    at the positions of that phase, an entry has none in a phase it does not play, and each
    cut is followed by a position played."""
    if check.gaps.positions:
        return
    phases = check.phases
    last_position: dict[int, int] = defaultdict(int)
    for entry in check.document.entries:
        for player in entry.players:
            for position in player.positions:
                last = last_position[position.session]
                last_position[position.session] = max(last, position.position)
    if last_position:
        for phase in phases:
            if phase.cut is not None and phase.after_position >= last_position[phase.session]:
                check.error(
                    f"{phase.at}.after_position",
                    "cut_after_last_position",
                    f"Session {phase.session} has a cut after position {phase.after_position}, "
                    f"but its position scores end at position {last_position[phase.session]}; "
                    f"a cut is followed by a position played.",
                    session=phase.session,
                    position=phase.after_position,
                    last=last_position[phase.session],
                )
    for i, entry in enumerate(check.document.entries):
        if any((i, j) in check.unbalanced for j in range(len(entry.players))):
            continue  # the table's mistake, reported there
        scored: dict[int, int] = defaultdict(int)
        for j, player in enumerate(entry.players):
            for k, position in enumerate(player.positions):
                found = check.phase_at(position.session, position.position)
                if found is None:
                    continue  # a session not declared, reported with the positions
                scored[found] += position.score
                if entry.number in phases[found].entries:
                    continue
                where = f"entries[{i}].players[{j}].positions[{k}]"
                if not check.plays(entry.number, position.session):
                    check.error(
                        f"{where}.session",
                        "score_in_session_not_played",
                        f"Entry {entry.number} has a score in session {position.session}, "
                        f"which it does not play (its session list).",
                        entry=entry.number,
                        session=position.session,
                    )
                else:
                    check.error(
                        f"{where}.position",
                        "score_after_cut_not_played",
                        f"Entry {entry.number} has a score at position {position.position} of "
                        f"session {position.session}, but it is not among the entries that "
                        f"play on after position {phases[found].after_position}.",
                        entry=entry.number,
                        session=position.session,
                        position=position.position,
                        cut=phases[found].after_position,
                    )
        if not any(player.positions for player in entry.players):
            continue
        for k, phase in enumerate(phases):
            played = phase.entries.get(entry.number)
            if played is None or played.score == scored.get(k, 0):
                continue
            j = next(n for n, e in enumerate(phase.listed) if e is played)
            check.error(
                f"{phase.at}.entries[{j}].score",
                "session_score_mismatch" if phase.cut is None else "cut_score_mismatch",
                f"Entry {entry.number} scores {played.score} in {phase.named()}, but its "
                f"position scores there sum to {scored.get(k, 0)}.",
                entry=entry.number,
                **_where(phase),
                score=played.score,
                positions=scored.get(k, 0),
            )


def check_staged_totals(check: CheckRun) -> None:
    """With eliminations, an entry's total is its score at the end of the last session it
    played (carried in + scored there) less its players' penalties; its players' totals,
    when given, sum to it."""
    if check.gaps.any:
        return
    for i, entry in enumerate(check.document.entries):
        totals = [player.total for player in entry.players]
        if totals and None not in totals and sum(totals) != entry.total:  # type: ignore[arg-type]
            check.error(
                f"entries[{i}].total",
                "entry_total_mismatch",
                f"Entry {entry.number}'s total is {entry.total}, but its players' totals "
                f"(after penalties) sum to {sum(totals)}.",  # type: ignore[arg-type]
                entry=entry.number,
                total=entry.total,
                summed=sum(totals),  # type: ignore[arg-type]
            )
        last = check.last_phase(entry.number)
        if last < 0:
            continue  # in no session: reported on the first session's list
        phase = check.phases[last]
        end = phase.entries[entry.number].end
        penalties = sum(
            check.penalty_points.get(p.licence_number, 0)
            for p in entry.players
            if p.licence_number is not None
        )
        if entry.total != end - penalties:
            check.error(
                f"entries[{i}].total",
                "staged_total_mismatch",
                f"Entry {entry.number}'s total is {entry.total}, but it ended {phase.named()} "
                f"(the last it played) on {end} and its penalties come to {penalties}: "
                f"{end - penalties}.",
                entry=entry.number,
                total=entry.total,
                session=phase.session,
                end=end,
                penalties=penalties,
                expected=end - penalties,
            )


def check_staged_places(check: CheckRun) -> None:
    """With eliminations: the entries that played further rank ahead, whatever their
    totals; then by total (and article 29 in a competition with tie-break rules); the
    entries eliminated at one cut as the season's rulebook says; an entry that abandoned
    after all the others (art. 27)."""
    if any(p.code in _SESSION_LIST_CODES for p in check.errors) or check.gaps.any:
        return  # who played what is not known
    contenders, decided = staged_contenders(check)
    compare_places(check, contenders, decided, "place_contradicts_sessions")


def staged_contenders(check: CheckRun) -> tuple[list[Contender], list[bool]]:
    entries = check.document.entries
    final = len(check.phases) - 1
    shared = check.eliminated_order is EliminatedOrder.SHARED
    contenders: list[Contender] = []
    decided: list[bool] = []
    for i, entry in enumerate(entries):
        last = check.last_phase(entry.number)
        eliminated = last < final and not entry.abandoned
        if entry.abandoned:
            group: tuple[int, ...] = (1, 0, -entry.total)
        elif eliminated and shared:
            group = (0, -last, 0)
        else:
            group = (0, -last, -entry.total)
        by_article_29 = check.tie_break_rules and not (eliminated and shared)
        figures = article_29_figures(check, i) if by_article_29 else None
        contenders.append(Contender(group, figures))
        decided.append(by_article_29)
    return contenders, decided
