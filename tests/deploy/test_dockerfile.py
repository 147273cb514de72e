"""The image holds the whole application: every package pyproject.toml declares (an app's
templates are read beside its code, not from the installed copy, which has none) and the
folders the settings read (templates, locale). Pure: no Django, no database."""

from __future__ import annotations

import tomllib

from tests.deploy.compose import ROOT


def copied() -> set[str]:
    lines = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    return {line.split()[1].rstrip("/") for line in lines if line.startswith("COPY ")}


def test_every_package_of_the_application_is_copied_into_the_image():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = {
        p.rstrip("*") for p in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    assert {"config", "portal"} <= packages
    assert not packages - copied(), f"not in the image: {sorted(packages - copied())}"


def test_the_folders_the_settings_read_are_copied_into_the_image():
    assert {"templates", "locale", "manage.py"} <= copied()
