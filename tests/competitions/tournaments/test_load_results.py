"""`manage.py load_results`: past tournaments through the same services."""

import json

import pytest
from django.core.management import CommandError, call_command

from competitions.models import Allocation, ResultRevision, Tournament
from federation.models import Licence, Player
from rankings.models import PlayerSeasonTotal

TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]


def line(reference, totals, *, base=6001):
    entries = [
        {"number": i + 1, "place": 1 + sum(1 for t in totals if t > total), "total": total,
         "players": [{"licence_number": base + i, "name": f"J{i}", "total": total}]}
        for i, total in enumerate(totals)
    ]  # fmt: skip
    return json.dumps(
        {
            "declaration": {
                "name": f"Historique {reference}",
                "date": "2026-10-03",
                "venue": "Lyon",
                "format": "individual",
                "organizer_kind": "club",
                "organizer_number": 101,
                "arbiter_licence_number": 1002,
                "reference": reference,
            },
            "results": {
                "format_version": 1,
                "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
                "entries": entries,
            },
            "homologate": True,
        }
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("batch", ["1", "2", "100"])
def test_load_results_through_the_services(registry, tmp_path, capsys, batch):
    """The same final state whether each line commits on its own (``--batch 1``, the
    one-by-one path) or lines share a transaction: a line refused in a batch is rolled
    back alone, its declaration kept as when each step was its own transaction."""
    for i in range(12):
        player = Player.objects.create(licence_number=6001 + i, last_name=f"J{i}", first_name="")
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    swapped = list(TOTALS)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    path = tmp_path / "season.jsonl"
    path.write_text(
        "\n".join([line("H-1", TOTALS), line("H-2", swapped), line("H-3", TOTALS[:10])]) + "\n",
        encoding="utf-8",
    )
    with pytest.raises(CommandError, match="1 line"):  # H-3: 10 players on 3 tables
        call_command("load_results", str(path), "--as", "federation_staff", "--batch", batch)
    err = capsys.readouterr().err
    assert err.startswith("line 3:")
    assert Tournament.objects.filter(status="homologated").count() == 2
    assert Allocation.objects.filter(current=True).count() == 24
    # The ranking update ran once at the end, for every affected player.
    assert PlayerSeasonTotal.objects.get(player__licence_number=6001).pcn == 120 + 82
    assert not ResultRevision.objects.filter(tournament__reference="H-3").exists()
    assert Tournament.objects.get(reference="H-3").status == "declared"
    firsts = Allocation.objects.filter(current=True, player__licence_number__in=(6001, 6002))
    assert sorted(
        firsts.values_list("tournament__reference", "player__licence_number", "place", "pcn")
    ) == [("H-1", 6001, 1, 120), ("H-1", 6002, 2, 82), ("H-2", 6001, 2, 82), ("H-2", 6002, 1, 120)]

    path.write_text(line("H-1", TOTALS) + "\n" + line("H-2", swapped) + "\n", encoding="utf-8")
    call_command("load_results", str(path), "--as", "federation_staff", "--quiet", "--batch", batch)
    assert "unchanged 2" in capsys.readouterr().out
    assert ResultRevision.objects.count() == 2
