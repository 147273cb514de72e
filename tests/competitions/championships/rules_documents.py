"""Regional rules documents for the championship tests: the stages a committee
publishes, valid rules by kind for season 2026-2027, and the same rules moved by seasons."""

from __future__ import annotations


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
