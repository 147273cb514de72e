"""Admin actions that call a service: every app's admin runs its writes through the
services (their permission checks and refusals), never by editing rows. And how a
settings document is shown there (``pretty_json``)."""

import json
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib import admin, messages
from django.utils.html import format_html

from core.errors import ServiceError
from core.messages import error_message, problem_message
from core.problems import RuleViolation

Call = Callable[[Any, Any], object]
"""A service called on one selected row: ``call(row, by=request.user)``."""


def run_service(modeladmin, request, rows: Iterable[Any], call: Call, done_message) -> None:
    """Run a service on each selected row; report each refusal (a rule, a permission, a
    conflict) by the row's name, never a 500, and count what was done."""
    done = 0
    for obj in rows:
        try:
            call(obj, request.user)
        except RuleViolation as refusal:
            problems = "; ".join(problem_message(p) for p in refusal.problems)
            modeladmin.message_user(request, f"{obj}: {problems}", messages.ERROR)
        except ServiceError as denied:
            modeladmin.message_user(request, f"{obj}: {error_message(denied)}", messages.ERROR)
        else:
            done += 1
    if done:
        modeladmin.message_user(request, f"{done_message}: {done}", messages.SUCCESS)


def service_action(description, call: Call, done_message):
    """An admin action calling a service on each selected row (``run_service``)."""

    @admin.action(description=description)
    def action(modeladmin, request, queryset) -> None:
        run_service(modeladmin, request, queryset, call, done_message)

    return action


def pretty_json(data) -> str:
    return format_html(
        '<pre style="white-space:pre-wrap;max-height:40em;overflow:auto">{}</pre>',
        json.dumps(data, indent=2, ensure_ascii=False),
    )
