"""The day's hub: one page per tournament from which the arbiter and the organiser run the
day (entries, check-in and draw, the tables' score entry, the end), read only for the staff
above the organiser. Anyone else gets a 404."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from competitions.day.access import may_run_day, may_see_day
from competitions.models import Tournament
from competitions.tournaments import club_space, selectors
from federation.access import scope_of


def day_tournament(request, pk: int, *, run: bool = False) -> Tournament:
    """The tournament whose day ``request.user`` may see (``run``: may run), else a 404."""
    tournament = get_object_or_404(selectors.tournaments(), pk=pk)
    allowed = may_run_day if run else may_see_day
    if not allowed(request.user, tournament):
        raise Http404
    return tournament


@require_safe
@login_required
def day_hub(request, pk: int):
    tournament = day_tournament(request, pk)
    # The way back: the tournament's page in the club space for those it covers; an
    # arbiter from outside the organiser's club came from « Mes arbitrages ».
    in_club_space = (
        selectors.tournaments()
        .filter(club_space.covered_by(scope_of(request.user)), pk=tournament.pk)
        .exists()
    )
    context = {
        "tournament": tournament,
        "may_run": may_run_day(request.user, tournament),
        "in_club_space": in_club_space,
    }
    return render(request, "day/hub.html", context)
