"""The results documents in the API's schema, and served as JSON Schemas.

The shapes are declared once, beside the readers (``competitions/rules/results/schema.py``);
this module only puts them where clients find them:

- :func:`add_document_components`, a drf-spectacular postprocessing hook, adds every shape
  to the OpenAPI schema's components (``ResultsDocument``, ``ScoreSheetsDocument`` and
  their parts), which the results upload, preview and correction name as their JSON body;
- ``GET /api/tournaments/results-schema/`` and ``…/results-schema/sheets/`` serve each
  document's standalone JSON Schema (draft 2020-12), to check a file before sending it;
- the samples of ``docs/samples/`` are the JSON bodies' examples.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, renderers
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.rules.results import schema

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"

_COMPONENTS = "#/components/schemas/"
RESULTS_REF = {"$ref": _COMPONENTS + schema.RESULTS_DOCUMENT.name}
SHEETS_REF = {"$ref": _COMPONENTS + schema.SCORE_SHEETS_DOCUMENT.name}

DOCUMENT_BODY: dict[str, Any] = {
    "oneOf": [RESULTS_REF, SHEETS_REF],
    "description": "A results document, or the score sheets with `source=sheets` "
    "(docs/results-format.md). The licence numbers confirmed go in `confirmed_licences` "
    "(query parameter).",
}

CORRECTION_BODY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "reason": {"type": "string", "description": "Why the homologated results change."},
        "document": DOCUMENT_BODY,
    },
    "required": ["reason", "document"],
    "additionalProperties": False,
}


def _sample(name: str) -> Any:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def document_examples() -> list[OpenApiExample]:
    """The demo's samples, as the JSON bodies' examples (the same tournament as results
    and as score sheets; a duo tournament)."""
    return [
        OpenApiExample(
            "Individual results",
            summary="An individual tournament (docs/samples/results-individual.json)",
            value=_sample("results-individual.json"),
            request_only=True,
        ),
        OpenApiExample(
            "Duo results",
            summary="A duo tournament (docs/samples/results-duo.json)",
            value=_sample("results-duo.json"),
            request_only=True,
        ),
        OpenApiExample(
            "Individual score sheets",
            summary="The same individual tournament as its score sheets, with source=sheets "
            "(docs/samples/results-sheets.json)",
            value=_sample("results-sheets.json"),
            request_only=True,
        ),
    ]


def correction_examples() -> list[OpenApiExample]:
    return [
        OpenApiExample(
            "Correction",
            summary="A corrected individual tournament",
            value={
                "reason": "A player's score at position 2 was mistyped.",
                "document": _sample("results-individual.json"),
            },
            request_only=True,
        )
    ]


def add_document_components(
    result: dict[str, Any], generator: Any, **kwargs: Any
) -> dict[str, Any]:
    """Add the results documents' shapes to the schema's components (a drf-spectacular hook)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.update(schema.openapi_components())
    return result


@cache
def _standalone(name: str) -> dict[str, Any]:
    root = {"results": schema.RESULTS_DOCUMENT, "sheets": schema.SCORE_SHEETS_DOCUMENT}[name]
    return schema.json_schema(root)


class JsonSchemaRenderer(renderers.JSONRenderer):
    media_type = "application/schema+json"


class _DocumentSchemaView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [JsonSchemaRenderer, renderers.JSONRenderer]
    document = "results"

    @extend_schema(responses={(200, JsonSchemaRenderer.media_type): OpenApiTypes.OBJECT})
    def get(self, request):
        return Response(_standalone(self.document), content_type=JsonSchemaRenderer.media_type)


class ResultsDocumentSchema(_DocumentSchemaView):
    """The JSON Schema (draft 2020-12) of the results document (docs/results-format.md):
    what `POST /api/tournaments/{id}/results/` reads as JSON."""

    document = "results"


class ScoreSheetsDocumentSchema(_DocumentSchemaView):
    """The JSON Schema (draft 2020-12) of the score sheets document
    (docs/results-format.md): what the results upload reads with `source=sheets`."""

    document = "sheets"
