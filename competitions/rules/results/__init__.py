"""Results of a tournament: the interchange format (JSON, CSV, score sheets) and its checks.

Pure rules: no Django, no I/O beyond reading the bytes, text or objects given.

- :func:`parse_json`, :func:`parse_csv`, :func:`parse_score_sheets` read a
  submission into a :class:`ResultsDocument` (structural problems raised);
- :func:`validate` checks it whole against the tournament's format and the
  registry's licences, and returns :class:`ValidatedResults` with warnings;
- :func:`canonical_json` / :func:`results_sha256` give the canonical form and
  hash used to make submissions idempotent.

See ``docs/results-format.md``.
"""

from competitions.rules.results.canonical import canonical_dict, canonical_json, results_sha256
from competitions.rules.results.csv_format import parse_csv
from competitions.rules.results.document import (
    FORMAT_VERSION,
    EntryResult,
    PenaltyRecord,
    PlayerResult,
    PositionCut,
    PositionScore,
    ResultsDocument,
    SessionEntry,
    SessionResult,
    SourceMap,
    TieBreakData,
)
from competitions.rules.results.json_format import parse_json
from competitions.rules.results.licences import LicenceStatus
from competitions.rules.results.validation import ValidatedResults, validate

__all__ = [
    "FORMAT_VERSION",
    "EntryResult",
    "LicenceStatus",
    "PenaltyRecord",
    "PlayerResult",
    "PositionCut",
    "PositionScore",
    "ResultsDocument",
    "SessionEntry",
    "SessionResult",
    "SourceMap",
    "TieBreakData",
    "ValidatedResults",
    "canonical_dict",
    "canonical_json",
    "parse_csv",
    "parse_json",
    "results_sha256",
    "validate",
]
