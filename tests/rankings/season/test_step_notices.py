"""The players who chose it are e-mailed when the official ranking changes their step:
against the step held during the season at the first publication, against the replaced
official ranking when it is published again; previous and new steps named in French."""

from __future__ import annotations

import pytest
from django.core import mail

from federation.models import NotificationSent, NotificationSubscription, User
from rankings.models import RankingEntry
from rankings.season import step_notices
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.ranking import ladder_labels

pytestmark = pytest.mark.django_db

KIND = "step_changed"
NBSP = "\u00a0"


@pytest.fixture
def subscribers(federation):
    """Accounts of the first four players, subscribed but the fourth; with addresses."""
    made = []
    for i, player in enumerate(federation.players[:4]):
        user = User.objects.filter(player=player).first() or User.objects.create_user(
            f"j{player.licence_number}", player=player
        )
        user.email = f"{player.licence_number}@joueurs.example"
        user.save()
        NotificationSubscription.objects.create(user=user, kind=KIND, enabled=i != 3)
        made.append(user)
    return made


def _results(p, first, second):
    """A tournament of the previous season: ``first`` and ``second`` far ahead of ten others."""
    points = {first: (1000, 0), second: (900, 0)}
    for i, player in enumerate(x for x in p[5:] if x not in points):
        if i < 10:
            points[player] = (10 + i, 0)
    return points


def _step_mail():
    return [m for m in mail.outbox if "votre palier" in m.subject]


def test_the_first_publication_tells_the_subscribers_whose_step_changed(
    federation, registry, add_tournament, subscribers, django_capture_on_commit_callbacks
):
    p = federation.players
    add_tournament(registry.previous, _results(p, p[3], p[0]),
                   club=registry.clubs[101], arbiter=p[4])  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        snapshot = official_ranking_publish(season=registry.previous)
    entries = {e.player_id: e for e in RankingEntry.objects.filter(snapshot=snapshot)}
    changed = {pid for pid, e in entries.items() if e.step != e.season_step}
    assert p[0].pk in changed  # the premise: the winner moved up
    assert p[3].pk in changed  # … and so did the unsubscribed one
    expected = sorted(
        f"{player.licence_number}@joueurs.example" for player in p[:3] if player.pk in changed
    )
    sent = _step_mail()
    assert sorted(m.to[0] for m in sent) == expected
    labels = ladder_labels(snapshot.policy)
    mine = next(m for m in sent if m.to == [f"{p[0].licence_number}@joueurs.example"])
    entry = entries[p[0].pk]
    before, after = labels[entry.season_step][0], labels[entry.step][0]
    assert mine.subject == (
        f"Classement officiel {registry.previous.name}{NBSP}: votre palier est désormais "
        f"«{NBSP}{after}{NBSP}»"
    )
    assert f"avant{NBSP}: {before}" in mine.body
    assert f"désormais{NBSP}: {after}" in mine.body
    assert f"/joueur/{p[0].licence_number}/" in mine.body
    assert mine.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_publishing_again_tells_only_those_whose_step_changed_since(
    federation, registry, add_tournament, subscribers, django_capture_on_commit_callbacks
):
    p = federation.players
    add_tournament(
        registry.previous, _results(p, p[0], p[3]), club=registry.clubs[101], arbiter=p[4]
    )
    with django_capture_on_commit_callbacks(execute=True):
        first = official_ranking_publish(season=registry.previous)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        official_ranking_publish(season=registry.previous)  # nothing changed
    assert _step_mail() == []
    add_tournament(registry.previous, {p[1]: (1950, 0)}, club=registry.clubs[101], arbiter=p[4])
    with django_capture_on_commit_callbacks(execute=True):
        second = official_ranking_publish(season=registry.previous)
    steps_before = dict(
        RankingEntry.objects.filter(snapshot=first).values_list("player_id", "step")
    )
    moved = [
        e.player
        for e in RankingEntry.objects.filter(snapshot=second, player__in=p[:3]).select_related(
            "player"
        )
        if e.step != steps_before[e.player_id]
    ]
    assert p[1] in moved  # the premise: the new winner moved
    assert sorted(m.to[0] for m in _step_mail()) == sorted(
        f"{player.licence_number}@joueurs.example" for player in moved
    )


def test_a_task_run_again_sends_nothing_twice(
    federation, registry, add_tournament, subscribers, django_capture_on_commit_callbacks
):
    p = federation.players
    add_tournament(
        registry.previous, _results(p, p[0], p[3]), club=registry.clubs[101], arbiter=p[4]
    )
    with django_capture_on_commit_callbacks(execute=True):
        snapshot = official_ranking_publish(season=registry.previous)
    count = len(_step_mail())
    assert count >= 1
    with django_capture_on_commit_callbacks(execute=True):
        assert step_notices.step_notices_plan(snapshot_id=snapshot.pk, previous_id=None) == count
    assert len(_step_mail()) == count
    assert NotificationSent.objects.filter(subject_key=f"snapshot:{snapshot.pk}").count() == count


def test_the_recipients_query_is_one_query_for_many_players(
    federation, registry, add_tournament, subscribers, django_assert_max_num_queries
):
    p = federation.players
    add_tournament(
        registry.previous, _results(p, p[0], p[3]), club=registry.clubs[101], arbiter=p[4]
    )
    snapshot = official_ranking_publish(season=registry.previous)
    with django_assert_max_num_queries(1):
        step_notices_ids = list(
            step_notices._changed(snapshot.pk, None).values_list("player__user__id", flat=True)
        )
    assert step_notices_ids
