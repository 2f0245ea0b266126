# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# Serving needs requirements.txt alone; the tests and tools need requirements-dev.txt too.
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
# Serving needs the browser's Socket.IO client alone; linting needs Biome too.
NPM_STAMP := node_modules/.installed
NPM_DEV_STAMP := node_modules/.installed-dev
# uv installs the locks: a fresh `make run` takes seconds with it, where pip alone takes a
# minute. Every line of the locks carries hashes, and nothing installs without them.
UV := $(BIN)/uv
UV_INSTALL := $(UV) pip install --quiet --python $(BIN)/python --require-hashes
NPM_CI := npm ci --no-audit --no-fund --loglevel=error
# Formatting, lint and import order of static/ (biome.json); a warning fails it too.
BIOME := node_modules/.bin/biome ci --colors=off --error-on-warnings static
LOCK := $(UV) pip compile --quiet --python $(BIN)/python --generate-hashes \
	--custom-compile-command "make lock" $(LOCK_ARGS)

.PHONY: run check test lint lock bench mutants clean

# A venv without pip of its own: setting one up costs more than all the rest of `make run`.
$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Python 3.11 is needed (python3.11 or python3 on PATH)"; exit 1; }
	$(PYTHON) -m venv --without-pip $(VENV)

# The Python's own pip puts uv into the venv, at the version and with the hashes that
# requirements-dev.txt gives it.
$(UV): requirements-dev.txt | $(BIN)/python
	sed -n '/^uv==/,/^ *#/p' requirements-dev.txt > $(VENV)/uv-requirements.txt
	$(PYTHON) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check \
		--no-deps -r $(VENV)/uv-requirements.txt
	touch $(UV)

$(STAMP): requirements.txt $(UV)
	$(UV_INSTALL) -r requirements.txt
	touch $(STAMP)

# Both locks in one install, so uv checks that they agree.
$(DEV_STAMP): requirements.txt requirements-dev.txt $(UV)
	$(UV_INSTALL) -r requirements.txt -r requirements-dev.txt
	touch $(STAMP) $(DEV_STAMP)

# The browser's Socket.IO client, served by Flask from node_modules (no CDN).
$(NPM_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "Node.js and npm are needed (npm on PATH)"; exit 1; }
	$(NPM_CI) --omit=dev
	touch $(NPM_STAMP)

# The same and the devDependencies (Biome, which formats and lints static/).
$(NPM_DEV_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "Node.js and npm are needed (npm on PATH)"; exit 1; }
	$(NPM_CI)
	touch $(NPM_STAMP) $(NPM_DEV_STAMP)

# The venv and node_modules are set up side by side: each install waits on the network
# at times, and a fresh clone serves sooner.
run:
	@$(MAKE) --no-print-directory --jobs=2 --output-sync=target $(STAMP) $(NPM_STAMP)
	$(BIN)/python app.py

# The one-minute loop while changing the engine or the service: ruff, then the engine tests and
# the service tests on the in-memory store, over two cores; no browser, database server, Redis,
# several processes or test marked slow (docs/development.md, "Running the tests").
CHECK_TESTS := tests/court tests/elections tests/config tests/server/store tests/test_docs_links.py \
	tests/test_rules_map.py tests/test_architecture.py
check: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider -m "not slow and not sql" $(CHECK_TESTS)

# mypy runs once, inside the suite (tests/test_types.py), beside the other tests; the suite is
# spread over every core, each test file whole on one worker (its module fixtures built once).
test: $(DEV_STAMP) $(NPM_DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIOME)
	$(BIN)/python -m pytest -n auto --dist loadfile

lint: $(DEV_STAMP) $(NPM_DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m mypy
	$(BIOME)

# Writes requirements.txt and requirements-dev.txt anew from the .in files, keeping each pin
# that still fits; LOCK_ARGS="--upgrade-package NAME" moves one package (--upgrade: all).
lock: $(UV)
	$(LOCK) --output-file requirements.txt requirements.in
	$(LOCK) --output-file requirements-dev.txt requirements-dev.in

bench: $(DEV_STAMP)
	$(BIN)/python bench/store.py
	$(BIN)/python bench/store_pg.py
	$(BIN)/python bench/live.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/hostile.py
	$(BIN)/python bench/soak.py

# Plants each bug of devtools/mutants.py, one at a time in a copy of the tree, and runs the
# tests that should catch it; fails when one survives.
mutants: $(DEV_STAMP)
	$(BIN)/python devtools/mutants.py -j 2

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache node_modules test-output
