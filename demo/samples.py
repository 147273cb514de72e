"""The results samples of ``docs/samples``, kept in step with the demo registry.

The samples are real played tournaments (deal by deal, with a tie split by article 29,
an abandon, a late arrival: see docs/results-format.md); what the demo changes is who
played them. :func:`write_samples` gives each entry of a sample, in order, players of the
`club` demo user's club licensed this season, under their registry names, so that each
sample uploads cleanly to the tournament ``seed_demo`` declared for it
(:data:`demo.tournaments.SAMPLE_REFERENCES`): no problem, no warning, points once
homologated. Rewriting the samples from the same demo changes nothing.

- ``results-individual.json``, ``results-sheets.json``, ``results-individual.csv`` (UTF-8)
  and ``results-individual-excel.csv`` (as French Excel saves it: Windows-1252,
  semicolons, CRLF): one 12-player, two-session individual tournament, for the
  tournament « Tournoi individuel d'exemple »;
- ``results-duo.json``: six duos in one session, for « Tournoi DUO d'exemple ».
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from competitions.models import Tournament
from competitions.rules.results.csv_writer import write_csv
from competitions.rules.results.json_format import parse_json
from core.vocabulary import Format
from demo.tournaments import SAMPLE_REFERENCES, results_name
from federation.models import Licence, Player

SAMPLES = Path(__file__).resolve().parent.parent / "docs" / "samples"

INDIVIDUAL_SAMPLES = ("results-individual.json", "results-sheets.json")
DUO_SAMPLE = "results-duo.json"
CSV_SAMPLE = "results-individual.csv"
EXCEL_SAMPLE = "results-individual-excel.csv"


@dataclass(frozen=True)
class SampleTournaments:
    """The demo's declared tournaments the samples are for."""

    individual: Tournament
    duo: Tournament


def sample_tournaments() -> SampleTournaments:
    by_reference = {
        t.reference: t
        for t in Tournament.objects.select_related("organizer_club", "arbiter", "season").filter(
            reference__in=SAMPLE_REFERENCES.values()
        )
    }
    return SampleTournaments(
        individual=by_reference[SAMPLE_REFERENCES[Format.INDIVIDUAL]],
        duo=by_reference[SAMPLE_REFERENCES[Format.DUO]],
    )


def write_samples(source: Path = SAMPLES, target: Path = SAMPLES) -> list[Path]:
    """Rewrite the samples of ``source`` into ``target`` with the demo's players; returns
    the files written."""
    tournaments = sample_tournaments()
    players = _sample_players(tournaments.individual)
    individual = json.loads((source / INDIVIDUAL_SAMPLES[0]).read_text(encoding="utf-8"))
    duo = json.loads((source / DUO_SAMPLE).read_text(encoding="utf-8"))
    seats = [player for entry in individual["entries"] for player in entry["players"]]
    duo_seats = [player for entry in duo["entries"] for player in entry["players"]]
    if len(players) < len(seats) + len(duo_seats):
        raise ValueError(
            f"The club of the samples has {len(players)} licensees this season; the samples "
            f"need {len(seats) + len(duo_seats)}."
        )
    renamed = dict(zip(map(_identity, seats), players, strict=False))
    renamed.update(zip(map(_identity, duo_seats), players[len(seats) :], strict=False))

    written = []
    target.mkdir(parents=True, exist_ok=True)
    for name in (*INDIVIDUAL_SAMPLES, DUO_SAMPLE):
        document = json.loads((source / name).read_text(encoding="utf-8"))
        path = target / name
        path.write_text(_dumps(_renamed(document, renamed)) + "\n", encoding="utf-8")
        written.append(path)
    text = write_csv(parse_json((target / INDIVIDUAL_SAMPLES[0]).read_bytes()), delimiter=";")
    for name, encoding in ((CSV_SAMPLE, "utf-8"), (EXCEL_SAMPLE, "cp1252")):
        path = target / name
        path.write_bytes(text.encode(encoding))
        written.append(path)
    return written


def _sample_players(tournament: Tournament) -> list[Player]:
    """The club's licensees of the season in licence-number order, but its arbiter."""
    return [
        licence.player
        for licence in Licence.objects.filter(
            season=tournament.season, club=tournament.organizer_club
        )
        .exclude(player=tournament.arbiter)
        .select_related("player")
        .order_by("player__licence_number")
    ]


def _identity(player: dict[str, Any]) -> int | str:
    """A sample's player: their licence number, or the name of one without."""
    number = player["licence_number"]
    return str(player["name"]) if number is None else int(number)


def _renamed(value: Any, renamed: dict[int | str, Player]) -> Any:
    """``value`` with every player of ``renamed`` replaced: in entries and penalties
    (``licence_number`` and ``name``) and on the score sheets' seats (``players``)."""
    if isinstance(value, list):
        return [_renamed(item, renamed) for item in value]
    if not isinstance(value, dict):
        return value
    if "licence_number" in value:
        player = renamed[_identity({"name": None, **value})]
        value = {**value, "licence_number": player.licence_number}
        if "name" in value:
            value["name"] = results_name(player)
    return {
        key: (
            {seat: renamed[who].licence_number for seat, who in item.items()}
            if key == "players" and isinstance(item, dict)  # a score sheet's seats
            else _renamed(item, renamed)
        )
        for key, item in value.items()
    }


def _dumps(value: Any, indent: str = "") -> str:
    """JSON as the samples are written: an object or array holding no other on one line,
    the others one item a line, two spaces deep."""
    items = value.values() if isinstance(value, dict) else value
    if not isinstance(value, dict | list) or not any(isinstance(i, dict | list) for i in items):
        return json.dumps(value, ensure_ascii=False)
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [f"{inner}{_dumps(v, inner)}" for v in value]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"
