"""The API's JSON parser: every JSON body meets :mod:`core.json_body`'s limits.

DRF's own parser accepts a key given twice (the last one wins), lets a body
nested a thousand levels deep exhaust the recursion (a 500), and passes on a
NUL character that PostgreSQL then refuses (a 500). This one refuses each with
a located 400, and says so when the body is not a JSON object: no operation of
this API takes anything else.
"""

from __future__ import annotations

import codecs
from typing import Any

from django.conf import settings
from rest_framework import parsers

from core import json_body
from core.problems import RuleViolation


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
        except UnicodeDecodeError as error:
            raise RuleViolation.single(
                "document",
                "not_utf8",
                f"The body is not {encoding} text: {error.reason}.",
                {"encoding": encoding},
            ) from None
        decoded = json_body.loads(text)
        if not isinstance(decoded, dict):
            kind = "an array" if isinstance(decoded, list) else "a single value"
            raise RuleViolation.single(
                "document",
                "not_an_object",
                f"The body must be a JSON object ({{…}}), not {kind}.",
            )
        return decoded
