# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed

.PHONY: run test lint bench clean

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Python 3.11 is needed (python3.11 or python3 on PATH)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# The browser's Socket.IO client, served by Flask from node_modules (no CDN).
$(NPM_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "Node.js and npm are needed (npm on PATH)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NPM_STAMP)

run: $(STAMP) $(NPM_STAMP)
	mkdir -p instance
	$(BIN)/python app.py

test: $(STAMP) $(NPM_STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m mypy

bench: $(STAMP)
	$(BIN)/python bench/store.py
	$(BIN)/python bench/store_pg.py
	$(BIN)/python bench/live.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/hostile.py
	$(BIN)/python bench/soak.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache node_modules test-output
