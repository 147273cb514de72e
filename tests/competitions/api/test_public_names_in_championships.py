"""The championships' public reads name a player who objected to appearing by name
(docs/privacy.md) as the public pages do: titles and a stage's entries."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _french():
    with translation.override("fr"):
        yield


ANONYMOUS = "joueur ayant demandé l'anonymat"


def test_a_stage_entry_is_anonymous_for_the_public_and_named_for_staff(registry):
    from competitions.api.championship_serializers import EntryPlayerOut

    player = registry.players[1001]
    player.name_hidden = True
    row = SimpleNamespace(player=player)
    assert EntryPlayerOut(row).data == {"licence_number": None, "name": ANONYMOUS}
    staff = EntryPlayerOut(row, context={"private": True}).data
    assert staff == {"licence_number": 1001, "name": "Élise MARTIN"}
    player.name_hidden = False
    assert EntryPlayerOut(row).data == {"licence_number": 1001, "name": "Élise MARTIN"}


def test_a_title_is_anonymous_and_its_key_loses_the_number(registry):
    from competitions.api.championship_serializers import TitleOut

    player = registry.players[1001]
    player.name_hidden = True
    title = SimpleNamespace(player=player, key="1001-2001")
    out = TitleOut(context={"hidden_numbers": frozenset({1001})})
    assert out.get_licence_number(title) is None
    assert (out.get_last_name(title), out.get_first_name(title)) == (ANONYMOUS, "")
    assert out.get_key(title) == "2001"
    shown = TitleOut(context={"hidden_numbers": frozenset()})
    assert shown.get_key(title) == "1001-2001"
