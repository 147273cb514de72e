"""``{% desk_name %}``: the staff desk named for the signed-in person's scope, on every
desk page: « Bureau fédéral » for federation staff, « Bureau de la zone Île-de-France »,
« Bureau du comité Paris » (several committees or zones: their names joined)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from federation.access import scope_of
from federation.models import Committee, Zone

register = template.Library()


def desk_name_of(user) -> str:
    scope = scope_of(user)
    if scope.national:
        return gettext("Federation desk")
    if scope.zone_ids:
        zones = Zone.objects.filter(pk__in=scope.zone_ids).order_by("number")
        return gettext("Desk of the zone %(names)s") % {"names": ", ".join(z.name for z in zones)}
    committees = Committee.objects.filter(pk__in=scope.committee_ids).order_by("number")
    return gettext("Desk of the committee %(names)s") % {
        "names": ", ".join(c.name for c in committees)
    }


@register.simple_tag(takes_context=True)
def desk_name(context) -> str:
    request = context.get("request")
    return desk_name_of(request.user) if request is not None else gettext("Staff desk")
