"""The OpenAPI schema documents the one error shape on every operation.

Every refusal of the API has the same body (:mod:`core.http.api_errors`)::

    {"errors": [{"field": "entries[3].players[0].name" | null,
                 "code": "null_character", "message": "…"}]}

:func:`document_errors`, a drf-spectacular postprocessing hook (registered in
``SPECTACULAR_SETTINGS``), adds that shape as the ``Error`` component and
documents on every operation the refusals it can give, so that no view has to
repeat them: 400, 401, 403, 404 and 429 on all of them, 409 on every write, 413 and 415
on every operation that takes a body. A response a view documents itself keeps
its description and its schema (an operation's own error examples stay).

The schema is one document whatever the reader's language (:class:`SchemaView`, served at
``/api/schema/``): generated and rendered in English (``SCHEMA_LANGUAGE``), whatever
``Accept-Language`` or ``?lang=`` ask, so that a client generated from it gets the same
class and enum names wherever it was generated.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView

ERROR_COMPONENT = "Error"
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every refusal of the API: each problem located (field), "
    "named (code, stable) and explained (message).",
    "properties": {
        "errors": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "field": {
                        "type": "string",
                        "nullable": True,
                        "description": "Where: a dotted path such as "
                        "`entries[3].players[0].licence_number`, or null for the whole request.",
                    },
                    "code": {"type": "string", "description": "What, stable and machine-readable."},
                    "message": {"type": "string", "description": "Why, for a person."},
                },
                "required": ["field", "code", "message"],
            },
        }
    },
    "required": ["errors"],
}

EVERY_OPERATION = {
    "400": "Refused: every problem of the request, located (field, code, message).",
    "401": "Not signed in, or the token is not valid.",
    "403": "Signed in, but this operation or this object is outside the caller's scope.",
    "404": "No such object (or season, committee, club…).",
    "429": "Too many requests: wait and retry.",
}
WRITES = {"409": "Conflicts with the current state of the object (the message says which)."}
WITH_BODY = {
    "413": "The body is larger than the upload limit.",
    "415": "The body's media type is not one this operation reads (its Content-Type).",
}

WRITE_METHODS = frozenset({"post", "put", "patch", "delete"})
BODY_METHODS = frozenset({"post", "put", "patch"})


def document_errors(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """Add the error shape and every operation's refusals to the generated schema."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components[ERROR_COMPONENT] = ERROR_SCHEMA
    content = {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}}}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            refusals = dict(EVERY_OPERATION)
            if method in WRITE_METHODS:
                refusals |= WRITES
            if method in BODY_METHODS:
                refusals |= WITH_BODY
            responses = operation["responses"]
            for code, description in refusals.items():
                response = responses.setdefault(code, {"description": description})
                response.setdefault("content", content)
                if not response.get("description"):
                    response["description"] = description
    return result


SCHEMA_LANGUAGE = "en"


class SchemaView(SpectacularAPIView):
    """drf-spectacular's schema view, in ``SCHEMA_LANGUAGE`` whatever the request asks."""

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        return self._get_schema_response(request)  # no ?lang= override

    def dispatch(self, request, *args, **kwargs):
        with translation.override(SCHEMA_LANGUAGE):
            response = super().dispatch(request, *args, **kwargs)
            # Rendered here: the schema's lazy texts are read in the same language.
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
        response["Content-Language"] = SCHEMA_LANGUAGE
        return response
