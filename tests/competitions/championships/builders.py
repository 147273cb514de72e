"""Builders shared by the championship service tests: players, published rules, results."""

from __future__ import annotations

import datetime as dt
import itertools
import math
from collections.abc import Sequence

from federation.models import Licence, Player, Season

_numbers = itertools.count(700001)


def new_player(
    registry,
    club: int,
    *,
    born: dt.date = dt.date(1975, 6, 1),
    previous: bool = True,
    licensed: bool = True,
    issued_on: dt.date | None = None,
    last_name: str = "Joueur",
    number: int | None = None,
) -> Player:
    """A player licensed this season in ``club`` (and the previous season by default)."""
    number = number or next(_numbers)
    player = Player.objects.create(
        licence_number=number, last_name=f"{last_name}{number}", first_name="Test", birth_date=born
    )
    if licensed:
        Licence.objects.create(
            player=player, season=registry.season, club=registry.clubs[club], issued_on=issued_on
        )
    if previous:
        Licence.objects.create(player=player, season=registry.previous, club=registry.clubs[club])
    return player


def licensed_in(player: Player, season: Season, club) -> Licence:
    return Licence.objects.create(player=player, season=season, club=club)


def session_plan(deals: int = 20, sessions: int = 2) -> list[dict]:
    return [{"deals": deals} for _ in range(sessions)]


def final_stage(
    start: str,
    end: str,
    *,
    minimum: int,
    name: str = "Finale régionale",
    sessions: int = 2,
    deals: int = 20,
) -> dict:
    return {
        "name": name,
        "kind": "regional_final",
        "start": start,
        "end": end,
        "brackets": [
            {"min_entries": minimum, "max_entries": None, "sessions": session_plan(deals, sessions)}
        ],
    }


def stage_of(kind: str, name: str, start: str, end: str, brackets=()) -> dict:
    return {"name": name, "kind": kind, "start": start, "end": end, "brackets": list(brackets)}


# Valid published rules by kind, for season 2026-2027.
MINIMUM = {"individual": 20, "seniors": 20, "duo": 10, "interclubs": 5}
FINAL_DATES = {
    "individual": ("2027-03-01", "2027-03-31"),
    "seniors": ("2027-03-01", "2027-03-31"),
    "duo": ("2026-12-01", "2026-12-20"),
    "interclubs": ("2027-05-01", "2027-06-30"),
}
SEMI_DATES = {
    "individual": ("2027-02-01", "2027-02-28"),
    "seniors": ("2027-02-01", "2027-02-28"),
    "duo": ("2026-11-01", "2026-11-30"),
    "interclubs": ("2027-04-01", "2027-04-30"),
}


def valid_rules(kind: str, *, semi: bool = True) -> dict:
    """A committee's rules that comply: a semi-final, then the regional final."""
    minimum = MINIMUM[kind]
    stages = []
    if semi:
        brackets = (
            [{"min_entries": minimum, "max_entries": None, "sessions": session_plan()}]
            if kind == "seniors"
            else [{"min_entries": 1, "max_entries": None, "sessions": [{"deals": 12}]}]
        )
        stages.append(stage_of("regional_semi_final", "Demi-finale", *SEMI_DATES[kind], brackets))
    stages.append(final_stage(*FINAL_DATES[kind], minimum=minimum))
    return {"stages": stages}


# ---------------------------------------------------------------------------------------------
# Results documents


def results(
    entries: Sequence[Sequence[int]],
    *,
    totals: Sequence[int] | None = None,
    sessions: int = 2,
    deals: int = 20,
    tiebreaks: dict[int, dict] | None = None,
    penalties: Sequence[dict] = (),
    abandoned: Sequence[int] = (),
) -> dict:
    """A results document for ``entries`` (licence numbers, ranking order).

    ``totals`` default to a decreasing zero-sum list; places are computed in the 1224
    convention, entries level on total separated only when both have ``tiebreaks`` (by
    index: {"best_position_score": …, "contracts_made": {…}}) and in the given order.
    ``abandoned``: indices of entries that left (article 27), placed last.
    """
    n = len(entries)
    if totals is None:
        totals = [10 * (n - 1 - 2 * i) for i in range(n)]
        penalty_points = sum(p["points"] for p in penalties)
        totals[-1] -= penalty_points
    tiebreaks = tiebreaks or {}
    order = sorted(range(n), key=lambda i: (i in abandoned, -totals[i], i))
    places = {}
    for rank, i in enumerate(order):
        if rank and _level(order[rank - 1], i, totals, abandoned, tiebreaks):
            places[i] = places[order[rank - 1]]
        else:
            places[i] = rank + 1
    players = sum(len(e) for e in entries)
    tables = math.ceil(players / 4)
    return {
        "format_version": 1,
        "sessions": [
            {
                "number": k + 1,
                "tables": tables,
                "tables_of_three": 4 * tables - players,
                "deals": deals,
            }
            for k in range(sessions)
        ],
        "entries": [
            {
                "number": i + 1,
                "place": places[i],
                "total": totals[i],
                "abandoned": i in abandoned,
                "players": [
                    {"licence_number": n, "name": f"J{n}", "total": totals[i] if k == 0 else 0}
                    for k, n in enumerate(entry)
                ],
                **({"tiebreak": tiebreaks[i]} if i in tiebreaks else {}),
            }
            for i, entry in enumerate(entries)
        ],
        "penalties": list(penalties),
    }


def _level(above: int, below: int, totals, abandoned, tiebreaks) -> bool:
    """Level entries share a place unless article 29 separates them."""
    if (above in abandoned) != (below in abandoned) or totals[above] != totals[below]:
        return False
    if above in tiebreaks and below in tiebreaks:
        return tiebreaks[above] == tiebreaks[below]  # the tie survives article 29
    return True


def tiebreak(best: int, prise: int = 0, garde: int = 0) -> dict:
    return {
        "best_position_score": best,
        "contracts_made": {"prise": prise, "garde": garde, "garde_sans": 0, "garde_contre": 0},
    }


# ---------------------------------------------------------------------------------------------
# API steps


def enter_all(api, stage: int, groups: Sequence[Sequence[int]]) -> dict:
    response = api.post(
        f"/api/championships/stages/{stage}/entries/",
        {"entries": [{"licence_numbers": list(g)} for g in groups]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def submit(api, stage: int, document: dict):
    return api.post(f"/api/championships/stages/{stage}/results/", document, format="json")


def homologate(api, stage: int):
    return api.post(f"/api/championships/stages/{stage}/homologate/")


def play(api, stage: int, document: dict) -> None:
    """Submit and homologate a stage's results (the caller is staff above the organiser)."""
    submitted = submit(api, stage, document)
    assert submitted.status_code == 201, submitted.json()
    done = homologate(api, stage)
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "homologated"


def players(registry, count: int, club: int, **kwargs) -> list[int]:
    return [new_player(registry, club, **kwargs).licence_number for _ in range(count)]


def shifted(rules: dict, years: int) -> dict:
    """The same rules ``years`` seasons later (or earlier)."""

    def move(day: str) -> str:
        return f"{int(day[:4]) + years}{day[4:]}"

    return {
        **rules,
        "stages": [
            {**s, "start": move(s["start"]), "end": move(s["end"])} for s in rules["stages"]
        ],
    }


def points(tournament_id: int) -> dict[int, tuple[int, int]]:
    """Licence number → (PCN, PP) of a tournament's current allocations."""
    from rankings.models import Allocation

    return {
        number: (pcn, pp)
        for number, pcn, pp in Allocation.objects.filter(
            tournament_id=tournament_id, current=True
        ).values_list("player__licence_number", "pcn", "pp")
    }


def expected_scale(tables: int, index: str, count: int, *, exponent: int = 1, cap: int = 3000):
    """Chapter 5, written out independently: the first place has 40 PCN per table (every
    session's tables counted), each next place the previous × the reduction coefficient
    (0.69 at 3 tables, +0.01 a table, at most 0.95, raised to the format's exponent, at
    least 0.5), × the stage index, truncated, at least 50, at most the cap."""
    from decimal import Decimal
    from fractions import Fraction

    base = min(Decimal("0.95"), Decimal("0.69") + Decimal("0.01") * (tables - 3))
    coefficient = max(Fraction(base) ** exponent, Fraction(1, 2))
    raw = Fraction(40 * tables)
    values = []
    for _ in range(count):
        values.append(min(cap, max(50, math.floor(raw * Fraction(Decimal(index))))))
        raw *= coefficient
    return values


def previous_regional_final(api, registry, kind: str, day: str, entries, committee: int = 1):
    """Last season (2025-2026): ``kind``'s regional final of ``committee``, played in the
    order of ``entries`` (the first is the regional champion). The caller is the CCN."""
    from federation.models import ArbiterAccreditation, ArbiterGrade

    ArbiterAccreditation.objects.get_or_create(
        player=registry.players[1002],
        season=registry.previous,
        defaults={"grade": ArbiterGrade.REGIONAL},
    )
    made = api.post(
        "/api/championships/", {"season": "2025-2026", "kinds": [kind]}, format="json"
    ).json()
    championship = made[0]["id"]
    regional = api.post(
        f"/api/championships/{championship}/regionals/", {"committee": committee}, format="json"
    ).json()["id"]
    published = api.post(
        f"/api/championships/regionals/{regional}/rules/",
        {"rules": shifted(valid_rules(kind, semi=False), -1)},
        format="json",
    )
    assert published.status_code == 201, published.json()
    final = api.post(
        f"/api/championships/{championship}/stages/",
        {"kind": "regional_final", "date": day, "venue": "Salle",
         "arbiter_licence_number": 1002, "committee": committee},
        format="json",
    )  # fmt: skip
    assert final.status_code == 201, final.json()
    enter_all(api, final.json()["id"], entries)
    play(api, final.json()["id"], results(entries))
    return championship
