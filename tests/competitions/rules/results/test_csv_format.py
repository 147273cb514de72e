"""parse_csv() / write_csv(): the CSV form, its problems located by spreadsheet line."""

from __future__ import annotations

import pytest

from competitions.rules.results import (
    LicenceStatus,
    parse_csv,
    parse_json,
    results_sha256,
    validate,
)
from competitions.rules.results.csv_format import COLUMNS
from competitions.rules.results.csv_writer import write_csv
from core.problems import RuleViolation
from tests.competitions.rules.results.licences import licensed
from tests.competitions.rules.results.refusals import messages, refusal

HEADER = "record;session;tables;tables_of_three;deals;entry;place;entry_total;licence_number;name"


def csv_bytes(*lines: str, header: str = HEADER) -> bytes:
    return ("\n".join((header, *lines)) + "\n").encode()


def test_the_same_results_as_json_hash_the_same(results):
    document = parse_json(results)
    for delimiter in (",", ";"):
        text = write_csv(document, delimiter=delimiter)
        assert text.splitlines()[0] == delimiter.join(COLUMNS)
        parsed = parse_csv(text.encode())
        assert parsed == document
        assert results_sha256(parsed) == results_sha256(document)


def test_utf8_with_a_byte_order_mark_and_windows_line_ends(results):
    text = write_csv(parse_json(results), delimiter=";")
    data = b"\xef\xbb\xbf" + text.replace("\r\n", "\n").replace("\n", "\r\n").encode()
    assert parse_csv(data) == parse_json(results)
    assert parse_csv(text) == parse_json(results)  # text already decoded


def test_columns_in_any_order_and_only_those_used():
    data = csv_bytes(
        "session;1;3;0;20;;;;;",
        "player;;;;;1;1;0;123456;DURAND Jean",
        header="RECORD ;Session;tables;tables_of_three;deals;entry;place;entry_total;"
        "licence_number;name",
    )
    document = parse_csv(data)
    assert document.sessions[0].tables == 3
    assert document.entries[0].players[0].name == "DURAND Jean"
    assert document.entries[0].tiebreak is None


def test_a_team_is_its_player_lines_and_positions_find_their_player():
    header = "record,entry,place,entry_total,licence_number,name,session,position,table,score"
    data = csv_bytes(
        "player,4,2,-30,111,A,,,,",
        "player,4,2,-30,,Guest B,,,,",
        "position,4,,,111,,1,1,2,-10",
        "position,4,,,,GUEST B,1,1,3,-20",  # a player without licence number: by name
        "player,5,1,30,222,C,,,,",
        "position,5,,,,,1,1,1,30",  # an entry of one player: no need to say who
        header=header,
    )
    document = parse_csv(data)
    team, single = document.entries
    assert [p.licence_number for p in team.players] == [111, None]
    assert [p.positions[0].score for p in team.players] == [-10, -20]
    assert single.players[0].positions[0].table == 1


def test_blank_lines_are_skipped_and_lines_counted_as_in_a_spreadsheet():
    data = csv_bytes(";;;;;;;;;", "session;1;3;0;x;;;;;", "", ";;;;;;;;;")
    assert refusal(lambda: parse_csv(data)) == [("lines[3].deals", "not_an_integer")]


def test_every_problem_of_the_file_is_located_by_line_and_column():
    header = ",".join(COLUMNS)
    cells = dict.fromkeys(COLUMNS, "")

    def line(**values: object) -> str:
        return ",".join(str(values.get(c, cells[c])) for c in COLUMNS)

    data = "\n".join(
        [
            header,
            line(record="session", session=1, tables=-3, deals=20),
            line(record="sessoin", session=2),
            line(record="player", entry=1, place=1, entry_total=10, licence_number=5),
            line(record="player", entry=1, place=2, entry_total=10, licence_number=6),
            line(record="player", entry=2, place=3, entry_total=-10),
            line(record="position", entry=9, session=1, position=1, table=1, score=0),
            line(record="position", entry=1, session=1, position=1, table=1, score=0),
            line(record="penalty", licence_number=5, points=1, kind="retard", reason="x", place=3),
            line(record="player", entry=1, place=1, entry_total=10, licence_number=7),
            line(record="player", entry=3, place=1, entry_total=0, abandoned="maybe", name="X"),
        ]
    ).encode()
    assert refusal(lambda: parse_csv(data)) == [
        ("lines[2].tables", "negative_number"),
        ("lines[3].record", "unknown_record_type"),
        ("lines[5].place", "entry_columns_disagree"),
        ("lines[6].name", "unidentified_player"),
        ("lines[7].entry", "position_entry_not_found"),
        ("lines[8].licence_number", "position_player_ambiguous"),
        ("lines[9].place", "column_not_for_record"),
        ("lines[9].kind", "unknown_penalty_kind"),
        ("lines[11].abandoned", "not_a_boolean"),
    ]
    assert "but line 4 gave '1'" in messages(lambda: parse_csv(data))[2]


def test_header_problems():
    assert refusal(lambda: parse_csv(b"")) == [("lines[1]", "missing_header")]
    assert refusal(lambda: parse_csv(b"session,tables,tables\n")) == [
        ("lines[1].tables", "duplicate_column"),
        ("lines[1].record", "missing_column"),
    ]
    assert refusal(lambda: parse_csv(b"record,score,licence\n")) == [
        ("lines[1].licence", "unknown_column")
    ]


def test_a_column_a_record_needs_is_reported_once_on_the_header():
    data = b"record,session,tables\nsession,1,3\nsession,2,3\n"
    assert refusal(lambda: parse_csv(data)) == [("lines[1].deals", "missing_column")]


def test_cells_beyond_the_header_are_refused():
    data = b"record,session,tables,deals\nsession,1,3,20,oops\n"
    assert refusal(lambda: parse_csv(data)) == [("lines[2]", "cell_without_column")]


def test_a_file_saved_by_french_excel_is_read_as_windows_1252():
    header = "record;entry;place;entry_total;licence_number;name"
    text = f"{header}\r\nplayer;1;1;0;5;MULLER Léa\r\nplayer;2;1;0;6;DUPRÉ Œdipe\r\n"
    document = parse_csv(text.encode("cp1252"))
    assert [e.players[0].name for e in document.entries] == ["MULLER Léa", "DUPRÉ Œdipe"]
    assert parse_csv(text.encode("cp1252")) == parse_csv(b"\xef\xbb\xbf" + text.encode())


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"PK\x03\x04 a damaged workbook", "workbook_unreadable"),
        (b"\xd0\xcf\x11\xe0 an old .xls workbook", "workbook_xls"),
        ("record;name\n".encode("utf-16"), "csv_is_utf16"),
        ("record;name\nplayer;Léa\n".encode() + b"player;\xe9\n", "csv_mixed_encodings"),
        (b"record;name\nplayer;\x81\n", "csv_unknown_encoding"),
        (b"record\x00,x\n", "csv_not_text"),
    ],
)
def test_a_file_that_is_not_a_text_csv_says_why(data, code):
    [(_, found)] = refusal(lambda: parse_csv(data))
    assert found == code


def test_broken_quoting_is_refused():
    assert refusal(lambda: parse_csv(b'record,name\nplayer,"DURAND\n')) == [
        ("lines[2]", "malformed_csv")
    ]
    assert refusal(lambda: parse_csv(b'record,name\nsession,1\nplayer,"DU"RAND"\n')) == [
        ("lines[3]", "malformed_csv")
    ]


def test_validation_problems_of_a_csv_document_name_its_lines(results):
    results["entries"][2]["total"] += 5
    results["entries"][4]["players"][0]["licence_number"] = 100_001
    text = write_csv(parse_json(results))
    document = parse_csv(text.encode())
    line_of_entry_2 = 1 + 2 + 2 * 5 + 1  # header, 2 sessions, 2 entries of 1 player + 4 positions
    with pytest.raises(RuleViolation) as refused:
        validate(document, format="individual", licences=licensed(results))
    problems = {(p.field, p.code) for p in refused.value.problems}
    assert (f"lines[{line_of_entry_2}].entry_total", "entry_total_mismatch") in problems
    duplicate = next(p for p in refused.value.problems if p.code == "duplicate_licence_number")
    assert duplicate.field == f"lines[{1 + 2 + 4 * 5 + 1}].licence_number"
    assert "also at lines[4]" in duplicate.message


def test_warnings_of_a_csv_document_name_its_lines(results):
    document = parse_csv(write_csv(parse_json(results)).encode())
    licences = licensed(results)
    licences[100_002] = LicenceStatus.NOT_LICENSED_THIS_SEASON
    validated = validate(document, format="individual", licences=licences)
    assert [(w.field, w.code) for w in validated.warnings] == [
        ("lines[9].licence_number", "not_licensed_this_season")
    ]


def test_problems_of_the_whole_file_point_at_its_lines():
    data = b"record,entry,place,entry_total,licence_number\nplayer,1,1,0,5\n"
    document = parse_csv(data)
    problems = refusal(lambda: validate(document, format="individual", licences={}))
    assert problems == [
        ("lines", "no_sessions"),
        ("lines[2].licence_number", "unknown_licence_number"),
        ("lines", "below_minimum_participation"),
    ]
