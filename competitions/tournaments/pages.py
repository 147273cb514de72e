"""Server-rendered pages for people (not software): the club space's tournaments
("Mes tournois", one tournament's page). Declaring is declaration_pages, sending a file
results_pages, typing results typed_results_pages."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competitions.models import TournamentFormat, TournamentStatus
from competitions.tournaments import access, club_space, selectors
from federation.access import Scope, scope_of
from federation.models import Club, Season


class TournamentFilterForm(forms.Form):
    """The filters of "Mes tournois", read from the query string."""

    season = forms.ModelChoiceField(
        label=_("Season"), queryset=Season.objects.all(), required=False, to_field_name="name"
    )
    club = forms.ModelChoiceField(
        label=_("Club"), queryset=Club.objects.none(), required=False, to_field_name="number"
    )
    status = forms.ChoiceField(
        label=_("State"), choices=[("", "—"), *TournamentStatus.choices], required=False
    )
    format = forms.ChoiceField(
        label=_("Format"), choices=[("", "—"), *TournamentFormat.choices], required=False
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, scope: Scope, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = club_space.clubs_covered_by(scope)  # type: ignore[attr-defined]

    def filters(self) -> club_space.TournamentFilters:
        data = self.cleaned_data
        return club_space.TournamentFilters(
            season=data["season"],
            club=data["club"],
            status=data["status"] or None,
            date_from=data["date_from"],
            date_to=data["date_to"],
            format=data["format"] or None,
        )


TOURNAMENTS_PER_PAGE = 25


@login_required
def my_tournaments(request):
    """Every tournament of the person's clubs, committee or zone (all of them for
    federation staff), this season and past ones, filtered and paginated."""
    scope = scope_of(request.user)
    form = TournamentFilterForm(request.GET, scope=scope)
    if not form.is_valid():
        context = {
            "form": form,
            "page": None,
            "may_declare": scope.manages_anything,
            "staff_desk": scope.is_staff,
        }
        return render(request, "competitions/my_tournaments.html", context, status=400)
    tournaments = club_space.tournaments_covered(scope, form.filters())
    page = Paginator(tournaments, TOURNAMENTS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "waiting": club_space.tournaments_waiting(scope, timezone.localdate()),
        "filtered": any(request.GET.get(name) for name in form.fields),
        "query": query.urlencode(),
        "may_declare": scope.manages_anything,
        "staff_desk": scope.is_staff,  # a link to the staff desk (/bureau/)
    }
    return render(request, "competitions/my_tournaments.html", context)


@login_required
def club_tournament(request, pk: int):
    """One tournament in the club space: its state and story, its results, its points.
    A tournament outside the person's reach is a 404: its existence is not revealed."""
    scope = scope_of(request.user)
    tournament = get_object_or_404(
        selectors.tournaments().filter(club_space.covered_by(scope)), pk=pk
    )
    revisions = list(club_space.tournament_revisions(tournament))
    shown = tournament.homologated_revision or (revisions[0] if revisions else None)
    homologated = tournament.status == TournamentStatus.HOMOLOGATED
    context = {
        "tournament": tournament,
        "story": club_space.tournament_story(tournament),
        "revisions": revisions,
        "shown": shown,
        "results": selectors.revision_ranking(shown) if shown else [],
        "homologated": homologated,
        "may_send_results": access.may_manage(scope, tournament) and not homologated,
    }
    return render(request, "competitions/club_tournament.html", context)
