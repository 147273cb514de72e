"""The staff desk's own screens (its other screens live with their app: the URLs that
gather them all are in portal/desk_urls.py).

- ``/bureau/``: the desk's home, for federation, zone and committee staff, scoped to the
  caller's role; it counts what waits for homologation.
- ``/bureau/doublons/`` (docs/duplicates.md): federation staff read the likely duplicate
  player records side by side (birth dates included), choose the record kept, confirm,
  and the merge is done by :func:`portal.merging.players_merge`. Nobody else may open
  it (403).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as PageForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from competitions.tournaments.review import QueueFilter, homologation_queue
from competitions.tournaments.suspension_proposals import suspension_proposals_pending
from core.digits import ascii_digits
from core.errors import ServiceError
from core.messages import error_message, problem_message
from core.problems import RuleViolation
from federation.access import scope_of
from federation.models import Licence, Player
from portal.merging import likely_duplicate_pairs, players_merge

SHOWN = 200  # pairs on the page; the count says how many there are


@require_safe
@login_required
def desk_home(request):
    scope = scope_of(request.user)
    if not scope.is_staff:
        raise PageForbidden
    waiting = homologation_queue(scope, QueueFilter()).count()
    proposed = suspension_proposals_pending(by=request.user).count() if scope.national else 0
    return render(
        request,
        "portal/desk/home.html",
        {"scope": scope, "waiting": waiting, "suspensions": proposed},
    )


def _federation_staff(request) -> None:
    if not scope_of(request.user).national:
        raise PageForbidden


@require_safe
@login_required
def duplicates(request):
    _federation_staff(request)
    pairs = likely_duplicate_pairs(by=request.user)
    kept = request.GET.get("fusion", "")  # after a merge: the kept record's licence number
    return render(
        request,
        "portal/desk/duplicates.html",
        {
            "pairs": pairs[:SHOWN],
            "count": len(pairs),
            "shown": min(len(pairs), SHOWN),
            "kept": int(kept) if ascii_digits(kept) and len(kept) < 10 else None,
        },
    )


def _record(value: str | None) -> Player | None:
    if not value or not ascii_digits(value):
        return None
    return Player.objects.filter(licence_number=int(value)).first()


@require_http_methods(["GET", "POST"])
@login_required
def merge(request):
    """GET: the confirmation page (both records, what will happen); POST: the merge."""
    _federation_staff(request)
    source = request.POST if request.method == "POST" else request.GET
    kept, merged = _record(source.get("kept")), _record(source.get("merged"))
    if kept is None or merged is None or kept.pk == merged.pk:
        messages.error(request, error_message(ServiceError("", code="not_merge_pair")))
        return redirect("desk-duplicates")
    problems: list[str] = []
    if request.method == "POST":
        try:
            done = players_merge(kept=kept, merged=merged, by=request.user)
        except RuleViolation as refusal:
            problems = [problem_message(p) for p in refusal.problems]
        except ServiceError as refusal:
            problems = [error_message(refusal)]
        else:
            rows = sum(done.counts.values())
            messages.success(
                request,
                ngettext(
                    "Record %(merged)s merged into %(kept)s: %(rows)s row moved; the ranking "
                    "follows in a moment.",
                    "Record %(merged)s merged into %(kept)s: %(rows)s rows moved; the ranking "
                    "follows in a moment.",
                    rows,
                )
                % {
                    "merged": done.merged_licence_number,
                    "kept": done.kept_licence_number,
                    "rows": rows,
                },
            )
            return redirect(f"{reverse('desk-duplicates')}?fusion={done.kept_licence_number}")
    records = []
    for player in (kept, merged):
        licences = list(
            Licence.objects.filter(player=player)
            .select_related("season", "club")
            .order_by("-season__start_date")
        )
        records.append((player, licences))
    return render(
        request,
        "portal/desk/merge_confirm.html",
        {"kept": kept, "merged": merged, "records": records, "problems": problems},
        status=400 if problems else 200,
    )
