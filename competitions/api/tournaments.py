"""Tournament endpoints: declare, list, read. Results and homologation live in
``competitions.api.results``."""

from __future__ import annotations

import django_filters
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from competitions.api.results import ETAG_HEADER, with_revision_etag
from competitions.api.tournament_serializers import DeclarationIn, TournamentOut
from competitions.models import Tournament
from competitions.tournaments import declaration, selectors
from core.http.api_errors import problems_response
from core.problems import Problem


class TournamentFilter(django_filters.FilterSet):
    season = django_filters.CharFilter(field_name="season__name")
    club = django_filters.NumberFilter(field_name="organizer_club__number")
    committee = django_filters.NumberFilter(field_name="organizer_committee__number")

    class Meta:
        model = Tournament
        fields = ["season", "status", "format", "stage", "event_kind", "club", "committee"]


class TournamentListCreate(generics.ListCreateAPIView):
    """List tournaments (public), or declare one (the organiser's managers and
    the staff above them). Declaring again with the same `reference` returns
    the existing tournament with 200; a different declaration under the same
    reference is a 409."""

    queryset = selectors.tournaments_with_sessions()
    serializer_class = TournamentOut
    filterset_class = TournamentFilter
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        request=DeclarationIn,
        responses={
            201: TournamentOut,
            200: OpenApiResponse(
                TournamentOut, description="Already declared with this reference."
            ),
            409: OpenApiResponse(description="Reference used by a different declaration."),
        },
    )
    def post(self, request):
        serializer = DeclarationIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            tournament, created = declaration.tournament_declare(
                declaration=serializer.to_declaration(), by=request.user
            )
        except declaration.DeclarationConflict as conflict:
            return problems_response(
                [
                    Problem(
                        "reference",
                        "reference_conflict",
                        f"Reference already used by tournament {conflict.tournament.pk} "
                        "with different details.",
                        {"tournament": conflict.tournament.pk},
                    )
                ],
                status.HTTP_409_CONFLICT,
            )
        tournament = selectors.tournaments().get(pk=tournament.pk)
        return Response(
            TournamentOut(tournament, context={"request": request}).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class TournamentDetail(generics.RetrieveAPIView):
    """A tournament: its declaration, status and refusal reasons. Its ETag names the
    latest results revision: the `If-Match` of a homologation of that revision."""

    queryset = selectors.tournaments()
    serializer_class = TournamentOut

    @extend_schema(parameters=[ETAG_HEADER])
    def get(self, request, *args, **kwargs):
        tournament = self.get_object()
        response = Response(self.get_serializer(tournament).data)
        return with_revision_etag(response, tournament)
