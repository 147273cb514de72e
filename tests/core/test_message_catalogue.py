"""Every message code the project raises has French text, and every French text is well formed.

The codes are found in the source (``ast``), at every place a refusal is built:

- ``Problem(field, code, message, …)`` (``code`` second, or ``code=``);
- ``LineProblem(line, column, code, message)`` (the licence file's problems);
- ``RuleViolation.single(field, code, message, …)``;
- a ``ServiceError`` subclass's ``code = "…"`` class attribute, and the ``code=`` keyword
  of a ``ServiceError`` (or subclass) raised;
- the codes of the settings reader (:class:`core.settings_reader.Codes`: its defaults, the
  keywords of ``Codes(…)`` and the argument of ``Codes.uniform(…)``).

A code that is not a literal at its construction site is followed when it is a parameter
of the enclosing function: the literal passed by each call of that function, in the module
or in a module that imports it (``bad("minimum_age", "out_of_range", …)``,
``check.error(where, "wrong_place", …)``), is the code. What remains is listed, by hand,
in :data:`DYNAMIC`, each with the reason it needs no French text of its own: a new
dynamic site fails the test until someone reads it and lists it.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from core.messages import french_catalogue

ROOT = Path(__file__).resolve().parents[2]
AREAS = ("core", "federation", "competitions", "rankings", "portal", "config")

#: Constructors of a problem, and the positions of their ``code`` and ``params`` arguments.
PROBLEM_ARGUMENTS = {"Problem": (1, 3), "LineProblem": (2, 4)}

#: The codes that are not literals at their construction site, by (module, expression):
#: the codes each may take (checked like the others), or none when the site re-locates a
#: problem built elsewhere (its code is counted where it is built).
READ = "a Codes field: its values are scanned where Codes are built"
RELOCATED = "a problem built elsewhere, re-located: its code is counted where it is built"
WORKBOOK = "an uploaded workbook's refusal (core/text_files.py, WorkbookRefused)"
WORKBOOK_CODES = (
    "workbook_encrypted", "workbook_xls", "workbook_unreadable",
    "workbook_empty", "workbook_several_sheets", "workbook_too_large",
)  # fmt: skip
DYNAMIC: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {
    ("core/settings_reader.py", "self.codes.wrong_type"): (READ, ()),
    ("core/settings_reader.py", "self.codes.unknown_value"): (READ, ()),
    ("core/settings_reader.py", "self.codes.unknown_key"): (READ, ()),
    ("core/settings_reader.py", "self.codes.missing"): (READ, ()),
    ("core/settings_reader.py", "self.codes.duplicate"): (READ, ()),
    ("core/settings_reader.py", "self.codes.not_a_number"): (READ, ()),
    ("core/http/api_errors.py", "str(code)"): ("DRF's own codes: DRF translates its messages", ()),
    ("competitions/rules/homologation.py", "ARBITER_PLAYS_CODES[event_kind]"): (
        "the arbiter playing the kind of event they direct, one code per kind",
        (
            "arbiter_plays",
            "arbiter_plays_in_team_match",
            "arbiter_plays_in_festival",
            "arbiter_plays_in_free_tournament",
        ),
    ),
    ("federation/rules/licence_file.py", "self.code"): ("a LineProblem's code (scanned)", ()),
    ("federation/rules/licence_file.py", "decoded.code"): (WORKBOOK, WORKBOOK_CODES),
    ("competitions/rules/results/csv_format.py", "decoded.code"): (WORKBOOK, WORKBOOK_CODES),
    ("competitions/rules/championships/eligibility.py", "f'mixed_{plural}'"): (
        "a DUO pair in several committees, an interclubs team in several clubs",
        ("mixed_committees", "mixed_clubs"),
    ),
    (
        "competitions/rules/championships/stage_compliance.py",
        "f'entry_{inactive[key].status}'",
    ): (
        "an entry neither eligible nor flagged (EntryStatus)",
        ("entry_forfeit", "entry_withdrawn"),
    ),
    ("competitions/championships/calendar_checks.py", "p.code"): (RELOCATED, ()),
    ("competitions/championships/entries.py", "problem.code"): (RELOCATED, ()),
    ("competitions/dry_run.py", "p.code"): (RELOCATED, ()),
    ("competitions/day/entries.py", "p.code"): (RELOCATED, ()),
    ("competitions/rules/results/checks/entries.py", "problem.code"): (RELOCATED, ()),
    ("competitions/dry_run.py", "code"): (
        "a refusal resting on a private fact, reduced to its kind (PRIVATE_REASONS)",
        ("not_eligible_age", "not_eligible_suspension", "not_eligible_licence_date"),
    ),
    ("competitions/tournaments/declaration.py", "p.code"): (RELOCATED, ()),
    ("competitions/championships/qualification_status.py", "p.code"): (RELOCATED, ()),
    ("competitions/championships/stages.py", "p.code"): (RELOCATED, ()),
    ("competitions/rules/championships/season_calendar.py", "p.code"): (RELOCATED, ()),
    ("competitions/rules/championships/stage_plan.py", "p.code"): (RELOCATED, ()),
    ("competitions/rules/results/csv_format.py", "code"): ("the results' own reader", ()),
    ("competitions/rules/results/json_format.py", "code"): ("the results' own reader", ()),
    ("competitions/rules/results/score_sheets.py", "p.code"): (RELOCATED, ()),
    ("competitions/rules/results/score_sheets.py", "problem.code"): (RELOCATED, ()),
    ("competitions/rules/results/checks/places.py", "code"): ("the results' own checks", ()),
}


@dataclass(frozen=True)
class Site:
    path: str
    line: int
    code: str | None
    expression: str
    params: frozenset[str] | None
    """The names the site's params give (a dict literal, or none given); ``None`` when
    they are not written out there (a variable)."""


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for area in AREAS:
        for path in sorted((ROOT / area).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative:
                continue
            yield relative, ast.parse(path.read_text(encoding="utf-8"), filename=relative)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if len(call.args) > position and not any(
        isinstance(a, ast.Starred) for a in call.args[: position + 1]
    ):
        return call.args[position]
    return None


def _service_errors(modules: list[tuple[str, ast.Module]]) -> set[str]:
    """The names of ``core.errors.ServiceError`` and its subclasses, anywhere."""
    names = {"ServiceError"}
    grown = True
    while grown:
        grown = False
        for _, tree in modules:
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.ClassDef)
                    and node.name not in names
                    and any(_name(base) in names for base in node.bases)
                ):
                    names.add(node.name)
                    grown = True
    return names


class _Finder(ast.NodeVisitor):
    """The code expressions of one module's construction sites, each with the function
    it is built in (to follow a code passed in as a parameter)."""

    def __init__(self, service_errors: set[str]) -> None:
        self.service_errors = service_errors
        self.found: list[tuple[ast.expr, ast.expr | None, ast.FunctionDef | None]] = []
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        self.calls: list[ast.Call] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.functions.append(node)
        self.generic_visit(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if node.name in self.service_errors:
            for statement in node.body:
                if isinstance(statement, ast.Assign) and [_name(t) for t in statement.targets] == [
                    "code"
                ]:
                    self.found.append((statement.value, _UNKNOWN, None))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        enclosing = self.functions[-1] if self.functions else None
        code: ast.expr | None = None
        params: ast.expr | None = None
        if name in PROBLEM_ARGUMENTS:
            code_at, params_at = PROBLEM_ARGUMENTS[name]
            code = _argument(node, code_at, "code")
            params = _argument(node, params_at, "params")
        elif (
            name == "single"
            and isinstance(node.func, ast.Attribute)
            and _name(node.func.value) == "RuleViolation"
        ):
            code = _argument(node, 1, "code")
            params = _argument(node, 3, "params")
        elif name in self.service_errors:
            code = _argument(node, 99, "code")
            params = _argument(node, 99, "params")
        if code is not None:
            self.found.append((code, params, enclosing))  # type: ignore[arg-type]
        else:
            self.calls.append(node)  # a call a code may be passed through
        self.generic_visit(node)


_UNKNOWN = ast.Constant(value=...)
"""The params of a site that are not written out where the code is."""


def _parameter_position(function: ast.FunctionDef, name: str) -> int | None:
    parameters = [a.arg for a in function.args.posonlyargs + function.args.args]
    if name not in parameters:
        return None
    position = parameters.index(name)
    return position - 1 if parameters[0] in ("self", "cls") else position


@dataclass(frozen=True)
class _Scanned:
    """One module: its path, its tree and its calls that are not construction sites
    themselves (each of those is counted once, where it is)."""

    path: str
    tree: ast.Module
    calls: list[ast.Call]
    defined: frozenset[str]
    """The names of the functions (and methods) defined in the module."""


def _forwarded(
    code: ast.expr,
    params: ast.expr | None,
    function: ast.FunctionDef | None,
    scanned: list[_Scanned],
) -> list[tuple[ast.expr, ast.expr | None, _Scanned]] | None:
    """The (code, params) passed by each call of ``function`` in ``scanned`` (its module
    and the modules importing it), each with its module, when ``code`` is one of its
    parameters (and so, maybe, ``params``); ``None`` when it is not."""
    if function is None or not isinstance(code, ast.Name):
        return None
    code_at = _parameter_position(function, code.id)
    if code_at is None:
        return None
    if isinstance(params, ast.BoolOp):  # ``params or {}``
        params = params.values[0]
    params_name = params.id if isinstance(params, ast.Name) else None
    params_at = _parameter_position(function, params_name) if params_name else None
    passed = []
    for module in scanned:
        for call in module.calls:
            if _name(call.func) != function.name:
                continue
            argument = _argument(call, code_at, code.id)
            if argument is None:
                continue
            if params_at is not None and params_name is not None:
                passed.append((argument, _argument(call, params_at, params_name), module))
            else:
                passed.append((argument, params, module))
    return passed


def _importers(modules: list[tuple[str, ast.Module]]) -> dict[str, dict[str, set[str]]]:
    """Module path → the paths of the modules that import names from it (``from … import``),
    each with the names it calls them by."""
    paths = {path.removesuffix(".py").replace("/", "."): path for path, _ in modules}
    importers: dict[str, dict[str, set[str]]] = {path: {} for path, _ in modules}
    for path, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in paths:
                names = importers[paths[node.module]].setdefault(path, set())
                names.update(alias.asname or alias.name for alias in node.names)
    return importers


def _callers(
    at: _Scanned,
    function: ast.FunctionDef | None,
    importers: dict[str, set[str]],
    scanned: dict[str, _Scanned],
) -> list[_Scanned]:
    """The modules whose calls may be calls of ``function`` (defined in ``at``): ``at``, and
    each module that imports it from there, or imports its class without defining a
    function of that name itself."""
    if function is None:
        return [at]
    owner = next(
        (
            node.name
            for node in ast.walk(at.tree)
            if isinstance(node, ast.ClassDef) and any(s is function for s in node.body)
        ),
        None,
    )
    callers = [at]
    for path, names in sorted(importers.items()):
        other = scanned[path]
        if (owner is None and function.name in names) or (
            owner in names and function.name not in other.defined
        ):
            callers.append(other)
    return callers


def _param_names(params: ast.expr | None) -> frozenset[str] | None:
    if params is None:
        return frozenset()
    if isinstance(params, ast.Dict) and all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) for k in params.keys
    ):
        return frozenset(k.value for k in params.keys)  # type: ignore[union-attr]
    return None


def _codes_of_settings_reader(tree: ast.Module) -> Iterator[ast.expr]:
    """The codes a :class:`core.settings_reader.Codes` may hold."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Codes":
            for statement in node.body:
                if (
                    isinstance(statement, ast.AnnAssign)
                    and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)
                ):
                    yield statement.value
        if isinstance(node, ast.Call) and _name(node.func) == "Codes":
            yield from (kw.value for kw in node.keywords)
        if (
            isinstance(node, ast.Call)
            and _name(node.func) == "uniform"
            and isinstance(node.func, ast.Attribute)
            and _name(node.func.value) == "Codes"
        ):
            yield node.args[0]


def construction_sites() -> list[Site]:
    """Every code of every construction site, literal (``code``) or not (``None``)."""
    modules = list(_modules())
    service_errors = _service_errors(modules)
    importers = _importers(modules)
    found: dict[str, list[tuple[ast.expr, ast.expr | None, ast.FunctionDef | None]]] = {}
    scanned: dict[str, _Scanned] = {}
    for path, tree in modules:
        finder = _Finder(service_errors)
        finder.visit(tree)
        found[path] = finder.found
        defined = frozenset(
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        )
        scanned[path] = _Scanned(path, tree, finder.calls, defined)
    sites: list[Site] = []
    for path, tree in modules:
        module = scanned[path]
        pending = [(c, p, f, module) for c, p, f in found[path]] + [
            (c, _UNKNOWN, None, module) for c in _codes_of_settings_reader(tree)
        ]
        seen: set[tuple[int, int]] = set()
        while pending:
            code, params, function, at = pending.pop()
            if (id(code), id(params)) in seen:
                continue
            seen.add((id(code), id(params)))
            if isinstance(code, ast.IfExp):  # ``"a" if … else "b"``
                pending += [(code.body, params, function, at), (code.orelse, params, function, at)]
                continue
            names = None if params is _UNKNOWN else _param_names(params)
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                sites.append(Site(at.path, code.lineno, code.value, code.value, names))
                continue
            callers = _callers(at, function, importers[at.path], scanned)
            passed = _forwarded(code, params, function, callers)
            if passed is not None:
                pending.extend((c, p, _enclosing(m.tree, c), m) for c, p, m in passed)
                continue
            sites.append(Site(at.path, code.lineno, None, ast.unparse(code), names))
    return sites


def _enclosing(tree: ast.Module, node: ast.expr) -> ast.FunctionDef | None:
    """The innermost function whose body holds ``node``."""
    best: ast.FunctionDef | None = None
    for candidate in ast.walk(tree):
        if (
            isinstance(candidate, ast.FunctionDef)
            and any(child is node for child in ast.walk(candidate))
            and (best is None or candidate.lineno > best.lineno)
        ):
            best = candidate
    return best


def test_every_code_raised_has_french_text():
    catalogue = french_catalogue()
    codes = [(s.code, f"{s.path}:{s.line}") for s in construction_sites() if s.code is not None]
    codes += [(c, path) for (path, _), (_, taken) in DYNAMIC.items() for c in taken]
    missing = sorted({f"{code} ({where})" for code, where in codes if code not in catalogue})
    assert not missing, "codes without French text in core/messages/catalogue/:\n" + "\n".join(
        missing
    )


def test_every_french_text_is_of_a_code_still_raised():
    """No dead text: a code that no longer appears in the source (as a string, wherever
    it is built: a site, a reader's report, a table of codes) leaves the catalogue."""
    written = {
        node.value
        for path, tree in _modules()
        if not path.startswith("core/messages/")
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    written |= {c for _, taken in DYNAMIC.values() for c in taken}  # built by f-strings
    dead = sorted(set(french_catalogue()) - written)
    assert not dead, "French texts of codes nothing raises:\n" + "\n".join(dead)


def test_every_code_that_is_not_a_literal_is_read_and_listed():
    dynamic = {(s.path, s.expression) for s in construction_sites() if s.code is None}
    assert dynamic - DYNAMIC.keys() == set(), "list these in DYNAMIC, with their codes"
    assert DYNAMIC.keys() - dynamic == set(), "these are no longer dynamic: remove them"


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_french_text_names_only_the_params_its_sites_give():
    catalogue = french_catalogue()
    gaps = sorted(
        f"{site.code} ({site.path}:{site.line}): no {sorted(needed - site.params)}"
        for site in construction_sites()
        if site.code in catalogue and site.params is not None
        for needed in [_placeholders(catalogue[site.code])]
        if not needed <= site.params
    )
    assert not gaps, "French placeholders without a value at the site:\n" + "\n".join(gaps)


def test_the_scan_finds_the_construction_sites_it_promises():
    codes = {site.code for site in construction_sites()}
    # one of each kind of site: Problem, LineProblem, RuleViolation.single, a
    # ServiceError class attribute, a ServiceError raised with code=, a Codes field, a
    # code passed through a local helper
    for code in (
        "empty_ranking",
        "empty_file",
        "empty_ladder",
        "busy",
        "entry_not_active",
        "wrong_type",
        "unknown_setting",
        "out_of_range",
    ):
        assert code in codes, code


# --- the catalogue's texts ---------------------------------------------------------------

_NO_BREAK_BEFORE = ":;!?»"
_NO_BREAKS = "\u00a0\u202f"


def _texts() -> list[tuple[str, str]]:
    return sorted(french_catalogue().items())


def test_every_french_text_is_well_formed():
    bad: list[str] = []
    for code, text in _texts():
        try:
            fields = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
        except ValueError as error:
            bad.append(f"{code}: placeholders do not parse ({error})")
            continue
        if any(not re.fullmatch(r"[a-z_][a-z0-9_]*", name) for name in fields):
            bad.append(f"{code}: a placeholder is not a plain name: {fields}")
        if "  " in text or text != text.strip():
            bad.append(f"{code}: double or surrounding space")
        if "'" in text or '"' in text:
            bad.append(f"{code}: straight quote (use ’ and « »)")
        for index, char in enumerate(text):
            if char in _NO_BREAK_BEFORE and index > 0 and text[index - 1] not in _NO_BREAKS:
                if char == ":" and text[index - 1] == "{":  # a format spec, not punctuation
                    continue
                bad.append(f"{code}: no no-break space before {char!r}")
            if char == "«" and (index + 1 >= len(text) or text[index + 1] not in _NO_BREAKS):
                bad.append(f"{code}: no no-break space after «")
        if not text[:1].isupper() and not text.startswith(("{", "«")):
            bad.append(f"{code}: does not start with a capital")
        if not text.endswith((".", "?", "!", "»")):
            bad.append(f"{code}: does not end a sentence")
    assert not bad, "\n".join(bad)
