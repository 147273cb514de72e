"""Checking a results document whole, before anything is stored.

:func:`validate` takes a parsed :class:`ResultsDocument`, the tournament's
format (declared separately) and the licence status of every licence number
(filled by the caller from the registry), and either returns
:class:`ValidatedResults` (with its warnings) or raises
:class:`~core.problems.RuleViolation` with *every* error found. The checks it runs
are in :mod:`competitions.rules.results.checks`, one module per idea.

Sources: Fascicule 2, ch. 1 (*La marque*, *Le classement en donnes libres*,
*Le jeu à 3 / à 5 joueurs*, *Le tournoi libre par équipes*), ch. 2
(*Etablissement des résultats*: each position's scores balance), ch. 3 art. 27
(abandon) and 29 (*ex-æquo*), ch. 5 (*Conditions pour l'homologation*, several
sessions: tables summed, beneficiaries counted on the first session).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from competitions.rules.engine.penalties import (
    CURRENT_SCHEDULE,
    EarlierOffence,
    PenaltySchedule,
    RepeatScope,
)
from competitions.rules.engine.standings import article_29_places
from competitions.rules.results.canonical import results_sha256
from competitions.rules.results.checks.eliminations import (
    check_eliminations,
    check_staged_places,
    check_staged_totals,
    staged_contenders,
)
from competitions.rules.results.checks.entries import (
    check_participation,
    check_penalties,
    check_players,
)
from competitions.rules.results.checks.places import (
    check_article_29,
    check_places,
    check_tiebreaks,
    plain_contenders,
)
from competitions.rules.results.checks.positions import check_positions
from competitions.rules.results.checks.run import CheckRun, licence_status
from competitions.rules.results.checks.sessions import check_first_session, check_sessions
from competitions.rules.results.checks.totals import check_totals
from competitions.rules.results.document import ResultsDocument
from competitions.rules.results.licences import LicenceStatus, NameConfirmation
from competitions.rules.rulebook import Eliminations, Rulebook
from core.problems import Problem, RuleViolation
from core.vocabulary import Format


@dataclass(frozen=True, slots=True)
class ValidatedResults:
    """A document that passed every check, with what storing and allocating need."""

    document: ResultsDocument
    format: Format
    warnings: tuple[Problem, ...]
    first_session_players: int
    """Players seated on the first session: everyone in the entries."""
    first_session_entries: int
    """Entries (players, duos, teams) on the first session: beneficiaries count from these."""
    total_tables: int
    """Sum of every session's tables: the number of tables of the PCN scale (ch. 5)."""
    places: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    """Entry number → place."""
    licensed: frozenset[int] = frozenset()
    """Licence numbers licensed for the season: the players who may receive points."""
    confirmations: tuple[NameConfirmation, ...] = ()
    """The licence numbers whose name differs from the registry's, confirmed by the
    submitter as the right person (to be recorded with the results)."""

    @property
    def sha256(self) -> str:
        """The canonical hash of the document (see :mod:`competitions.rules.results.canonical`)."""
        return results_sha256(self.document)


def validate(
    document: ResultsDocument,
    *,
    format: Format | str,
    licences: Mapping[int, LicenceStatus | str],
    planned_sessions: int | None = None,
    minimum_entries: int | None = None,
    penalty_schedule: PenaltySchedule = CURRENT_SCHEDULE,
    registry_names: Mapping[int, str] | None = None,
    names_shown: Mapping[int, str] | None = None,
    confirmed: frozenset[int] = frozenset(),
    more_problems: Sequence[Problem] = (),
    tie_break_rules: bool = False,
    eliminations: Eliminations | None = None,
    repeat_scope: RepeatScope = RepeatScope.SAME_FAULT_SAME_TOURNAMENT,
    earlier_offences: Mapping[int, Sequence[EarlierOffence]] | None = None,
) -> ValidatedResults:
    """Check ``document`` whole; raise RuleViolation with every error, else return it validated.

    ``licences`` maps licence numbers to their status for the tournament's
    season; a number absent from it is :attr:`LicenceStatus.UNKNOWN`.
    ``planned_sessions`` (from the declaration), when given, must equal the
    sessions played. ``minimum_entries`` is the minimum participation for
    homologation (ch. 5), from the season's rulebook in force; when omitted, the
    current regulation's (:meth:`Rulebook.default`: 11 players, 6 duos, 5 teams
    of 4). A licence number the registry does not know is an error (a player without
    licence number is written without one); a known player without a licence for the
    season and penalty amounts outside ``penalty_schedule`` are warnings.

    ``registry_names`` (licence number → the registry's name), when given, is compared
    with each player's name (:func:`~competitions.rules.results.names.same_name`): a
    different name is an error unless the number is in ``confirmed`` (the submitter said
    it is the right person), when it is returned in ``confirmations``. ``names_shown``
    (licence number → a name), when given, is the name a refusal gives in place of the
    registry's: the reader may not read that player's name (their public name, then).
    ``more_problems`` (the reader's, found before) are reported with the errors found
    here, in one refusal; the document then holds only what was read (its ``gaps``)
    and the checks that a missing part would fail are skipped.

    ``tie_break_rules``: the competition has its own tie-break rules (article 29, every
    championship stage): level entries are placed by their tie-break data, and only those
    level on every figure share a place. ``eliminations``: the season's choices for
    sessions with eliminations (:class:`~competitions.rules.rulebook.Eliminations`; the
    current regulation's when omitted), used when the sessions list their entries.
    ``repeat_scope`` (the season's ``arbitration.repeat_scope``) and ``earlier_offences``
    (licence number → the player's offences in the season's earlier tournaments, read only
    under ``same_fault_same_season``): a first-offence amount on a repeat, or a repeat
    amount with no first offence, is a warning
    (:func:`~competitions.rules.engine.penalties.repeat_problems`).
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
    season = Rulebook.default().eliminations if eliminations is None else eliminations
    check = CheckRun(
        document,
        fmt,
        halving_rounding=season.halving_rounding,
        eliminated_order=season.eliminated_order,
        licences=licences,
        schedule=penalty_schedule,
        registry_names=registry_names,
        names_shown=names_shown,
        confirmed=confirmed,
        tie_break_rules=tie_break_rules,
        repeat_scope=repeat_scope,
        earlier_offences=earlier_offences,
    )
    check_sessions(check, planned_sessions)
    check_players(check)
    check_penalties(check)
    check_positions(check)
    if check.staged:
        check_staged_totals(check)
    else:
        check_totals(check)
    check_first_session(check)
    if check.staged:
        check_eliminations(check)
    check_tiebreaks(check)
    if check.staged:
        check_staged_places(check)
    else:
        check_places(check)
        if check.tie_break_rules:
            check_article_29(check)
    if minimum_entries is None:
        minimum_entries = Rulebook.default().formats.of(fmt).minimum_entries
    check_participation(check, minimum_entries)
    if more_problems or check.errors:
        raise RuleViolation((*more_problems, *check.errors))
    return ValidatedResults(
        document=document,
        format=fmt,
        warnings=tuple(check.warnings),
        first_session_players=sum(len(e.players) for e in document.entries),
        first_session_entries=len(document.entries),
        total_tables=sum(s.tables for s in document.sessions),
        places=MappingProxyType({e.number: e.place for e in document.entries}),
        licensed=frozenset(
            n for n in check.player_at if licence_status(licences, n) is LicenceStatus.LICENSED
        ),
        confirmations=tuple(check.confirmations),
    )


def ties_survive(
    document: ResultsDocument,
    *,
    format: Format,
    tie_break_rules: bool,
    eliminations: Eliminations | None = None,
) -> bool:
    """Whether every place ``document`` shares is one the rules leave shared: level entries
    that article 29 does not separate (in a competition with tie-break rules), or entries
    eliminated at one cut that the season shares (``eliminations``). True for a document
    :func:`validate` accepted with the same arguments; the homologation tells the
    allocation so (only those ties share their points). Pure."""
    expected = expected_places(
        document, format=format, tie_break_rules=tie_break_rules, eliminations=eliminations
    )
    return all(entry.place == expected[i] for i, entry in enumerate(document.entries))


def expected_places(
    document: ResultsDocument,
    *,
    format: Format,
    tie_break_rules: bool,
    eliminations: Eliminations | None = None,
) -> tuple[int, ...]:
    """The place the rules give each entry of ``document`` (in its order), whatever places
    it gives: by total, by the phases played with eliminations (the season's
    ``eliminations`` ordering the eliminated), by article 29 where the competition has
    tie-break rules; abandoned entries last. Pure."""
    season = Rulebook.default().eliminations if eliminations is None else eliminations
    check = CheckRun(
        document,
        Format(format),
        halving_rounding=season.halving_rounding,
        eliminated_order=season.eliminated_order,
        tie_break_rules=tie_break_rules,
    )
    for number, session in enumerate(document.sessions):
        check.sessions.setdefault(session.number, (number, session))
    check_positions(check)  # the best position scores the figures may need
    if check.staged:
        contenders, _decided = staged_contenders(check)
    else:
        contenders = plain_contenders(check)
    return article_29_places(contenders)
