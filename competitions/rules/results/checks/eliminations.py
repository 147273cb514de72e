"""Sessions with eliminations and divided scores: each session lists the entries that play
it, the first every entry, each later one entries of the one before carrying in their
score divided by the session's divisor (rounded as the season says); the scores of a
session sum to zero; no entry eliminated had a better score than one that plays on; an
entry's total is its score at the end of the last session it played, less its
penalties; the entries that played further rank ahead.

Sources: Fascicule 2, ch. 3 art. 3, 27 and 29; ch. 2 (*Etablissement des résultats*,
« abattre les scores »).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from competitions.rules.engine.eliminations import EliminatedOrder, divided
from competitions.rules.engine.standings import Contender
from competitions.rules.results.checks.places import article_29_figures, compare_places
from competitions.rules.results.checks.run import CheckRun
from competitions.rules.results.document import SessionEntry

_SESSION_LIST_CODES = frozenset(
    {
        "session_entries_missing",
        "duplicate_session_entry",
        "session_entry_unknown",
        "session_entry_not_in_previous",
        "session_entry_missing",
    }
)
"""The codes of a session list found wrong: who played what is then not known."""


def check_eliminations(check: CheckRun) -> None:
    """Each session lists the entries that play it: the first every entry, each later one
    entries of the one before, carrying in their score at its end divided by the session's
    divisor (rounded as the season's rulebook says); the scores of a session sum to zero
    among those who play it, and no entry eliminated before it had a better score than an
    entry that plays it."""
    if check.gaps.sessions or check.gaps.entries_incomplete:
        return
    entries = check.document.entries
    numbers = {e.number: i for i, e in enumerate(entries)}
    rounding = check.halving_rounding
    previous: dict[int, SessionEntry] | None = None
    for number, (i, session) in sorted(check.sessions.items()):
        at = f"sessions[{i}]"
        if not session.entries:
            check.error(
                f"{at}.entries",
                "session_entries_missing",
                f"Session {number} does not list the entries that play it, while other "
                f"sessions do; with eliminations every session lists them.",
                session=number,
            )
            previous = None
            continue
        listed: dict[int, SessionEntry] = {}
        for j, played in enumerate(session.entries):
            where = f"{at}.entries[{j}]"
            if played.number in listed:
                check.error(
                    f"{where}.number",
                    "duplicate_session_entry",
                    f"Entry {played.number} is listed twice in session {number}.",
                    entry=played.number,
                    session=number,
                )
                continue
            if played.number not in numbers:
                check.error(
                    f"{where}.number",
                    "session_entry_unknown",
                    f"Session {number} lists entry {played.number}, which is not an entry of "
                    f"these results.",
                    entry=played.number,
                    session=number,
                )
                continue
            listed[played.number] = played
            if number == 1:
                if played.carried != 0:
                    check.error(
                        f"{where}.carried",
                        "carried_into_first_session",
                        f"Entry {played.number} carries {played.carried} into session 1; no "
                        f"score is carried into the first session.",
                        entry=played.number,
                        carried=played.carried,
                    )
            elif previous is not None:
                before = previous.get(played.number)
                if before is None:
                    check.error(
                        f"{where}.number",
                        "session_entry_not_in_previous",
                        f"Entry {played.number} plays session {number} but not session "
                        f"{number - 1}; an entry eliminated does not come back.",
                        entry=played.number,
                        session=number,
                    )
                    continue
                expected = divided(before.end, session.points_divisor, rounding)
                if played.carried != expected:
                    check.error(
                        f"{where}.carried",
                        "carried_score_mismatch",
                        f"Entry {played.number} carries {played.carried} into session {number}"
                        f", but it ended session {number - 1} on {before.end}, divided by "
                        f"{session.points_divisor} ({rounding.value}): {expected}.",
                        entry=played.number,
                        session=number,
                        carried=played.carried,
                        end=before.end,
                        divisor=session.points_divisor,
                        expected=expected,
                    )
        if number == 1:
            if session.points_divisor != 1:
                check.error(
                    f"{at}.points_divisor",
                    "first_session_divisor",
                    "No score is carried into the first session, so none is divided; its "
                    "divisor is 1.",
                    divisor=session.points_divisor,
                )
            missing = [e.number for e in entries if e.number not in listed]
            if missing:
                shown = ", ".join(str(n) for n in missing[:10])
                check.error(
                    f"{at}.entries",
                    "session_entry_missing",
                    f"Session 1 is played by every entry; it does not list entry(ies) {shown}.",
                    entries=shown,
                )
        seats = len(listed) * check.format.team_size
        if number > 1 and seats != session.players and session.tables_of_three <= session.tables:
            check.error(
                f"{at}.tables",
                "session_entries_seats_mismatch",
                f"Session {number} lists {len(listed)} entries ({seats} players) but declares "
                f"{session.tables} table(s), {session.tables_of_three} of them of 3 players, "
                f"which seat {session.players}.",
                session=number,
                entries=len(listed),
                players=seats,
                seats=session.players,
            )
        scored = sum(p.score for p in listed.values())
        if scored != 0:
            check.error(
                f"{at}.entries",
                "session_scores_do_not_sum_to_zero",
                f"The scores of session {number} sum to {scored:+d}, not 0: every table "
                f"balances at every position among the entries that play it (chapter 2, "
                f"'Etablissement des résultats').",
                session=number,
                sum=f"{scored:+d}",
            )
        if previous is not None and number > 1:
            _check_cut(check, number, at, previous, listed)
        previous = listed
    _check_session_scores(check)


def _check_cut(
    check: CheckRun,
    number: int,
    at: str,
    previous: Mapping[int, SessionEntry],
    listed: Mapping[int, SessionEntry],
) -> None:
    """The entries that play on are the best of the previous session (art. 29 « pour le
    tour suivant » orders the level ones; the document does not carry their figures at the
    cut, so only a better score left out is refused). An entry that abandoned is not
    eliminated."""
    entries = check.document.entries
    abandoned = {e.number for e in entries if e.abandoned}
    out = [n for n in previous if n not in listed and n not in abandoned]
    kept = [n for n in listed if n in previous]
    if not out or not kept:
        return
    best_out = max(out, key=lambda n: previous[n].end)
    worst_in = min(kept, key=lambda n: previous[n].end)
    if previous[best_out].end > previous[worst_in].end:
        check.error(
            f"{at}.entries",
            "eliminated_ahead_of_continuing",
            f"Entry {best_out} ended session {number - 1} on {previous[best_out].end} and is "
            f"eliminated, while entry {worst_in}, on {previous[worst_in].end}, plays session "
            f"{number}; the entries that play on are the best of the session before.",
            eliminated=best_out,
            eliminated_score=previous[best_out].end,
            kept=worst_in,
            kept_score=previous[worst_in].end,
            session=number,
        )


def _check_session_scores(check: CheckRun) -> None:
    """When position scores are given, an entry's session score is its players' scores in
    that session, and an entry has none in a session it does not play."""
    if check.gaps.positions:
        return
    index_of = {session.number: i for i, session in enumerate(check.document.sessions)}
    for i, entry in enumerate(check.document.entries):
        if any((i, j) in check.unbalanced for j in range(len(entry.players))):
            continue  # the table's mistake, reported there
        scored: dict[int, int] = defaultdict(int)
        for j, player in enumerate(entry.players):
            for k, position in enumerate(player.positions):
                scored[position.session] += position.score
                if position.session in index_of and not check.plays(entry.number, position.session):
                    check.error(
                        f"entries[{i}].players[{j}].positions[{k}].session",
                        "score_in_session_not_played",
                        f"Entry {entry.number} has a score in session {position.session}, "
                        f"which it does not play (its session list).",
                        entry=entry.number,
                        session=position.session,
                    )
        if not any(player.positions for player in entry.players):
            continue
        for number, listed in check.session_entries.items():
            played = listed.get(entry.number)
            if played is None or played.score == scored.get(number, 0):
                continue
            j = next(k for k, e in enumerate(check.sessions[number][1].entries) if e is played)
            check.error(
                f"sessions[{index_of[number]}].entries[{j}].score",
                "session_score_mismatch",
                f"Entry {entry.number} scores {played.score} in session {number}, but its "
                f"position scores there sum to {scored.get(number, 0)}.",
                entry=entry.number,
                session=number,
                score=played.score,
                positions=scored.get(number, 0),
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
        last = check.last_session(entry.number)
        if last == 0:
            continue  # in no session: reported on the first session's list
        end = check.session_entries[last][entry.number].end
        penalties = sum(
            check.penalty_points.get(p.licence_number, 0)
            for p in entry.players
            if p.licence_number is not None
        )
        if entry.total != end - penalties:
            check.error(
                f"entries[{i}].total",
                "staged_total_mismatch",
                f"Entry {entry.number}'s total is {entry.total}, but it ended session {last} "
                f"(the last it played) on {end} and its penalties come to {penalties}: "
                f"{end - penalties}.",
                entry=entry.number,
                total=entry.total,
                session=last,
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
    final = max(check.session_entries, default=0)
    shared = check.eliminated_order is EliminatedOrder.SHARED
    contenders: list[Contender] = []
    decided: list[bool] = []
    for i, entry in enumerate(entries):
        last = check.last_session(entry.number)
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
