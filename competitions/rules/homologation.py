"""Conditions for the homologation of a tournament (chapter 5, *Conditions pour
l'homologation d'un tournoi*; chapter 1, *Le jeu à 5 joueurs*).

A tournament is homologable, and so gives PCN, only if:

- it is organised by the FFT, one of its zones, one of its regional committees
  or a club affiliated to the FFT (*Organisateur*);
- it is directed by an official FFT arbiter (*arbitre officiel*), who may play in
  it except in official championships, team matches and festivals (*Arbitrage*);
- it is played simultaneously at one place (*simultanément sur le même lieu*);
- it has the minimum participation: 11 players, 6 duos or 5 teams of 4;
- it has no table of 5 players (*les tournois à 5 joueurs ne sont pas homologables*).

:func:`check_homologation` lists every unmet condition; an empty list means homologable.
"""

from __future__ import annotations

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
    if facts.arbiter_plays and facts.event_kind in rules.arbiter_may_not_play_in:
        problems.append(
            Problem(
                "arbiter_plays",
                "arbiter_plays",
                f"The arbiter may not play in the tournament they direct in a "
                f"{facts.event_kind.value.replace('_', ' ')}.",
                {"event_kind": facts.event_kind.value},
            )
        )
    if not facts.single_venue:
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
    "PLAYABLE_TABLE_SIZES",
    "TournamentFacts",
    "check_homologation",
    "require_homologation",
]
