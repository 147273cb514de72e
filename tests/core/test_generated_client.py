"""An integrator's first step: a Python client generated from the served OpenAPI schema
with openapi-python-client, every one of its modules imported, and the results samples
read and written back through its typed models of the results documents.

The generator and the imports run in subprocesses (the generated package on their
``sys.path`` only), in a temporary directory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
PACKAGE = "fft_client"

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys, traceback

package = importlib.import_module(sys.argv[1])
modules, failures = 0, []
for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    modules += 1
    try:
        importlib.import_module(module.name)
    except Exception:
        failures.append([module.name, traceback.format_exc(limit=1)])

models = importlib.import_module(sys.argv[1] + ".models")
round_trips = {}
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    model = models.ScoreSheetsDocument if "score_sheets" in document else models.ResultsDocument
    round_trips[path.rsplit("/", 1)[-1]] = model.from_dict(document).to_dict() == document
print(json.dumps({"modules": modules, "failures": failures, "round_trips": round_trips}))
"""


@pytest.mark.django_db
def test_a_client_generated_from_the_served_schema_imports_and_types_the_results(client, tmp_path):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = tmp_path / "schema.json"
    schema.write_bytes(response.content)
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"post_hooks": []}))  # no formatter run on the output

    generated = subprocess.run(
        [
            sys.executable, "-m", "openapi_python_client", "generate",
            "--path", str(schema), "--output-path", str(tmp_path / PACKAGE),
            "--meta", "none", "--config", str(config),
        ],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False,
    )  # fmt: skip
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert "Warning" not in output, output  # a skipped endpoint or model is a warning
    assert (tmp_path / PACKAGE / "models" / "results_document.py").exists()

    samples = sorted(str(path) for path in SAMPLES.glob("*.json"))
    imported = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING, PACKAGE, *samples],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    report = json.loads(imported.stdout)
    assert report["failures"] == []
    assert report["modules"] > 300
    assert report["round_trips"] == {Path(path).name: True for path in samples}
