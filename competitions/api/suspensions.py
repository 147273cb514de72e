"""API: the suspensions proposed when homologated results record an abandon without the
arbiter's accord (chapter 4, « pour une durée de 12 mois »; docs/sanctions.md), for
federation staff, through the services the staff desk's page uses
(:mod:`competitions.tournaments.suspension_proposals`).

- ``GET /api/suspension-proposals/?status=pending|decided``: the proposals to decide (by
  tournament day), or those confirmed or dismissed (latest decision first).
- ``POST …/{id}/confirm/``: record the suspension, from the day of the decision for the
  text's 12 months.
- ``POST …/{id}/dismiss/``: dismiss it with ``reason``.

Anyone but federation staff gets a 403 before any proposal is looked up, whatever the
``id``: nothing tells them whether a proposal exists.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.models import ProposalStatus, SuspensionProposal
from competitions.tournaments.suspension_proposals import (
    LEAVING_SUSPENSION_MONTHS,
    suspension_proposal_confirm,
    suspension_proposal_dismiss,
    suspension_proposals_decided,
    suspension_proposals_pending,
)
from federation.api.permissions import FederationStaffOnly
from federation.sanctions import REASON_MAX_LENGTH


class FederationStaff(FederationStaffOnly):
    """The CCN decides a suspension."""

    message = _("Only federation staff decide a suspension.")
    code = "proposal_not_federation_staff"


class ProposalTournamentOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()


class ProposalPlayerOut(serializers.Serializer):
    licence_number = serializers.IntegerField()
    last_name = serializers.CharField()
    first_name = serializers.CharField()


class ProposalSanctionOut(serializers.Serializer):
    id = serializers.IntegerField()
    starts = serializers.DateField()
    ends = serializers.DateField(help_text="The last day of the suspension, included.")


class SuspensionProposalOut(serializers.ModelSerializer):
    tournament = ProposalTournamentOut()
    player = ProposalPlayerOut()
    revision = serializers.IntegerField(
        source="revision.number", help_text="The results revision that records the abandon."
    )
    entry_number = serializers.IntegerField(help_text="The entry that abandoned, in the results.")
    status = serializers.ChoiceField(choices=ProposalStatus.choices)
    sanction = ProposalSanctionOut(allow_null=True, help_text="Once confirmed: the suspension.")
    reason = serializers.CharField(help_text="Once dismissed: why (empty otherwise).")
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)

    class Meta:
        model = SuspensionProposal
        fields = [
            "id",
            "tournament",
            "player",
            "revision",
            "entry_number",
            "status",
            "sanction",
            "reason",
            "decided_by",
            "decided_at",
            "created_at",
        ]


class DismissIn(serializers.Serializer):
    reason = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text=f"Why the proposal is dismissed (required, {REASON_MAX_LENGTH} characters "
        "at most); never public.",
    )


LISTED = {"pending": suspension_proposals_pending, "decided": suspension_proposals_decided}


class ListQuery(serializers.Serializer):
    status = serializers.ChoiceField(choices=list(LISTED), default="pending")


STATUS_PARAMETER = OpenApiParameter(
    "status", OpenApiTypes.STR, enum=list(LISTED), required=False,
    description="pending (default): the proposals to decide, by tournament day; decided: "
    "those confirmed or dismissed, latest decision first.",
)  # fmt: skip

FORBIDDEN = OpenApiResponse(description="Not federation staff (whatever the proposal).")
UNKNOWN = OpenApiResponse(description="No such proposal.")
DECIDED_ALREADY = OpenApiResponse(
    description="`proposal_already_decided` (on `status`), or a problem with `reason`."
)


class SuspensionProposalList(APIView):
    """The suspension proposals (federation staff)."""

    permission_classes = [FederationStaff]

    @extend_schema(
        operation_id="suspension_proposal_list",
        summary="The suspensions proposed after an abandon without the arbiter's accord",
        description=(
            "Each proposal names the tournament, the player of the entry that abandoned "
            "without the arbiter's accord (homologated results), the revision recording it and "
            f"the status. Federation staff only; anyone else a 403 ({LEAVING_SUSPENSION_MONTHS}"
            "-month suspension, chapter 4; docs/sanctions.md)."
        ),
        parameters=[STATUS_PARAMETER],
        responses={200: SuspensionProposalOut(many=True), 403: FORBIDDEN},
    )
    def get(self, request):
        query = ListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        listed = query.validated_data["status"]
        proposals = LISTED[listed](by=request.user)
        if listed == "pending":
            proposals = proposals.order_by("tournament__date", "pk")
        return Response(SuspensionProposalOut(proposals, many=True).data)


class SuspensionProposalConfirm(APIView):
    """Confirm a proposal: the suspension is recorded (federation staff)."""

    permission_classes = [FederationStaff]

    @extend_schema(
        operation_id="suspension_proposal_confirm",
        summary="Confirm a proposal: suspend the player for 12 months",
        description=(
            "Records the suspension from the day of the decision to the day before the same "
            f"date {LEAVING_SUSPENSION_MONTHS} months later (included): the text's duration, "
            "not a choice. A proposal is decided once."
        ),
        request=None,
        responses={
            200: SuspensionProposalOut,
            400: DECIDED_ALREADY,
            403: FORBIDDEN,
            404: UNKNOWN,
        },
    )
    def post(self, request, pk: int):
        proposal = get_object_or_404(SuspensionProposal, pk=pk)
        done = suspension_proposal_confirm(proposal=proposal, by=request.user)
        return Response(SuspensionProposalOut(done).data)


class SuspensionProposalDismiss(APIView):
    """Dismiss a proposal with its reason (federation staff)."""

    permission_classes = [FederationStaff]

    @extend_schema(
        operation_id="suspension_proposal_dismiss",
        summary="Dismiss a proposal, with the reason",
        request=DismissIn,
        responses={
            200: SuspensionProposalOut,
            400: DECIDED_ALREADY,
            403: FORBIDDEN,
            404: UNKNOWN,
        },
    )
    def post(self, request, pk: int):
        proposal = get_object_or_404(SuspensionProposal, pk=pk)
        body = DismissIn(data=request.data)
        body.is_valid(raise_exception=True)
        done = suspension_proposal_dismiss(
            proposal=proposal, by=request.user, reason=body.validated_data["reason"]
        )
        return Response(SuspensionProposalOut(done).data)
