"""No Python module of the project is over 1,000 lines (tests, benchmarks and migrations
included): a module that grows past one idea is split into modules named for their ideas."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1_000
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
