"""Court server processes as `make run` starts them (`python app.py`), on 127.0.0.1 and a free
port, for tests, benches and the loopback deployment: start, wait for /healthz, kill with
SIGKILL, restart on the same port, and stop. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import requests

from server.keys.secret import new_secret
from server.keys.signing import SigningKeys

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
START_SECONDS = 60.0  # how long a server may take to answer /healthz
STOP_SECONDS = 10.0  # how long a server may take to exit after SIGTERM


class ServerError(RuntimeError):
    """A server would not start; the end of its log is in the message."""


def stop_process(process: subprocess.Popen[bytes], seconds: float = 10.0) -> None:
    """SIGTERM, then SIGKILL if the process is still there after `seconds`."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=seconds)


def shared_keys() -> dict[str, str]:
    """New server keys as the environment gives them: every process of one database must
    hold the same ones (docs/deployment.md, "Keys")."""
    return {"INSTANCE_SECRET": new_secret(), "SIGNING_KEY": SigningKeys.random().text()}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass
class CourtServer:
    """One `python app.py` process. Its port stays the same across restarts, so clients
    reconnect to the same address; its output goes to `log` (appended to by restarts)."""

    env: Mapping[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    # Its keys, kept across restarts; `env` may name others (the keys of its fellows).
    keys: Mapping[str, str] = field(default_factory=shared_keys)
    process: subprocess.Popen[bytes] | None = None
    process_id: str = ""  # as /healthz names the running process
    # The cores the process may run on (`taskset -c` list, "0-1" or "2,3"); None: any.
    cpus: str | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> CourtServer:
        env = {**os.environ, **self.keys, **self.env, "HOST": HOST, "PORT": str(self.port)}
        with open(self.log, "ab") as out:
            pinned = ["taskset", "-c", self.cpus] if self.cpus else []
            self.process = subprocess.Popen(
                [*pinned, sys.executable, "app.py"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            self.process_id = self._wait_healthy()
        except BaseException:
            self.kill()
            raise
        return self

    def _wait_healthy(self) -> str:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise ServerError(f"server exited with {self.process.returncode}: {self.tail()}")
            with contextlib.suppress(requests.RequestException):
                answer = requests.get(f"{self.url}/healthz", timeout=2.0)
                if answer.status_code == 200:
                    return str(answer.json()["process"])
            time.sleep(0.05)
        raise ServerError(
            f"no answer on {self.url}/healthz in {START_SECONDS:.0f} s: {self.tail()}"
        )

    def kill(self) -> None:
        """SIGKILL: no goodbye to clients, Redis or the database."""
        if self.running:
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=STOP_SECONDS)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if the process is still there after STOP_SECONDS."""
        if not self.running:
            return
        assert self.process is not None
        stop_process(self.process, STOP_SECONDS)

    def restart(self) -> CourtServer:
        self.stop()
        return self.start()

    def pids(self) -> list[int]:
        """The running process and its children (gunicorn's master and worker)."""
        return _tree(self.process.pid) if self.process is not None and self.running else []

    def rss_bytes(self) -> int:
        """Resident memory of the running process and its children (gunicorn's master and
        its worker), from Linux /proc."""
        assert self.process is not None
        return sum(_rss(pid) for pid in _tree(self.process.pid))

    def tail(self, chars: int = 3000) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def log_lines(self, *levels: str) -> list[str]:
        """The log's lines at any of these levels (`WARNING`, `ERROR`, ...)."""
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return [line for line in text.splitlines() if any(f" {lv} " in line for lv in levels)]


def _tree(pid: int) -> list[int]:
    """`pid` and its descendants."""
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            children += [int(c) for c in task.read_text().split()]
    return [pid, *(p for child in children for p in _tree(child))]


def _rss(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0  # gone meanwhile
    line = next((x for x in status.splitlines() if x.startswith("VmRSS:")), "VmRSS: 0 kB")
    return int(line.split()[1]) * 1024


@contextlib.contextmanager
def court_servers(
    count: int,
    env: Mapping[str, str],
    folder: Path,
    *,
    names: Sequence[str] = (),
    cpus: Sequence[str] = (),
) -> Iterator[list[CourtServer]]:
    """`count` servers with the same settings (a shared PostgreSQL and Redis for more than
    one) and the same keys, started one after another, always stopped when the block ends;
    the i-th pinned to the cores `cpus[i]` names, when given."""
    servers: list[CourtServer] = []
    keys = shared_keys()
    try:
        for index in range(count):
            name = names[index] if index < len(names) else f"server-{index + 1}"
            pinned = cpus[index] if index < len(cpus) else None
            server = CourtServer(env, folder / f"{name}.log", keys=keys, cpus=pinned)
            servers.append(server.start())
        yield servers
    finally:
        for server in servers:
            server.stop()
