"""Score sheets (feuilles de marque): one table, one position, one line per deal.

Chapter 1, "La marque en donnes libres": North fills in the sheet (table
number, position number, the players by orientation) and each deal's marks;
each player checks his balance (bilan) and that the four scores sum to zero.
Chapter 2 repeats the check: at each position the positive scores and the
negative scores must balance.

A line may carry the deal's facts (the engine computes the marks), the marks
as written on the paper sheet (the engine checks them), or both (the engine
also checks that they agree). Each player's total is the sum of his positive
marks (``plus``), of his negative marks written without sign (``minus``, as
in the "-" column of the sheet) and their difference (``balance``, the bilan).

A table of 5 inside a tournament names on each line the player who sits the deal out
(*le mort*, :mod:`competitions.rules.engine.sitting_out`): the four others play the
4-player game, the mort marks 0, and the morts must follow the rotation. A sheet of 5
without anyone sitting out is the 5-player game (called king).

Chapter 4, "Donne annulée": « si une donne est annulée pour x raisons, alors elle ne
compte pas comme donne jouée ». A line marked annulled scores 0 for everyone (its facts,
if given, are still checked) and is not counted in ``deals_played``. A line where everyone
passed is a deal of the position that scored 0 for everyone: it is counted (the sheet
shows it; a deal dealt again is the next line).

A revoke in defence carries the taker's choice (``defence_revoke``,
:mod:`competitions.rules.engine.revokes`): scored, the line is scored as usual; not scored,
it marks 0 and, annulled at the taker's choice, is not a deal played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from competitions.rules.engine.revokes import (
    DefenceRevoke,
    next_deal_problems,
    not_scored,
    revoke_problems,
)
from competitions.rules.engine.scoring import (
    DEFAULT_SCORING_RULES,
    Deal,
    ScoringRules,
    deal_problems,
    marks_for,
    score_deal,
    shown,
)
from competitions.rules.engine.sitting_out import MortLine, in_play, rotation_problems
from competitions.rules.engine.tables import Orientation, TableSize, seats
from core.problems import Problem, RuleViolation


@dataclass(frozen=True, slots=True)
class DealLine:
    """One line of the sheet: the deal's facts, the marks written on paper, or both."""

    facts: Deal | None = None
    marks: Mapping[Orientation, int] | None = None  # signed: + column positive, - negative
    sitting_out: Orientation | None = None  # le mort, at a table of 5 inside a tournament
    annulled: bool = False  # annulled by the arbiter: scores nothing, not a deal played
    defence_revoke: DefenceRevoke | None = None  # a revoke in defence, with the taker's choice

    @property
    def played(self) -> bool:
        """A deal played: neither annulled by the arbiter nor by the taker's choice after a
        revoke in defence (chapter 4, « Donne annulée », « Renonce »)."""
        return self.annulled is not True and not not_scored(self.defence_revoke)

    @property
    def passed(self) -> bool:
        """Everyone passed: the line scores 0, and at a table of 5 the same mort deals again.

        Said by the facts (no contract), or by marks alone that are all 0: a line that
        scores nothing is read as a passed deal (a bid deal worth exactly 0 is given by
        its facts). An annulled line, or one with a revoke, is not a passed one.
        """
        if self.annulled is True or self.defence_revoke is not None:
            return False
        if self.facts is not None:
            return self.facts.contract is None
        return self.marks is not None and all(
            mark == 0 and not isinstance(mark, bool) for mark in self.marks.values()
        )


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A table's feuille de marque for one position."""

    table: int  # n° de table
    position: int  # n° de position
    players: Mapping[Orientation, str]  # player id (licence number) by orientation
    deals: tuple[DealLine, ...]


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    """One player's column of the sheet, totalled."""

    seat: Orientation
    player: str
    plus: int  # total of the "+" column
    minus: int  # total of the "-" column, without sign
    balance: int  # bilan = plus - minus


@dataclass(frozen=True, slots=True)
class SheetTotals:
    """The totals of a valid sheet."""

    table: int
    position: int
    table_size: TableSize
    deal_marks: tuple[Mapping[Orientation, int], ...]  # each line's marks, computed or written
    players: Mapping[Orientation, PlayerTotal]  # in sheet order: N, S, E, W, fifth
    deals_played: int = 0  # lines not annulled, by the arbiter or the taker (DealLine.played)
    sitting_out: tuple[Orientation | None, ...] = ()  # each line's mort (table of 5), else None

    @property
    def five_player_game(self) -> bool:
        """A table of 5 playing the 5-player game (called king), nobody sitting out."""
        return self.table_size == TableSize.FIVE and not any(self.sitting_out)


def total_sheet(sheet: ScoreSheet, rules: ScoringRules = DEFAULT_SCORING_RULES) -> SheetTotals:
    """Check ``sheet`` and total it; raise :class:`RuleViolation` with every problem found."""
    problems: list[Problem] = []
    for name in ("table", "position"):
        number = getattr(sheet, name)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            problems.append(
                Problem(
                    name,
                    "not_a_positive_integer",
                    f"The {name} number must be 1 or more, not {shown(number)}.",
                    {"number": shown(number)},
                )
            )

    size = _table_size(sheet, problems)
    if size is None:
        raise RuleViolation(problems)
    players = _check_players(sheet.players, size, problems)
    morts = _sitting_out(sheet, size, problems)

    deal_marks: list[Mapping[Orientation, int]] = []
    named = any(line.sitting_out is not None for line in sheet.deals)
    for index, line in enumerate(sheet.deals):
        if named and morts[index] is None:
            continue  # its missing or wrong mort is reported
        marks = _line_marks(line, index, size, rules, problems, morts[index])
        if marks is not None:
            deal_marks.append(marks)
    problems.extend(
        next_deal_problems(
            [line.defence_revoke for line in sheet.deals],
            [None if line.facts is None else line.facts.taker for line in sheet.deals],
        )
    )
    if any(morts) and all(morts):
        problems.extend(
            rotation_problems(
                [
                    MortLine(mort, line.passed)
                    for mort, line in zip(morts, sheet.deals, strict=True)
                    if mort is not None
                ]
            )
        )
    if problems:
        raise RuleViolation(problems)

    totals = {}
    for seat in seats(size):
        column = [marks[seat] for marks in deal_marks]
        plus = sum(mark for mark in column if mark > 0)
        minus = -sum(mark for mark in column if mark < 0)
        totals[seat] = PlayerTotal(seat, players[seat], plus, minus, plus - minus)
    if sum(total.balance for total in totals.values()) != 0:  # follows from every line's check
        raise RuleViolation.single(
            "deals",
            "balances_do_not_sum_to_zero",
            "The balances of the sheet do not sum to zero.",
            {},
        )
    return SheetTotals(
        table=sheet.table,
        position=sheet.position,
        table_size=size,
        deal_marks=tuple(deal_marks),
        players=MappingProxyType(totals),
        deals_played=sum(1 for line in sheet.deals if line.played),
        sitting_out=tuple(morts),
    )


def _sitting_out(
    sheet: ScoreSheet, size: TableSize, problems: list[Problem]
) -> list[Orientation | None]:
    """Each line's mort: every line of a table of 5 names one, or none does."""
    named = [line.sitting_out is not None for line in sheet.deals]
    if not any(named):
        return [None] * len(sheet.deals)
    morts: list[Orientation | None] = []
    for index, line in enumerate(sheet.deals):
        where = f"deals[{index}].sitting_out"
        if line.sitting_out is None:
            problems.append(
                Problem(
                    where,
                    "sitting_out_missing",
                    f"Deal {index + 1} names nobody sitting out, but other deals of this sheet "
                    "do: at a table of 5 inside a tournament one player (le mort) sits out "
                    "every deal.",
                    {"deal": index + 1},
                )
            )
            morts.append(None)
            continue
        seat = _seat(line.sitting_out)
        if seat is None or seat not in seats(size) or size != TableSize.FIVE:
            problems.append(
                Problem(
                    where,
                    "sitting_out_not_at_table",
                    f"Deal {index + 1}: {shown(line.sitting_out)} cannot sit out; only at a "
                    f"table of 5 does one player (le mort) sit out, one of "
                    f"{', '.join(seats(TableSize.FIVE))}.",
                    {
                        "deal": index + 1,
                        "seat": shown(line.sitting_out),
                        "seats": ", ".join(seats(TableSize.FIVE)),
                    },
                )
            )
            morts.append(None)
            continue
        morts.append(seat)
    return morts


def _table_size(sheet: ScoreSheet, problems: list[Problem]) -> TableSize | None:
    """The size the deals' facts agree on, else the number of players named.

    A sheet whose lines name a player sitting out is a table of 5 (its deals are played
    at 4).
    """
    if any(line.sitting_out is not None for line in sheet.deals) and len(sheet.players) == 5:
        return TableSize.FIVE
    stated = set()
    for line in sheet.deals:
        if line.facts is not None and line.facts.table_size in set(TableSize):
            stated.add(TableSize(line.facts.table_size))
    if len(stated) == 1:
        return stated.pop()
    if len(sheet.players) in set(TableSize):
        return TableSize(len(sheet.players))
    problems.append(
        Problem(
            "players",
            "wrong_player_count",
            f"A table seats 3, 4 or 5 players; the sheet names {len(sheet.players)}.",
            {"players": len(sheet.players)},
        )
    )
    return None


def _check_players(
    players: Mapping[Any, str], size: TableSize, problems: list[Problem]
) -> dict[Orientation, str]:
    found: dict[Orientation, str] = {}
    for key, player in players.items():
        seat = _seat(key)
        if seat is None or seat not in seats(size):
            problems.append(
                Problem(
                    f"players.{shown(key)}",
                    "seat_not_at_table",
                    f"{shown(key)} is not a seat of a {int(size)}-player table (seats: "
                    f"{', '.join(seats(size))}; a 3-player table has no North).",
                    {"seat": shown(key), "size": int(size), "seats": ", ".join(seats(size))},
                )
            )
        else:
            found[seat] = player
    seen: dict[str, Orientation] = {}
    for seat in seats(size):
        named = found.get(seat)
        if named is None or named == "":
            problems.append(
                Problem(
                    f"players.{seat}",
                    "missing_player",
                    f"No player is named at {seat}; a {int(size)}-player table's sheet names "
                    f"a player at each of {', '.join(seats(size))}.",
                    {"seat": seat, "size": int(size), "seats": ", ".join(seats(size))},
                )
            )
        elif named in seen:
            problems.append(
                Problem(
                    f"players.{seat}",
                    "duplicate_player",
                    f"Player {named} is named both at {seen[named]} and at {seat}.",
                    {"player": named, "first_seat": seen[named], "seat": seat},
                )
            )
        else:
            seen[named] = seat
    return found


def _line_marks(
    line: DealLine,
    index: int,
    size: TableSize,
    rules: ScoringRules,
    problems: list[Problem],
    mort: Orientation | None = None,
) -> Mapping[Orientation, int] | None:
    """The line's marks (computed from the facts, else as written), or None if faulty.

    ``mort``: the seat sitting the deal out at a table of 5; the four others play the
    4-player game and the mort marks 0.
    """
    where = f"deals[{index}]"
    playing = None if mort is None else in_play(mort)
    game = size if mort is None else TableSize.FOUR
    if not isinstance(line.annulled, bool):
        problems.append(
            Problem(
                f"{where}.annulled",
                "not_a_boolean",
                f"annulled must be true or false, not {line.annulled!r}.",
                {"value": repr(line.annulled)},
            )
        )
        return None
    if line.defence_revoke is not None:
        found = revoke_problems(
            line.defence_revoke,
            index=index,
            facts=line.facts,
            annulled=line.annulled,
            table=seats(size) if playing is None else playing,
        )
        if found:
            problems.extend(found)
            return None
    if line.annulled:
        return _annulled_marks(line, index, size, game, playing, rules, problems)
    if not_scored(line.defence_revoke):
        return _annulled_marks(
            line, index, size, game, playing, rules, problems, code="revoke_not_scored_marked"
        )
    if line.facts is None and line.marks is None:
        problems.append(
            Problem(
                where,
                "empty_line",
                f"Deal {index + 1} has neither facts nor marks.",
                {"deal": index + 1},
            )
        )
        return None

    computed = None
    if line.facts is not None:
        computed = _computed_marks(line.facts, index, size, game, playing, rules, problems)

    if line.marks is None:
        return computed
    given: Mapping[Any, int] = line.marks
    if mort is not None and not any(_seat(key) == mort for key in given):
        given = {**given, mort: 0}  # the mort's column may be left blank
    written = _check_written_marks(given, where, index, size, problems)
    if written is None:
        return None
    if mort is not None and written[mort] != 0:
        problems.append(
            Problem(
                f"{where}.marks.{mort}",
                "sitting_out_marked",
                f"Deal {index + 1}: {mort} sits this deal out (le mort) and so marks 0, not "
                f"{written[mort]:+d} (« le mort ne compte pas dans les comptes de cette "
                f"partie »).",
                {"deal": index + 1, "seat": mort, "written": f"{written[mort]:+d}"},
            )
        )
        return None
    if line.facts is None:
        if not _fits_a_deal(written, game, playing):
            problems.append(
                Problem(
                    f"{where}.marks",
                    "marks_fit_no_deal",
                    f"Deal {index + 1}: these marks fit no taker. Each defender marks the same "
                    f"amount and the attack the opposite of their sum (taker 3x at 4 players, "
                    f"2x at 3, 4x alone or 2x with a partner marking x at 5).",
                    {"deal": index + 1},
                )
            )
            return None
        return MappingProxyType(written)
    if computed is None:  # the facts' problems are already reported
        return None
    disagreements = [seat for seat in seats(size) if written[seat] != computed[seat]]
    for seat in disagreements:
        problems.append(
            Problem(
                f"{where}.marks.{seat}",
                "mark_disagrees_with_facts",
                f"Deal {index + 1}: {seat} is written {written[seat]:+d} but the deal's facts "
                f"give {computed[seat]:+d}.",
                {
                    "deal": index + 1,
                    "seat": seat,
                    "written": f"{written[seat]:+d}",
                    "computed": f"{computed[seat]:+d}",
                },
            )
        )
    return None if disagreements else computed


def _computed_marks(
    facts: Deal,
    index: int,
    size: TableSize,
    game: TableSize,
    playing: tuple[Orientation, ...] | None,
    rules: ScoringRules,
    problems: list[Problem],
) -> Mapping[Orientation, int] | None:
    """The marks the facts give at every seat of the table (the mort's 0 included)."""
    where = f"deals[{index}]"
    if facts.table_size != game:
        if playing is None:
            message = (
                f"Deal {index + 1} is scored for {shown(facts.table_size)} players but "
                f"the sheet is for a {int(size)}-player table."
            )
        else:
            message = (
                f"Deal {index + 1} is scored for {shown(facts.table_size)} players but at a "
                f"table of 5 with a player sitting out (le mort) the four others play the "
                f"4-player game."
            )
        problems.append(
            Problem(
                f"{where}.table_size",
                "table_size_mismatch" if playing is None else "sitting_out_deal_not_at_four",
                message,
                {"deal": index + 1, "table_size": shown(facts.table_size), "size": int(game)},
            )
        )
        return None
    found = deal_problems(facts, rules, prefix=f"{where}.", in_play=playing)
    problems.extend(found)
    if found:
        return None
    marks = score_deal(facts, rules, in_play=playing).marks
    return MappingProxyType({seat: marks.get(seat, 0) for seat in seats(size)})


def _annulled_marks(
    line: DealLine,
    index: int,
    size: TableSize,
    game: TableSize,
    playing: tuple[Orientation, ...] | None,
    rules: ScoringRules,
    problems: list[Problem],
    code: str = "annulled_deal_marked",
) -> Mapping[Orientation, int] | None:
    """An annulled line: its facts checked, its marks (if written) all 0; it scores 0.

    ``code``: the refusal of a non-zero mark (``revoke_not_scored_marked`` for a deal the
    taker chose not to score after a revoke in defence)."""
    where = f"deals[{index}]"
    before = len(problems)
    if line.facts is not None:
        _computed_marks(line.facts, index, size, game, playing, rules, problems)
    if line.marks is not None:
        written = _check_written_marks(line.marks, where, index, size, problems)
        for seat, mark in (written or {}).items():
            if mark != 0:
                problems.append(
                    Problem(
                        f"{where}.marks.{seat}",
                        code,
                        f"Deal {index + 1} is annulled and so scores nothing, but {seat} is "
                        f"written {mark:+d} (chapter 4: an annulled deal does not count as "
                        f"played).",
                        {"deal": index + 1, "seat": seat, "written": f"{mark:+d}"},
                    )
                )
    if len(problems) > before:
        return None
    return MappingProxyType(dict.fromkeys(seats(size), 0))


def _check_written_marks(
    marks: Mapping[Any, int],
    where: str,
    index: int,
    size: TableSize,
    problems: list[Problem],
) -> dict[Orientation, int] | None:
    written: dict[Orientation, int] = {}
    before = len(problems)
    for key, mark in marks.items():
        seat = _seat(key)
        if seat is None or seat not in seats(size):
            problems.append(
                Problem(
                    f"{where}.marks.{shown(key)}",
                    "seat_not_at_table",
                    f"Deal {index + 1}: {shown(key)} is not a seat of a {int(size)}-player table.",
                    {"deal": index + 1, "seat": shown(key), "size": int(size)},
                )
            )
        elif isinstance(mark, bool) or not isinstance(mark, int):
            problems.append(
                Problem(
                    f"{where}.marks.{seat}",
                    "not_an_integer",
                    f"Deal {index + 1}: the mark at {seat} must be a whole number, not "
                    f"{shown(mark)}.",
                    {"deal": index + 1, "seat": seat, "value": shown(mark)},
                )
            )
        else:
            written[seat] = mark
    for seat in seats(size):
        if seat not in written and not any(_seat(key) == seat for key in marks):
            problems.append(
                Problem(
                    f"{where}.marks.{seat}",
                    "missing_mark",
                    f"Deal {index + 1} has no mark for {seat}; every player at the table "
                    "marks every deal.",
                    {"deal": index + 1, "seat": seat},
                )
            )
    if len(problems) > before:
        return None
    total = sum(written.values())
    if total != 0:
        problems.append(
            Problem(
                f"{where}.marks",
                "marks_do_not_sum_to_zero",
                f"Deal {index + 1}: the marks sum to {total:+d}; the scores of a deal must "
                "sum to zero (chapter 1, 'La marque en donnes libres').",
                {"deal": index + 1, "total": f"{total:+d}"},
            )
        )
        return None
    return written


def _fits_a_deal(
    marks: Mapping[Orientation, int],
    size: TableSize,
    playing: tuple[Orientation, ...] | None = None,
) -> bool:
    """Whether some taker (and partner, at 5 players) gives exactly these marks.

    ``playing``: the four seats playing a deal at a table of 5 (the mort's 0 is ignored).
    """
    table = seats(size) if playing is None else playing
    wanted = {seat: marks[seat] for seat in table}
    for taker in table:
        partners: list[Orientation | None] = [None]
        if size == TableSize.FIVE:
            partners += [seat for seat in table if seat != taker]
        for partner in partners:
            defender = next(seat for seat in table if seat not in (taker, partner))
            found = marks_for(size, taker, partner, -marks[defender], in_play=playing)
            if found == wanted:
                return True
    return False


def _seat(key: object) -> Orientation | None:
    try:
        # Any key may be looked up (ValueError if it is no seat); the stubs want a str.
        return Orientation(key)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return None
