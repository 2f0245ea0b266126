"""A bench script run as `make bench` runs it, for the tests that keep the benches from rotting."""

from __future__ import annotations

import subprocess
import sys

from devtools.servers import ROOT

BENCH_SECONDS = 300


def run_bench(*argv: str) -> dict[str, str]:
    """Run `python <argv>` from the repo root; its `name: value` lines, once it exited 0."""
    result = subprocess.run(
        [sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=BENCH_SECONDS
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
