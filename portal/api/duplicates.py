"""API: duplicate player records (docs/duplicates.md), federation staff only.

- ``GET /api/federation/duplicates/``: the likely duplicate pairs, with the criterion
  met and both records' facts (birth dates included: staff only);
- ``POST /api/federation/merges/``: merge one record into another (``kept``, ``merged``:
  licence numbers); the answer is the merge's audit.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.messages import localize
from federation.api.permissions import FederationStaffOnly
from federation.models import Player, PlayerMerge
from federation.rules.duplicates import CRITERIA
from portal.merging import likely_duplicate_pairs, players_merge

PAGE_MAX = 1000


class MergesDuplicates(FederationStaffOnly):
    message = "Only federation staff may see and merge duplicate player records."


class LicenceOut(serializers.Serializer):
    season = serializers.CharField()
    club = serializers.IntegerField(help_text="FFT club number")
    club_name = serializers.CharField()


class RecordOut(serializers.Serializer):
    licence_number = serializers.IntegerField()
    last_name = serializers.CharField()
    first_name = serializers.CharField()
    birth_date = serializers.DateField(allow_null=True)
    licences = serializers.SerializerMethodField()
    tournaments = serializers.IntegerField(help_text="homologated tournaments (current points)")

    @extend_schema_field(LicenceOut(many=True))
    def get_licences(self, record) -> list[dict]:
        return [{"season": s, "club": n, "club_name": c} for s, n, c in record.licences]


class PairOut(serializers.Serializer):
    criteria = serializers.ListField(
        child=serializers.ChoiceField(choices=CRITERIA),
        help_text="name_and_birth_date: same folded name and birth date; name_and_committee: "
        "same folded name, licensed in clubs of one committee, never in the same season",
    )
    first = RecordOut()
    second = RecordOut()


class PairsOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = PairOut(many=True)


class DuplicateList(APIView):
    """Likely duplicate player records, by name (federation staff)."""

    permission_classes = [MergesDuplicates]

    @extend_schema(
        operation_id="duplicate_list",
        summary="Likely duplicate player records (federation staff)",
        description=(
            "Pairs of records that are probably one person: same folded name (case and "
            "accents ignored) and same birth date, or same folded name and licences in "
            "clubs of one committee in seasons that never overlap. Records already merged "
            "are left out. Sorted by name; `offset` and `limit` page through them."
        ),
        parameters=[
            OpenApiParameter("offset", int, description="default 0"),
            OpenApiParameter("limit", int, description=f"default 100, at most {PAGE_MAX}"),
        ],
        responses=PairsOut,
    )
    def get(self, request):
        offset = _int(request.query_params.get("offset"), 0, "offset")
        limit = min(_int(request.query_params.get("limit"), 100, "limit"), PAGE_MAX)
        pairs = likely_duplicate_pairs(by=request.user)
        return Response(
            PairsOut({"count": len(pairs), "results": pairs[offset : offset + limit]}).data
        )


def _int(value: str | None, default: int, name: str) -> int:
    if value is None or value == "":
        return default
    if not value.isascii() or not value.isdigit():
        raise serializers.ValidationError(
            {
                name: [
                    localize(
                        "not_a_whole_number", f"{value!r} is not a whole number.", {"value": value}
                    )
                ]
            }
        )
    return int(value)


def _player(value: int) -> Player:
    player = Player.objects.filter(licence_number=value).first()
    if player is None:
        raise serializers.ValidationError(
            localize("unknown_player", f"No player has licence {value}.", {"licence": value}),
            code="unknown_player",
        )
    return player


class MergeIn(serializers.Serializer):
    kept = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, help_text="licence number of the record kept"
    )
    merged = serializers.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        help_text="licence number of the record merged into it (its links lead to the kept)",
    )

    def validate_kept(self, value: int) -> Player:
        return _player(value)

    def validate_merged(self, value: int) -> Player:
        return _player(value)


class MergeOut(serializers.ModelSerializer):
    kept = serializers.IntegerField(source="kept_licence_number")
    merged = serializers.IntegerField(source="merged_licence_number")
    merged_by = serializers.CharField(source="merged_by.username", allow_null=True, default=None)
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="rows moved, per model.field"
    )

    class Meta:
        model = PlayerMerge
        fields = ["id", "kept", "merged", "merged_by", "merged_at", "criteria", "counts"]


class MergeCreate(APIView):
    """Merge a duplicate record into the record kept (federation staff)."""

    permission_classes = [MergesDuplicates]

    @extend_schema(
        operation_id="player_merge",
        summary="Merge two player records (federation staff)",
        description=(
            "In one transaction, everything of `merged` (licences, points, results, entries, "
            "titles, sanctions, manual placements, arbiter grades, the user account) moves to "
            "`kept`; `merged` keeps a pointer, so its pages and API reads answer 301 to the "
            "kept record's; the merge is audited and the ranking of every season concerned is "
            "updated in the background. Refused (400, every reason located, nothing written) "
            "when one player would hold twice what one may hold once: two licences in one "
            "season, two arbiter grades, two manual placements, both in the same results or "
            "championship stage, two user accounts; or when either record was already merged."
        ),
        request=MergeIn,
        responses={201: MergeOut},
    )
    def post(self, request):
        data = MergeIn(data=request.data)
        data.is_valid(raise_exception=True)
        merge = players_merge(
            kept=data.validated_data["kept"], merged=data.validated_data["merged"], by=request.user
        )
        return Response(MergeOut(merge).data, status=status.HTTP_201_CREATED)
