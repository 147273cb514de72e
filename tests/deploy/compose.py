"""docker-compose.yml read as Docker Compose reads it, for the tests that run it natively.

No Docker engine here: the production smoke test starts each service as a process, with
the command and the environment Compose would give its container. This module reads the
file (PyYAML, anchors and merge keys included), the ``env_file`` and Compose's
``${VAR}`` interpolation, and says where a service's host name points on this machine.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / ".env.example"
# What the Dockerfile's ENV gives every application container.
IMAGE_ENV = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}

# ``$$``, ``$NAME``, ``${NAME}``, ``${NAME:-default}``, ``${NAME-default}``,
# ``${NAME:?error}``, ``${NAME?error}``: Compose's interpolation.
_VARIABLE = re.compile(
    r"\$(?:(?P<escaped>\$)|(?P<bare>[A-Za-z_][A-Za-z0-9_]*)"
    r"|\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\})"
)
# A line of .env.example that sets a variable, or shows it commented out.
ENV_LINE = re.compile(r"^(?P<comment>#\s*)?(?P<name>[A-Z][A-Z0-9_]*)=(?P<value>.*)$")


class InterpolationError(ValueError):
    """A ``${NAME:?error}`` whose variable is unset or empty, as Compose refuses it."""


def interpolate(text: str, variables: Mapping[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        if match["escaped"]:
            return "$"
        name = match["bare"] or match["name"]
        value, op, arg = variables.get(name), match["op"], match["arg"] or ""
        missing = value is None or (op is not None and op.startswith(":") and value == "")
        if op in {":-", "-"} and missing:
            return interpolate(arg, variables)
        if op in {":?", "?"} and missing:
            raise InterpolationError(f"{name}: {arg}")
        return value or ""

    return _VARIABLE.sub(one, text)


def read_env_file(path: Path) -> dict[str, str]:
    """The variables an ``env_file`` sets (``NAME=value`` lines; comments skipped)."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = ENV_LINE.match(line.strip())
        if match and not match["comment"]:
            values[match["name"]] = match["value"]
    return values


def env_example_names(path: Path = ENV_EXAMPLE) -> set[str]:
    """Every variable .env.example lists, set or commented out."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {match["name"] for line in lines if (match := ENV_LINE.match(line.strip()))}


def load() -> dict:
    with COMPOSE_FILE.open(encoding="utf-8") as stream:
        return yaml.safe_load(stream)


def _as_dict(environment: Mapping[str, object] | list[str] | None) -> dict[str, str]:
    if environment is None:
        return {}
    if isinstance(environment, list):
        return dict(item.split("=", 1) for item in environment)
    return {key: "" if value is None else str(value) for key, value in environment.items()}


@dataclass(frozen=True)
class Service:
    name: str
    spec: dict
    variables: Mapping[str, str]  # what interpolates the file (Compose reads them from .env)

    def _text(self, value: object) -> str:
        return interpolate(str(value), self.variables)

    @property
    def command(self) -> list[str]:
        command = self.spec.get("command", [])  # none: the image's own
        if isinstance(command, list):
            return [self._text(part) for part in command]
        return shlex.split(self._text(command))

    def environment(self, env_file_values: Mapping[str, str]) -> dict[str, str]:
        """The container's environment: the env_file, then ``environment`` over it."""
        env = dict(env_file_values) if self.spec.get("env_file") else {}
        env.update({k: self._text(v) for k, v in _as_dict(self.spec.get("environment")).items()})
        return env

    @property
    def healthcheck(self) -> str:
        """The healthcheck as a shell command line (CMD made one, CMD-SHELL as it is)."""
        kind, *rest = (self._text(part) for part in self.spec["healthcheck"]["test"])
        if kind == "CMD-SHELL":
            (line,) = rest
            return line
        assert kind == "CMD", kind
        return shlex.join(rest)


def services(variables: Mapping[str, str], *, tools: bool = False) -> dict[str, Service]:
    """The services `docker compose up` starts; with ``tools``, those of a profile too
    (run on demand, like the backup)."""
    return {
        name: Service(name, spec, variables)
        for name, spec in load()["services"].items()
        if tools or not spec.get("profiles")
    }


@dataclass(frozen=True)
class Address:
    host: str
    port: int


def localize_url(url: str, addresses: Mapping[str, Address], database: str, user: str) -> str:
    """A URL naming a compose service, pointed at where that service runs here; a
    PostgreSQL URL also gets this machine's role (no password) and the test's database."""
    parts = urlsplit(url)
    if parts.hostname not in addresses:
        return url
    where = addresses[parts.hostname]
    netloc, path = f"{where.host}:{where.port}", parts.path
    if parts.scheme.startswith("postgres"):
        netloc, path = f"{user}@{netloc}", f"/{database}"
    return urlunsplit((parts.scheme, netloc, path, parts.query, parts.fragment))
