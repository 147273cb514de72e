"""Conditions for the homologation of a tournament (chapter 5, *Conditions pour
l'homologation d'un tournoi*; chapter 1, *Le jeu à 5 joueurs*).

A tournament is homologable, and so gives PCN, only if:

- it is organised by the FFT, one of its zones, one of its regional committees
  or a club affiliated to the FFT (*Organisateur*);
- it is directed by an official FFT arbiter (*arbitre officiel*), who may play in
  it except in official championships, team matches and festivals (*Arbitrage*);
- it is played simultaneously at one place (*simultanément sur le même lieu*): each
  session by all its tables at once (a declared session has one date and one venue),
  every session at the same venue, and on one day unless the season's rulebook lets the
  kind of event span days (a championship's qualifier « sur 2 après-midi », chapter 3
  art. 19);
- a team match (*match par équipes*) is played in a team format;
- it has the minimum participation: 11 players, 6 duos or 5 teams of 4;
- it has no table of 5 players (*les tournois à 5 joueurs ne sont pas homologables*).

:func:`check_homologation` lists every unmet condition; an empty list means homologable.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from competitions.rules.rulebook import EventKind, Organizer, Rulebook
from core.problems import Problem, RuleViolation
from core.vocabulary import Format

PLAYABLE_TABLE_SIZES = (3, 4, 5)
"""Tarot is played at 3, 4 and 5 players (chapter 1, *Présentation*)."""


@dataclass(frozen=True, slots=True)
class TournamentFacts:
    """What homologation needs to know about a tournament."""

    organizer: Organizer
    format: Format
    event_kind: EventKind
    arbiter_is_official: bool
    """Directed by an official arbiter of the FFT."""
    arbiter_plays: bool
    """The directing arbiter also plays in the tournament."""
    single_venue: bool
    """Every table plays at the same place (*sur le même lieu*)."""
    simultaneous: bool
    """Every table plays at the same time (*simultanément*)."""
    entries: int
    """Players (individual), duos or teams of 4 taking part (first session)."""
    table_sizes: tuple[int, ...]
    """Players seated at each table, over every session."""
    days: int = 1
    """Days the declared sessions are played on (one unless sessions were declared)."""


@dataclass(frozen=True, slots=True)
class PlannedSession:
    """A session as declared: its day and its place."""

    date: dt.date
    venue: str


def same_venue_key(venue: str) -> str:
    """A venue as compared: case, accents kept, spaces collapsed (« Salle  des fêtes » and
    « salle des fêtes » are one place)."""
    return " ".join(venue.split()).casefold()


ARBITER_PLAYS_CODES = {
    EventKind.OFFICIAL_CHAMPIONSHIP: "arbiter_plays",
    EventKind.TEAM_MATCH: "arbiter_plays_in_team_match",
    EventKind.FESTIVAL: "arbiter_plays_in_festival",
    EventKind.FREE_TOURNAMENT: "arbiter_plays_in_free_tournament",
}
"""The code of the arbiter's refusal to play, by kind of event (each its own French text)."""


def arbiter_play_problem(event_kind: EventKind, rulebook: Rulebook) -> Problem | None:
    """The refusal of an arbiter playing the ``event_kind`` they direct (chapter 5,
    *Arbitrage*: « sauf lors des championnats officiels, des matches par équipes et des
    festivals de tarot »), under the season's list; ``None`` when they may play."""
    if event_kind not in rulebook.homologation.arbiter_may_not_play_in:
        return None
    return Problem(
        "arbiter_plays",
        ARBITER_PLAYS_CODES[event_kind],
        f"The arbiter may not play in the tournament they direct in a "
        f"{event_kind.value.replace('_', ' ')}.",
        {"event_kind": event_kind.value},
    )


def team_match_problem(event_kind: EventKind, fmt: Format, rulebook: Rulebook) -> Problem | None:
    """A team match played in a format that is not one of the season's team formats."""
    allowed = rulebook.homologation.team_match_formats
    if event_kind is not EventKind.TEAM_MATCH or fmt in allowed:
        return None
    names = ", ".join(sorted(f.value for f in allowed)) or "none"
    return Problem(
        "format",
        "team_match_format",
        f"A team match is played by teams: its format is one of {names}, not {fmt.value}.",
        {"format": fmt.value, "allowed": names},
    )


def check_planned_sessions(
    sessions: tuple[PlannedSession, ...], event_kind: EventKind, rulebook: Rulebook
) -> list[Problem]:
    """Every problem of declared sessions, each on its session (``sessions[1].date``):
    days in order; a second day or a second venue only for the events the season's
    rulebook lets span them."""
    rules = rulebook.homologation
    problems: list[Problem] = []
    if not sessions:
        return problems
    first = sessions[0]
    for i, session in enumerate(sessions[1:], start=1):
        previous = sessions[i - 1]
        if session.date < previous.date:
            problems.append(
                Problem(
                    f"sessions[{i}].date",
                    "session_before_previous",
                    f"Session {i + 1} is dated {session.date:%Y-%m-%d}, before session {i} "
                    f"({previous.date:%Y-%m-%d}): sessions are declared in the order played.",
                    {
                        "session": i + 1,
                        "date": f"{session.date:%d/%m/%Y}",
                        "previous": i,
                        "previous_date": f"{previous.date:%d/%m/%Y}",
                    },
                )
            )
        elif session.date != first.date and event_kind not in rules.several_days_in:
            problems.append(
                Problem(
                    f"sessions[{i}].date",
                    "several_days_not_allowed",
                    f"Session {i + 1} is on {session.date:%Y-%m-%d}, not on the first session's "
                    f"day ({first.date:%Y-%m-%d}): a {event_kind.value.replace('_', ' ')} is "
                    "played in one day.",
                    {
                        "session": i + 1,
                        "date": f"{session.date:%d/%m/%Y}",
                        "first_date": f"{first.date:%d/%m/%Y}",
                        "event_kind": event_kind.value,
                    },
                )
            )
        if (
            same_venue_key(session.venue) != same_venue_key(first.venue)
            and event_kind not in rules.several_venues_in
        ):
            problems.append(
                Problem(
                    f"sessions[{i}].venue",
                    "session_at_another_venue",
                    f"Session {i + 1} is at {session.venue!r}, not at the first session's venue "
                    f"({first.venue!r}): every table of the tournament plays at the same place.",
                    {"session": i + 1, "venue": session.venue, "first_venue": first.venue},
                )
            )
    return problems


def check_homologation(facts: TournamentFacts, rulebook: Rulebook) -> list[Problem]:
    """Every unmet homologation condition of ``facts``; empty means homologable.

    Raises :class:`RuleViolation` if the facts themselves are malformed.
    """
    _refuse_malformed(facts)
    rules = rulebook.homologation
    problems: list[Problem] = []
    if facts.organizer not in rules.organizers:
        allowed = ", ".join(sorted(o.value for o in rules.organizers))
        problems.append(
            Problem(
                "organizer",
                "organizer_not_allowed",
                f"A tournament organised by '{facts.organizer.value}' is not homologable: "
                f"the organiser must be one of {allowed}.",
                {"organizer": facts.organizer.value, "allowed": allowed},
            )
        )
    if not facts.arbiter_is_official:
        problems.append(
            Problem(
                "arbiter_is_official",
                "arbiter_not_official",
                "The tournament must be directed by an official FFT arbiter.",
            )
        )
    if facts.arbiter_plays and (refusal := arbiter_play_problem(facts.event_kind, rulebook)):
        problems.append(refusal)
    if refusal := team_match_problem(facts.event_kind, facts.format, rulebook):
        problems.append(refusal)
    if not facts.single_venue and facts.event_kind not in rules.several_venues_in:
        problems.append(
            Problem(
                "single_venue",
                "not_single_venue",
                "Every table of the tournament must play at the same place.",
            )
        )
    if not facts.simultaneous:
        problems.append(
            Problem(
                "simultaneous",
                "not_simultaneous",
                "Every table of the tournament must play at the same time.",
            )
        )
    if facts.days > 1 and facts.event_kind not in rules.several_days_in:
        problems.append(
            Problem(
                "days",
                "several_days_not_allowed_here",
                f"The sessions were declared over {facts.days} days: a "
                f"{facts.event_kind.value.replace('_', ' ')} is played in one day.",
                {"days": facts.days, "event_kind": facts.event_kind.value},
            )
        )
    minimum = rulebook.formats.of(facts.format).minimum_entries
    if facts.entries < minimum:
        problems.append(
            Problem(
                "entries",
                "below_minimum_participation",
                f"{facts.entries} {facts.format.value} entries is below the minimum "
                f"participation of {minimum}.",
                {"count": facts.entries, "minimum": minimum, "format": facts.format.value},
            )
        )
    for i, size in enumerate(facts.table_sizes):
        if size == rules.forbidden_table_size:
            problems.append(
                Problem(
                    f"table_sizes[{i}]",
                    "table_size_not_homologable",
                    f"Table {i + 1} seats {size} players: a tournament with a table of "
                    f"{size} players is not homologable.",
                    {"table": i + 1, "size": size},
                )
            )
    return problems


def require_homologation(facts: TournamentFacts, rulebook: Rulebook) -> None:
    """Raise :class:`RuleViolation` listing every unmet condition, if any."""
    problems = check_homologation(facts, rulebook)
    if problems:
        raise RuleViolation(problems)


def _refuse_malformed(facts: TournamentFacts) -> None:
    problems: list[Problem] = []
    for name, kind in (
        ("organizer", Organizer),
        ("format", Format),
        ("event_kind", EventKind),
    ):
        if not isinstance(getattr(facts, name), kind):
            problems.append(
                Problem(
                    name,
                    "wrong_type",
                    f"{getattr(facts, name)!r} is not a {kind.__name__}.",
                    {"expected": kind.__name__, "got": repr(getattr(facts, name))},
                )
            )
    for name in ("arbiter_is_official", "arbiter_plays", "single_venue", "simultaneous"):
        if not isinstance(getattr(facts, name), bool):
            problems.append(
                Problem(
                    name,
                    "wrong_type",
                    f"{name} must be true or false.",
                    {"expected": "boolean", "got": repr(getattr(facts, name))},
                )
            )
    if not isinstance(facts.days, int) or isinstance(facts.days, bool) or facts.days < 1:
        problems.append(
            Problem(
                "days",
                "wrong_type",
                f"{facts.days!r} is not a number of days.",
                {"expected": "integer", "got": repr(facts.days)},
            )
        )
    if not isinstance(facts.entries, int) or isinstance(facts.entries, bool) or facts.entries < 0:
        problems.append(
            Problem(
                "entries",
                "wrong_type",
                f"{facts.entries!r} is not a number of entries.",
                {"expected": "integer", "got": repr(facts.entries)},
            )
        )
    if not facts.table_sizes:
        problems.append(
            Problem(
                "table_sizes",
                "no_tables",
                "A tournament needs at least one table.",
                {"session": 1},
            )
        )
    for i, size in enumerate(facts.table_sizes):
        if size not in PLAYABLE_TABLE_SIZES or isinstance(size, bool):
            problems.append(
                Problem(
                    f"table_sizes[{i}]",
                    "impossible_table_size",
                    f"Table {i + 1} seats {size!r} players; tarot is played at 3, 4 or 5.",
                    {"table": i + 1, "size": size},
                )
            )
    if problems:
        raise RuleViolation(problems)


__all__ = [
    "ARBITER_PLAYS_CODES",
    "PLAYABLE_TABLE_SIZES",
    "PlannedSession",
    "TournamentFacts",
    "arbiter_play_problem",
    "check_homologation",
    "check_planned_sessions",
    "require_homologation",
    "same_venue_key",
    "team_match_problem",
]
