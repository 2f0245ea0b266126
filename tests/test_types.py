"""The type checker passes: mypy, with the settings of pyproject.toml's [tool.mypy], finds no
error in court/, elections/ and server/ (nor in the rest that table names), so `pytest`
alone enforces what `make lint` and `make test` run."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"


def mypy_settings() -> dict[str, object]:
    with CONFIG.open("rb") as file:
        return tomllib.load(file)["tool"]["mypy"]


def test_the_type_checker_covers_the_engine_the_voting_core_and_the_server() -> None:
    settings = mypy_settings()
    files = settings["files"]
    assert isinstance(files, list)
    assert {"court", "elections", "server"} <= set(files)
    assert "ignore_errors" not in settings and "ignore_missing_imports" not in settings


def test_mypy_finds_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # The `files` of the configuration are paths from the project's root.
    monkeypatch.chdir(ROOT)
    stdout, stderr, status = api.run(["--config-file", str(CONFIG)])
    errors = [line for line in stdout.splitlines() if ": error:" in line]
    assert status == 0 and not errors, "mypy found:\n" + "\n".join(errors or [stdout, stderr])
