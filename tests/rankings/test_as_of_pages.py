"""``/classement/?au=YYYY-MM-DD``: the ranking as of a past day, French first, with a
date picker and its heading; a bad day is a 400 page saying why; a player's page plots
their place over the season (SVG and a table)."""

from __future__ import annotations

import datetime as dt

import pytest

from rankings.reads.place_plot import PlaceMark, place_plot_svg
from rankings.season.as_of import PARIS, as_of_days_compute, sample_days
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def dated(registry, federation, add_tournament):
    p = federation.players
    at = dt.datetime(2026, 9, 10, 12, tzinfo=PARIS)
    add_tournament(registry.season, {p[0]: (300, 0), p[1]: (200, 0)},
                   club=registry.clubs[101], arbiter=p[20], homologated_at=at)  # fmt: skip
    later = dt.datetime(2026, 10, 3, 9, tzinfo=PARIS)
    add_tournament(registry.season, {p[1]: (400, 0)},
                   club=registry.clubs[102], arbiter=p[20], homologated_at=later)  # fmt: skip
    full_recompute(season=registry.season)
    return federation


def test_the_ranking_as_of_a_day_has_its_heading_and_places(
    client, dated, django_assert_max_num_queries
):
    p = dated.players
    with django_assert_max_num_queries(30):  # computed on this first read: a fixed count
        response = client.get("/classement/", {"au": "2026-09-15"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Classement au 15 septembre 2026</h1>" in html
    assert 'type="date"' in html
    assert 'value="2026-09-15"' in html
    assert "tel qu’il était à la fin du 15 septembre 2026" in html
    rows = response.context["rows"]
    assert [(r["entry"].licence_number, r["entry"].place) for r in rows[:2]] == [
        (p[0].licence_number, 1),
        (p[1].licence_number, 2),
    ]
    # a later day: the second tournament counts
    later = client.get("/classement/", {"au": "2026-10-03"})
    assert later.context["rows"][0]["entry"].licence_number == p[1].licence_number
    assert "<h1>Classement au 3 octobre 2026</h1>" in later.content.decode()
    first = client.get("/classement/", {"au": "2026-10-01"})
    assert "<h1>Classement au 1er octobre 2026</h1>" in first.content.decode()
    # the next page keeps the day
    assert "au=2026-09-15" in (response.context["next_url"] or "au=2026-09-15")


def test_a_committee_page_as_of_a_day(client, dated):
    response = client.get("/classement/comite/1/", {"au": "2026-09-15"})
    assert response.status_code == 200
    assert "Classement au 15 septembre 2026" in response.content.decode()
    assert {r["entry"].committee.number for r in response.context["rows"]} == {1}


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("2026-02-30", "n’est pas une date"),
        ("hier", "n’est pas une date"),
        ("2026-06-30", "n’est pas dans la saison 2026-2027"),
        ("2099-01-01", "n’est pas dans la saison"),
    ],
)
def test_a_bad_day_is_a_400_page_saying_why(client, dated, value, says):
    response = client.get("/classement/", {"au": value})
    assert response.status_code == 400
    html = response.content.decode()
    assert says in html
    assert 'aria-invalid="true"' in html


def test_the_player_page_plots_the_place_over_the_season(client, dated, registry):
    p = dated.players
    days = sample_days(registry.season, dt.datetime.now(PARIS).date())
    as_of_days_compute(season_id=registry.season.pk, days=[d.isoformat() for d in days])
    response = client.get(f"/classement/joueur/{p[1].licence_number}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Place au fil de la saison 2026-2027" in html
    assert 'aria-labelledby="place-plot-title place-plot-desc"' in html
    marks = {m.day: m for m in response.context["place_marks"]}
    assert marks[dt.date(2026, 7, 31)].place == 1  # nobody has points: all share place 1
    assert marks[dt.date(2026, 9, 30)].place == 2
    assert marks[dt.date(2026, 10, 31)].place == 1
    assert "au=2026-09-30" in html  # each day links to the ranking as of that day


def test_the_place_plot_puts_first_place_on_top_and_escapes():
    marks = [PlaceMark(dt.date(2026, 9, 30), 1, 10), PlaceMark(dt.date(2026, 10, 31), 7, 10),
             PlaceMark(dt.date(2026, 11, 30), None, 0)]  # fmt: skip
    svg = place_plot_svg(marks, "Place de <b>", "30/09 : 1er")
    assert "&lt;b&gt;" in svg
    assert "<b>" not in svg
    assert svg.count("<circle") == 2
    assert place_plot_svg([PlaceMark(dt.date(2026, 9, 30), None, 0)], "t", "d") == ""
