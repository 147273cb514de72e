"""No import cycle among the project's own modules.

An import moved into a function body still is an import: it only hides the cycle from
Python's start-up (and from readers). So the graph counts module-level and
function-level imports alike; only imports under ``if TYPE_CHECKING:`` are left out
(they never run). ``from x import y`` where ``x.y`` is a module is an import of ``x.y``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_DIRS = {"tests", "node_modules", "var", "docs", "templates", "locale"}


def _project_modules(root: Path) -> dict[str, Path]:
    """Every module of the project's own packages (top-level directories with an
    ``__init__.py``), by dotted name."""
    modules: dict[str, Path] = {}
    for package in sorted(root.iterdir()):
        if package.name.startswith(".") or package.name in SKIPPED_DIRS:
            continue
        if not (package / "__init__.py").is_file():
            continue
        for path in package.rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: at module level or in any function."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from (n for child in node.orelse for n in _imports_in(child))
            continue
        yield from _imports_in(node)


def _imports_in(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from _imports(node)


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The project module ``name`` refers to (its longest known prefix), if any."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """For each project module, the project modules it imports."""
    modules = _project_modules(root)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    package = name if is_package else name.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        package = package.rpartition(".")[0]
                    base = f"{package}.{base}" if base else package
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in targets:
                known = _known(target, modules)
                if known is not None and known != name:
                    graph[name].add(known)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_project_has_no_import_cycle():
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_a_function_level_import_makes_a_cycle(tmp_path):
    """The check sees through lazy imports and ``from package import module``."""
    package = tmp_path / "app"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "services.py").write_text("def send():\n    from app import tasks\n")
    (package / "tasks.py").write_text("from app.services import send\n")
    (package / "other.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app import tasks\n"
    )
    graph = import_graph(tmp_path)
    assert graph["app.services"] == {"app.tasks"}
    assert graph["app.other"] == set()
    assert cycles(graph) == [["app.services", "app.tasks"]]


# The layers, lowest first. A domain module (anything but the web modules below) may
# import its own group and the groups of its layer or a lower one, never a higher one;
# together with the cycle check between groups, the dependencies point one way. A group
# is an app's first-level sub-package or module (``rankings.season``, ``competitions.rules``).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("federation",),
    ("competitions.rules",),
    ("competitions.models",),
    ("competitions.rulebooks", "competitions.tournaments", "competitions.public"),
    ("rankings",),
    (
        "competitions.championships",
        "competitions.homologation",
        "competitions.dry_run",
        "competitions.tasks",
        "competitions.apps",
    ),
    ("competitions.day",),
    ("portal",),
    ("config", "demo"),
)

# Web modules: an app's HTTP and admin faces (and its commands) may use their own app and
# anything below it; they are left out of the layering of domain modules.
WEB_PARTS = {"api", "admin", "urls", "pages", "forms", "templatetags", "management"}


def is_web(module: str) -> bool:
    parts = module.split(".")[1:]
    return any(p in WEB_PARTS or p.endswith(("_pages", "_forms", "_urls")) for p in parts)


def group_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def layer_of(module: str) -> int:
    """The index of the layer of ``module``: its longest matching prefix in LAYERS."""
    best, found = -1, None
    for index, layer in enumerate(LAYERS):
        for prefix in layer:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    if found is None:
        raise AssertionError(f"{module} belongs to no layer: add its group to LAYERS")
    return found


def external_imports(root: Path = ROOT) -> dict[str, set[str]]:
    """For each project module, the top-level names of what it imports from outside."""
    modules = _project_modules(root)
    found: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names: set[str] = set()
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif not node.level and node.module:
                names.add(node.module)
        found[name] = names
    return found


def _domain(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    return {
        module: {t for t in targets if not is_web(t)}
        for module, targets in graph.items()
        if not is_web(module) and not module.startswith(("tests", "benchmarks"))
    }


def test_every_domain_import_points_down():
    graph = _domain(import_graph())
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if group_of(module) != group_of(target) and layer_of(target) > layer_of(module)
    )
    assert not upward, "imports of a higher layer:\n" + "\n".join(upward)


def test_no_cycle_between_groups():
    groups: dict[str, set[str]] = {}
    for module, targets in _domain(import_graph()).items():
        groups.setdefault(group_of(module), set()).update(
            group_of(t) for t in targets if group_of(t) != group_of(module)
        )
    found = cycles(groups)
    assert not found, "cycles between groups:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_core_imports_no_app():
    graph = import_graph()
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith("core.") or module == "core"
        for target in targets
        if not target.startswith("core")
    )
    assert not wrong, "core imports an app:\n" + "\n".join(wrong)


def drf_or_api_imports(root: Path = ROOT) -> list[str]:
    """Domain modules importing DRF, an ``api`` or other web module, or the API's glue."""
    graph = import_graph(root)
    wrong = []
    for module, names in sorted(external_imports(root).items()):
        if is_web(module) or module.startswith(("config", "demo")) or module in _HTTP_GLUE:
            continue
        wrong += [f"{module} -> {n}" for n in sorted(names) if n.split(".")[0] == "rest_framework"]
        wrong += [f"{module} -> {t}" for t in sorted(graph[module]) if is_web(t) or t in _HTTP_GLUE]
    return wrong


def test_domain_modules_import_no_drf_and_no_api():
    wrong = drf_or_api_imports()
    assert not wrong, "domain modules importing DRF or the API:\n" + "\n".join(wrong)


# core's modules that are the API's own machinery (the error mapping, the JSON parser, the
# schema hooks, the throttles, the read cache): HTTP glue, used by the web modules only.
_HTTP_GLUE = {"core.http.api_errors", "core.http.api_schema", "core.http.parsers",
              "core.http.throttles", "core.http.http_cache"}  # fmt: skip


def test_the_layer_checks_see_an_upward_import(tmp_path):
    for app, files in {
        "core": {"__init__.py": "", "tasks.py": "from federation import models\n"},
        "federation": {"__init__.py": "", "models.py": "", "api.py": "import core.tasks\n"},
    }.items():
        (tmp_path / app).mkdir()
        for name, text in files.items():
            (tmp_path / app / name).write_text(text)
    graph = _domain(import_graph(tmp_path))
    assert graph == {
        "core": set(),
        "core.tasks": {"federation.models"},
        "federation": set(),
        "federation.models": set(),
    }
    assert layer_of("core.tasks") < layer_of("federation.models")


def test_the_drf_check_sees_a_service_importing_the_api(tmp_path):
    (tmp_path / "federation" / "api").mkdir(parents=True)
    for name, text in {
        "__init__.py": "",
        "services.py": "from rest_framework import serializers\nfrom federation.api import views\n",
        "api/__init__.py": "",
        "api/views.py": "from rest_framework import views\nfrom federation import services\n",
    }.items():
        (tmp_path / "federation" / name).write_text(text)
    assert drf_or_api_imports(tmp_path) == [
        "federation.services -> rest_framework",
        "federation.services -> federation.api.views",
    ]
