"""API: import a season's licensees from a CSV file (``POST /api/federation/licence-imports/``)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from core import errors
from core.http.api_errors import problems_response
from federation.access import scope_of
from federation.licence_registry import ClubsOutsideScope, PlayersOutsideScope, import_licences
from federation.models import Season


class LicenceImportUploadSerializer(serializers.Serializer):
    file = serializers.FileField(
        label="file",
        help_text="The CSV file: UTF-8 (Windows-1252 is read too), ',' or ';' delimited, "
        "or an Excel (.xlsx) or LibreOffice (.ods) workbook of one sheet; "
        "header licence_number,last_name,first_name,birth_date,club_number "
        "(optional issued_on, email, phone).",
    )
    season = serializers.SlugRelatedField(
        slug_field="name",
        label="season",
        queryset=Season.objects.all(),
        help_text="Season name, e.g. 2026-2027.",
    )

    def validate_file(self, upload):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and upload.size > limit:
            raise serializers.ValidationError(
                _(
                    "The file is %(size)s bytes; the limit is %(limit)s bytes. "
                    "Split it (for example by committee) and import each part."
                )
                % {"size": f"{upload.size:,}", "limit": f"{limit:,}"},
                code="file_too_large",
            )
        return upload


class LicenceImportResultSerializer(serializers.Serializer):
    import_id = serializers.IntegerField(help_text="The LicenceImport record of this import.")
    season = serializers.CharField()
    file_name = serializers.CharField()
    sha256 = serializers.CharField()
    encoding = serializers.CharField(
        help_text="utf-8, windows-1252 (see notices), xlsx or ods (a workbook's sheet)."
    )
    delimiter = serializers.CharField()
    rows = serializers.IntegerField(help_text="Licensee lines in the file.")
    changed = serializers.BooleanField(help_text="False when the registry already matched.")
    players_created = serializers.IntegerField()
    players_updated = serializers.IntegerField()
    players_unchanged = serializers.IntegerField()
    licences_created = serializers.IntegerField()
    licences_updated = serializers.IntegerField()
    licences_unchanged = serializers.IntegerField()
    licences_not_in_file = serializers.IntegerField(
        help_text="Licences of the season absent from the file: left as they are."
    )
    notices = serializers.ListField(child=serializers.CharField())


class LicenceImportProblemSerializer(serializers.Serializer):
    field = serializers.CharField(
        allow_null=True, help_text="lines[12].birth_date, lines[1].email, file, season…"
    )
    code = serializers.CharField()
    message = serializers.CharField()


class LicenceImportErrorsSerializer(serializers.Serializer):
    # A declared field, not the ``errors`` property: DRF's metaclass moves fields off the
    # class, which the stubs cannot see.
    errors = LicenceImportProblemSerializer(many=True)  # type: ignore[assignment]


class ImportsLicences(permissions.BasePermission):
    """Federation, zone and committee staff; not club managers nor players."""

    message = "Only federation, zone or committee staff may import licences."

    def has_permission(self, request, view) -> bool:
        return (
            bool(request.user and request.user.is_authenticated) and scope_of(request.user).is_staff
        )


class LicenceImportView(APIView):
    """Import a season's licensees from a CSV file."""

    permission_classes = [ImportsLicences]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="licence_import_create",
        summary="Import a season's licensees from a CSV file",
        description=(
            "Multipart upload of a CSV file (`file`) for a season (`season`, e.g. "
            "`2026-2027`). Columns: `licence_number,last_name,first_name,birth_date,"
            "club_number` (optional `issued_on`, `email`, `phone`); dates `YYYY-MM-DD` or "
            "`DD/MM/YYYY`; UTF-8 (a non-UTF-8 file is read as Windows-1252 and a notice "
            "says so). Players are matched by licence number: created, updated in place "
            "or left alone, never duplicated; the season's licence is created or moved to "
            "the file's club. Re-importing the same file changes nothing (the import is "
            "still recorded). A file with any bad line is refused whole (400) with every "
            "problem, located as `lines[<line>].<column>` (the header is line 1): nothing "
            "is imported. Federation staff may import any club; zone and committee staff "
            "only files whose clubs are all in their scope (403 naming the others) and "
            "whose players already licensed are all in their scope: a move between "
            "committees is made by federation staff (403 locating every such line as "
            "`lines[<line>].licence_number`, code `player_outside_scope`). "
            f"Files over `DATA_UPLOAD_MAX_MEMORY_SIZE` "
            f"({settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes here) are refused. "
            "Format: docs/licence-import.md. An Excel (.xlsx) or LibreOffice (.ods) workbook of "
            "one sheet is read "
            "as the CSV."
        ),
        request={"multipart/form-data": LicenceImportUploadSerializer},
        responses={
            201: LicenceImportResultSerializer,
            400: OpenApiResponse(
                LicenceImportErrorsSerializer,
                description="The file is refused: every problem, nothing imported.",
                examples=[
                    OpenApiExample(
                        "Bad lines",
                        value={
                            "errors": [
                                {
                                    "field": "lines[3].birth_date",
                                    "code": "malformed_date",
                                    "message": "« 1980.03.05 » is not a date; write "
                                    "YYYY-MM-DD or DD/MM/YYYY.",
                                },
                                {
                                    "field": "lines[5].club_number",
                                    "code": "unknown_club",
                                    "message": "No club has the FFT club number 9999.",
                                },
                            ]
                        },
                    )
                ],
            ),
            401: OpenApiResponse(LicenceImportErrorsSerializer, description="Not signed in."),
            403: OpenApiResponse(
                LicenceImportErrorsSerializer,
                description="Not staff, or the file has clubs or moves players outside the "
                "importer's scope.",
            ),
        },
    )
    def post(self, request):
        serializer = LicenceImportUploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload = serializer.validated_data["file"]
        season = serializer.validated_data["season"]
        try:
            result = import_licences(
                season=season,
                content=upload.read(),
                file_name=upload.name or "",
                by=request.user,
                scope=scope_of(request.user),
            )
        except ClubsOutsideScope as exc:
            raise errors.PermissionDenied(
                str(exc),
                code="clubs_outside_scope",
                params={"clubs": ", ".join(f"{c.number} ({c.name})" for c in exc.clubs)},
            ) from exc
        except PlayersOutsideScope as exc:
            return problems_response([p.as_problem() for p in exc.problems], 403)
        data = LicenceImportResultSerializer(result).data
        return Response(data, status=status.HTTP_201_CREATED)
