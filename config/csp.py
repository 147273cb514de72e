"""Content-Security-Policy on every HTML page (Django 5.2 has none built in).

The pages load scripts, styles, images and fonts from this site only; no page may be
framed, no form posts elsewhere, no plugin runs. Inline ``<style>`` blocks and
``style=""`` attributes are allowed (the pages' and the admin's own styling); inline
scripts are not, except on the API documentation pages (Swagger UI, ReDoc), whose
sidecar bundles are started by an inline script and run ReDoc's worker from a blob.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
DOCS_PATHS = ("/api/docs/", "/api/redoc/")


class ContentSecurityPolicyMiddleware:
    """Sets ``Content-Security-Policy`` on HTML responses that have none yet."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        content_type = response.get("Content-Type", "")
        if content_type.startswith("text/html") and "Content-Security-Policy" not in response:
            docs = request.path.startswith(DOCS_PATHS)
            response["Content-Security-Policy"] = DOCS_POLICY if docs else POLICY
        return response
