"""The licence statuses a results document is validated against, all licensed."""

from __future__ import annotations

from typing import Any

from competitions.rules.results import LicenceStatus, ResultsDocument, parse_json


def licensed(document: ResultsDocument | dict[str, Any]) -> dict[int, LicenceStatus]:
    """Every licence number of ``document`` licensed for the season."""
    if isinstance(document, dict):
        document = parse_json(document)
    return {
        player.licence_number: LicenceStatus.LICENSED
        for entry in document.entries
        for player in entry.players
        if player.licence_number is not None
    }
