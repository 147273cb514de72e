"""The championship admin: every page reads without N+1; actions go through the services."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competitions.models import RegionalRulesVersion
from federation.models import Role, RoleAssignment, User

pytestmark = pytest.mark.django_db

MODELS = [
    "championship",
    "championshiprulesversion",
    "regionalchampionship",
    "regionalrulesversion",
    "championshipstage",
    "championshipentry",
    "committeequota",
    "qualification",
    "teamflag",
    "stageseating",
    "stagepenalty",
]


@pytest.fixture
def admin_client(client):
    user = User.objects.create_superuser("root", password="x")
    RoleAssignment.objects.create(user=user, role=Role.FEDERATION_STAFF)
    client.force_login(user)
    return client


def test_every_changelist_reads_in_few_queries(
    admin_client, api, registry, as_user, finals, django_assert_max_num_queries, enter_all, players
):
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in players(6, 101)])
    for model in MODELS:
        url = reverse(f"admin:competitions_{model}_changelist")
        with django_assert_max_num_queries(14):
            response = admin_client.get(url)
        assert response.status_code == 200, model


def test_the_zone_approves_through_an_admin_action(admin_client, registry, published):
    version = RegionalRulesVersion.objects.first()
    response = admin_client.post(
        reverse("admin:competitions_regionalrulesversion_changelist"),
        {"action": "approve", "_selected_action": [version.pk]},
        follow=True,
    )
    assert response.status_code == 200
    version.refresh_from_db()
    assert version.approved_at is not None


def test_withdrawing_twice_in_the_admin_says_why_and_never_fails(
    admin_client, api, registry, as_user, finals, enter_all, players
):
    """The service's conflict (already withdrawn) is a message by the entry, not a 500."""
    from competitions.models import ChampionshipEntry

    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in players(2, 101)])
    entry = ChampionshipEntry.objects.order_by("number").first()
    url = reverse("admin:competitions_championshipentry_changelist")
    chosen = {"action": "withdraw", "_selected_action": [entry.pk]}
    first = admin_client.post(url, chosen, follow=True)
    assert [m.level_tag for m in first.context["messages"]] == ["success"]
    entry.refresh_from_db()
    assert entry.status == "withdrawn"
    again = admin_client.post(url, chosen, follow=True)
    assert again.status_code == 200
    (refusal,) = again.context["messages"]
    assert refusal.level_tag == "error"
    assert str(refusal.message) == f"{entry}: L’inscrit {entry.number} est déjà retiré."
