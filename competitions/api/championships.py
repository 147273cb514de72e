"""Championship endpoints (``/api/championships/``): the four championships of a season,
their regional championships and published rules, stages, entries, quotas, qualifications,
the first-session seating and late arrivals. Writes go through
the services of ``competitions.championships``, which check permissions and rules; reads through
the selectors. Public reads: championships, stages, entries (without the private facts).
"""

from __future__ import annotations

import datetime as dt

import django_filters
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from competitions import homologation
from competitions.api import championship_serializers as s
from competitions.api.results import (
    DOCUMENT_EXAMPLES,
    RESULT_PARSERS,
    RESULT_REQUEST,
    read_submission,
    submitted_response,
)
from competitions.api.tournament_serializers import TournamentOut
from competitions.championships import selectors
from competitions.championships.championship_settings import (
    championship_rules_update,
    championships_create,
    outgoing_champion_set,
    quotas_set,
)
from competitions.championships.entries import (
    EntryRequest,
    entries_register,
    entry_withdraw,
    may_enter_stage,
)
from competitions.championships.interclubs import interclubs_teams_recheck
from competitions.championships.qualification_records import (
    national_final_register,
    qualification_record,
    qualification_rows,
)
from competitions.championships.qualification_status import (
    entry_key,
    outgoing_champion_numbers,
    qualification_status,
)
from competitions.championships.regional import (
    regional_create,
    regional_rules_approve,
    regional_rules_check,
    regional_rules_publish,
)
from competitions.championships.running import (
    LateArrivalRequest,
    late_arrival_record,
    may_run,
    seating_draw,
)
from competitions.championships.settings_versions import championship_rules_in_force
from competitions.championships.stage_results import stage_compliance
from competitions.championships.stages import stage_create
from competitions.championships.titles import titles as titles_selector
from competitions.models import (
    Championship,
    ChampionshipKindChoice,
    ChampionshipStage,
    ChampionshipTitle,
    Qualification,
    RegionalChampionship,
)
from competitions.tournaments.selectors import tournaments
from core.http.api_errors import problems_data
from federation.access import scope_of
from federation.models import Committee, Player, Season
from federation.public_names import hidden_numbers
from federation.selectors import current_season, private_data_visible


def _season(name: str | None) -> Season:
    season = Season.objects.filter(name=name).first() if name else current_season()
    if season is None:
        raise Http404(_("Unknown season."))
    return season


def _championship(pk: int) -> Championship:
    return get_object_or_404(selectors.championships(), pk=pk)


def _stage(pk: int) -> ChampionshipStage:
    return get_object_or_404(selectors.stages(), pk=pk)


def _regional(pk: int) -> RegionalChampionship:
    return get_object_or_404(selectors.regionals(), pk=pk)


def _require_publisher(request, regional: RegionalChampionship) -> None:
    """Those who may publish a committee's regional rules (its staff, its zone's, the CCN),
    checked before the request's body so that anyone else gets a 403 whatever they send."""
    if not scope_of(request.user).covers_committee(regional.committee):
        raise PermissionDenied(
            _(
                "Only the committee's staff (its zone's, or federation staff) publish or check "
                "its regional rules."
            )
        )


def _require_runner(request, stage: ChampionshipStage) -> None:
    """The stage's arbiter or the staff covering its organiser, checked before the body."""
    if not may_run(scope_of(request.user), request.user, stage):
        raise PermissionDenied(_("Only the stage's arbiter or the staff covering its organiser."))


def _staff_only(request) -> None:
    if not scope_of(request.user).is_staff:
        raise PermissionDenied(_("Staff only."))


# ---------------------------------------------------------------------------------------------
# Championships


class ChampionshipFilter(django_filters.FilterSet):
    season = django_filters.CharFilter(field_name="season__name")

    class Meta:
        model = Championship
        fields = ["season", "kind"]


class ChampionshipListCreate(generics.ListAPIView):
    """GET: the championships (public; `?season=2026-2027&kind=duo`). POST (CCN): create a
    season's championships, the four by default (existing ones are returned)."""

    queryset = selectors.championships()
    serializer_class = s.ChampionshipOut
    filterset_class = ChampionshipFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @property
    def pagination_class(self):
        """GET pages the championships; a POST answers those it made or found, all of them
        in one list (the schema, read per method, says so too)."""
        if getattr(self, "request", None) is not None and self.request.method == "POST":
            return None
        return api_settings.DEFAULT_PAGINATION_CLASS

    @extend_schema(
        request=s.ChampionshipsIn,
        responses={
            201: OpenApiResponse(
                s.ChampionshipOut(many=True),
                description="The season's championships, at least one of them created now.",
            ),
            200: OpenApiResponse(
                s.ChampionshipOut(many=True),
                description="The season's championships, all of them existing already.",
            ),
        },
    )
    def post(self, request):
        data = s.ChampionshipsIn(data=request.data)
        data.is_valid(raise_exception=True)
        season = Season.objects.filter(name=data.validated_data["season"]).first()
        if season is None:
            raise serializers.ValidationError({"season": [_("Unknown season.")]})
        made = championships_create(
            season=season, kinds=data.validated_data.get("kinds"), by=request.user
        )
        created = any(c for _, c in made)
        return Response(
            s.ChampionshipOut([c for c, _ in made], many=True).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class TitleFilter(django_filters.FilterSet):
    season = django_filters.CharFilter(field_name="championship__season__name")
    championship = django_filters.ChoiceFilter(
        field_name="championship__kind", choices=ChampionshipKindChoice.choices
    )
    licence_number = django_filters.NumberFilter(method="by_licence")
    committee = django_filters.NumberFilter(field_name="committee__number")

    class Meta:
        model = ChampionshipTitle
        fields = ["season", "championship", "title", "licence_number", "committee"]

    def by_licence(self, queryset, name, value):
        """A public list: a player who asked for anonymity is not found by their number."""
        return queryset.filter(player__licence_number=value, player__name_hidden=False)


class TitleList(generics.ListAPIView):
    """GET (public, read-only): the titles recorded per season — champion and vice-champion
    of France of each championship (arts 6, 12, 17, 23) and the regional champions —, one
    row per player, derived from the homologated places of the national and regional
    finals. Filters: `?season=2026-2027&championship=duo&title=regional_champion&
    licence_number=700123&committee=1`."""

    queryset = titles_selector()
    serializer_class = s.TitleOut
    filterset_class = TitleFilter
    permission_classes = [permissions.AllowAny]
    http_method_names = ["get", "head", "options"]

    def get_serializer_context(self):
        hidden = Player.objects.filter(name_hidden=True).values_list("licence_number", flat=True)
        return {**super().get_serializer_context(), "hidden_numbers": frozenset(hidden)}


class ChampionshipDetail(generics.RetrieveAPIView):
    """A championship with its regional championships, stages and quotas (public)."""

    queryset = selectors.championship_detail()
    serializer_class = s.ChampionshipDetailOut


class ChampionshipRules(APIView):
    """GET: the championship's settings in force for its season (public). POST (CCN): a new
    version; every setting is checked."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.RulesVersionOut)
    def get(self, request, pk: int):
        championship = _championship(pk)
        version, _rules = championship_rules_in_force(
            season=championship.season, kind=championship.kind
        )
        return Response(s.RulesVersionOut(version).data)

    @extend_schema(request=s.RulesIn, responses={201: s.RulesVersionOut})
    def post(self, request, pk: int):
        championship = _championship(pk)
        data = s.RulesIn(data=request.data)
        data.is_valid(raise_exception=True)
        version = championship_rules_update(
            championship=championship,
            data=data.validated_data["data"],
            note=data.validated_data["note"],
            by=request.user,
        )
        return Response(s.RulesVersionOut(version).data, status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------------
# Regional championships and their rules


class RegionalListCreate(APIView):
    """GET: the championship's regional championships with their published rules (public).
    POST (the committee's staff): open the committee's regional championship."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.RegionalOut(many=True))
    def get(self, request, pk: int):
        found = selectors.regionals().filter(championship_id=pk).order_by("committee__number")
        return Response(s.RegionalOut(found, many=True).data)

    @extend_schema(request=s.RegionalIn, responses={201: s.RegionalOut})
    def post(self, request, pk: int):
        championship = _championship(pk)
        data = s.RegionalIn(data=request.data)
        data.is_valid(raise_exception=True)
        committee = Committee.objects.filter(number=data.validated_data["committee"]).first()
        if committee is None:
            raise serializers.ValidationError({"committee": [_("Unknown committee.")]})
        regional, created = regional_create(
            championship=championship, committee=committee, by=request.user
        )
        return Response(
            s.RegionalOut(_regional(regional.pk)).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class RegionalDetail(generics.RetrieveAPIView):
    """A regional championship and every version of its published rules (public)."""

    queryset = selectors.regionals()
    serializer_class = s.RegionalOut


class RegionalRulesPublish(APIView):
    """POST (the committee's staff): publish a new version of the regional rules. They are
    checked against chapter 3 (minimum field, sessions, deals, dates, division of points)
    and the national dates; every problem is located, nothing is stored if any."""

    @extend_schema(request=s.RegionalRulesIn, responses={201: s.RegionalRulesVersionOut})
    def post(self, request, pk: int):
        regional = _regional(pk)
        _require_publisher(request, regional)  # before the body is read: 403, not 400
        data = s.RegionalRulesIn(data=request.data)
        data.is_valid(raise_exception=True)
        version = regional_rules_publish(
            regional=regional,
            data=data.validated_data["rules"],
            note=data.validated_data["note"],
            by=request.user,
        )
        return Response(s.RegionalRulesVersionOut(version).data, status=status.HTTP_201_CREATED)


class RegionalRulesCheck(APIView):
    """POST (those who may publish them: the committee's staff, its zone's, the CCN): check
    regional rules without publishing them; 200 with the problems."""

    @extend_schema(request=s.RegionalRulesIn, responses=s.RulesCheckOut)
    def post(self, request, pk: int):
        regional = _regional(pk)
        _require_publisher(request, regional)
        data = s.RegionalRulesIn(data=request.data)
        data.is_valid(raise_exception=True)
        problems = regional_rules_check(regional=regional, data=data.validated_data["rules"])
        return Response({"problems": problems_data(problems)})


class RegionalRulesApprove(APIView):
    """POST (the zone's staff, or the CCN): approve a published version (« aval »)."""

    @extend_schema(request=None, responses=s.RegionalRulesVersionOut)
    def post(self, request, pk: int, version: int):
        regional = _regional(pk)
        found = get_object_or_404(regional.rules_versions.all(), version=version)
        approved = regional_rules_approve(version=found, by=request.user)
        return Response(s.RegionalRulesVersionOut(approved).data)


# ---------------------------------------------------------------------------------------------
# Stages


class StageListCreate(APIView):
    """GET: the championship's stages (public). POST: create a stage and declare its
    tournament — regional stages by the committee's staff from its published rules,
    national stages by the CCN."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.StageOut(many=True))
    def get(self, request, pk: int):
        return Response(s.StageOut(selectors.stages().filter(championship_id=pk), many=True).data)

    @extend_schema(request=s.StageIn, responses={201: s.StageOut})
    def post(self, request, pk: int):
        championship = _championship(pk)
        data = s.StageIn(data=request.data)
        data.is_valid(raise_exception=True)
        stage, created = stage_create(
            championship=championship,
            request=data.to_request(),
            by=request.user,
        )
        return Response(
            s.StageOut(_stage(stage.pk)).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class StageDetail(generics.RetrieveAPIView):
    """A stage and its tournament (public)."""

    queryset = selectors.stages()
    serializer_class = s.StageOut


def _facts_context(request, entries) -> dict:
    """Show the entries' facts, each player's birth date only to a caller who may see
    that player's private data (as ``/api/federation/players/{n}/`` does)."""
    numbers = {fact["licence_number"] for entry in entries for fact in entry.facts}
    visible = private_data_visible(scope_of(request.user), numbers)
    return {"private": True, "visible": visible}


class EntriesMadeOut(serializers.Serializer):
    entries = s.EntryOut(many=True)
    warnings = s.ProblemOut(many=True)


class StageEntries(APIView):
    """GET: the stage's entries (public; their facts for staff, a player's birth date only
    for staff whose scope covers that player's current club). POST: enter players, duos
    or teams — `{"licence_numbers": [...], "team_name": ""}` or `{"entries": [...]}`; each is
    checked for eligibility on the stage's day, and any refusal stores nothing."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.EntryOut(many=True))
    def get(self, request, pk: int):
        stage = _stage(pk)
        entries = selectors.stage_entries(stage)
        private = scope_of(request.user).is_staff
        context = _facts_context(request, entries) if private else {}
        return Response(s.EntryOut(entries, many=True, context=context).data)

    @extend_schema(request=s.EntriesIn, responses={201: EntriesMadeOut})
    def post(self, request, pk: int):
        stage = _stage(pk)
        if not may_enter_stage(scope_of(request.user), stage):  # before the body: a 403
            raise PermissionDenied(_("You may not enter players in this stage."))
        data: s.EntriesIn | s.EntryIn
        if isinstance(request.data, dict) and "entries" in request.data:
            data = s.EntriesIn(data=request.data)
            data.is_valid(raise_exception=True)
            wanted = data.validated_data["entries"]
        else:
            data = s.EntryIn(data=request.data)
            data.is_valid(raise_exception=True)
            wanted = [data.validated_data]
        made = entries_register(
            stage=stage,
            requests=[EntryRequest(tuple(e["licence_numbers"]), e["team_name"]) for e in wanted],
            by=request.user,
        )
        ids = [m.entry.pk for m in made]
        entries = selectors.stage_entries(stage).filter(pk__in=ids)
        return Response(
            {
                "entries": s.EntryOut(
                    entries, many=True, context=_facts_context(request, entries)
                ).data,
                "warnings": problems_data(w for m in made for w in m.warnings),
            },
            status=status.HTTP_201_CREATED,
        )


class EntryWithdraw(APIView):
    """POST: withdraw an entry before its stage is played (those who may enter it)."""

    @extend_schema(request=None, responses=s.EntryOut)
    def post(self, request, pk: int, number: int):
        stage = _stage(pk)
        entry = get_object_or_404(stage.entries.all(), number=number)
        entry_withdraw(entry=entry, by=request.user)
        withdrawn = selectors.stage_entries(stage).get(pk=entry.pk)
        return Response(s.EntryOut(withdrawn, context=_facts_context(request, [withdrawn])).data)


class StageResults(APIView):
    """POST (the organiser's staff): submit the stage's results, as for any tournament
    (JSON, CSV, `?source=sheets`), after the championship's checks: only entries of the
    stage, the minimum field, sessions and deals, the committee's published table, the
    arbiter's recorded late arrivals."""

    parser_classes = RESULT_PARSERS

    @extend_schema(
        request=RESULT_REQUEST, responses={201: TournamentOut}, examples=DOCUMENT_EXAMPLES
    )
    def post(self, request, pk: int):
        stage = _stage(pk)
        content, source = read_submission(request)
        submitted = homologation.results_submit(
            tournament=stage.tournament, content=content, source=source, by=request.user
        )
        return submitted_response(request, stage.tournament, submitted)


class StageCheck(APIView):
    """GET (staff): the championship's problems with the stage's latest results."""

    @extend_schema(responses=s.StageCheckOut)
    def get(self, request, pk: int):
        _staff_only(request)
        stage = _stage(pk)
        revision = stage.tournament.revisions.order_by("-number").first()
        if revision is None:
            return Response({"revision": None, "problems": []})
        results = selectors.results_of_revisions([revision.pk])[revision.pk]
        problems = stage_compliance(stage, results)
        return Response({"revision": revision.number, "problems": problems_data(problems)})


class StageHomologate(APIView):
    """POST (staff above the organiser): homologate the stage's results once they comply;
    the PCN follow the stage's index and cap, or the national final's table."""

    @extend_schema(request=None, responses=TournamentOut)
    def post(self, request, pk: int):
        stage = _stage(pk)
        homologation.tournament_homologate(tournament=stage.tournament, by=request.user)
        return Response(
            TournamentOut(
                tournaments().get(pk=stage.tournament_id), context={"request": request}
            ).data
        )


class StageSeatingView(APIView):
    """GET: the first-session seating, once drawn (public). POST (the stage's arbiter or
    the staff above the organiser): draw it (article 25): the outgoing champion at table 1,
    the others spread by zones and committees; `seed` makes the draw reproducible."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.SeatingOut)
    def get(self, request, pk: int):
        stage = _stage(pk)
        seating = getattr(stage, "seating", None)
        if seating is None:
            raise Http404(_("No seating drawn yet."))
        data = s.SeatingOut(seating).data
        if not scope_of(request.user).is_staff:  # the public: docs/privacy.md
            hidden = hidden_numbers(a["licence_number"] for a in data["assignments"])
            data["assignments"] = [
                {**a, "licence_number": None} if a["licence_number"] in hidden else a
                for a in data["assignments"]
            ]
            if data["champion"].isdigit() and int(data["champion"]) in hidden:
                data["champion"] = ""
        return Response(data)

    @extend_schema(request=s.SeatingIn, responses={201: s.SeatingOut})
    def post(self, request, pk: int):
        stage = _stage(pk)
        _require_runner(request, stage)
        data = s.SeatingIn(data=request.data)
        data.is_valid(raise_exception=True)
        seating = seating_draw(stage=stage, seed=data.validated_data["seed"], by=request.user)
        return Response(s.SeatingOut(seating).data, status=status.HTTP_201_CREATED)


class StagePenalties(APIView):
    """GET: late arrivals and forfeits recorded (public). POST (the stage's arbiter or the
    staff above the organiser): record a late arrival (article 26): 100 points per started
    5 minutes; past 15 minutes the arbiter may declare a forfeit and seat a substitute."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.PenaltyOut(many=True))
    def get(self, request, pk: int):
        stage = _stage(pk)
        found = list(stage.penalties.select_related("player", "entry", "substitute"))
        hidden: frozenset[int] = frozenset()
        if not scope_of(request.user).is_staff:  # the public: docs/privacy.md
            hidden = frozenset(
                x.licence_number
                for p in found
                for x in (p.player, p.substitute)
                if x is not None and x.name_hidden
            )
        return Response(s.PenaltyOut(found, many=True, context={"hidden": hidden}).data)

    @extend_schema(request=s.LateArrivalIn, responses={201: s.PenaltyOut})
    def post(self, request, pk: int):
        stage = _stage(pk)
        _require_runner(request, stage)
        data = s.LateArrivalIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        penalty = late_arrival_record(
            stage=stage,
            request=LateArrivalRequest(
                licence_number=v["licence_number"],
                lateness=dt.timedelta(seconds=v["lateness_seconds"]),
                reason=v["reason"],
                forfeit=v["forfeit"],
                substitute_licence_number=v["substitute_licence_number"],
            ),
            by=request.user,
        )
        return Response(s.PenaltyOut(penalty).data, status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------------
# Quotas, outgoing champion, qualifications


class Quotas(APIView):
    """GET: the committees' places at the national final (public). PUT (CCN): set them;
    committees not named keep theirs."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.QuotasIn)
    def get(self, request, pk: int):
        championship = _championship(pk)
        found = selectors.quotas(championship)
        return Response(
            {"quotas": [{"committee": c, "places": n} for c, n in sorted(found.items())]}
        )

    @extend_schema(request=s.QuotasIn, responses=s.QuotasIn)
    def put(self, request, pk: int):
        championship = _championship(pk)
        data = s.QuotasIn(data=request.data)
        data.is_valid(raise_exception=True)
        quotas_set(
            championship=championship,
            quotas={q["committee"]: q["places"] for q in data.validated_data["quotas"]},
            by=request.user,
        )
        return self.get(request, pk)


class OutgoingChampion(APIView):
    """GET: the outgoing national champion (set by the CCN, or derived from last season's
    national final). PUT (CCN): set it; `null` derives it, `[]` means none (article 30 of
    fascicule 1)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=s.OutgoingChampionOut)
    def get(self, request, pk: int):
        championship = _championship(pk)
        numbers, final, problems = outgoing_champion_numbers(championship)
        if numbers and not scope_of(request.user).is_staff:  # the public: docs/privacy.md
            hidden = hidden_numbers(numbers)
            numbers = [n for n in numbers if n not in hidden]
        return Response(
            {
                "licence_numbers": numbers,
                "set_by_ccn": championship.outgoing_champion is not None,
                "from_stage": final.pk if final else None,
                "note": championship.outgoing_champion_note,
                "problems": problems_data(problems),
            }
        )

    @extend_schema(request=s.OutgoingChampionIn, responses=s.OutgoingChampionOut)
    def put(self, request, pk: int):
        championship = _championship(pk)
        data = s.OutgoingChampionIn(data=request.data)
        data.is_valid(raise_exception=True)
        outgoing_champion_set(
            championship=championship,
            licence_numbers=data.validated_data["licence_numbers"],
            note=data.validated_data["note"],
            by=request.user,
        )
        return self.get(request, pk)


def _players_data(numbers, players) -> list[dict]:
    rows = []
    for n in sorted(int(x) for x in numbers):
        player = players.get(n)
        name = f"{player.first_name} {player.last_name.upper()}" if player else ""
        rows.append({"licence_number": n, "name": name})
    return rows


def _team_data(team) -> dict | None:
    if team is None:
        return None
    return {
        "club": int(team.club),
        "committee": int(team.committee),
        "series": list(team.series),
        "taken_on": team.taken_on,
    }


def status_data(status_) -> dict:
    """The live qualification state of a championship, for the API."""
    rows = qualification_rows(status_)
    players = status_.players

    def row_data(row: dict) -> dict:
        source = row["source_stage"]
        return {
            "key": row["key"],
            "licence_numbers": row["licence_numbers"],
            "players": _players_data(row["licence_numbers"], players),
            "right": row["right"],
            "committee": row["committee"],
            "place": row["place"],
            "stage": source.pk if source else None,
            "team": _team_data(row["team"]),
            **({"message": row["message"]} if row["message"] else {}),
        }

    national = status_.national
    return {
        "championship": s.ChampionshipOut(status_.championship).data,
        "rules_version": status_.rules_version,
        "quotas": [
            {"committee": c, "places": n}
            for c, n in sorted(selectors.quotas(status_.championship).items())
        ],
        "national_final": {
            "qualified": [
                row_data(r)
                for r in rows
                if r["target"] == "national_final" and r["status"] == "qualified"
            ],
            "lost": [
                row_data(r)
                for r in rows
                if r["target"] == "national_final" and r["status"] == "lost"
            ],
            "open": [
                {
                    "right": str(o.right),
                    "committee": int(o.committee) if o.committee else None,
                    "count": o.count,
                    "reason": str(o.reason),
                    "tied": list(o.tied),
                }
                for o in (national.open_places if national else ())
            ],
            "open_count": national.open_count if national else None,
        },
        "regional_final": {
            "qualified": [row_data(r) for r in rows if r["target"] == "regional_final"],
            "refused": problems_data(status_.carry_over.refused),
        },
        "problems": problems_data([*status_.problems, *(national.problems if national else ())]),
        "warnings": problems_data(status_.warnings),
    }


class QualificationView(APIView):
    """GET (staff): who is qualified now for the national final and for this season's
    regional finals, by which right, which places are open and why, and what staff must
    settle. POST (CCN): record it (the recorded rows, with their history)."""

    @extend_schema(responses=s.QualificationStatusOut)
    def get(self, request, pk: int):
        _staff_only(request)
        return Response(status_data(qualification_status(_championship(pk))))

    @extend_schema(request=None, responses=s.QualificationOut(many=True))
    def post(self, request, pk: int):
        recorded = qualification_record(championship=_championship(pk), by=request.user)
        found = selectors.recorded_qualifications(recorded.status.championship)
        return Response(s.QualificationOut(found, many=True).data)


class RecordedQualifications(generics.ListAPIView):
    """GET (staff): the qualifications recorded by the CCN, lost and withdrawn included."""

    serializer_class = s.QualificationOut
    pagination_class = None

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Qualification.objects.none()
        _staff_only(self.request)
        return selectors.recorded_qualifications(_championship(self.kwargs["pk"]))


class NationalFinalRegister(APIView):
    """POST (CCN): record the qualifications and enter every qualified entry in the
    national final, each checked on the day of the final; refusals are listed."""

    @extend_schema(request=None, responses=s.FinalFieldOut)
    def post(self, request, pk: int):
        championship = _championship(pk)
        field = national_final_register(championship=championship, by=request.user)
        return Response(
            {
                "created": [e.number for e in field.created],
                "withdrawn": [e.number for e in field.withdrawn],
                "refused": problems_data(field.refused),
            }
        )


class TeamsRecheck(APIView):
    """POST (CCN): re-check every interclubs team of a season (`{"season": "2026-2027"}`)
    against the current series; the invalid ones are flagged."""

    @extend_schema(request=s.RecheckIn, responses=s.RecheckOut)
    def post(self, request):
        season = _season(request.data.get("season") if isinstance(request.data, dict) else None)
        result = interclubs_teams_recheck(season=season, by=request.user)
        return Response(
            {
                "checked": result.checked,
                "flagged": [{"stage": e.stage_id, "entry": e.number} for e in result.flagged],
                "resolved": [{"stage": e.stage_id, "entry": e.number} for e in result.resolved],
            }
        )


class Me(APIView):
    """GET (a player): their own entries and their qualifications in the season's
    championships (`?season=`, default the current one)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("season", str, required=False)],
        responses=s.MeOut,
    )
    def get(self, request):
        player = request.user.player
        if player is None:
            raise PermissionDenied(_("This account is not linked to a player."))
        season = _season(request.query_params.get("season"))
        entries = selectors.player_entries(player.pk, [season.pk])
        qualifications = []
        for championship in selectors.championships().filter(season=season):
            status_ = qualification_status(championship)
            for row in qualification_rows(status_):
                if player.licence_number in row["licence_numbers"]:
                    qualifications.append(
                        {
                            "championship": championship.pk,
                            "kind": championship.kind,
                            "target": row["target"],
                            "status": row["status"],
                            "right": row["right"],
                            "key": row["key"],
                            "committee": row["committee"],
                            "place": row["place"],
                            "message": row["message"],
                        }
                    )
        return Response(
            {
                "licence_number": player.licence_number,
                "season": season.name,
                "entries": [
                    {
                        "championship": e.stage.championship_id,
                        "kind": e.stage.championship.kind,
                        "stage": e.stage_id,
                        "stage_kind": e.stage.kind,
                        "date": e.stage.tournament.date,
                        "entry": e.number,
                        "key": entry_key(p.player.licence_number for p in e.active_players)
                        if e.active_players
                        else "",
                        "status": e.status,
                        "right": e.right,
                        "team_name": e.team_name,
                    }
                    for e in entries
                ],
                "qualifications": qualifications,
            }
        )
