"""Server-rendered pages for people (not software): the tournaments a user
manages, and the form to send a tournament's results as a file."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from competitions.models import TournamentStatus
from competitions.tournaments import access, selectors
from federation.access import scope_of


@login_required
def my_tournaments(request):
    scope = scope_of(request.user)
    candidates = selectors.tournaments().exclude(status=TournamentStatus.HOMOLOGATED)[:500]
    tournaments = [t for t in candidates if access.may_manage(scope, t)]
    return render(request, "competitions/my_tournaments.html", {"tournaments": tournaments})
