"""What a submission would give, before it is sent: every entry's place and each
licensed player's PCN and PP under the season's rulebook in force.

A pure read: the same one-pass check as the submission
(:func:`competitions.tournaments.submission.results_check`) and the same allocation as
the homologation (:func:`competitions.tournaments.homologation.entry_awards`); nothing is
stored, nothing is locked. The submission checks everything again when it is sent.
Callers go through :func:`competitions.homologation.results_preview`, which adds a
championship stage's checks (``more_problems``), as its submission does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from competitions.models import Tournament
from competitions.rulebooks import rulebook_in_force
from competitions.rules.results.canonical import results_sha256
from competitions.rules.results.document import ResultsDocument
from competitions.rules.results.licences import NameConfirmation
from competitions.tournaments import access
from competitions.tournaments.homologation import entry_awards
from competitions.tournaments.submission import read_results, results_check
from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from federation.access import scope_of


@dataclass(frozen=True)
class PreviewPlayer:
    licence_number: int | None
    name: str
    """As written in the results."""
    registry_name: str
    """The registry's name for the licence number ("" for a player without one)."""
    licensed: bool
    """Licensed for the tournament's season: receives the points."""
    pcn: int
    pp: int


@dataclass(frozen=True)
class PreviewEntry:
    number: int
    place: int
    total: int
    abandoned: bool
    players: tuple[PreviewPlayer, ...]


@dataclass(frozen=True)
class Preview:
    """The results as they would be stored and homologated today."""

    entries: tuple[PreviewEntry, ...]
    """By place, then entry number."""
    warnings: tuple[Problem, ...]
    confirmations: tuple[NameConfirmation, ...]
    """The names the submitter confirmed, which the submission will record."""
    rulebook_version: int
    sha256: str


def content_preview(
    *,
    tournament: Tournament,
    content,
    source: str,
    by,
    confirmed_licences: Collection[int] = (),
    more_problems: Callable[[ResultsDocument], Sequence[Problem]] = lambda _document: (),
) -> Preview:
    """The preview of submitted content (a file or a body), read as far as it can be: what
    could not be read is reported with everything else; ``more_problems``: those a
    championship stage finds in what was read."""
    reading = read_results(content=content, source=source, tournament=tournament)
    if reading.document is None:
        raise RuleViolation(reading.problems)
    preview_allowed(tournament=tournament, by=by)
    return results_preview(
        tournament=tournament,
        document=reading.document,
        by=by,
        confirmed_licences=confirmed_licences,
        reading_problems=(*reading.problems, *more_problems(reading.document)),
    )


def preview_allowed(*, tournament: Tournament, by) -> None:
    """Refuse anyone but the tournament's managers (and the staff above them)."""
    if not access.may_manage(scope_of(by), tournament):
        raise PermissionDenied(
            "Only the organiser's managers and the staff above them may submit results."
        )


def results_preview(
    *,
    tournament: Tournament,
    document: ResultsDocument,
    by,
    confirmed_licences: Collection[int] = (),
    reading_problems: Sequence[Problem] = (),
) -> Preview:
    """The preview of ``document`` for ``tournament``, by one of its managers; raise
    RuleViolation with every problem, as the submission would (``reading_problems``:
    those found before, refused with the others)."""
    preview_allowed(tournament=tournament, by=by)
    version, rulebook = rulebook_in_force(season=tournament.season)
    checked = results_check(
        tournament=tournament,
        document=document,
        rulebook=rulebook,
        by=by,
        confirmed_licences=confirmed_licences,
        reading_problems=reading_problems,
    )
    validated = checked.validated
    awards = entry_awards(
        tournament,
        places=[(e.number, e.place) for e in document.entries],
        tables=[s.tables for s in sorted(document.sessions, key=lambda s: s.number)],
        tiebreak_given=True,  # validated: every place it shares is a tie the rules share
        rulebook=rulebook,
        unlicensed=[
            e.number
            for e in document.entries
            if not any(
                p.licence_number is not None and p.licence_number in validated.licensed
                for p in e.players
            )
        ],
    )
    entries = []
    for entry in sorted(document.entries, key=lambda e: (e.place, e.number)):
        award = awards[str(entry.number)]
        players = []
        for player in entry.players:
            number = player.licence_number
            licensed = number is not None and number in validated.licensed
            players.append(
                PreviewPlayer(
                    licence_number=number,
                    name=player.name,
                    registry_name=checked.name_shown(number) if number else "",
                    licensed=licensed,
                    pcn=award.pcn_per_player if licensed else 0,
                    pp=award.pp_per_player if licensed else 0,
                )
            )
        entries.append(
            PreviewEntry(entry.number, entry.place, entry.total, entry.abandoned, tuple(players))
        )
    return Preview(
        entries=tuple(entries),
        warnings=validated.warnings,
        confirmations=tuple(  # as the submitter may read them (the stored ones: the registry's)
            dataclasses.replace(c, registry_name=checked.name_shown(c.licence_number))
            for c in validated.confirmations
        ),
        rulebook_version=version.version,
        sha256=results_sha256(document),
    )
