"""The championships desk on the seeded demo: each page's status, queries and time, for
the demo's federation (``admin``), zone (``zone``) and committee (``ccr``) staff.

    DATABASE_URL=… DJANGO_DEBUG=1 .venv/bin/python manage.py seed_demo --reset
    DATABASE_URL=… DJANGO_DEBUG=1 .venv/bin/python benchmarks/desk_championships.py

Reads only (GET): nothing is written. Figures only, nothing asserted (the query bounds
are asserted by tests/competitions/championships/test_desk.py on a small registry).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from competitions.models import Championship, ChampionshipStage  # noqa: E402
from federation.models import User  # noqa: E402
from federation.selectors import current_season  # noqa: E402


def main() -> None:
    season = current_season()
    duo = Championship.objects.get(season=season, kind="duo")
    final = ChampionshipStage.objects.get(championship=duo, kind="regional_final")
    regional = final.regional
    pages = [
        ("season", f"/bureau/championnats/?season={season.name}"),
        ("championship", f"/bureau/championnats/{duo.pk}/"),
        ("rules", f"/bureau/championnats/regionaux/{regional.pk}/reglement/"),
        ("stage", f"/bureau/championnats/stades/{final.pk}/"),
        ("qualification", f"/bureau/championnats/{duo.pk}/qualification/"),
        ("results.xlsx", f"/bureau/championnats/stades/{final.pk}/resultats.xlsx"),
        ("qualified.pdf", f"/bureau/championnats/stades/{final.pk}/qualifies.pdf"),
    ]
    print(f"{'user':6} {'page':14} {'status':>6} {'queries':>7} {'ms':>7}")
    for username in ("admin", "zone", "ccr"):
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(User.objects.get(username=username))
        for name, url in pages:
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = client.get(url)
                elapsed = (time.perf_counter() - start) * 1000
            print(
                f"{username:6} {name:14} {response.status_code:>6} "
                f"{len(queries.captured_queries):>7} {elapsed:>7.0f}"
            )


if __name__ == "__main__":
    main()
