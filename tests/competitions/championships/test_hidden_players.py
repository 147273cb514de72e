"""A stage's public reads (entries, seating, penalties) leave out the name and licence
number of a player who asked for anonymity (docs/privacy.md); staff read them all."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_entries_seating_and_penalties_for_the_public_and_for_staff(
    api, registry, as_user, finals, enter_all, players
):
    from federation.models import Player
    from federation.privacy import player_privacy_set

    stage = finals["individual"]
    field = players(20, 101)
    hidden = field[3]
    as_user("committee_staff")
    enter_all(api, stage, [[n] for n in field])
    as_user("arbiter")
    url = f"/api/championships/stages/{stage}/"
    late = api.post(f"{url}penalties/", {"licence_number": hidden, "lateness_seconds": 420,
                                         "reason": "Retard"}, format="json")  # fmt: skip
    assert late.status_code == 201, late.json()
    assert api.post(f"{url}seating/", {"seed": 3}, format="json").status_code == 201
    player_privacy_set(player=Player.objects.get(licence_number=hidden), hidden=True,
                       by=registry.users["federation_staff"])  # fmt: skip

    api.force_authenticate(None)  # the public
    seating = api.get(f"{url}seating/").json()
    numbers = [a["licence_number"] for a in seating["assignments"]]
    assert hidden not in numbers
    assert numbers.count(None) == 1
    assert len(numbers) == 20
    assert [p["licence_number"] for p in api.get(f"{url}penalties/").json()] == [None]
    entries = api.get(f"{url}entries/").json()
    shown = [p["licence_number"] for e in entries for p in e["players"]]
    assert hidden not in shown
    assert shown.count(None) == 1
    assert str(hidden) not in api.get(f"{url}entries/").content.decode()

    as_user("committee_staff")
    assert hidden in [a["licence_number"] for a in api.get(f"{url}seating/").json()["assignments"]]
    assert [p["licence_number"] for p in api.get(f"{url}penalties/").json()] == [hidden]
    staff_entries = api.get(f"{url}entries/").json()
    assert hidden in [p["licence_number"] for e in staff_entries for p in e["players"]]
