"""Results and homologation endpoints.

- ``POST /api/tournaments/{id}/results/``: submit results (JSON body, a CSV
  body with ``Content-Type: text/csv``, or a multipart upload ``file``;
  ``?source=sheets`` for deal-by-deal score sheets). 201 with the new
  revision and its warnings, 200 when the same results were already there.
  ``confirmed_licences``: the licence numbers whose name differs from the
  registry's that the submitter confirms (recorded with the revision).
- ``POST …/results/preview/``: the same body; every entry's place and each
  licensed player's PCN and PP, nothing stored.
- ``POST …/homologate/``, ``…/refuse/``, ``…/corrections/``: staff.
- ``GET …/results/``: the homologated ranking (public); ``GET …/revisions/``:
  every revision with who and why (the organiser's managers and staff).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, parsers, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions import homologation
from competitions.api import preview_examples, results_schema
from competitions.api.tournament_serializers import TournamentOut
from competitions.models import ResultRevision, Tournament
from competitions.tournaments import access, selectors, submission
from core.digits import ascii_digits
from core.errors import Conflict
from core.http.api_errors import problems_data
from core.http.api_schema import ERROR_COMPONENT
from core.http.parsers import JSONParser
from core.messages import error_message
from core.problems import RuleViolation
from federation.access import scope_of


class CsvParser(parsers.BaseParser):
    """A raw CSV body, handed over as bytes (decoded by the results parser)."""

    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        return stream.read()


RESULT_PARSERS = [JSONParser, CsvParser, parsers.MultiPartParser]


class ResultsUploadIn(serializers.Serializer):
    """The multipart body of a results upload (its JSON body is the typed document:
    ``competitions/api/results_schema.py``). The same views also read a CSV file as a
    ``text/csv`` body."""

    file = serializers.FileField(
        help_text="The results: the JSON document (docs/results-format.md), a CSV file, "
        "an .xlsx or .ods workbook (guessed from its name and content, or `?source=`). The same "
        "document is also read as an application/json body, a CSV file as a text/csv body."
    )
    confirmed_licences = serializers.CharField(
        required=False, help_text="Licence numbers (comma-separated): see `confirmed_licences`."
    )
    reason = serializers.CharField(required=False, help_text="A correction's reason.")


# One schema per media type: the JSON document (results, or score sheets with
# source=sheets; competitions/rules/results/schema.py) or a multipart file.
RESULT_REQUEST = {
    "application/json": results_schema.DOCUMENT_BODY,
    "multipart/form-data": ResultsUploadIn,
}
CORRECTION_REQUEST = {
    "application/json": results_schema.CORRECTION_BODY,
    "multipart/form-data": ResultsUploadIn,
}
PREVIEW_REQUEST = RESULT_REQUEST
DOCUMENT_EXAMPLES = results_schema.document_examples()


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def refuse_oversized(request) -> None:
    """Refuse a body over the upload limit before any of it is parsed."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit:
        raise PayloadTooLarge(
            _("The submission is %(length)s bytes; the limit is %(limit)s bytes.")
            % {"length": f"{length:,}", "limit": f"{limit:,}"}
        )


CONFIRMED_LICENCES = "confirmed_licences"


def confirmed_licences(request) -> list[int]:
    """The licence numbers the submitter confirms under a name the registry spells
    differently: ``confirmed_licences`` in a JSON body (a list), a multipart field
    (repeated, or comma-separated) or the query string (comma-separated)."""
    data = request.data
    if isinstance(data, dict) and not hasattr(data, "getlist"):
        given = data.get(CONFIRMED_LICENCES, [])
        values = given if isinstance(given, list) else [given]
    elif hasattr(data, "getlist"):
        values = [v for item in data.getlist(CONFIRMED_LICENCES) for v in str(item).split(",")]
    else:
        values = []
    query = request.query_params.get(CONFIRMED_LICENCES, "")
    values += [v for v in query.split(",") if v.strip()]
    numbers = []
    for value in values:
        text = str(value).strip()
        if isinstance(value, bool) or not ascii_digits(text) or not 1 <= int(text) <= 2**31 - 1:
            raise RuleViolation.single(
                CONFIRMED_LICENCES,
                "invalid_confirmed_licence",
                f"{value!r} is not a licence number.",
                {"value": text},
            )
        numbers.append(int(text))
    return numbers


def read_submission(request) -> tuple[bytes | dict, str]:
    """The submitted content and its source (json, csv or sheets)."""
    refuse_oversized(request)
    source = request.query_params.get("source")
    data = request.data
    if hasattr(data, "getlist") and "file" in request.FILES:  # multipart upload
        upload = request.FILES["file"]
        content = upload.read()
        source = source or data.get("source") or submission.guessed_source(upload.name, content)
        return content, source
    if isinstance(data, bytes):
        return data, source or "csv"
    if isinstance(data, dict) and not hasattr(data, "getlist"):
        document = {key: value for key, value in data.items() if key != CONFIRMED_LICENCES}
        return document, source or "json"
    raise RuleViolation.single(
        "file", "required", "Send a JSON body, a text/csv body, or a multipart 'file'."
    )


class SubmissionProblemOut(serializers.Serializer):
    field = serializers.CharField(allow_null=True)
    code = serializers.CharField()
    message = serializers.CharField()


class SubmittedOut(serializers.Serializer):
    tournament = TournamentOut()
    revision = serializers.IntegerField()
    created = serializers.BooleanField()
    warnings = SubmissionProblemOut(many=True)


def submitted_response(
    request, tournament: Tournament, submitted: submission.Submitted
) -> Response:
    body = {
        "tournament": TournamentOut(
            selectors.tournaments().get(pk=tournament.pk), context={"request": request}
        ).data,
        "revision": submitted.revision.number,
        "created": submitted.created,
        "warnings": problems_data(submitted.warnings),
    }
    return Response(
        body, status=status.HTTP_201_CREATED if submitted.created else status.HTTP_200_OK
    )


SOURCE_PARAMETER = OpenApiParameter(
    "source", OpenApiTypes.STR, enum=list(submission.SOURCES),
    description="json (default for a JSON body), csv (a CSV file or an .xlsx workbook's "
    "single sheet), or sheets (deal-by-deal score sheets).",
)  # fmt: skip


CONFIRMED_PARAMETER = OpenApiParameter(
    CONFIRMED_LICENCES, OpenApiTypes.STR, required=False,
    description=(
        "Licence numbers (comma-separated) whose name in the results differs from the "
        "registry's, which the submitter confirms are the right people; also "
        "`confirmed_licences: [numbers]` in a JSON body or a multipart field. Without it, "
        "such a number is refused (`licence_name_mismatch`, naming both names)."
    ),
)  # fmt: skip


class ResultsView(APIView):
    """GET: the ranking of the homologated revision (public) with each
    licensed player's PCN and PP. POST: submit results (the organiser's
    managers and the staff above them); every problem is listed with its
    place in the document, and nothing is stored unless all is well. The same
    results submitted twice store nothing the second time (200)."""

    parser_classes = RESULT_PARSERS
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        # Public, the same for every reader: a player who objected to appearing by name is
        # anonymous, without licence number (federation.public_names).
        tournament = get_object_or_404(selectors.tournaments(), pk=pk)
        revision = tournament.homologated_revision
        if revision is None:
            return Response(
                {
                    "tournament": TournamentOut(tournament, context={"request": request}).data,
                    "entries": [],
                }
            )
        return Response(
            {
                "tournament": TournamentOut(tournament, context={"request": request}).data,
                "revision": revision.number,
                "entries": selectors.revision_ranking(revision, public=True),
            }
        )

    @extend_schema(
        parameters=[SOURCE_PARAMETER, CONFIRMED_PARAMETER],
        request=RESULT_REQUEST,
        responses={201: SubmittedOut, 200: SubmittedOut},
        examples=DOCUMENT_EXAMPLES,
    )
    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        content, source = read_submission(request)
        submitted = homologation.results_submit(
            tournament=tournament,
            content=content,
            source=source,
            by=request.user,
            confirmed_licences=confirmed_licences(request),
        )
        return submitted_response(request, tournament, submitted)


class PreviewPlayerOut(serializers.Serializer):
    licence_number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_blank=True, help_text="As written in the results.")
    registry_name = serializers.CharField(
        allow_blank=True, help_text="The registry's name for the licence number."
    )
    licensed = serializers.BooleanField(help_text="Licensed for the season: gets the points.")
    pcn = serializers.IntegerField()
    pp = serializers.IntegerField()


class PreviewEntryOut(serializers.Serializer):
    number = serializers.IntegerField()
    place = serializers.IntegerField()
    total = serializers.IntegerField()
    abandoned = serializers.BooleanField()
    players = PreviewPlayerOut(many=True)


class NameConfirmationOut(serializers.Serializer):
    licence_number = serializers.IntegerField()
    name_in_file = serializers.CharField()
    registry_name = serializers.CharField()


class PreviewOut(serializers.Serializer):
    rulebook_version = serializers.IntegerField()
    sha256 = serializers.CharField(help_text="Canonical hash of the results (idempotency).")
    entries = PreviewEntryOut(many=True, help_text="By place.")
    warnings = SubmissionProblemOut(many=True)
    confirmations = NameConfirmationOut(
        many=True, help_text="The names confirmed, which the submission will record."
    )


SubmissionErrorsOut = inline_serializer(
    "SubmissionErrors", fields={"errors": SubmissionProblemOut(many=True)}
)
PREVIEW_EXAMPLES = preview_examples.EXAMPLES  # docs/dry-run-checks.md


class ResultsPreviewView(APIView):
    """What submitting these results would give, nothing stored: every entry's place
    and each licensed player's PCN and PP under the season's rulebook in force, with
    the warnings; or the same 400 as the submission, every problem at once (a
    championship stage's checks too). The organiser's managers and the staff above."""

    parser_classes = RESULT_PARSERS
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[SOURCE_PARAMETER, CONFIRMED_PARAMETER],
        request=PREVIEW_REQUEST,
        responses={200: PreviewOut, 400: SubmissionErrorsOut},
        examples=[*PREVIEW_EXAMPLES, *DOCUMENT_EXAMPLES],
    )
    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        if not access.may_manage(scope_of(request.user), tournament):  # before the body
            raise PermissionDenied(
                "Only the organiser's managers and the staff above them may submit results."
            )
        content, source = read_submission(request)
        with transaction.atomic():  # a dry run: not even the season's first rulebook version
            preview = homologation.content_preview(
                tournament=tournament,
                content=content,
                source=source,
                by=request.user,
                confirmed_licences=confirmed_licences(request),
            )
            transaction.set_rollback(True)
        return Response(
            PreviewOut(
                {
                    "rulebook_version": preview.rulebook_version,
                    "sha256": preview.sha256,
                    "entries": preview.entries,
                    "warnings": problems_data(preview.warnings),
                    "confirmations": preview.confirmations,
                }
            ).data
        )


class HomologateIn(serializers.Serializer):
    revision = serializers.IntegerField(
        min_value=1, required=False,
        help_text=(
            "The number of the revision the staff member reviewed. If a newer revision was "
            "submitted since, the homologation is refused: 409 `stale_revision`, naming both "
            "numbers. Without it (and without If-Match), the latest revision is homologated."
        ),
    )  # fmt: skip


ERROR_REF = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}

IF_MATCH_PARAMETER = OpenApiParameter(
    "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description=(
        "The ETag of the reviewed revision, as the tournament's and the revisions' reads "
        'send it: its number in quotes (`"3"`). A newer revision since: 412 `stale_revision`. '
        "The same guard as `revision` in the body (409; both given must agree)."
    ),
)  # fmt: skip


ETAG_HEADER = OpenApiParameter(
    "ETag", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[200],
    description=(
        'The latest results revision, its number in quotes (`"3"`); absent before any '
        "results. Send it back as `If-Match` to homologate that revision and no newer one."
    ),
)  # fmt: skip


class PreconditionFailed(exceptions.APIException):
    """``If-Match`` named a revision that is no longer the latest (RFC 9110: 412)."""

    status_code = status.HTTP_412_PRECONDITION_FAILED


def with_revision_etag(response: Response, tournament: Tournament) -> Response:
    """``response`` with the ETag of the tournament's latest revision, if it has one."""
    number = selectors.latest_revision_number(tournament)
    if number is not None:
        response["ETag"] = f'"{number}"'
    return response


def if_match_revision(request) -> int | None:
    """The revision named by ``If-Match`` (``"3"``, ``W/"3"``); None without it or ``*``."""
    header = request.headers.get("If-Match", "").strip()
    if not header or header == "*":
        return None
    tag = header.removeprefix("W/").strip('"')
    if not ascii_digits(tag):
        raise RuleViolation.single(
            "If-Match", "invalid", 'If-Match must be the ETag of a revision, such as "3".'
        )
    return int(tag)


def reviewed_revision(request) -> int | None:
    """The revision the caller reviewed: ``revision`` in the body or the ``If-Match``
    ETag (``"3"``, ``W/"3"``); ``None`` when neither is given (or ``If-Match: *``)."""
    body = HomologateIn(data=request.data if isinstance(request.data, dict) else {})
    body.is_valid(raise_exception=True)
    revision = body.validated_data.get("revision")
    tagged = if_match_revision(request)
    if tagged is not None:
        if revision is not None and revision != tagged:
            raise RuleViolation.single(
                "revision", "mismatch", "The body's revision and If-Match name different revisions."
            )
        revision = tagged
    return revision


class HomologateView(APIView):
    """Homologate the submitted results (staff above the organiser): every
    licensed player receives their PCN and PP, and the national ranking is
    updated in the background. Name the revision reviewed (`revision` in the body,
    or `If-Match`) to be refused with a 409 `stale_revision` if a newer one came in."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=HomologateIn,
        responses={
            200: TournamentOut,
            412: OpenApiResponse(
                ERROR_REF,
                description="`If-Match` named a revision that is no longer the latest "
                "(`stale_revision`, naming both numbers): read the tournament again.",
            ),
        },
        parameters=[IF_MATCH_PARAMETER],
    )
    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        revision = reviewed_revision(request)
        try:
            tournament = homologation.tournament_homologate(
                tournament=tournament, by=request.user, revision=revision
            )
        except Conflict as conflict:
            if conflict.code != "stale_revision" or if_match_revision(request) is None:
                raise
            # The body's revision is a 409; a failed If-Match precondition is a 412.
            raise PreconditionFailed(error_message(conflict), code=conflict.code) from None
        return Response(
            TournamentOut(
                selectors.tournaments().get(pk=tournament.pk), context={"request": request}
            ).data
        )


class RefusalIn(serializers.Serializer):
    reasons = serializers.ListField(child=serializers.CharField(max_length=500), min_length=1)


class RefuseView(APIView):
    """Refuse homologation with reasons (staff above the organiser); the
    organiser may then submit corrected results."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RefusalIn, responses=TournamentOut)
    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        if not access.may_homologate(scope_of(request.user), tournament):  # before the body
            raise PermissionDenied(
                _("Only federation or committee staff above the organiser may do this.")
            )
        serializer = RefusalIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = homologation.tournament_refuse(
            tournament=tournament,
            reasons=serializer.validated_data["reasons"],
            by=request.user,
        )
        return Response(
            TournamentOut(
                selectors.tournaments().get(pk=tournament.pk), context={"request": request}
            ).data
        )


class CorrectionView(APIView):
    """Correct a homologated tournament (staff only): the new results become a
    new revision with its reason (`?reason=` or a multipart `reason` field, or
    `{"reason": …, "document": …}` in JSON); the previous revision and its
    allocations are kept, and the allocations are replaced atomically."""

    parser_classes = RESULT_PARSERS
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[SOURCE_PARAMETER, OpenApiParameter("reason", OpenApiTypes.STR)],
        request=CORRECTION_REQUEST,
        responses={201: SubmittedOut, 200: SubmittedOut},
        examples=results_schema.correction_examples(),
    )
    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        reason = request.query_params.get("reason", "")
        refuse_oversized(request)
        data = request.data
        if isinstance(data, dict) and "document" in data and not hasattr(data, "getlist"):
            content, source, reason = (
                data["document"],
                request.query_params.get("source", "json"),
                data.get("reason", reason),
            )
        else:
            content, source = read_submission(request)
            if hasattr(data, "getlist"):
                reason = data.get("reason", reason)
        submitted = homologation.tournament_correct(
            tournament=tournament,
            content=content,
            source=source,
            reason=str(reason),
            by=request.user,
            confirmed_licences=confirmed_licences(request),
        )
        return submitted_response(request, tournament, submitted)


class RevisionOut(serializers.ModelSerializer):
    submitted_by = serializers.CharField(
        source="submitted_by.username", allow_null=True, default=None
    )
    homologated = serializers.SerializerMethodField()

    class Meta:
        model = ResultRevision
        fields = [
            "number",
            "source",
            "sha256",
            "reason",
            "submitted_by",
            "submitted_at",
            "warnings",
            "homologated",
        ]

    def get_homologated(self, revision: ResultRevision) -> bool:
        return revision.tournament.homologated_revision_id == revision.pk


class RevisionsView(APIView):
    """Every revision of a tournament's results, with who submitted it, when and
    why (the organiser's managers and staff)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=RevisionOut(many=True), parameters=[ETAG_HEADER])
    def get(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        scope = scope_of(request.user)
        if not (access.may_manage(scope, tournament) or access.may_homologate(scope, tournament)):
            raise PermissionDenied(_("Only the organiser's managers and staff see the revisions."))
        revisions = tournament.revisions.select_related("submitted_by", "tournament").order_by(
            "number"
        )
        return with_revision_etag(Response(RevisionOut(revisions, many=True).data), tournament)
