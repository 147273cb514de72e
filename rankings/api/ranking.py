"""National ranking API (public reads; staff exports, policies, placements, recomputes).

Public:

- ``GET /api/pcn/ranking/``: a season's ranking, paginated; ``season``, ``kind``
  (``live`` | ``official``), ``snapshot`` (a past snapshot's id), ``committee`` and
  ``club`` (numbers), ``series`` (1–4), ``q`` (licence number, or name words:
  accents and case ignored), ``page``, ``page_size`` (≤ 200); ``as_of`` (a past day
  of the season, YYYY-MM-DD): the live ranking as it stood at the end of that day
  (``rankings/season/as_of.py``), with the same filters and pages.
- ``GET /api/pcn/ranking/players/<licence>/``: a player's ranking record: place,
  series, points, the season's tournaments, the history of official rankings
  and of season totals.
- ``GET /api/pcn/ranking/snapshots/``: the snapshots of a season (``season``).
- ``GET /api/pcn/series-policies/<season>/``: the season's series policy in force.

The ranking and a player's record are cached by the version of the ranking they show,
with ETag/Last-Modified and 304s: ``rankings/urls.py`` wraps the views in
``core.http.http_cache.public_read``, keyed by ``rankings/reads/read_versions.py``; the views only
build their answers.

Staff: ``GET /api/pcn/ranking/export/`` (``format=csv|xlsx|pdf``, French headers,
``lang=en``: federation staff every committee, zone and committee staff theirs, club
managers their clubs), ``PUT`` a series policy and
``POST``/``DELETE`` manual placements (federation staff), ``POST
/api/pcn/recomputes/`` (federation staff; 202, then ``GET …/recomputes/<id>/``
for the progress).
"""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.response import Response
from rest_framework.views import APIView

from core.db_router import primary_reads
from core.export_formats import XLSX
from core.http.api_errors import problems_response
from core.problems import RuleViolation
from federation.access import scope_of
from federation.models import Club, Season
from federation.privacy import sees_hidden_player
from federation.public_names import public_row
from rankings.models import ManualPlacement, RecomputeRun
from rankings.reads import public_reads, selectors
from rankings.reads.exports import (
    FORMATS,
    LANGUAGES,
    ExportScopeError,
    export_target,
    ranking_export_response,
    ranking_table,
)
from rankings.reads.my_points import my_points, my_points_out
from rankings.season.as_of import PARIS, AsOfQueueFull, RankingBeingComputed, check_day
from rankings.season.manual_placements import manual_placement_remove, manual_placement_set
from rankings.season.ranking import Labels, Line, Ranking
from rankings.season.recompute import recompute_request
from rankings.season.series_policies import series_policy_in_force, series_policy_update
from rankings.season.snapshot_ranking import SnapshotRanking

MAX_PAGE_SIZE = 200


def season_or_404(name: str | None) -> Season:
    season = selectors.season_named(name)
    if season is None:
        raise Http404(_("Unknown season."))
    return season


class RankingQuery(serializers.Serializer):
    season = serializers.CharField(required=False, help_text="2026-2027; default the current one.")
    kind = serializers.ChoiceField(
        choices=selectors.KINDS, required=False,
        help_text="live (provisional) or official; default official if published, else live.",
    )  # fmt: skip
    snapshot = serializers.IntegerField(required=False, min_value=1)
    committee = serializers.IntegerField(required=False, min_value=0)
    club = serializers.IntegerField(required=False, min_value=0)
    series = serializers.IntegerField(required=False, min_value=1, max_value=4)
    q = serializers.CharField(required=False, allow_blank=True, max_length=100)
    page = serializers.IntegerField(required=False, min_value=1, default=1)
    page_size = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_PAGE_SIZE, default=50
    )
    as_of = serializers.DateField(
        required=False, input_formats=["iso-8601"],
        help_text="YYYY-MM-DD, a past day of the season: the live ranking as it stood at the "
        "end of that day (Paris time), from the tournaments homologated by then. Not with "
        "kind or snapshot.",
    )  # fmt: skip

    def validate(self, attrs):
        if "as_of" in attrs:
            for other in ("kind", "snapshot"):
                if other in attrs:
                    raise serializers.ValidationError(
                        {other: _("Not with as_of: a ranking as of a date is the live one.")}
                    )
            today = timezone.localdate(timezone=PARIS)
            if attrs["as_of"] >= today:
                raise RuleViolation.single(
                    "as_of",
                    "as_of_in_future",
                    f"{attrs['as_of'].isoformat()} is not past yet: the ranking as of a date "
                    "ends yesterday; today's is the live ranking.",
                    {
                        "date": attrs["as_of"].isoformat(),
                        "latest": (today - dt.timedelta(days=1)).isoformat(),
                    },
                )
        return attrs


def snapshot_out(ranking: Ranking) -> dict:
    return {
        "id": ranking.snapshot_id,
        "season": ranking.season.name,
        "as_of": ranking.as_of,
        "kind": ranking.kind,
        "computed_at": ranking.computed_at,
        "policy_version": ranking.policy.version,
        "players": ranking.player_count,
        "ranked_players": ranking.ranked_count,
        "series_counts": ranking.series_counts,
        "share_cutoffs": ranking.share_cutoffs,
    }


def ranking_filter(data) -> selectors.RankingFilter:
    filters = selectors.RankingFilter(series=data.get("series"), query=data.get("q", "") or "")
    if data.get("committee") is not None:
        filters.committee = selectors.committee_numbered(data["committee"])
        if filters.committee is None:
            raise Http404(_("Unknown committee."))
    if data.get("club") is not None:
        filters.club = selectors.club_numbered(data["club"])
        if filters.club is None:
            raise Http404(_("Unknown club."))
    return filters


class RankingView(APIView):
    """The national ranking of a season: places (ties share the place, "1224"),
    places in committee and club, season and carried points, series and step.
    The live ranking is provisional; the official one is frozen at the end of the
    season and gives every player their series for the next season."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[RankingQuery],
        responses={
            200: OpenApiTypes.OBJECT,
            202: OpenApiResponse(
                description="`as_of`: the ranking of that day is not stored yet and a worker "
                "is computing it; ask again after `Retry-After` seconds "
                '(`{"status": "computing", "as_of": "2026-03-15", "retry_after": 15}`).'
            ),
            503: OpenApiResponse(
                description="`as_of`: the ranking of that day is not stored yet and the "
                "season's computations queued reach `AS_OF_QUEUED_MAX`: nothing is queued; "
                "ask again after `Retry-After` seconds (error `as_of_queue_full`)."
            ),
        },
    )
    def get(self, request):
        if "as_of" in request.query_params:
            return self._as_of(request, request.query_params)
        return Response(self._payload())

    def _as_of(self, request, params):
        """The ranking as of a day: 202 while a worker computes a day not stored yet."""
        query = RankingQuery(data=params.dict())
        query.is_valid(raise_exception=True)
        season = season_or_404(query.validated_data.get("season"))
        day = query.validated_data["as_of"]
        check_day(season, day)
        try:
            with primary_reads():  # computed on a miss: read from where it was written
                ranking = selectors.ranking_as_of(season, day)
                return Response(self._entries_payload(query.validated_data, ranking))
        except RankingBeingComputed as computing:  # a first read: a worker computes it
            return Response(
                {
                    "status": "computing",
                    "as_of": computing.day.isoformat(),
                    "retry_after": computing.retry_after,
                },
                status=status.HTTP_202_ACCEPTED,
                headers={"Retry-After": str(computing.retry_after)},
            )
        except AsOfQueueFull as full:  # the season's bound of queued computations is reached
            response = problems_response([full.problem], 503)
            response["Retry-After"] = str(full.retry_after)
            return response

    def _payload(self) -> dict:
        query = RankingQuery(data=self.request.query_params.dict())
        query.is_valid(raise_exception=True)
        data = query.validated_data
        ranking: Ranking | None
        if data.get("snapshot"):
            ranking = selectors.ranking_by_snapshot_id(data["snapshot"])
            if ranking is None:
                raise Http404(_("Unknown ranking snapshot."))
        else:
            ranking = selectors.ranking_for_season(
                season_or_404(data.get("season")), data.get("kind")
            )
            if ranking is None:
                raise Http404(_("This season has no ranking yet."))
        return self._entries_payload(data, ranking)

    def _entries_payload(self, data, ranking: Ranking) -> dict:
        filters = ranking_filter(data)
        entries = ranking.entries(filters)
        count = entries.count()
        size, page = data["page_size"], data["page"]
        start = (page - 1) * size
        rows = entries.rows(start, size)
        labels = ranking.step_labels()
        return {
            "snapshot": snapshot_out(ranking),
            "count": count.value,
            "count_capped": count.capped,
            "page": page,
            "page_size": size,
            "pages": max(1, -(-count.value // size)),
            "results": [entry_row_out(row, labels) for row in rows],
        }


def entry_row_out(row: dict, labels: Labels) -> dict:
    """One line of the ranking from its row (``rankings.season.ranking.ENTRY_COLUMNS``),
    the player named through ``federation.public_names`` (a hidden player: the anonymous
    name, no licence number)."""
    row = public_row(row)
    return {
        "place": row["place"],
        "licence_number": row["licence_number"],
        "last_name": row["player__last_name"],
        "first_name": row["player__first_name"],
        "committee": row["committee__number"],
        "club": row["club__number"],
        "club_name": row["club__name"],
        "season_pcn": row["season_pcn"],
        "season_pp": row["season_pp"],
        "carried_pcn": row["carried_pcn"],
        "carried_pp": row["carried_pp"],
        "total_pcn": row["total_pcn"],
        "total_pp": row["total_pp"],
        "tournaments": row["tournaments"],
        "place_in_committee": row["place_in_committee"],
        "place_in_club": row["place_in_club"],
        "step": row["step"],
        "step_label": labels.get(row["step"], (row["step"],))[0],
        "series": row["series"],
        "season_step": row["season_step"],
        "points_step": row["points_step"],
        "step_source": row["step_source"],
        "name_hidden": bool(row["player__name_hidden"]),
    }


MOVED = OpenApiResponse(
    description="A record merged into another (docs/duplicates.md): `Location` is the kept "
    "record's URL."
)
"""The 301 of a merged record's reads, in the OpenAPI schema."""


def moved_to(request, name: str, licence_number: int) -> HttpResponsePermanentRedirect:
    """301 to the kept record's ``name`` URL, the query string kept: the answer to a
    read of a record merged into another (portal/merging.py)."""
    url = reverse(name, args=[licence_number])
    query = request.GET.urlencode()
    return HttpResponsePermanentRedirect(f"{url}?{query}" if query else url)


def entry_out(entry: Line | None, ranking: Ranking) -> dict | None:
    if entry is None:
        return None
    labels = ranking.step_labels()
    return {
        "season": ranking.season.name,
        "kind": ranking.kind,
        "snapshot": ranking.snapshot_id,
        "place": entry.place,
        "players": ranking.player_count,
        "place_in_committee": entry.place_in_committee,
        "place_in_club": entry.place_in_club,
        "season_pcn": entry.season_pcn,
        "season_pp": entry.season_pp,
        "carried_pcn": entry.carried_pcn,
        "carried_pp": entry.carried_pp,
        "total_pcn": entry.total_pcn,
        "total_pp": entry.total_pp,
        "tournaments": entry.tournaments,
        "step": entry.step,
        "step_label": labels.get(entry.step, (entry.step,))[0],
        "series": entry.series,
        "season_step": entry.season_step,
        "points_step": entry.points_step,
        "step_source": entry.step_source,
    }


class PlayerRankingView(APIView):
    """A player's ranking record: their line of the season's ranking (live or
    official), the official series that applies during the season, the season's
    homologated tournaments with their points, and the history of their official
    rankings and season totals."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("season", str, description="default: the current season"),
            OpenApiParameter("kind", str, enum=list(selectors.KINDS)),
        ],
        responses={200: OpenApiTypes.OBJECT, 301: MOVED},
    )
    def get(self, request, licence_number: int):
        kind = request.query_params.get("kind")
        if kind not in (None, *selectors.KINDS):
            kind = None
        try:
            return Response(self._payload(request, licence_number, kind))
        except public_reads.PlayerMoved as moved:  # a merged record (portal/merging.py)
            return moved_to(request, "ranking-player", moved.licence_number)

    def _payload(self, request, licence_number: int, kind: str | None) -> dict:
        season, record = public_reads.player_record(
            licence_number, request.query_params.get("season"), kind
        )
        if season is None:
            raise Http404(_("Unknown season."))
        if record is None or (
            record.player.name_hidden
            and not sees_hidden_player(scope_of(request.user), record.player.pk, _club(record))
        ):  # a player who asked for anonymity is unknown to the public (docs/privacy.md)
            raise Http404(_("Unknown licence number."))
        licence = record.licence
        return {
            "licence_number": record.player.licence_number,
            "last_name": record.player.last_name,
            "first_name": record.player.first_name,
            "season": season.name,
            "club": licence.club.number if licence else None,
            "club_name": licence.club.name if licence else None,
            "committee": licence.club.committee.number if licence else None,
            "ranking": entry_out(record.entry, record.ranking) if record.ranking else None,
            "series_this_season": (
                entry_out(record.held, record.held_ranking) if record.held_ranking else None
            ),
            "tournaments": [
                {
                    "tournament": a.tournament_id,
                    "name": a.tournament.name,
                    "date": a.tournament.date,
                    "place": a.place,
                    "pcn": a.pcn,
                    "pp": a.pp,
                }
                for a in record.tournaments
            ],
            "official_history": [entry_out(e, SnapshotRanking(e.snapshot)) for e in record.history],
            # « Mes points »: the live ranking's figures explained, the next step's need.
            "my_points": my_points_out(my_points(record.player, season, record=record)),
            "season_totals": [
                {
                    "season": t.season.name,
                    "pcn": t.pcn,
                    "pp": t.pp,
                    "tournaments": t.tournaments,
                }
                for t in record.season_totals
            ],
        }


OBJECT_LIST = {"type": "array", "items": {"type": "object", "additionalProperties": {}}}
"""The schema of a response that is a list of objects."""


class SnapshotsView(APIView):
    """The ranking snapshots of a season: the live one and every official one
    (the published one flagged); past official rankings stay readable by id."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[OpenApiParameter("season", str)], responses={200: OBJECT_LIST})
    def get(self, request):
        from rankings.models import SeasonRanking

        season = season_or_404(request.query_params.get("season"))
        state = SeasonRanking.objects.filter(season=season).first()
        return Response(
            [
                {**snapshot_out(s), "published": bool(state and state.official_id == s.snapshot_id)}
                for s in selectors.season_snapshots(season)
            ]
        )


class ExportQuery(serializers.Serializer):
    season = serializers.CharField(required=False, help_text="2026-2027; default the current one.")
    kind = serializers.ChoiceField(choices=selectors.KINDS, required=False)
    committee = serializers.CharField(required=False, allow_blank=True, max_length=10)
    club = serializers.CharField(required=False, allow_blank=True, max_length=10)
    format = serializers.ChoiceField(
        choices=FORMATS, required=False, default="csv",
        help_text="csv (UTF-8 with BOM, `;`), xlsx, or pdf (A4, for a committee or a club).",
    )  # fmt: skip
    lang = serializers.ChoiceField(
        choices=LANGUAGES, required=False,
        help_text="Headers and labels in French (default) or English; else Accept-Language.",
    )  # fmt: skip


class FormatIsAQueryParameter(DefaultContentNegotiation):
    """``?format=`` chooses the export's file, not DRF's renderer: errors stay JSON."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class ExportView(APIView):
    """The ranking as a file with French headers and labels (`lang=en`: English):
    CSV (UTF-8 with BOM, `;`, streamed), XLSX, or a printable A4 PDF (a committee
    or a club). Federation staff: every committee (or `committee=`, `club=`); zone
    and committee staff: their committees and their clubs; club managers: their
    clubs (401 when not signed in, 403 for anyone else)."""

    permission_classes = [permissions.IsAuthenticated]
    content_negotiation_class = FormatIsAQueryParameter

    @extend_schema(
        parameters=[ExportQuery],
        responses={
            (200, "text/csv"): OpenApiTypes.BINARY,
            (200, XLSX): OpenApiTypes.BINARY,
            (200, "application/pdf"): OpenApiTypes.BINARY,
        },
    )
    def get(self, request):
        query = ExportQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        data = query.validated_data
        with translation.override(data.get("lang") or translation.get_language()):
            return self._export(scope_of(request.user), data)

    def _export(self, scope, data):
        season = season_or_404(data.get("season"))
        ranking = selectors.ranking_for_season(season, data.get("kind"))
        if ranking is None:
            raise Http404(_("This season has no ranking yet."))
        try:
            target = export_target(scope, data.get("committee"), data.get("club"))
        except ExportScopeError as exc:
            raise PermissionDenied(str(exc)) from exc
        if data["format"] == "pdf" and target.national:
            raise serializers.ValidationError(
                {"format": [_("The printable ranking is for a committee or a club: choose one.")]}
            )
        return ranking_export_response(ranking_table(ranking, target), data["format"])


class PolicyView(APIView):
    """A season's series policy in force (ladder, thresholds or shares, carry-over,
    entry step, return after a gap, demotion limit). Federation staff publish a new
    version with PUT `{"policy": {...}, "note": "..."}`; every problem is located."""

    def get_permissions(self):
        return (
            [permissions.AllowAny()]
            if self.request.method == "GET"
            else [permissions.IsAuthenticated()]
        )

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, season: str):
        version, _policy = series_policy_in_force(season=season_or_404(season))
        return Response(
            {"season": season, "version": version.version, "note": version.note,
             "policy": version.data}
        )  # fmt: skip

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def put(self, request, season: str):
        body = request.data if isinstance(request.data, dict) else {}
        version = series_policy_update(
            season=season_or_404(season),
            data=body.get("policy"),
            by=request.user,
            note=str(body.get("note", ""))[:300],
        )
        return Response(
            {"season": season, "version": version.version, "note": version.note,
             "policy": version.data}
        )  # fmt: skip


class PlacementIn(serializers.Serializer):
    licence_number = serializers.IntegerField(min_value=1)
    step = serializers.CharField(max_length=12)
    reason = serializers.CharField(max_length=2000, allow_blank=True)


def placement_out(placement: ManualPlacement) -> dict:
    return {
        "licence_number": placement.player.licence_number,
        "name": f"{placement.player.last_name} {placement.player.first_name}",
        "step": placement.step,
        "reason": placement.reason,
        "updated_at": placement.updated_at,
    }


class PlacementsView(APIView):
    """Manual placements of a season's ranking by the CCN (a step and a reason).
    Staff read them; federation staff create or replace one with POST."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OBJECT_LIST})
    def get(self, request, season: str):
        if not scope_of(request.user).is_staff:
            raise PermissionDenied(_("Only staff may read the manual placements."))
        placements = ManualPlacement.objects.filter(season=season_or_404(season)).select_related(
            "player"
        )
        return Response([placement_out(p) for p in placements])

    @extend_schema(request=PlacementIn, responses=OpenApiTypes.OBJECT)
    def post(self, request, season: str):
        body = PlacementIn(data=request.data)
        body.is_valid(raise_exception=True)
        placement = manual_placement_set(season=season_or_404(season), by=request.user,
                                         **body.validated_data)  # fmt: skip
        return Response(placement_out(placement), status=status.HTTP_201_CREATED)


class PlacementView(APIView):
    """Remove a player's manual placement (federation staff); the ranking is then
    refreshed with the step computed by points."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None})
    def delete(self, request, season: str, licence_number: int):
        if not manual_placement_remove(
            season=season_or_404(season), licence_number=licence_number, by=request.user
        ):
            raise Http404(_("This player has no manual placement in this season."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RecomputeIn(serializers.Serializer):
    season = serializers.CharField()
    # ``kind`` has choices; the stubs type a field's choices as optional.
    kind = serializers.ChoiceField(choices=RecomputeRun._meta.get_field("kind").choices)  # type: ignore[arg-type]
    note = serializers.CharField(required=False, allow_blank=True, max_length=300, default="")
    before_season_end_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        default="",
        help_text="An official ranking of a season that has not ended is published only "
        "with this: the reason for publishing it early (recorded with who and when).",
    )


class RecomputeRunOut(serializers.ModelSerializer):
    """A recompute run as :func:`run_out` writes it (documents the answers, writes nothing)."""

    season = serializers.CharField(source="season.name")
    snapshot = serializers.IntegerField(source="snapshot_id", allow_null=True)

    class Meta:
        model = RecomputeRun
        fields = ["id", "season", "kind", "status", "phase", "done", "total", "players",
                  "requested_at", "started_at", "finished_at", "snapshot",
                  "before_season_end_reason", "error"]  # fmt: skip


def run_out(run: RecomputeRun) -> dict:
    return {
        "id": run.pk,
        "season": run.season.name,
        "kind": run.kind,
        "status": run.status,
        "phase": run.phase,
        "done": run.done,
        "total": run.total,
        "players": run.players,
        "requested_at": run.requested_at,
        "started_at": run.started_at,
        "finished_at": run.finished_at,
        "snapshot": run.snapshot_id,
        "before_season_end_reason": run.before_season_end_reason,
        "error": run.error,
    }


class RecomputesView(APIView):
    """Full recomputes and official rankings (federation staff): POST queues one and
    answers 202 with the run; GET lists the latest runs with their progress."""

    # A POST is refused (409) while a run of the season is under way; an official ranking
    # before the season's end needs ``before_season_end_reason`` (rankings/season/recompute.py).

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="pcn_recomputes_list", responses={200: RecomputeRunOut(many=True)})
    def get(self, request):
        if not scope_of(request.user).is_staff:
            raise PermissionDenied(_("Only staff may follow the recomputes."))
        runs = RecomputeRun.objects.select_related("season")[:50]
        return Response([run_out(r) for r in runs])

    @extend_schema(
        request=RecomputeIn,
        responses={
            202: OpenApiResponse(
                RecomputeRunOut, description="Queued: the run, to follow at …/recomputes/<id>/."
            )
        },
    )
    def post(self, request):
        body = RecomputeIn(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        run = recompute_request(
            season=season_or_404(data["season"]), kind=data["kind"], by=request.user,
            note=data["note"], early_reason=data["before_season_end_reason"],
        )  # fmt: skip
        run.refresh_from_db()
        return Response(run_out(run), status=status.HTTP_202_ACCEPTED)


class RecomputeView(APIView):
    """One recompute run and its progress: status, phase, steps done of total,
    players, start and end, the snapshot written, the error if it failed (staff)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=RecomputeRunOut)
    def get(self, request, pk: int):
        if not scope_of(request.user).is_staff:
            raise PermissionDenied(_("Only staff may follow the recomputes."))
        return Response(
            run_out(get_object_or_404(RecomputeRun.objects.select_related("season"), pk=pk))
        )


def _club(record) -> Club | None:
    """The player's club in the season read (``record.licence``), for the staff covering it."""
    return record.licence.club if record.licence is not None else None
