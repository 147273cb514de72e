"""No Python module of the project is over 1,000 lines (tests, benchmarks and migrations
included): a module that grows past one idea is split into modules named for their ideas.
No package of the application holds more than 25 modules side by side (modules and
sub-packages, migrations apart): past that, it wants an inside, grouped by idea."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1_000
SIDE_BY_SIDE = 25
APPS = ("config", "core", "federation", "competitions", "rankings", "portal", "demo")
SKIPPED = {".venv", ".git", "node_modules", "staticfiles", "var"}


def _modules() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED.intersection(path.relative_to(ROOT).parts)
        and not any(part.endswith(".egg-info") for part in path.parts)
    ]


def test_no_module_is_over_1000_lines():
    long = sorted(
        f"{path.relative_to(ROOT).as_posix()}: {lines} lines"
        for path in _modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    )
    assert not long, f"split by idea (at most {LIMIT} lines a module):\n" + "\n".join(long)


def test_the_scan_sees_the_project():
    paths = {path.relative_to(ROOT).as_posix() for path in _modules()}
    assert "competitions/rules/results/validation.py" in paths
    assert "tests/core/test_module_size.py" in paths
    assert not any(path.startswith(".venv/") for path in paths)


def side_by_side(package: Path) -> int:
    """The modules and sub-packages directly in ``package`` (``__init__`` and migrations apart)."""
    return sum(
        1
        for child in package.iterdir()
        if (child.suffix == ".py" and child.name != "__init__.py")
        or (child.is_dir() and child.name != "migrations" and (child / "__init__.py").is_file())
    )


def test_no_package_holds_more_than_25_modules():
    crowded = sorted(
        f"{package.relative_to(ROOT).as_posix()}: {count}"
        for app in APPS
        for package in [ROOT / app, *(ROOT / app).rglob("*")]
        if package.is_dir()
        and (package / "__init__.py").is_file()
        and (count := side_by_side(package)) > SIDE_BY_SIDE
    )
    assert not crowded, f"at most {SIDE_BY_SIDE} modules side by side:\n" + "\n".join(crowded)


def test_the_count_sees_modules_and_packages(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "__init__.py").write_text("")
    (tmp_path / "migrations").mkdir()
    (tmp_path / "migrations" / "__init__.py").write_text("")
    (tmp_path / "static").mkdir()
    for name in ("__init__.py", "a.py", "b.py", "notes.md"):
        (tmp_path / name).write_text("")
    assert side_by_side(tmp_path) == 3
