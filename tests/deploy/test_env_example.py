"""`.env.example` and docs/configuration.md list the same variables, both ways, and the
compose file reads no variable that neither documents. Pure: no Django, no database."""

from __future__ import annotations

import re

from tests.deploy.compose import COMPOSE_FILE, ROOT, env_example_names

CONFIGURATION = ROOT / "docs" / "configuration.md"
NAME = re.compile(r"`([A-Z][A-Z0-9_]*)`")
# ``${NAME…}`` in the compose file: a variable Compose reads from .env (``$$`` escapes one
# for the container's shell, like ``$$HOSTNAME``).
COMPOSE_VARIABLE = re.compile(r"(?<!\$)\$\{([A-Z][A-Z0-9_]*)")


def documented_names() -> set[str]:
    """The variables of docs/configuration.md: the first cell of each table's rows."""
    names = set()
    for line in CONFIGURATION.read_text(encoding="utf-8").splitlines():
        if line.startswith("|") and not line.startswith("| ---"):
            names.update(NAME.findall(line.split("|")[1]))
    return names


def test_the_documentation_reads_as_expected():
    names = documented_names()
    assert {"DATABASE_URL", "EMAIL_PORT", "REDIS_CACHE_URL", "POSTGRES_PASSWORD"} <= names
    assert not {"variable", "INFO"} & names  # headers and defaults aside


def test_every_documented_variable_is_in_env_example():
    missing = documented_names() - env_example_names()
    assert not missing, f"in docs/configuration.md, not in .env.example: {sorted(missing)}"


def test_every_env_example_variable_is_documented():
    undocumented = env_example_names() - documented_names()
    assert not undocumented, (
        f"in .env.example, not in docs/configuration.md: {sorted(undocumented)}"
    )


def test_every_variable_the_compose_file_reads_is_documented():
    read = set(COMPOSE_VARIABLE.findall(COMPOSE_FILE.read_text(encoding="utf-8")))
    assert "POSTGRES_PASSWORD" in read
    assert not read - documented_names(), sorted(read - documented_names())
