"""Results given as the score sheets themselves (*feuilles de marque*), deal by deal.

Instead of totals and places, the organiser sends every table's sheet for
every position; the tournament engine totals each sheet
(:func:`competitions.rules.engine.sheets.total_sheet`: every line checked, every
balance computed), and this module turns the balances into a
:class:`ResultsDocument`: each player's position scores, totals after
penalties, the article 29 figures (best position score; contracts made, when
every line carries the deal's facts), and places ranked by
:func:`competitions.rules.engine.standings.rank` ("1224" convention, abandons last,
article 29 in championship mode). Sessions are counted from the sheets: a
session's tables, tables of 3 and tables of 5 are those of its position with the
most tables; its deals are the deals played (chapter 4: « si une donne est annulée
pour x raisons, alors elle ne compte pas comme donne jouée »; a line where everyone
passed is a deal played that scored 0), summed over its positions, each position
counting the most deals played at one of its tables (a table where a deal was
annulled, or removed for slowness, still took part in that position's deals; the
others played them). A ``sessions`` list may declare each session's deals; where it
contradicts the sheets, the sheets win and the
contradiction is reported, located.

A table of 5 names on each line the player sitting out (``sitting_out``, le mort,
:mod:`competitions.rules.engine.sitting_out`); a sheet of 5 without one is the
5-player game (called king), which is refused here: « Les tournois à 5 joueurs ne sont
pas homologables ».

The document returned is then checked like any other with
:func:`competitions.rules.results.validation.validate`; its problems name the sheets.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

from competitions.rules.engine.eliminations import divided
from competitions.rules.engine.penalties import Penalty
from competitions.rules.engine.revokes import DefenceRevoke
from competitions.rules.engine.scoring import (
    DEFAULT_SCORING_RULES,
    Contract,
    Deal,
    Poignee,
    ScoringRules,
)
from competitions.rules.engine.sheets import DealLine, ScoreSheet, total_sheet
from competitions.rules.engine.standings import (
    Entry,
    MemberResult,
    RankingMode,
    rank,
)
from competitions.rules.engine.standings import (
    TieBreakData as EngineTieBreak,
)
from competitions.rules.engine.tables import Orientation
from competitions.rules.results import schema as shapes
from competitions.rules.results.document import (
    CONTRACTS,
    FORMAT_VERSION,
    MAX_COUNT,
    MAX_ENTRIES,
    MAX_LICENCE_NUMBER,
    MAX_NAME_LENGTH,
    MAX_PLAYERS_PER_ENTRY,
    EntryResult,
    PenaltyRecord,
    PlayerResult,
    PositionCut,
    PositionScore,
    ResultsDocument,
    SessionEntry,
    SessionResult,
    SourceMap,
    TieBreakData,
)
from competitions.rules.results.json_format import (
    MISSING,
    JsonReader,
    decode_json,
    json_type,
    read_penalties,
)
from competitions.rules.results.sheet_cuts import SheetCut, check_cut_sessions, read_cuts
from competitions.rules.results.validation import expected_places
from competitions.rules.rulebook import Eliminations, Rulebook
from core.problems import Problem, RuleViolation
from core.vocabulary import Format

MAX_SHEETS = shapes.MAX_SHEETS
MAX_DEALS_PER_SHEET = shapes.MAX_DEALS_PER_SHEET
_FACTS = shapes.DEAL_FACTS

PlayerKey = int | str  # a licence number, or the name of a player without one


@dataclass(slots=True)
class _Seated:
    """One player of the tournament, as the sheets and entries name him."""

    key: PlayerKey
    name: str
    positions: list[PositionScore] = field(default_factory=list)
    where: list[str] = field(default_factory=list)  # sheet of each position score
    contracts: dict[Contract, int] = field(default_factory=lambda: dict.fromkeys(CONTRACTS, 0))


@dataclass(slots=True)
class _Team:
    number: int
    players: list[PlayerKey]
    names: list[str]
    abandoned: bool
    where: str
    arbiter_accord: bool | None = None


@dataclass(frozen=True, slots=True)
class _Table:
    """One totalled sheet, as the session counts need it."""

    players: int  # 3, 4 or 5
    deals_played: int  # lines neither passed nor annulled
    where: str  # the sheet's path


@dataclass(slots=True)
class _Sheets:
    """The totalled sheets: each round's (session, position) tables by table number."""

    rounds: dict[tuple[int, int], dict[int, _Table]]
    every_line_has_facts: bool


def parse_score_sheets(
    data: bytes | str | dict[str, Any],
    *,
    format: Format | str,  # the tournament's declared format
    ranking: RankingMode = RankingMode.PLAIN,
    rules: ScoringRules = DEFAULT_SCORING_RULES,
    eliminations: Eliminations | None = None,
) -> ResultsDocument:
    """Read score sheets (JSON) and compute the results document; raise every problem.

    ``ranking`` is :attr:`RankingMode.PLAIN` for an ordinary tournament (level
    entries share a place) and :attr:`RankingMode.CHAMPIONSHIP` where article 29
    separates them. ``eliminations``: the season's choices for scores carried past a
    cut (the current regulation's when omitted), used when the document declares
    ``cuts``.
    """
    try:
        fmt = Format(format)
    except ValueError:
        raise RuleViolation.single(
            "format",
            "unknown_format",
            f"{format!r} is not a tournament format; one of: {', '.join(f.value for f in Format)}.",
            {"value": str(format), "formats": ", ".join(f.value for f in Format)},
        ) from None
    root = decode_json(data, what="score sheets document")
    reader = JsonReader()
    obj = reader.object(
        root,
        "",
        required=shapes.SCORE_SHEETS_DOCUMENT.required,
        optional=shapes.SCORE_SHEETS_DOCUMENT.optional,
        what="a score sheets document",
    )
    if obj is None:
        raise RuleViolation(reader.problems)
    version = obj.get("format_version", MISSING)
    if version is not MISSING and (isinstance(version, bool) or version != FORMAT_VERSION):
        reader.report(
            "format_version",
            "unsupported_format_version",
            f"Only format_version {FORMAT_VERSION} is supported, got {version!r}.",
            version=repr(version),
            supported=FORMAT_VERSION,
        )
    teams = _read_entries(reader, obj.get("entries", MISSING), fmt)
    sheets = reader.array(
        obj.get("score_sheets", MISSING), "score_sheets", limit=MAX_SHEETS, what="score sheets"
    )
    penalties = read_penalties(reader, obj.get("penalties", MISSING))
    cuts = read_cuts(reader, obj.get("cuts", MISSING))
    players: dict[PlayerKey, _Seated] = {}
    if teams is not None:
        for team in teams:
            for key, name in zip(team.players, team.names, strict=True):
                players[key] = _Seated(key, name)
    totals = _total_sheets(reader, sheets, players, teams is not None, rules)
    if reader.problems or totals is None or penalties is None:
        raise RuleViolation(reader.problems)
    if teams is None:
        teams = [
            _Team(k + 1, [player.key], [player.name], False, player.where[0])
            for k, player in enumerate(players.values())
        ]
    else:
        _check_everyone_played(reader, teams, players)
    if teams and len(teams) > MAX_ENTRIES:
        reader.report(
            "entries",
            "too_many_items",
            f"At most {MAX_ENTRIES} entries are accepted.",
            limit=MAX_ENTRIES,
        )
    if reader.problems:
        raise RuleViolation(reader.problems)
    document = _document(teams, players, totals, penalties, ranking, staged=bool(cuts))
    _check_declared_sessions(reader, obj.get("sessions", MISSING), document.sessions)
    check_cut_sessions(reader, cuts, document.sessions)
    if reader.problems:
        raise RuleViolation(reader.problems)
    if cuts:
        season = Rulebook.default().eliminations if eliminations is None else eliminations
        document = _with_cuts(document, cuts, totals, fmt, ranking, season)
    return document


def _with_cuts(
    document: ResultsDocument,
    cuts: list[SheetCut],
    sheets: _Sheets,
    fmt: Format,
    ranking: RankingMode,
    season: Eliminations,
) -> ResultsDocument:
    """The document of score sheets with eliminations: each session, and each cut, lists
    the entries seated after it, their score there and what they carry in (their score at
    the end of the phase before, divided as the cut says and rounded as the season says);
    an entry's total is its score at the end of the last phase it played less its
    penalties; places are the rules' (the phases played, then the totals, the eliminated
    as the season says, article 29 in championship mode)."""
    divisor_before = {c.session: c.points_divisor for c in cuts if c.after_position == 0}
    within: dict[int, list[SheetCut]] = defaultdict(list)
    for cut in sorted(cuts, key=lambda c: c.after_position):
        if cut.after_position:
            within[cut.session].append(cut)
    # The phases in order: (session, after_position, divisor, the cut declaration or None).
    phases: list[tuple[int, int, int, SheetCut | None]] = []
    for session in sorted(document.sessions, key=lambda s: s.number):
        phases.append((session.number, 0, divisor_before.get(session.number, 1), None))
        phases += [
            (c.session, c.after_position, c.points_divisor, c) for c in within[session.number]
        ]
    phase_of: dict[tuple[int, int], int] = {}  # (session, position) → its phase
    for session_number, number in sheets.rounds:
        phase_of[(session_number, number)] = max(
            k for k, (s, after, _, _) in enumerate(phases) if s == session_number and after < number
        )
    scores: list[dict[int, int]] = []  # entry index → phase → its score there
    for entry in document.entries:
        played: dict[int, int] = defaultdict(int)
        for player in entry.players:
            for score in player.positions:
                played[phase_of[(score.session, score.position)]] += score.score
        scores.append(played)
    end: dict[int, int] = {}
    listed: list[tuple[SessionEntry, ...]] = []
    for k, (_, _, divisor, _) in enumerate(phases):
        row = []
        for i, played in enumerate(scores):
            if k not in played:
                continue
            carried = divided(end[i], divisor, season.halving_rounding) if i in end and k else 0
            row.append(SessionEntry(document.entries[i].number, played[k], carried))
            end[i] = carried + played[k]
        listed.append(tuple(row))
    parts = dict(document.source.parts) if document.source is not None else {}
    sessions = []
    for i, session in enumerate(document.sessions):
        ks = [k for k, phase in enumerate(phases) if phase[0] == session.number]
        session_cuts = []
        for c, k in enumerate(ks[1:]):
            _, after, divisor, declared = phases[k]
            positions = [p for (s, p), n in phase_of.items() if s == session.number and n == k]
            widest: dict[int, _Table] = max(
                (sheets.rounds[(session.number, p)] for p in positions), key=len, default={}
            )
            session_cuts.append(
                PositionCut(
                    after_position=after,
                    tables=len(widest),
                    entries=listed[k],
                    tables_of_three=sum(1 for t in widest.values() if t.players == 3),
                    points_divisor=divisor,
                )
            )
            if declared is not None:
                parts[f"sessions[{i}].cuts[{c}]"] = declared.where
                for j in range(len(listed[k])):
                    parts[f"sessions[{i}].cuts[{c}].entries[{j}]"] = declared.where
        first = ks[0]
        sessions.append(
            replace(
                session,
                points_divisor=phases[first][2],
                entries=listed[first],
                cuts=tuple(session_cuts),
            )
        )
        for j in range(len(listed[first])):
            parts[f"sessions[{i}].entries[{j}]"] = parts.get(f"sessions[{i}]", "score_sheets")
    penalty_points: dict[int, int] = defaultdict(int)
    for penalty in document.penalties:
        penalty_points[penalty.licence_number] += penalty.points
    entries = []
    for i, entry in enumerate(document.entries):
        penalised = sum(penalty_points.get(p.licence_number or 0, 0) for p in entry.players)
        entries.append(
            replace(
                entry,
                total=end.get(i, 0) - penalised,
                # A player's total is no longer his positions less his penalties: not given.
                players=tuple(replace(p, total=None) for p in entry.players),
            )
        )
    staged = replace(
        document,
        sessions=tuple(sessions),
        entries=tuple(entries),
        source=SourceMap(parts=parts, columns=False),
    )
    places = expected_places(
        staged,
        format=fmt,
        tie_break_rules=ranking is RankingMode.CHAMPIONSHIP,
        eliminations=season,
    )
    return replace(
        staged,
        entries=tuple(replace(e, place=places[i]) for i, e in enumerate(staged.entries)),
    )


def _check_declared_sessions(
    reader: JsonReader, value: object, counted: tuple[SessionResult, ...]
) -> None:
    """Each declared session's deals against the deals played on its sheets (located)."""
    if value is MISSING or value is None:
        return
    items = reader.array(value, "sessions", limit=shapes.MAX_DECLARED_SESSIONS, what="sessions")
    by_number = {session.number: session for session in counted}
    for i, item in enumerate(items):
        where = f"sessions[{i}]"
        obj = reader.object(
            item, where, required=shapes.DECLARED_SESSION.required, what="a session"
        )
        if obj is None:
            continue
        number = reader.integer(
            obj.get("number", MISSING), f"{where}.number", minimum=1, maximum=99
        )
        deals = reader.integer(
            obj.get("deals", MISSING), f"{where}.deals", minimum=0, maximum=MAX_COUNT
        )
        if number is None or deals is None:
            continue
        found = by_number.get(number)
        if found is None:
            reader.report(
                f"{where}.number",
                "session_without_score_sheets",
                f"Session {number} is declared but no score sheet is for it.",
                session=number,
            )
        elif found.deals != deals:
            reader.report(
                f"{where}.deals",
                "deals_contradict_score_sheets",
                f"Session {number} is declared with {deals} deals, but its score sheets show "
                f"{found.deals} deals played (an annulled deal is not a deal played; chapter 4, "
                f"'Donne annulée').",
                session=number,
                declared=deals,
                played=found.deals,
            )


def _read_entries(reader: JsonReader, value: object, fmt: Format) -> list[_Team] | None:
    if value is MISSING or value is None:
        if fmt is not Format.INDIVIDUAL:
            reader.report(
                "entries",
                "missing_field",
                f"A {fmt.value} tournament's score sheets need its entries (which players "
                f"make each team).",
                field="entries",
            )
        return None
    items = reader.array(value, "entries", limit=MAX_ENTRIES, what="entries")
    teams: list[_Team] = []
    for i, item in enumerate(items):
        where = f"entries[{i}]"
        obj = reader.object(
            item,
            where,
            required=shapes.SHEET_ENTRY.required,
            optional=shapes.SHEET_ENTRY.optional,
            what="an entry",
        )
        if obj is None:
            continue
        number = reader.integer(
            obj.get("number", MISSING), f"{where}.number", minimum=1, maximum=MAX_LICENCE_NUMBER
        )
        abandoned = reader.boolean(obj.get("abandoned"), f"{where}.abandoned", default=False)
        accord = obj.get("arbiter_accord")
        if accord is not None and not isinstance(accord, bool):
            reader.boolean(accord, f"{where}.arbiter_accord", default=False)  # reports it
            accord = None
        keys: list[PlayerKey] = []
        names: list[str] = []
        members = reader.array(
            obj.get("players", MISSING),
            f"{where}.players",
            limit=MAX_PLAYERS_PER_ENTRY,
            what="players",
        )
        for j, member in enumerate(members):
            at = f"{where}.players[{j}]"
            player = reader.object(
                member,
                at,
                required=shapes.SHEET_PLAYER.required,
                optional=shapes.SHEET_PLAYER.optional,
                what="a player",
            )
            if player is None:
                continue
            licence = reader.integer(
                player.get("licence_number", MISSING),
                f"{at}.licence_number",
                minimum=1,
                maximum=MAX_LICENCE_NUMBER,
                nullable=True,
            )
            name = reader.string(player.get("name"), f"{at}.name", maximum=MAX_NAME_LENGTH)
            if licence is not None and name is not None:
                keys.append(licence)
                names.append(name)
            elif player.get("licence_number", MISSING) is None and name:
                keys.append(name)
                names.append(name)
            elif player.get("licence_number", MISSING) is None:
                reader.report(
                    f"{at}.name",
                    "unidentified_player",
                    "A player without a licence number must be named (the sheets seat him "
                    "by that name).",
                )
        if number is not None and abandoned is not None:
            teams.append(_Team(number, keys, names, abandoned, where, accord))
    seen: dict[PlayerKey, str] = {}
    for i, team in enumerate(teams):
        for j, key in enumerate(team.players):
            if key in seen:
                reader.report(
                    f"{team.where}.players[{j}]",
                    "duplicate_player",
                    f"Player {key!r} is already in {seen[key]}; a player is in one entry.",
                    player=key,
                )
            seen[key] = f"entries[{i}]"
    return teams


def _total_sheets(
    reader: JsonReader,
    sheets: list[Any],
    players: dict[PlayerKey, _Seated],
    entries_given: bool,
    rules: ScoringRules,
) -> _Sheets | None:
    """Total every sheet and record each player's balances."""
    rounds: dict[tuple[int, int], dict[int, _Table]] = defaultdict(dict)
    every_line_has_facts = True
    seated_at: dict[tuple[PlayerKey, int, int], str] = {}
    for k, value in enumerate(sheets):
        where = f"score_sheets[{k}]"
        obj = reader.object(
            value,
            where,
            required=shapes.SHEET.required,
            what="a score sheet",
        )
        if obj is None:
            continue
        session = reader.integer(
            obj.get("session", MISSING), f"{where}.session", minimum=1, maximum=99
        )
        seat_players = _read_seats(reader, obj.get("players", MISSING), f"{where}.players")
        lines = _read_lines(
            reader, obj.get("deals", MISSING), f"{where}.deals", len(seat_players or {})
        )
        if session is None or seat_players is None or lines is None:
            continue
        if "table" not in obj or "position" not in obj:
            continue  # reported as missing fields
        sheet = ScoreSheet(
            table=obj.get("table"),  # type: ignore[arg-type]  # the engine checks it
            position=obj.get("position"),  # type: ignore[arg-type]
            players={seat: str(key) for seat, key in seat_players.items()},
            deals=tuple(lines),
        )
        try:
            totals = total_sheet(sheet, rules)
        except RuleViolation as refused:
            for problem in refused.problems:
                reader.report(
                    f"{where}.{problem.field}", problem.code, problem.message, **problem.params
                )
            continue
        if totals.five_player_game:
            reader.report(
                f"{where}.deals",
                "five_player_game_not_homologable",
                f"Table {totals.table} plays the 5-player game (called king: nobody sits out "
                f"a deal); « Les tournois à 5 joueurs ne sont pas homologables ». At a table "
                f"of 5 inside a tournament one player sits out each deal in turn (le mort): "
                f"name him on each line (sitting_out).",
                table=totals.table,
            )
            continue
        round_ = (session, totals.position)
        if totals.table in rounds[round_]:
            reader.report(
                f"{where}.table",
                "duplicate_score_sheet",
                f"Session {session}, position {totals.position}, table {totals.table} already "
                f"has a sheet ({rounds[round_][totals.table].where}).",
                session=session,
                position=totals.position,
                table=totals.table,
            )
            continue
        rounds[round_][totals.table] = _Table(len(seat_players), totals.deals_played, where)
        for seat, key in seat_players.items():
            at = f"{where}.players.{seat}"
            earlier = seated_at.get((key, *round_))
            if earlier is not None:
                reader.report(
                    at,
                    "player_at_two_tables",
                    f"Player {key!r} is also seated at {earlier} in session {session}, "
                    f"position {totals.position}; a player sits at one table per position.",
                    who=key,
                    session=session,
                    position=totals.position,
                )
                continue
            seated_at[(key, *round_)] = where
            player = players.get(key)
            if player is None:
                if entries_given:
                    reader.report(
                        at,
                        "player_not_in_entries",
                        f"Player {key!r} is seated here but is in none of the entries.",
                        player=key,
                    )
                    continue
                player = players[key] = _Seated(key, key if isinstance(key, str) else "")
            player.positions.append(
                PositionScore(session, totals.position, totals.table, totals.players[seat].balance)
            )
            player.where.append(at)
        _count_contracts(sheet, seat_players, players, rules)
        every_line_has_facts &= all(line.facts is not None for line in lines)
    return None if reader.problems else _Sheets(rounds, every_line_has_facts)


def _count_contracts(
    sheet: ScoreSheet,
    seat_players: dict[Orientation, PlayerKey],
    players: dict[PlayerKey, _Seated],
    rules: ScoringRules,
) -> None:
    """Credit each taker with the contracts he made (article 29: *contrats réussis*).

    A contract is made when the attack's points reach what its oudlers require
    (the engine's rule; the facts were checked by :func:`total_sheet`).
    """
    for line in sheet.deals:
        facts = line.facts
        if facts is None or facts.contract is None or not line.played:
            continue  # an annulled deal is not played (chapter 4), so no contract is made
        # total_sheet has refused a bid deal that lacks any of these facts.
        assert facts.attack_points is not None
        assert facts.oudlers is not None
        assert facts.taker is not None
        made = Fraction(facts.attack_points) >= rules.points_needed[facts.oudlers]
        taker = players.get(seat_players[Orientation(facts.taker)])
        if made and taker is not None:
            taker.contracts[facts.contract] += 1


def _read_seats(
    reader: JsonReader, value: object, where: str
) -> dict[Orientation, PlayerKey] | None:
    if not isinstance(value, dict):
        reader.report(
            where,
            "wrong_type",
            "Expected an object naming the player at each seat (N, S, E, W).",
            expected="object",
            got=json_type(value),
        )
        return None
    seats: dict[Orientation, PlayerKey] = {}
    failed = False
    for seat, player in value.items():
        at = f"{where}.{seat}"
        try:
            orientation = Orientation(seat)
        except ValueError:
            reader.report(
                at,
                "unknown_seat",
                f"{seat!r} is not a seat; the seats are N, S, E, W (and 5).",
                seat=str(seat),
            )
            failed = True
            continue
        if isinstance(player, bool) or not isinstance(player, int | str):
            reader.report(
                at,
                "wrong_type",
                "A seat holds a licence number, or the name of a player without one.",
                expected="integer, string",
                got=json_type(player),
            )
            failed = True
        elif isinstance(player, int) and not 1 <= player <= MAX_LICENCE_NUMBER:
            reader.report(
                at, "number_out_of_range", f"{player} is not a licence number.", value=player
            )
            failed = True
        elif isinstance(player, str) and not player.strip():
            reader.report(at, "blank_text", "A seat names its player.")
            failed = True
        else:
            seats[orientation] = player.strip() if isinstance(player, str) else player
    return None if failed else seats


def _read_lines(
    reader: JsonReader, value: object, where: str, table_size: int
) -> list[DealLine] | None:
    items = reader.array(value, where, limit=MAX_DEALS_PER_SHEET, what="deals")
    lines: list[DealLine] = []
    failed = False
    for i, item in enumerate(items):
        at = f"{where}[{i}]"
        obj = reader.object(
            item, at, required=shapes.DEAL.required, optional=shapes.DEAL.optional, what="a deal"
        )
        if obj is None:
            failed = True
            continue
        marks = obj.get("marks")
        if marks is not None and not isinstance(marks, dict):
            reader.report(
                f"{at}.marks",
                "wrong_type",
                "Expected the marks by seat (N, S, E, W).",
                expected="object",
                got=json_type(marks),
            )
            failed = True
            continue
        sitting_out = obj.get("sitting_out")
        annulled = reader.boolean(obj.get("annulled"), f"{at}.annulled", default=False)
        if annulled is None:
            failed = True
            continue
        revoke = _read_revoke(reader, obj.get("defence_revoke"), f"{at}.defence_revoke")
        if revoke is False:
            failed = True
            continue
        facts = None
        if "contract" in obj:
            # At a table of 5 the four players other than the mort play the 4-player game.
            size = 4 if sitting_out is not None and table_size == 5 else table_size
            facts = _read_facts(reader, obj, at, size)
            if facts is None:
                failed = True
                continue
        elif any(name in obj for name in _FACTS):
            reader.report(
                f"{at}.contract",
                "missing_field",
                "A deal given by its facts names the contract (null if everyone passed).",
                field="contract",
            )
            failed = True
            continue
        lines.append(
            DealLine(
                facts=facts,
                marks=marks,
                sitting_out=sitting_out,
                annulled=annulled,
                defence_revoke=revoke,
            )
        )
    return None if failed else lines


def _read_revoke(
    reader: JsonReader, value: object, where: str
) -> DefenceRevoke | Literal[False] | None:
    """A line's ``defence_revoke`` (``{"taker_choice": …, "by": …}``): None if absent, False
    if it cannot be read (reported); the engine checks its values."""
    if value is None:
        return None
    obj = reader.object(value, where, required=("taker_choice",), optional=("by",), what="a revoke")
    if obj is None:
        return False
    return DefenceRevoke(
        taker_choice=obj.get("taker_choice"),  # type: ignore[arg-type]  # the engine checks it
        by=obj.get("by"),
    )


def _read_facts(reader: JsonReader, obj: dict[str, Any], where: str, size: int) -> Deal | None:
    poignees = []
    raw = obj.get("poignees")
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        reader.report(
            f"{where}.poignees",
            "wrong_type",
            "Expected an array of poignées.",
            expected="array",
            got=json_type(raw),
        )
        return None
    for i, item in enumerate(raw):
        found = reader.object(
            item, f"{where}.poignees[{i}]", required=shapes.POIGNEE.required, what="a poignée"
        )
        if found is None:
            return None
        poignees.append(Poignee(found.get("seat"), found.get("trumps")))  # type: ignore[arg-type]
    announced = obj.get("chelem_announced", False)
    return Deal(
        table_size=size,  # type: ignore[arg-type]  # the engine checks every fact
        contract=obj.get("contract"),
        taker=obj.get("taker"),
        called_partner=obj.get("called_partner"),
        oudlers=obj.get("oudlers"),
        attack_points=obj.get("attack_points"),
        poignees=tuple(poignees),
        petit_au_bout=obj.get("petit_au_bout"),
        chelem_announced=False if announced is None else announced,
        chelem_made_by=obj.get("chelem_made_by"),
    )


def _check_everyone_played(
    reader: JsonReader, teams: list[_Team], players: dict[PlayerKey, _Seated]
) -> None:
    for team in teams:
        for j, key in enumerate(team.players):
            player = players.get(key)
            if player is not None and not player.positions:
                reader.report(
                    f"{team.where}.players[{j}]",
                    "player_without_score_sheet",
                    f"Player {key!r} of entry {team.number} is seated on no score sheet.",
                    player=key,
                    entry=team.number,
                )


def _document(
    teams: list[_Team],
    players: dict[PlayerKey, _Seated],
    sheets: _Sheets,
    penalties: tuple[PenaltyRecord, ...],
    ranking: RankingMode,
    *,
    staged: bool = False,
) -> ResultsDocument:
    """The document of plain sums (with ``staged``: without places, which the cuts decide)."""
    parts: dict[str, str] = {"sessions": "score_sheets"}
    penalty_points: dict[PlayerKey, int] = defaultdict(int)
    for penalty in penalties:
        penalty_points[penalty.licence_number] += penalty.points
    contracts_known = sheets.every_line_has_facts

    engine_entries = []
    results: list[
        tuple[int, bool, int, tuple[PlayerResult, ...], TieBreakData | None, bool | None]
    ] = []
    for i, team in enumerate(teams):
        members: list[PlayerResult] = []
        engine_members = []
        by_round: dict[tuple[int, int], int] = defaultdict(int)
        made = dict.fromkeys(CONTRACTS, 0)
        for j, key in enumerate(team.players):
            player = players[key]
            # Indices in (session, position) order; ties keep the sheets' order.
            order = [
                k
                for _, _, k in sorted(
                    (score.session, score.position, k) for k, score in enumerate(player.positions)
                )
            ]
            positions = tuple(player.positions[k] for k in order)
            for k, index in enumerate(order):
                parts[f"entries[{i}].players[{j}].positions[{k}]"] = player.where[index]
            for score in positions:
                by_round[(score.session, score.position)] += score.score
            for contract, count in player.contracts.items():
                made[contract] += count
            balance = sum(score.score for score in positions)
            penalised = penalty_points.get(key, 0) if isinstance(key, int) else 0
            members.append(
                PlayerResult(
                    licence_number=key if isinstance(key, int) else None,
                    name=player.name,
                    total=balance - penalised,
                    positions=positions,
                )
            )
            engine_members.append(
                MemberResult(
                    player=str(key),
                    total=balance,
                    tie_break=EngineTieBreak(
                        position_scores=tuple(score.score for score in positions),
                        contracts_made={c.value: n for c, n in player.contracts.items()},
                    )
                    if contracts_known
                    else None,
                )
            )
        tiebreak = None
        if contracts_known and by_round:
            tiebreak = TieBreakData(best_position_score=max(by_round.values()), contracts_made=made)
        engine_entries.append(
            Entry(
                entry_id=str(i),
                members=tuple(engine_members),
                penalties=tuple(
                    Penalty(str(p.licence_number), p.kind, p.points, p.reason)
                    for p in penalties
                    if p.licence_number in team.players
                ),
                abandoned=team.abandoned,
            )
        )
        total = sum(member.total or 0 for member in members)
        results.append(
            (team.number, team.abandoned, total, tuple(members), tiebreak, team.arbiter_accord)
        )
        if team.where.startswith("score_sheets"):
            parts[f"entries[{i}]"] = team.where
            parts[f"entries[{i}].players[0]"] = team.where

    if staged:
        engine_entries = []  # places come from the phases played (:func:`_with_cuts`)
    try:
        ranked = rank(engine_entries, ranking)
    except RuleViolation as refused:
        raise RuleViolation(
            Problem(re.sub(r"\.members\[", ".players[", p.field), p.code, p.message, p.params)
            for p in refused.problems
        ) from None
    places = {int(placing.entry_id): placing.place for placing in ranked.placings}
    places.update({i: 1 for i in range(len(results)) if i not in places})

    sessions = []
    first_sheet: dict[int, str] = {}
    by_session: dict[int, list[tuple[int, dict[int, _Table]]]] = defaultdict(list)
    for (session, position), tables in sorted(sheets.rounds.items()):
        by_session[session].append((position, tables))
        first_sheet.setdefault(session, min((t.where for t in tables.values()), key=_sheet_index))
    for i, (number, rounds) in enumerate(sorted(by_session.items())):
        widest = max(rounds, key=lambda p: (len(p[1]), -p[0]))[1]
        sessions.append(
            SessionResult(
                number=number,
                tables=len(widest),
                tables_of_three=sum(1 for table in widest.values() if table.players == 3),
                tables_of_five=sum(1 for table in widest.values() if table.players == 5),
                # Each position's deals played (chapter 4), at its most complete table.
                deals=sum(
                    max(table.deals_played for table in tables.values()) for _, tables in rounds
                ),
            )
        )
        parts[f"sessions[{i}]"] = first_sheet[number]

    return ResultsDocument(
        format_version=FORMAT_VERSION,
        sessions=tuple(sessions),
        entries=tuple(
            EntryResult(
                number=number,
                place=places[i],
                total=total,
                players=members,
                abandoned=abandoned,
                tiebreak=tiebreak,
                arbiter_accord=accord,
            )
            for i, (number, abandoned, total, members, tiebreak, accord) in enumerate(results)
        ),
        penalties=penalties,
        source=SourceMap(parts=parts, columns=False),
    )


def _sheet_index(where: str) -> int:
    """The index of a sheet path (``score_sheets[12]`` → 12), to order sheets as sent."""
    return int(where[where.index("[") + 1 : where.index("]")])


def read_deal_line(value: object, table_size: int) -> DealLine:
    """One deal object of a score sheet (an item of ``deals[]``, as this format writes it)
    read as the engine's line, at a table of ``table_size`` players; raises
    :class:`RuleViolation` with every problem found, located under ``deals[0]``. The line
    is read, not yet checked against the rules (:func:`total_sheet` does that)."""
    reader = JsonReader()
    lines = _read_lines(reader, [value], "deals", table_size)
    if lines is None or reader.problems:
        raise RuleViolation(reader.problems)
    return lines[0]
