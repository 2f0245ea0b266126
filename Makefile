# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Python 3.11 is needed (python3.11 or python3 on PATH)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

run: $(STAMP)
	mkdir -p instance
	$(BIN)/python app.py

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)
	$(BIN)/python bench/store.py
	$(BIN)/python bench/live.py

clean:
	rm -rf $(VENV) .pytest_cache
