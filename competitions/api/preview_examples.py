"""OpenAPI examples of the results preview (``POST /api/tournaments/{id}/results/preview/``):
a valid document of 12 players, what it would award, and a refusal (docs/dry-run-checks.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

_TOTALS = [10 * (11 - 2 * i) for i in range(12)]  # 110, 90, …, -110: zero sum

DOCUMENT = {
    "format_version": 1,
    "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
    "entries": [
        {
            "number": i + 1,
            "place": i + 1,
            "total": total,
            "abandoned": False,
            "players": [{"licence_number": 218401 + i, "name": f"JOUEUR {i + 1}", "total": total}],
        }
        for i, total in enumerate(_TOTALS)
    ],
    "penalties": [],
}

EXAMPLES = [
    OpenApiExample("An individual tournament of 12 players", request_only=True, value=DOCUMENT),
    OpenApiExample(
        "What it would award (first two entries shown)",
        response_only=True,
        value={
            "rulebook_version": 1,
            "sha256": "9f2c…",
            "entries": [
                {
                    "number": 1,
                    "place": 1,
                    "total": 110,
                    "abandoned": False,
                    "players": [
                        {
                            "licence_number": 218401,
                            "name": "JOUEUR 1",
                            "registry_name": "JOUEUR 1",
                            "licensed": True,
                            "pcn": 120,
                            "pp": 0,
                        }
                    ],
                },
                {
                    "number": 2,
                    "place": 2,
                    "total": 90,
                    "abandoned": False,
                    "players": [
                        {
                            "licence_number": 218402,
                            "name": "JOUEUR 2",
                            "registry_name": "JOUEUR 2",
                            "licensed": True,
                            "pcn": 82,
                            "pp": 0,
                        }
                    ],
                },
            ],
            "warnings": [],
            "confirmations": [],
        },
    ),
    OpenApiExample(
        "Refused: an unknown licence number (400, every problem at once)",
        response_only=True,
        status_codes=["400"],
        value={
            "errors": [
                {
                    "field": "entries[3].players[0].licence_number",
                    "code": "unknown_licence_number",
                    "message": "Licence 7777777 (JOUEUR 4) inconnue\xa0: ce numéro n’est pas "
                    "dans le fichier des licenciés\xa0; corrigez-le, ou laissez la case vide "
                    "pour un joueur non licencié (classé, sans points).",
                }
            ]
        },
    ),
]
