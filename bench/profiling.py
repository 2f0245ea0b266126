"""py-spy around a bench's timed window: `profiled(pids, folder, name)` records every
process of `pids` and their descendants (a gunicorn master and its workers) while the
block runs, one flame graph per process (`<folder>/<name>-<pid>.svg`) and the same samples
collapsed (`.txt`, one stack per line with its count) for reading in a terminal.

py-spy is a development requirement (requirements-dev.in); where it is not installed the block
runs unprofiled and a `profile_skipped:` line says why.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from common import descendants, emit

RATE = 250  # samples per second
STOP_SECONDS = 30.0


def _py_spy() -> str | None:
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


@contextmanager
def profiled(pids: Sequence[int], folder: Path | None, name: str) -> Iterator[None]:
    """Record the processes while the block runs; nothing when `folder` is None."""
    binary = _py_spy() if folder is not None else None
    if folder is None:
        yield
        return
    if binary is None:
        emit(
            "profile_skipped",
            "py-spy is not installed (requirements-dev.txt: make lint installs it)",
        )
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    recorders = []
    for pid in descendants(pids):
        for fmt, suffix in (("flamegraph", "svg"), ("raw", "txt")):
            out = folder / f"{name}-{pid}.{suffix}"
            command = [binary, "record", "--pid", str(pid), "--rate", str(RATE)]
            command += ["--format", fmt, "--output", str(out), "--nonblocking"]
            recorders.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
    try:
        yield
    finally:
        for recorder in recorders:
            recorder.send_signal(signal.SIGINT)
        for recorder in recorders:
            try:
                recorder.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                recorder.kill()
        emit("profile", str(folder))
