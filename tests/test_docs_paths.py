"""Every repository path, every ``path.py::name`` and every dotted Python name that
README.md, benchmarks/README.md and docs/*.md cite exists, so that a module moved or
renamed without its docs fails the suite. Pure: no Django, no database.

What counts as a citation (pragmatic):

- a markdown link's target, read relative to the page that holds it;
- a word, in backticks or in the prose, that looks like a relative path whose first
  folder is one of the repository's top-level folders (``rankings/season/live_store.py``,
  ``tests/e2e/``, ``core/fonts/LICENSE``), or the bare name of a file at the root
  (``Makefile``, ``pyproject.toml``); a migration may be cited by its app and number
  (``federation/0007_player_merge``);
- in backticks only, the tail of a path (``engine/penalties.py``, ``desk_reads.py``,
  ``pages.py::club_tournament``): some file of the repository must end with it;
- in backticks only, a dotted name from an app (``core.http.http_cache.public_read``): its
  module must exist and define the name, or it is an app's model (``federation.Season``)
  or a string the code names (a Celery task's name).

Skipped: addresses (``/api/…``, ``http://…``), placeholders (``<app>``, ``…``, ``{id}``,
``*``) and the runtime folder ``var/``. After ``::`` comes a name that the file must
define at its top level (a function, a class or an assignment), or ``Class.attribute``
for one defined in that class's body.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The top-level folders a citation may start with: the apps and folders the layout names,
# and whatever else the repository holds now (so a folder removed is still recognised).
KNOWN_FOLDERS = {
    ".ci",
    "benchmarks",
    "competitions",
    "config",
    "core",
    "demo",
    "docker",
    "docs",
    "federation",
    "locale",
    "portal",
    "rankings",
    "templates",
    "tests",
}
NOT_CITED = {"var", ".venv", ".git", "node_modules", "__pycache__"}
# Files at the root a text may cite by their bare name.
ROOT_FILE = re.compile(
    r"README\.md|Makefile|Dockerfile|manage\.py|pyproject\.toml|docker-compose\.yml|\.env\.example"
)
# A migration cited by its app and number (``federation/0007_player_merge``).
MIGRATION = re.compile(r"(?P<app>[a-z_]+)/(?:migrations/)?(?P<number>\d{4})(?P<rest>_\w+)?")

# A path-like word: segments of letters, digits, ``._-``, separated by ``/``, optionally
# followed by ``::name`` (dots allowed in the name for ``Class.method``); a ``:line``
# after it is left out of the match.
WORD = re.compile(
    r"(?<![\w/.:@~$-])"  # not the tail of a longer path, address or variable
    r"(?P<path>\.?[A-Za-z_][\w.-]*(?:/[\w.-]+)*/?)"
    r"(?P<name>::[A-Za-z_][\w.]*)?"
)
BACKTICKS = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
SOURCE_FILE = re.compile(r"[\w.-]+\.(?:py|html|md|txt|csv|json|jsonl|toml|yml|pdf|ttf)")
PLACEHOLDER = re.compile(r"[<>…*{}]|\.\.\.")


@dataclass(frozen=True)
class Citation:
    page: Path
    line: int
    text: str
    path: str  # relative to the repository's root, or its tail when ``partial``
    name: str | None
    partial: bool = False  # ``engine/penalties.py``, ``pages.py::my_tournaments``

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}: `{self.text}`"


def pages() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "benchmarks" / "README.md"]
    found += sorted((ROOT / "docs").glob("*.md"))
    return [p for p in found if p.exists()]


def top_level_folders() -> set[str]:
    present = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.endswith(".egg-info")}
    return (present | KNOWN_FOLDERS) - NOT_CITED


@functools.cache
def repository_files() -> tuple[str, ...]:
    """Every file of the repository (outside the runtime and tool folders), as a path
    relative to the root with a leading ``/`` so that a tail matches ``endswith``."""
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [
            d for d in subfolders if d not in NOT_CITED and not d.endswith(".egg-info")
        ]
        relative = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if relative == "." else f"/{relative}"
        found += [f"{prefix}/{name}" for name in files]
    return tuple(found)


def _candidate(raw: str, folders: set[str], *, quoted: bool) -> Citation | None:
    """The citation ``raw`` makes (page and line left empty), or None if it is no path.
    A quoted (backticked) tail of a path with a file's extension is a partial citation."""
    match = WORD.fullmatch(raw)
    if match is None:
        return None
    path = match["path"].rstrip(".")  # the end of a sentence
    name = match["name"][2:] if match["name"] else None
    if not path or path.startswith("./"):
        return None
    first, slash, _ = path.partition("/")
    if (slash and first in folders) or ROOT_FILE.fullmatch(path):
        return Citation(ROOT, 0, raw, path, name)
    if (
        quoted
        and SOURCE_FILE.fullmatch(path.rsplit("/", 1)[-1])
        and (slash or name or path.endswith((".py", ".html")))
    ):
        return Citation(ROOT, 0, raw, path, name, partial=True)
    return None


def _words(text: str, *, quoted: bool = False) -> list[str]:
    """The path-like words of a token: with a slash, a ``::``, a root file's name, or
    (backticked) a Python file's or a template's name."""
    return [
        m[0]
        for m in WORD.finditer(text)
        if "/" in m[0]
        or "::" in m[0]
        or ROOT_FILE.fullmatch(m[0])
        or (quoted and m[0].endswith((".py", ".html")))
    ]


def _link_target(raw: str, page: Path) -> str | None:
    """A link's target relative to the repository's root (``scaling.md`` in docs/ is
    ``docs/scaling.md``); None for an address or a target outside the repository."""
    raw = raw.split("#", 1)[0].split("?", 1)[0]
    if not raw or "://" in raw or raw.startswith(("/", "mailto:")):
        return None
    try:
        path = (page.parent / raw).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    return path + "/" if raw.endswith("/") else path


def _usable(token: str) -> bool:
    return not PLACEHOLDER.search(token) and "://" not in token


def citations(page: Path, folders: set[str], text: str | None = None) -> list[Citation]:
    """The citations of a page (of ``text`` as if it were that page's, when given)."""
    if text is None:
        text = page.read_text(encoding="utf-8")
    found: list[Citation] = []
    for number, line in enumerate(text.splitlines(), start=1):
        # link targets, then each path-like word of a backticked span, then of the prose
        # outside backticks (a token with a placeholder is skipped whole)
        raws = [(t, False) for raw in LINK.findall(line) if (t := _link_target(raw, page))]
        prose = LINK.sub("]", line)
        for span in BACKTICKS.findall(prose):
            for token in filter(_usable, span.split()):
                raws += [(w, True) for w in _words(token.strip("(),;[]"), quoted=True)]
        for token in filter(_usable, BACKTICKS.sub(" ", prose).split()):
            raws += [(w, False) for w in _words(token)]
        seen = set()
        for raw, quoted in raws:
            candidate = _candidate(raw, folders, quoted=quoted)
            if candidate is not None and raw not in seen:
                seen.add(raw)
                found.append(replace(candidate, page=page, line=number))
    return found


@functools.cache
def _defined(file: Path) -> dict[str, set[str]]:
    """Top-level names of a Python file, each with the names its class body defines."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    names: dict[str, set[str]] = {}

    def targets(node: ast.stmt) -> list[str]:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return [node.name]
        if isinstance(node, ast.Assign):
            return [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        if isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            return [node.target.id]
        return []

    def walk(body: list[ast.stmt]) -> list[ast.stmt]:
        """Statements of a body, including those under ``if``/``try`` (``TYPE_CHECKING``)."""
        out: list[ast.stmt] = []
        for node in body:
            if isinstance(node, ast.If | ast.Try):
                out += walk(node.body) + walk(node.orelse)
                for handler in getattr(node, "handlers", []):
                    out += walk(handler.body)
            else:
                out.append(node)
        return out

    for node in walk(tree.body):
        inner = set()
        if isinstance(node, ast.ClassDef):
            inner = {name for child in walk(node.body) for name in targets(child)}
        for name in targets(node):
            names.setdefault(name, set()).update(inner)
    return names


def problem(citation: Citation) -> str | None:
    if migration := MIGRATION.fullmatch(citation.path):
        folder = ROOT / migration["app"] / "migrations"
        wanted = migration["number"] + (migration["rest"] or "")
        names = [p.stem for p in folder.glob(f"{migration['number']}_*.py")]
        ok = wanted in names if migration["rest"] else bool(names)
        return None if ok else "no such migration"
    if citation.partial:
        tail = "/" + citation.path
        files = [ROOT / f[1:] for f in repository_files() if f.endswith(tail)]
        if not files:
            return "no file of the repository ends with this path"
    else:
        target = ROOT / citation.path
        if not target.exists():
            return "no such path"
        if citation.path.endswith("/") and not target.is_dir():
            return "not a folder"
        files = [target]
    if citation.name is None:
        return None
    why = "a name cited in a file that is not Python"
    for file in files:
        if file.suffix != ".py" or not file.is_file():
            continue
        defined = _defined(file)
        outer, _, inner = citation.name.partition(".")
        if outer not in defined:
            why = f"{outer} is not defined there"
        elif inner and inner.split(".")[0] not in defined[outer]:
            why = f"{inner} is not defined in {outer}"
        else:
            return None
    return why


# A dotted Python name in backticks: ``core.http.http_cache.public_read``, ``federation.Season``.
DOTTED = re.compile(r"[a-z_]+(?:\.[A-Za-z_]\w*)+")
APPS = ("config", "core", "federation", "competitions", "rankings", "portal", "demo")


@functools.cache
def _imported(file: Path) -> frozenset[str]:
    """Names a Python file imports at its top level (a package's re-exports)."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return frozenset(
        (alias.asname or alias.name).split(".")[0]
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    )


@functools.cache
def _apps_source() -> str:
    """The text of every Python file of the apps (to find a task's name as a string)."""
    return "\n".join(
        file.read_text(encoding="utf-8") for app in APPS for file in (ROOT / app).rglob("*.py")
    )


def _named_as_string(dotted: str) -> bool:
    source = _apps_source()
    return f'"{dotted}"' in source or f"'{dotted}'" in source


def _module_file(parts: list[str]) -> Path | None:
    folder = ROOT.joinpath(*parts)
    if (folder / "__init__.py").is_file():
        return folder / "__init__.py"
    if folder.is_dir():
        return folder  # a namespace folder: it defines nothing itself
    file = folder.with_suffix(".py")
    return file if file.is_file() else None


def dotted_problem(dotted: str) -> str | None:
    """Why the dotted name does not resolve, or None. It resolves when its longest module
    prefix exists and defines (or imports) the next name, then ``Class.attribute``; or when
    it is an app's model (``federation.Season``); or when it is a string the code names
    (a Celery task's name, ``rankings.refresh_season_totals``)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = _module_file(parts[:cut])
        if module is not None:
            break
    else:
        return "no such module"
    rest = parts[cut:]
    if not rest:
        return None
    if module.suffix == ".py":
        defined = _defined(module)
        if rest[0] in defined:
            if len(rest) == 1 or rest[1] in defined[rest[0]]:
                return None
        elif rest[0] in _imported(module) and len(rest) == 1:
            return None
    if cut == 1 and len(rest) == 1:
        models = ROOT / parts[0] / "models"
        files = [models.with_suffix(".py"), *sorted(models.glob("*.py"))]
        if any(f.is_file() and rest[0] in _defined(f) for f in files):
            return None
    if _named_as_string(dotted):
        return None
    return f"{'.'.join(rest)} is not defined in {'.'.join(parts[:cut])}"


def dotted_citations() -> list[tuple[Path, int, str]]:
    found = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            for span in BACKTICKS.findall(line):
                name = span.strip().removesuffix("()")
                if DOTTED.fullmatch(name) and name.split(".")[0] in APPS:
                    found.append((page, number, name))
    return found


def all_citations() -> list[Citation]:
    folders = top_level_folders()
    return [c for page in pages() for c in citations(page, folders)]


def test_every_cited_path_and_name_exists():
    dead = [f"{c.where()}: {why}" for c in all_citations() if (why := problem(c))]
    assert not dead, "dead citations in the docs:\n" + "\n".join(dead)


def test_every_cited_python_name_exists():
    dead = [
        f"{page.relative_to(ROOT)}:{line}: `{name}`: {why}"
        for page, line, name in dotted_citations()
        if (why := dotted_problem(name))
    ]
    assert not dead, "dead Python names in the docs:\n" + "\n".join(dead)


def test_the_check_reads_the_citations_it_should():
    """The extraction itself: what it takes and what it leaves."""
    folders = top_level_folders()
    readme = ROOT / "README.md"
    taken = {c.text for c in all_citations() if c.page == readme}
    assert {"docs/architecture.md", "core/fonts/LICENSE", "tests/e2e/"} <= taken
    page = ROOT / "docs" / "example.md"  # never written: citations() only reads its text

    def read(text: str) -> set[tuple[str, str | None]]:
        return {(c.path, c.name) for c in citations(page, folders, text)}

    assert read("see `core/tasks.py::Outbox.send` and [scaling](scaling.md)") == {
        ("core/tasks.py", "Outbox.send"),
        ("docs/scaling.md", None),
    }
    assert read("`/api/pcn/ranking/`, http://127.0.0.1:8000/classement/, `var/db.sqlite3`") == set()
    assert read("`<app>/rules/`, `calendrier/club/<n>.ics`, `tests/…`, `*/rules/**`") == set()
    assert read("run benchmarks/topology.py (docs/privacy.md, « Search »).") == {
        ("benchmarks/topology.py", None),
        ("docs/privacy.md", None),
    }


def test_the_check_reports_what_is_dead():
    def why(text: str, *, partial: bool = False) -> str | None:
        path, _, name = text.partition("::")
        return problem(Citation(ROOT, 1, text, path, name or None, partial))

    assert why("core/tasks.py") is None
    assert why("core/no_such_module.py") == "no such path"
    assert why("core/tasks.py::no_such_function") == "no_such_function is not defined there"
    assert why("tests/test_docs_paths.py::Citation.where") is None
    assert why("tests/test_docs_paths.py::Citation.nowhere") == "nowhere is not defined in Citation"
    assert why("federation/0007_player_merge") is None
    assert why("federation/0007_player_merged") == "no such migration"
    assert why("engine/scoring.py", partial=True) is None
    assert why("rules/no_such_rule.py", partial=True) is not None
    assert dotted_problem("core.problems.Problem") is None
    assert dotted_problem("federation.Season") is None
    assert dotted_problem("core.problems.NoSuchProblem") is not None
