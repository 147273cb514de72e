"""The results samples of docs/samples belong to the demo: written from it, and each one
uploads cleanly (no problem, no warning) to the tournament the demo declared for it, then
gives points once homologated."""

from __future__ import annotations

import pytest

from competitions.homologation import results_submit, tournament_homologate
from competitions.models import Allocation, TournamentStatus
from demo.samples import (
    CSV_SAMPLE,
    DUO_SAMPLE,
    EXCEL_SAMPLE,
    INDIVIDUAL_SAMPLES,
    SAMPLES,
    sample_tournaments,
    write_samples,
)
from tests.demo.conftest import seeded_demo

pytestmark = pytest.mark.django_db
INDIVIDUAL_JSON, SHEETS = INDIVIDUAL_SAMPLES


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The default demo registry (the samples are written from it), without other
    tournaments than the demo club's own."""
    yield from seeded_demo(django_db_blocker, tournaments=0)


def read(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def test_the_samples_in_the_repository_are_those_the_demo_writes(demo, tmp_path):
    written = write_samples(target=tmp_path)
    assert sorted(p.name for p in written) == sorted(
        (*INDIVIDUAL_SAMPLES, DUO_SAMPLE, CSV_SAMPLE, EXCEL_SAMPLE)
    )
    for path in written:
        assert path.read_bytes() == read(path.name), f"{path.name}: manage.py write_demo_samples"


def test_the_excel_sample_is_the_csv_sample_as_french_excel_saves_it():
    excel = read(EXCEL_SAMPLE)
    with pytest.raises(UnicodeDecodeError):
        excel.decode("utf-8")  # accented names in Windows-1252
    text = excel.decode("cp1252")
    assert text == read(CSV_SAMPLE).decode("utf-8")
    assert text.startswith("record;")
    assert text.count("\r\n") == text.count("\n")


def test_the_individual_samples_upload_cleanly_and_give_points(demo):
    club, staff = demo.registry.users["club"].user, demo.registry.users["ccr"].user
    tournament = sample_tournaments().individual
    first = results_submit(
        tournament=tournament, content=read(INDIVIDUAL_JSON), source="json", by=club
    )
    assert first.created
    assert first.warnings == ()
    # The CSV, its Excel twin and the score sheets are the same results: nothing new.
    for content, source in (
        (read(CSV_SAMPLE), "csv"),
        (read(EXCEL_SAMPLE).decode("cp1252"), "csv"),
        (read(SHEETS), "sheets"),
    ):
        again = results_submit(tournament=tournament, content=content, source=source, by=club)
        assert (again.created, again.revision, again.warnings) == (False, first.revision, ())
    tournament_homologate(tournament=tournament, by=staff)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.HOMOLOGATED
    points = Allocation.objects.filter(tournament=tournament, current=True)
    assert points.count() == 12  # every player licensed in the season
    assert points.filter(pcn__gt=0).exists()


def test_the_duo_sample_uploads_cleanly_and_gives_points(demo):
    club, staff = demo.registry.users["club"].user, demo.registry.users["ccr"].user
    tournament = sample_tournaments().duo
    submitted = results_submit(
        tournament=tournament, content=read(DUO_SAMPLE), source="json", by=club
    )
    assert submitted.created
    assert submitted.warnings == ()
    tournament_homologate(tournament=tournament, by=staff)
    points = Allocation.objects.filter(tournament=tournament, current=True)
    assert points.count() == 12
    assert points.filter(pcn__gt=0).exists()
