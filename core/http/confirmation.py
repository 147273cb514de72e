"""A destructive action asked once more before it is done, without JavaScript: a POST
without ``confirmed=1`` answers a page that says what will happen and posts the same
fields again with ``confirmed=1`` (template ``confirm.html``). Called by the view after
its permission checks, so a stranger still gets the refusal, never the question."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRMED = "confirmed"


def unconfirmed(
    request: HttpRequest, *, title: str, text: str, button: str, back: str
) -> HttpResponse | None:
    """The confirmation page while the POST is not confirmed, else ``None`` (go on)."""
    if request.POST.get(CONFIRMED) == "1":
        return None
    fields = [
        (name, value)
        for name in request.POST
        if name not in ("csrfmiddlewaretoken", CONFIRMED)
        for value in request.POST.getlist(name)
    ]
    context = {"title": title, "text": text, "button": button, "back": back, "fields": fields}
    return render(request, "confirm.html", context)
