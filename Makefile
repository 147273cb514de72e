# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# The suite runs on PostgreSQL and drives a real Celery worker through Redis.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/fft
TEST_BROKER_URL ?= redis://127.0.0.1:6379/14

.PHONY: run test install lint messages

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@

install: $(VENV)/.installed

## Install, create the embedded SQLite database, load the demo federation, serve on :8000.
run: install
	mkdir -p var
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver 0.0.0.0:8000

## The whole suite, on PostgreSQL and a real Celery worker through Redis, after lint and
## mypy (files and strictness in pyproject.toml: --strict on the pure rules and core).
test: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	mkdir -p var
	$(PY) manage.py makemigrations --check --dry-run
	DATABASE_URL=$(TEST_DATABASE_URL) TEST_CELERY_BROKER_URL=$(TEST_BROKER_URL) \
		$(VENV)/bin/pytest -p no:cacheprovider

lint: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
	$(VENV)/bin/mypy

## Regenerate and compile the French catalogue (needs gettext).
messages: install
	$(PY) manage.py makemessages -l fr --ignore=.venv
	$(PY) manage.py compilemessages --ignore=.venv
