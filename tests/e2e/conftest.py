"""End-to-end tests: Debian's Chromium, headless, driven by Playwright, against the live
server on the test database (PostgreSQL).

- One browser for the whole run (``browser``); each person of a test gets a window of
  their own (``open_window``): a fresh browser context, so no cookie is shared, French
  as the browser's language, a phone (360×740) or a desktop (1280×800) viewport.
- The live server (pytest-django's ``live_server``) runs in a thread of the test
  process with its own database connections: the test data must be committed, so every
  test here runs on ``transactional_db`` (the ``live_server`` fixture asks for it).
- People sign in through the login form (``sign_in``), never ``force_login``.
- Screenshots go to ``var/e2e-artifacts/<test>/<step>.png``; a failing test leaves a
  screenshot of every window it opened (``failure-<n>.png``).
- A window records what the browser refused (a script error, a resource the server did
  not send, a Content-Security-Policy violation): a test with any fails.

Playwright drives the system Chromium (``/usr/bin/chromium``; ``.ci/run`` installs it):
``playwright install`` is never needed.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Response, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "var" / "e2e-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SIDEWAYS = """() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  const out = e => e.getBoundingClientRect().right > width + 0.5;
  return [...document.body.querySelectorAll("*")]
    .filter(e => out(e) && ![...e.children].some(out))
    .map(e => e.tagName.toLowerCase() + (e.className ? "." + e.className : "")
              + " «" + e.textContent.trim().slice(0, 40) + "»");
}"""
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
TIMEOUT_MS = 10_000  # one step (a click, a page load, an expectation), not the whole test


@pytest.fixture(scope="package")
def browser(django_db_setup) -> Iterator[Browser]:
    """Chromium, started once for the e2e tests (after the test database is made) with a
    new empty profile: Playwright gives a browser it launches a temporary user data
    directory, and deletes it after.

    Playwright's synchronous API marks an asyncio event loop as running in the test's
    thread between its calls, so Django would take every query of the test (fixtures,
    services, the database flush) for one made from async code and refuse it. The test
    code is synchronous: the check is lifted while the browser is up, and the package
    scope (this folder's ``__init__.py``) ends both with the last e2e test, so the rest
    of the suite runs as before. The live server answers in threads of its own, where
    no loop runs."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does it)")
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@dataclass
class Window:
    """One person's browser window during a test: its page, where its screenshots go,
    and what the browser refused while showing it."""

    page: Page
    name: str
    folder: Path
    refused: list[str] = field(default_factory=list)

    def shot(self, step: str) -> Path:
        """Save a screenshot of the whole page as ``<step>.png`` in the test's folder."""
        path = self.folder / f"{step}.png"
        self.page.screenshot(path=path, full_page=True)
        return path

    def sideways(self) -> list[str]:
        """What sticks out of the window's width, making the page scroll sideways (a
        phone's classic fault): the innermost such elements, e.g. ``span.badge «2e série»``;
        empty when the page fits."""
        return self.page.evaluate(SIDEWAYS)

    def watch(self) -> None:
        def console(message: ConsoleMessage) -> None:
            # A page answered with an error status (a form's 400) is logged as a failed
            # load by Chromium: the responses below judge those, not the console.
            if message.type == "error" and "Failed to load resource" not in message.text:
                self.refused.append(f"console: {message.text}")

        def response(answer: Response) -> None:
            if answer.request.resource_type != "document" and answer.status >= 400:
                self.refused.append(f"{answer.status} {answer.url}")

        self.page.on("console", console)
        self.page.on("pageerror", lambda error: self.refused.append(f"script: {error}"))
        self.page.on("response", response)


def _folder_name(node_name: str) -> str:
    return re.sub(r"[^\w.-]+", "-", node_name).strip("-")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember each phase's report on the test, for the failure screenshot."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def open_window(request, browser, live_server) -> Iterator[Callable[..., Window]]:
    """``open_window(viewport="desktop", name="window")``: a new browser window (a context
    of its own: its own cookies) on the live server, in French."""
    folder = ARTIFACTS / _folder_name(request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    windows: list[Window] = []

    def open_(viewport: str = "desktop", name: str = "window") -> Window:
        context = browser.new_context(
            base_url=live_server.url,
            viewport=VIEWPORTS[viewport],
            locale="fr-FR",
            timezone_id="Europe/Paris",
        )
        context.set_default_timeout(TIMEOUT_MS)
        window = Window(context.new_page(), name, folder)
        window.watch()
        windows.append(window)
        return window

    yield open_
    outcome = getattr(request.node, "report_call", None)
    failed = outcome is None or outcome.failed
    for number, window in enumerate(windows, start=1):
        if failed:
            window.shot(f"failure-{number}-{window.name}")
        window.page.context.close()
    refused = [f"{w.name}: {what}" for w in windows for what in w.refused]
    if refused and not failed:
        pytest.fail("the browser refused part of a page:\n" + "\n".join(refused))


@pytest.fixture
def window(request, open_window) -> Window:
    """One window; its viewport is ``desktop`` unless the test parametrises ``window``
    indirectly with ``"phone"``."""
    viewport = getattr(request, "param", "desktop")
    return open_window(viewport, viewport)


@pytest.fixture
def sign_in() -> Callable[[Window, str, str], None]:
    """``sign_in(window, username, password)``: through the site's login form, as a
    person does."""

    def sign_in_(window: Window, username: str, password: str) -> None:
        page = window.page
        page.goto("/compte/connexion/")
        page.get_by_label("Nom d’utilisateur").fill(username)
        page.get_by_label("Mot de passe").fill(password)
        page.get_by_role("button", name="Se connecter").click()
        page.wait_for_load_state()

    return sign_in_


@pytest.fixture
def scratch_dir() -> Iterator[Path]:
    """A temporary folder for the files a test uploads."""
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


# The results of a small individual tournament, as a club's secretary would type them in
# French Excel: twelve players at three tables of four, one session of two positions. Each
# table's four scores sum to zero (the taker's contract against the three defenders).
TABLES = (
    {1: ((0, 270), (1, -90), (2, -90), (3, -90)),
     2: ((4, -120), (5, 360), (6, -120), (7, -120)),
     3: ((8, 60), (9, 60), (10, 60), (11, -180))},
    {1: ((0, -30), (5, -30), (10, 90), (3, -30)),
     2: ((4, 210), (9, -70), (2, -70), (7, -70)),
     3: ((8, -150), (1, 50), (6, 50), (11, 50))},
)  # fmt: skip
DEALS_PER_POSITION = 4
# Nine players besides the registry's (tests/conftest.py), licensed at club 101; names
# Windows-1252 spells and ASCII does not (é, ç, œ, ï...). Hélène Génin wins.
MORE_PLAYERS = (
    (3101, "Bézier", "Noël"),
    (3102, "Côté", "François"),
    (3103, "Génin", "Hélène"),
    (3104, "Lœuillet", "Cécile"),
    (3105, "Bréhat", "Loïc"),
    (3106, "Périer", "Zoé"),
    (3107, "Garçon", "Jérémie"),
    (3108, "Müller", "Bénédicte"),
    (3109, "Dupré", "Gaëlle"),
)


@dataclass
class ResultsSheet:
    """A results file as rows of cells (the CSV format of docs/results-format.md), easy
    to spoil and fix in a test; ``save`` writes it as French Excel does."""

    header: list[str]
    rows: list[dict[str, str]]
    players: list[tuple[int, str]]  # (licence number, "NAME First name"), by index

    def player_row(self, licence_number: int) -> dict[str, str]:
        return next(
            row
            for row in self.rows
            if row["record"] == "player" and row["licence_number"] == str(licence_number)
        )

    def rows_of(self, licence_number: int) -> list[dict[str, str]]:
        """The player's line and their position lines."""
        return [row for row in self.rows if row.get("licence_number") == str(licence_number)]

    def line_of(self, row: dict[str, str]) -> int:
        """The spreadsheet line of ``row`` (the header is line 1)."""
        return self.rows.index(row) + 2

    def text(self) -> str:
        """Semicolons between cells, CRLF line ends."""
        lines = [";".join(self.header)]
        lines += [";".join(row.get(column, "") for column in self.header) for row in self.rows]
        return "\r\n".join([*lines, ""])

    def save(self, path: Path) -> Path:
        """As French Excel saves « CSV (séparateur : point-virgule) »: Windows-1252."""
        path.write_bytes(self.text().encode("cp1252"))
        return path


@pytest.fixture
def results_sheet(registry) -> Callable[[], ResultsSheet]:
    """``results_sheet()``: the correct results of a twelve-player tournament: three of the
    registry's players (Élise Martin 1001 among them; not 1002, the arbiter, nor 1003) and
    nine more licensed at club 101 this season. Totals and places follow from the tables."""
    from federation.models import Licence, Player

    people = [registry.players[n] for n in (1001, 2001, 2002)]
    for licence_number, last, first in MORE_PLAYERS:
        player = Player.objects.create(
            licence_number=licence_number, last_name=last, first_name=first
        )
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
        people.append(player)
    players = [(p.licence_number, f"{p.last_name.upper()} {p.first_name}") for p in people]

    def sheet() -> ResultsSheet:
        totals = [0] * len(players)
        for tables in TABLES:
            for seats in tables.values():
                for index, score in seats:
                    totals[index] += score
        ranked = sorted(range(len(players)), key=lambda i: -totals[i])
        places = {index: place for place, index in enumerate(ranked, start=1)}
        header = ["record", "session", "tables", "tables_of_three", "deals", "entry", "place",
                  "entry_total", "licence_number", "name", "player_total", "position", "table",
                  "score"]  # fmt: skip
        rows = [
            {"record": "session", "session": "1", "tables": "3", "tables_of_three": "0",
             "deals": str(DEALS_PER_POSITION * len(TABLES))}
        ]  # fmt: skip
        for index, (licence_number, name) in enumerate(players):
            entry = {"entry": str(index + 1), "licence_number": str(licence_number)}
            rows.append(
                {**entry, "record": "player", "place": str(places[index]), "name": name,
                 "entry_total": str(totals[index]), "player_total": str(totals[index])}
            )  # fmt: skip
            for position, tables in enumerate(TABLES, start=1):
                for table, seats in tables.items():
                    rows.extend(
                        {**entry, "record": "position", "session": "1",
                         "position": str(position), "table": str(table), "score": str(score)}
                        for seated, score in seats
                        if seated == index
                    )  # fmt: skip
        return ResultsSheet(header, rows, players)

    return sheet


@pytest.fixture
def submitted_open(registry, declare_tournament, results_sheet):
    """The "Open de Lyon" of club 101 (committee 1, tests/conftest.py) with the correct
    results of ``results_sheet`` sent by the club's manager through the service: waiting
    for homologation."""
    from competitions.homologation import results_submit

    tournament = declare_tournament()
    results_submit(
        tournament=tournament,
        content=results_sheet().text(),
        source="csv",
        by=registry.users["club_manager"],
    )
    return tournament


@pytest.fixture
def homologated_open(registry, submitted_open):
    """``submitted_open`` homologated by federation staff through the service; the
    ranking refresh it sends runs at once (no broker)."""
    from competitions.homologation import tournament_homologate

    return tournament_homologate(tournament=submitted_open, by=registry.users["federation_staff"])
