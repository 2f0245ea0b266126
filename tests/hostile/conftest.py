"""The hostile tests: schemathesis over the OpenAPI document, a Socket.IO fuzzer, the
authorization matrix and a flood against a live server."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: runs for about a minute; `make test` runs it, -m 'not slow' skips it"
    )
