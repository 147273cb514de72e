"""Position scores: each player seated once per position, at a table of the session; every
table seats 3 or 4 players (5 only where the session declares tables of 5) and its
scores balance; every player has a score for every position played (unless the entry
abandoned); the players of each session and the first position's tables of 3 and of 5
are those the session declares; team-mates do not meet.

Sources: Fascicule 2, ch. 1 (*La marque*), ch. 2 (*Etablissement des résultats*,
*Tournoi en donnes libres par équipes*), ch. 3 art. 27 (abandon).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from competitions.rules.results.checks.run import CheckRun, named, who
from competitions.rules.results.document import PlayerResult, PositionScore


@dataclass(slots=True)
class _Seat:
    entry: int
    index: int  # of the player in the entry
    player: PlayerResult
    at: str  # path of the player
    k: int  # of the position score in the player's
    score: int

    @property
    def where(self) -> str:
        """Path of the position score (built only for a problem)."""
        return f"{self.at}.positions[{self.k}]"


def _scores(seats: list[_Seat]) -> str:
    return ", ".join(f"{named(seat.player)} {seat.score:+d}" for seat in seats)


def check_positions(check: CheckRun) -> None:
    entries = check.document.entries
    if not any(player.positions for entry in entries for player in entry.players):
        return
    tables: dict[tuple[int, int, int], list[_Seat]] = defaultdict(list)
    played: dict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)  # round → players
    entry_rounds: dict[int, dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))
    for i, entry in enumerate(entries):
        for j, player in enumerate(entry.players):
            at = f"entries[{i}].players[{j}]"
            if not player.positions:
                if not entry.abandoned and not check.gaps.positions:
                    check.error(
                        f"{at}.positions",
                        "missing_position_scores",
                        f"Player {who(player)} has no position scores while other players "
                        f"have; give them for every player or for none.",
                        who=named(player),
                    )
                continue
            seated: dict[tuple[int, int], int] = {}
            sessions = check.sessions
            for k, score in enumerate(player.positions):
                found = sessions.get(score.session)
                if (
                    found is None or score.position < 1 or not 1 <= score.table <= found[1].tables
                ) and not _position_fits(check, score, f"{at}.positions[{k}]"):
                    continue  # (what fits, the common case, is judged without a path)
                round_ = (score.session, score.position)
                if round_ in seated:
                    where = f"{at}.positions[{k}]"
                    if seated[round_] != score.table:
                        check.error(
                            f"{where}.table",
                            "player_at_two_tables",
                            f"Player {who(player)} is at table {seated[round_]} and at table "
                            f"{score.table} in session {score.session}, position "
                            f"{score.position}; a player sits at one table per position.",
                            who=named(player),
                            table=seated[round_],
                            other_table=score.table,
                            session=score.session,
                            position=score.position,
                        )
                    else:
                        check.error(
                            where,
                            "duplicate_position_score",
                            f"Player {who(player)} has two scores for session {score.session}, "
                            f"position {score.position}, table {score.table}.",
                            who=named(player),
                            session=score.session,
                            position=score.position,
                            table=score.table,
                        )
                    continue
                seated[round_] = score.table
                tables[(score.session, score.position, score.table)].append(
                    _Seat(i, j, player, at, k, score.score)
                )
                played[round_].add((i, j))
                entry_rounds[i][round_] += score.score
    for i, rounds in entry_rounds.items():
        check.entry_best[i] = max(rounds.values())
    gaps = check.gaps
    if gaps.positions or gaps.entries_incomplete:
        return  # a table or a position misses a score that could not be read
    _check_tables(check, tables)
    _check_rounds_played(check, played)
    if not gaps.sessions:
        _check_session_players(check, played)
        _check_tables_of_three(check, tables)


def _position_fits(check: CheckRun, score: PositionScore, where: str) -> bool:
    fits = True
    for name in ("position", "table"):
        if getattr(score, name) < 1:
            check.error(
                f"{where}.{name}",
                "number_too_small",
                f"A {name} number is 1 or more.",
                minimum=1,
                value=getattr(score, name),
            )
            fits = False
    found = check.sessions.get(score.session)
    if found is None:
        if check.gaps.sessions:
            return False  # its session's line could not be read
        check.error(
            f"{where}.session",
            "position_session_not_declared",
            f"Session {score.session} is not among the sessions declared "
            f"({', '.join(str(n) for n in sorted(check.sessions)) or 'none'}).",
            session=score.session,
            sessions=", ".join(str(n) for n in sorted(check.sessions)) or "–",
        )
        return False
    session = found[1]
    if score.table > session.tables:
        check.error(
            f"{where}.table",
            "table_out_of_range",
            f"Session {score.session} has {session.tables} table(s), so there is no "
            f"table {score.table}.",
            session=score.session,
            tables=session.tables,
            table=score.table,
        )
        fits = False
    return fits


def _check_tables(check: CheckRun, tables: dict[tuple[int, int, int], list[_Seat]]) -> None:
    team = check.format.team_size
    for (session, position, table), seats in tables.items():
        place = f"Session {session}, position {position}, table {table}"
        names = ", ".join(f"{who(seat.player)} {seat.score:+d}" for seat in seats)
        first = seats[0].where
        declared = check.sessions.get(session)
        if len(seats) == 5 and (declared is None or not declared[1].tables_of_five):
            check.error(
                f"{first}.table",
                "table_of_five_not_homologable",
                f"{place} seats 5 players ({names}), but session {session} declares no table "
                f"of 5 (tables_of_five: one player sits out each deal in turn, le mort); the "
                f"5-player game is not homologable (chapter 1, 'Le jeu à 5 joueurs').",
                session=session,
                position=position,
                table=table,
                scores=_scores(seats),
            )
        elif len(seats) not in (3, 4, 5):
            check.error(
                f"{first}.table",
                "wrong_table_size",
                f"{place} seats {len(seats)} player(s) ({names}); a table seats 4 players, "
                f"or 3 when the number of players is not a multiple of 4.",
                session=session,
                position=position,
                table=table,
                players=len(seats),
                scores=_scores(seats),
            )
        total = sum(seat.score for seat in seats)
        if total != 0:
            check.unbalanced.update((seat.entry, seat.index) for seat in seats)
            check.error(
                f"{first}.score",
                "table_scores_do_not_sum_to_zero",
                f"{place}: the scores ({names}) sum to {total:+d}, not 0; the scores of a "
                f"table balance at each position (chapter 1, 'La marque'; chapter 2, "
                f"'Etablissement des résultats').",
                session=session,
                position=position,
                table=table,
                scores=_scores(seats),
                sum=f"{total:+d}",
            )
        if team > 1:
            entries = Counter(seat.entry for seat in seats)
            for entry, count in entries.items():
                if count > 1:
                    number = check.document.entries[entry].number
                    check.warn(
                        first,
                        "teammates_at_same_table",
                        f"{place} seats {count} players of entry {number}; the players of a "
                        f"team do not meet during the tournament (chapter 2, 'Tournoi en "
                        f"donnes libres par équipes').",
                        session=session,
                        position=position,
                        table=table,
                        count=count,
                        entry=number,
                    )


def _check_rounds_played(
    check: CheckRun, played: dict[tuple[int, int], set[tuple[int, int]]]
) -> None:
    rounds = sorted(played)
    for i, entry in enumerate(check.document.entries):
        if entry.abandoned:
            continue  # an entry that left the event did not play the last positions
        for j, player in enumerate(entry.players):
            if not player.positions:
                continue
            missing = [
                r for r in rounds if (i, j) not in played[r] and check.plays(entry.number, *r)
            ]
            if not missing:
                continue
            shown = ", ".join(f"session {s} position {p}" for s, p in missing[:5])
            if len(missing) > 5:
                shown += f" and {len(missing) - 5} more"
            check.error(
                f"entries[{i}].players[{j}].positions",
                "missing_position_score",
                f"Player {who(player)} has no score for {shown}, which other players played; "
                f"only an entry that abandoned (article 27) may miss positions.",
                who=named(player),
                missing=", ".join(f"{s}/{p}" for s, p in missing[:5])
                + (f" (+{len(missing) - 5})" if len(missing) > 5 else ""),
            )


def _check_session_players(
    check: CheckRun, played: dict[tuple[int, int], set[tuple[int, int]]]
) -> None:
    by_session: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for (session_number, _), players in played.items():
        by_session[session_number] |= players
    for number, (i, session) in check.sessions.items():
        if number == 1 or session.tables_of_three > session.tables:
            continue  # the first session is counted from the entries
        seated = len(by_session.get(number, ()))
        if seated != session.players:
            check.error(
                f"sessions[{i}].tables",
                "session_players_mismatch",
                f"Session {number} declares {session.tables} table(s), "
                f"{session.tables_of_three} of them of 3 players, which seat {session.players} "
                f"players, but {seated} players have position scores in it.",
                session=number,
                tables=session.tables,
                tables_of_three=session.tables_of_three,
                seats=session.players,
                players=seated,
            )


def _check_tables_of_three(
    check: CheckRun, tables: dict[tuple[int, int, int], list[_Seat]]
) -> None:
    """The first position of each session is played at the tables the session declares.

    Later positions may lose players who abandoned (article 27), so only the
    first is compared with the declaration.
    """
    counts: dict[tuple[int, int], Counter[int]] = defaultdict(Counter)
    for (session_number, position, _), seats in tables.items():
        counts[(session_number, position)][len(seats)] += 1
    seen: set[int] = set()
    for (number, position), sizes in sorted(counts.items()):
        if number in seen:
            continue
        seen.add(number)
        i, session = check.sessions[number]
        if sizes.total() == session.tables and sizes[5] != session.tables_of_five:
            check.error(
                f"sessions[{i}].tables_of_five",
                "tables_of_five_mismatch",
                f"Session {number} declares {session.tables_of_five} table(s) of 5 players but "
                f"its first position, {position}, has {sizes[5]}.",
                session=number,
                tables_of_five=session.tables_of_five,
                position=position,
                found=sizes[5],
            )
        if sizes.total() == session.tables and sizes[3] != session.tables_of_three:
            check.error(
                f"sessions[{i}].tables_of_three",
                "tables_of_three_mismatch",
                f"Session {number} declares {session.tables_of_three} table(s) of 3 players but "
                f"its first position, {position}, has {sizes[3]}.",
                session=number,
                tables_of_three=session.tables_of_three,
                position=position,
                found=sizes[3],
            )
