"""The national finals' fixed PCN/PP tables (chapter 5, page 47), ties included.

``printed/national_finals.md`` is a verbatim copy of the four printed tables;
they are parsed here and compared with the default rulebook place by place.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from competitions.rules.pcn.allocation import RankedEntry
from competitions.rules.pcn.national_finals import (
    allocate_national_final,
    national_final_points,
    places_with_points,
)
from competitions.rules.rulebook import NationalFinal, PlaceRange, Rulebook
from core.problems import RuleViolation
from core.vocabulary import Format, StageKind

RULEBOOK = Rulebook.default()
PRINTED = Path(__file__).parent / "printed" / "national_finals.md"
SECTIONS = {
    "Libre individuel": NationalFinal.INDIVIDUAL,
    "Libre Duo": NationalFinal.DUO,
    "Libre par 4": NationalFinal.TEAM4,
    "Libre seniors": NationalFinal.SENIORS,
}
ROW = re.compile(
    r"^\|\s*(\d+)\^\{(?:er|ème)\}(?:\s*(?:au|et)\s*(\d+)\^\{ème\})?\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|$"
)
TABLE_HEAD = re.compile(r"^\|\s*\|\s*PCN\s*\|\s*PP\s*\|$|^\|-+\|-+\|-+\|$")
SOURCE_LINES = re.compile(r"lines (\d+)-(\d+)")


def _copy() -> tuple[range, list[str]]:
    """The source lines the copy cites, and the copied lines (after the comment)."""
    text = PRINTED.read_text(encoding="utf-8")
    comment, _, body = text.partition("-->\n\n")
    cited = SOURCE_LINES.search(comment)
    assert cited is not None
    first, last = (int(n) for n in cited.groups())
    return range(first, last + 1), body.splitlines()


def _read_printed() -> dict[NationalFinal, list[PlaceRange]]:
    tables: dict[NationalFinal, list[PlaceRange]] = {}
    current = None
    for line in _copy()[1]:
        if line.strip() in SECTIONS:
            current = SECTIONS[line.strip()]
            tables[current] = []
        match = ROW.match(line.strip())
        if match and current is not None:
            first, last, pcn, pp = match.groups()
            tables[current].append(PlaceRange(int(first), int(last or first), int(pcn), int(pp)))
    return tables


PRINTED_TABLES = _read_printed()


def test_the_copy_holds_every_line_it_cites() -> None:
    # A row lost in copying (as the seniors' last one once was) shortens the copy.
    cited, lines = _copy()
    assert len(lines) == len(cited) == 69
    assert lines[-1] == "| 87^{ème} au 172^{ème} | 500 | 0 |"  # the source's last line


def test_every_table_line_of_the_copy_is_read() -> None:
    # No row of a table may escape the parser (and so the comparison with the rulebook).
    unread = [
        line
        for line in _copy()[1]
        if line.startswith("|") and not (ROW.match(line.strip()) or TABLE_HEAD.match(line))
    ]
    assert unread == []
    rows = sum(1 for line in _copy()[1] if ROW.match(line.strip()))
    assert rows == sum(len(table) for table in PRINTED_TABLES.values()) == 12 + 11 + 11 + 12


def test_the_printed_seniors_table_overlaps_as_documented() -> None:
    seniors = PRINTED_TABLES[NationalFinal.SENIORS]
    assert seniors[-3] == PlaceRange(41, 52, 1000, 0)
    assert seniors[-2] == PlaceRange(43, 86, 750, 0)  # as printed: overlaps 43–52
    assert seniors[-1] == PlaceRange(87, 172, 500, 0)


@pytest.mark.parametrize("kind", list(NationalFinal))
def test_every_printed_table_but_the_seniors_misprint_is_contiguous(kind: NationalFinal) -> None:
    rows = PRINTED_TABLES[kind]
    assert rows[0].first == 1
    gaps = [(before, after) for before, after in pairwise(rows) if after.first != before.last + 1]
    expected = [(rows[-3], rows[-2])] if kind is NationalFinal.SENIORS else []
    assert gaps == expected


def _read_as_meant(kind: NationalFinal) -> tuple[PlaceRange, ...]:
    rows = PRINTED_TABLES[kind]
    if kind is NationalFinal.SENIORS:
        # Reading: "43ème au 86ème" follows "41ème au 52ème", so it starts at 53.
        rows = [*rows[:-2], replace(rows[-2], first=53), rows[-1]]
    return tuple(rows)


@pytest.mark.parametrize("kind", list(NationalFinal))
def test_default_tables_are_the_printed_ones(kind: NationalFinal) -> None:
    assert RULEBOOK.national_finals.table(kind) == _read_as_meant(kind)


CELLS = [
    (kind, row.first, row.last, row.pcn, row.pp)
    for kind in NationalFinal
    for row in _read_as_meant(kind)
]


@pytest.mark.parametrize(("kind", "first", "last", "pcn", "pp"), CELLS)
def test_every_place_of_every_printed_range(
    kind: NationalFinal, first: int, last: int, pcn: int, pp: int
) -> None:
    for place in range(first, last + 1):
        assert national_final_points(kind, place, RULEBOOK) == (pcn, pp)


@pytest.mark.parametrize(
    ("kind", "place", "points"),
    [
        (NationalFinal.INDIVIDUAL, 1, (4000, 17)),
        (NationalFinal.INDIVIDUAL, 52, (1000, 1)),
        (NationalFinal.INDIVIDUAL, 53, (750, 0)),
        (NationalFinal.INDIVIDUAL, 240, (500, 0)),
        (NationalFinal.INDIVIDUAL, 241, (0, 0)),
        (NationalFinal.DUO, 6, (2200, 3)),
        (NationalFinal.DUO, 20, (1400, 1)),
        (NationalFinal.DUO, 100, (500, 0)),
        (NationalFinal.DUO, 101, (0, 0)),
        (NationalFinal.TEAM4, 10, (1600, 1)),
        (NationalFinal.TEAM4, 11, (1400, 0)),
        (NationalFinal.TEAM4, 50, (500, 0)),
        (NationalFinal.TEAM4, 51, (0, 0)),
        (NationalFinal.SENIORS, 1, (5000, 10)),
        (NationalFinal.SENIORS, 40, (1500, 0)),
        (NationalFinal.SENIORS, 41, (1000, 0)),
        (NationalFinal.SENIORS, 43, (1000, 0)),  # the overlap: 41–52 wins
        (NationalFinal.SENIORS, 52, (1000, 0)),
        (NationalFinal.SENIORS, 53, (750, 0)),
        (NationalFinal.SENIORS, 86, (750, 0)),
        (NationalFinal.SENIORS, 87, (500, 0)),
        (NationalFinal.SENIORS, 172, (500, 0)),
        (NationalFinal.SENIORS, 173, (0, 0)),
    ],
)
def test_lookup_by_place(kind: NationalFinal, place: int, points: tuple[int, int]) -> None:
    assert national_final_points(kind, place, RULEBOOK) == points


@pytest.mark.parametrize(
    ("kind", "last"),
    [
        (NationalFinal.INDIVIDUAL, 240),
        (NationalFinal.DUO, 100),
        (NationalFinal.TEAM4, 50),
        (NationalFinal.SENIORS, 172),
    ],
)
def test_places_with_points(kind: NationalFinal, last: int) -> None:
    assert places_with_points(kind, RULEBOOK) == last


def test_a_place_must_be_positive() -> None:
    with pytest.raises(RuleViolation):
        national_final_points(NationalFinal.DUO, 0, RULEBOOK)


def ranking_of(places: list[int]) -> list[RankedEntry]:
    return [RankedEntry(f"e{i}", place) for i, place in enumerate(places)]


@pytest.mark.parametrize(
    ("kind", "fmt", "players"),
    [
        (NationalFinal.INDIVIDUAL, Format.INDIVIDUAL, 1),
        (NationalFinal.DUO, Format.DUO, 2),
        (NationalFinal.TEAM4, Format.TEAM4, 4),
        (NationalFinal.SENIORS, Format.INDIVIDUAL, 1),
    ],
)
def test_allocating_a_national_final(kind: NationalFinal, fmt: Format, players: int) -> None:
    last = places_with_points(kind, RULEBOOK)
    allocation = allocate_national_final(ranking_of(list(range(1, last + 3))), kind, RULEBOOK)
    assert allocation.stage is StageKind.NATIONAL_FINAL
    assert allocation.national_final is kind
    assert allocation.format is fmt
    assert allocation.players_per_entry == players
    for award in allocation.awards:
        expected = national_final_points(kind, award.place, RULEBOOK)
        assert (award.pcn_per_player, award.pp_per_player) == expected
        assert award.has_right is (award.place <= last)


def test_seniors_allocation_across_the_overlap() -> None:
    allocation = allocate_national_final(
        ranking_of(list(range(1, 181))), NationalFinal.SENIORS, RULEBOOK
    )
    pcn = [a.pcn_per_player for a in allocation.awards]
    assert pcn[40:52] == [1000] * 12
    assert pcn[52:86] == [750] * 34
    assert pcn[86:172] == [500] * 86  # 87th to 172nd: the table's last row
    assert pcn[172:] == [0] * 8


def test_ties_are_refused_at_a_national_final_by_default() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        allocate_national_final(ranking_of([1, 1, 3]), NationalFinal.INDIVIDUAL, RULEBOOK)
    assert [(p.field, p.code) for p in excinfo.value.problems] == [
        ("ranking[0].place", "tie_not_broken")
    ]


@pytest.mark.parametrize(
    ("kind", "places", "tied_place", "share"),
    [
        # (4000 + 3500) / 2 = 3750 PCN, (17 + 11) / 2 = 14 PP.
        (NationalFinal.INDIVIDUAL, [1, 1, 3], 1, (3750, 14)),
        # places 2–4: 9000 / 3 = 3000 PCN, 26 / 3 = 8.67 → 9 PP.
        (NationalFinal.INDIVIDUAL, [1, 2, 2, 2, 5], 2, (3000, 9)),
        # a tie across two ranges: (1600 + 1400) / 2 PCN, (1 + 0) / 2 = 0.5 → 1 PP.
        (NationalFinal.TEAM4, [*range(1, 10), 10, 10, 12], 10, (1500, 1)),
        # (3500 + 3000 + 2500 + 2200) / 4 = 2800 PCN, (7 + 5 + 4 + 3) / 4 = 4.75 → 5 PP.
        (NationalFinal.DUO, [1, 2, 2, 2, 2, 6], 2, (2800, 5)),
        # straddling the seniors' last two ranges: (750 + 500) / 2.
        (NationalFinal.SENIORS, [*range(1, 86), 86, 86], 86, (625, 0)),
        # straddling the end of the seniors table: (500 + 0) / 2; no floor at a national final.
        (NationalFinal.SENIORS, [*range(1, 172), 172, 172], 172, (250, 0)),
        # across the seniors overlap: (1000 + 750) / 2.
        (NationalFinal.SENIORS, [*range(1, 52), 52, 52], 52, (875, 0)),
    ],
)
def test_ties_that_survived_article_29_are_shared(
    kind: NationalFinal, places: list[int], tied_place: int, share: tuple[int, int]
) -> None:
    allocation = allocate_national_final(
        ranking_of(places), kind, RULEBOOK, ties_after_tie_break=True
    )
    tied = {(a.pcn_per_player, a.pp_per_player) for a in allocation.awards if a.place == tied_place}
    assert tied == {share}


def test_a_season_without_tie_break_rules_shares_ties() -> None:
    book = replace(
        RULEBOOK, national_finals=replace(RULEBOOK.national_finals, tie_break_rules=False)
    )
    allocation = allocate_national_final(ranking_of([1, 1, 3]), NationalFinal.DUO, book)
    assert [a.pcn_per_player for a in allocation.awards] == [3750, 3750, 3000]
    assert [a.pp_per_player for a in allocation.awards] == [9, 9, 5]  # (10 + 7) / 2 = 8.5 → 9


def test_a_season_may_change_a_table() -> None:
    table = (PlaceRange(1, 1, 6000, 20), PlaceRange(2, 10, 3000, 5))
    book = replace(RULEBOOK, national_finals=replace(RULEBOOK.national_finals, seniors=table))
    assert national_final_points(NationalFinal.SENIORS, 1, book) == (6000, 20)
    assert national_final_points(NationalFinal.SENIORS, 11, book) == (0, 0)


def test_an_invalid_ranking_is_refused_with_located_problems() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        allocate_national_final(ranking_of([1, 3, 3]), NationalFinal.TEAM4, RULEBOOK)
    assert [(p.field, p.code) for p in excinfo.value.problems] == [
        ("ranking[1].place", "place_not_1224")
    ]
