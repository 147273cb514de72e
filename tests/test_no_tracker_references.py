"""No reference to the tracker or to the work's history in code, templates, docs or the
README: a ticket's number, a stage of past work ("stop" and its number), "the issue's
example". The next engineer cannot follow them; the fact or the reason is what a text
states, and the history is ``git log``. No Django, no database.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED_FOLDERS = {".git", ".venv", "var", "node_modules", "__pycache__"}
TEXT_SUFFIXES = {
    ".py", ".md", ".html", ".txt", ".toml", ".yml", ".yaml", ".cfg", ".ini", ".sh", ".css",
    ".js", ".po", ".conf", ".example",
}  # fmt: skip
TEXT_NAMES = {"Makefile", "Dockerfile", "run"}

TRACKER = re.compile(
    r"\bissues?\s*#?\s*\d+"  # a ticket's number
    r"|\b(?:PR|pull request)\s*#?\s*\d+"
    r"|\bstops?\s+\d+"  # a stage of past work
    r"|\bearlier stops?\b"
    r"|\b(?:the|this|that) issue\b",  # "the example"
    re.IGNORECASE,
)


def text_files() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [
            d for d in subfolders if d not in SKIPPED_FOLDERS and not d.endswith(".egg-info")
        ]
        for name in files:
            path = Path(folder) / name
            if path.suffix in TEXT_SUFFIXES or name in TEXT_NAMES:
                found.append(path)
    return sorted(found)


def test_no_text_cites_the_tracker_or_the_work_history():
    here = Path(__file__).resolve()
    found = []
    for path in text_files():
        if path == here:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if match := TRACKER.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match[0]!r} in {line.strip()}")
    assert not found, (
        "state the fact or the reason instead of citing the tracker or the history:\n"
        + "\n".join(found)
    )


def test_the_pattern_tells_references_from_ordinary_words():
    for reference in ("(issue 16, item 5)", "Issue 11:", "issue #12", "Stop 22, quiet",
                      "of stop 21", "earlier stops'", "the issue's example", "PR #4"):  # fmt: skip
        assert TRACKER.search(reference), reference
    for ordinary in ("issued_on", "api_token_issue(user=…)", "à l'issue de cette position",
                     "an issue date", "it stops the worker", "non-stop"):  # fmt: skip
        assert not TRACKER.search(ordinary), ordinary
