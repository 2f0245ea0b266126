"""Throwaway PostgreSQL and Redis servers for tests (and benches): each in a temporary folder,
listening on 127.0.0.1 on a free port, started and stopped within bounded waits.

The fixtures `postgres` and `redis_server` (tests/conftest.py) start one of each per test
session. Where the binaries are missing their tests are skipped with the reason; with
REQUIRE_SERVICES=1 (as in CI) that is a failure instead.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from devtools.servers import stop_process

HOST = "127.0.0.1"
START_SECONDS = 30.0  # how long a server may take to accept connections
STOP_SECONDS = 20.0  # how long a server may take to stop
PG_SUPERUSER = "court"
# Tests want speed, not durability: the cluster is thrown away.
PG_TEST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class ServiceError(RuntimeError):
    """A server would not start or stop; its log is in the message."""


def unavailable(reason: str) -> None:
    """Skip the test, or fail it when REQUIRE_SERVICES=1 says every service must be there."""
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


# -- PostgreSQL ---------------------------------------------------------------


def postgres_bin() -> Path | None:
    """The folder holding initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/*/bin."""
    folders = []
    if found := shutil.which("initdb"):
        folders.append(Path(found).resolve().parent)
    debian = Path("/usr/lib/postgresql").glob("*/bin")
    folders += sorted(debian, key=lambda p: _major(p.parent.name), reverse=True)
    for folder in folders:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _major(name: str) -> int:
    return int(name) if name.isdigit() else -1


@dataclass(frozen=True, slots=True)
class _Account:
    """Who runs initdb and the server: PostgreSQL refuses root, so root hands them to a user."""

    uid: int | None = None
    gid: int | None = None

    @classmethod
    def for_postgres(cls) -> _Account:
        if os.geteuid() != 0:
            return cls()
        for name in ("postgres", "nobody"):
            with contextlib.suppress(KeyError):
                entry = pwd.getpwnam(name)
                return cls(entry.pw_uid, entry.pw_gid)
        raise ServiceError("running as root, and no 'postgres' or 'nobody' user to run PostgreSQL")

    def run(self, args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
        extra: dict[str, Any] = {}
        if self.uid is not None:
            extra = {"user": self.uid, "group": self.gid, "extra_groups": []}
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}
        return subprocess.run(
            args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, **extra
        )

    def own(self, path: Path) -> None:
        if self.uid is not None:
            os.chown(path, self.uid, self.gid)  # type: ignore[arg-type]


@dataclass
class PostgresServer:
    """A running throwaway cluster; `new_database()` gives each caller an empty database."""

    folder: Path
    bin: Path
    port: int
    account: _Account
    settings: dict[str, str] = field(default_factory=dict)
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{PG_SUPERUSER}@{HOST}:{self.port}/{database}"

    def connect(self, database: str = "postgres", **kw: Any) -> psycopg.Connection[Any]:
        return psycopg.connect(host=HOST, port=self.port, user=PG_SUPERUSER, dbname=database, **kw)

    def new_database(self, prefix: str = "t") -> str:
        """The URL of a new, empty database."""
        name = f"{prefix}_{next(self._names)}"
        with self.connect(autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    @property
    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    @classmethod
    @contextlib.contextmanager
    def running(cls, bin: Path, settings: dict[str, str] | None = None) -> Iterator[PostgresServer]:
        """initdb in a temporary folder, start on a free loopback port, always stop and remove."""
        account = _Account.for_postgres()
        # Under root the server's user must reach the folder: /tmp, whatever TMPDIR says.
        parent = "/tmp" if account.uid is not None else None
        folder = Path(tempfile.mkdtemp(prefix="court-pg-", dir=parent))
        try:
            account.own(folder)
            _check(
                account.run(
                    [
                        str(bin / "initdb"),
                        "-D",
                        str(folder / "data"),
                        "-U",
                        PG_SUPERUSER,
                        "--auth=trust",
                        "--encoding=UTF8",
                        "--locale=C",
                        "--no-sync",
                        "--no-instructions",
                    ],
                    folder,
                    START_SECONDS * 2,
                ),
                "initdb",
            )
            server = cls._start(bin, folder, account, settings or {})
            try:
                yield server
            finally:
                server._stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    @classmethod
    def _start(
        cls, bin: Path, folder: Path, account: _Account, settings: dict[str, str]
    ) -> PostgresServer:
        """A port can be taken between choosing and binding it: a few tries with new ports."""
        for attempt in range(3):
            server = cls(folder, bin, free_port(), account, settings)
            result = server._pg_ctl_start()
            if result.returncode == 0:
                return server
            if attempt == 2 or "already in use" not in server.log:
                _check(result, f"pg_ctl start (log: {server.log[-2000:]})")
        raise AssertionError("unreachable")

    def _pg_ctl_start(self) -> subprocess.CompletedProcess[str]:
        options = {
            "listen_addresses": HOST,
            "port": str(self.port),
            "unix_socket_directories": str(self.folder),
            **self.settings,
        }
        opts = " ".join(f"-c {k}={v}" for k, v in options.items())
        return self.account.run(
            [
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.folder / "data"),
                "-l",
                str(self.folder / "server.log"),
                "-w",
                "-t",
                str(int(START_SECONDS)),
                "-o",
                opts,
                "start",
            ],
            self.folder,
            START_SECONDS + 10,
        )

    def stop(self) -> None:
        """Stop the server (an outage); `start()` brings it back on the same port."""
        self._stop()

    def start(self) -> None:
        _check(self._pg_ctl_start(), f"pg_ctl start (log: {self.log[-2000:]})")

    def _stop(self) -> None:
        pg_ctl = [str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-w"]
        for mode in ("fast", "immediate"):
            with contextlib.suppress(subprocess.TimeoutExpired):
                result = self.account.run(
                    [*pg_ctl, "-t", str(int(STOP_SECONDS)), "-m", mode, "stop"],
                    self.folder,
                    STOP_SECONDS + 10,
                )
                if result.returncode == 0:
                    return
        raise ServiceError(f"PostgreSQL on port {self.port} would not stop:\n{self.log[-2000:]}")


def _check(result: subprocess.CompletedProcess[str], what: str) -> None:
    if result.returncode != 0:
        raise ServiceError(f"{what} failed ({result.returncode}): {result.stderr}{result.stdout}")


# -- Redis ----------------------------------------------------------------------


# The servers' Redis user, as docs/deployment.md sets it up: the keys and channels under
# `small-council:` alone, and no command of the @dangerous category (FLUSHALL, CONFIG, KEYS,
# MONITOR, …). The default user is off: a client without a password is answered NOAUTH.
COURT_USER = ("court", "~small-council:*", "&small-council:*", "+@all", "-@dangerous")
ADMIN_USER = ("admin", "~*", "&*", "+@all")  # the tests' own, to watch and to reset


@dataclass(slots=True)
class RedisServer:
    """A redis-server on a loopback port, which answers only its users, with their passwords:
    the servers' (`url`) and the tests' administrator (`admin_url`, `command`); `stop()` and
    `start()` it again on the same port to play an outage."""

    port: int
    process: subprocess.Popen[bytes]
    binary: str = ""
    folder: Path = Path()
    password: str = field(default_factory=lambda: secrets.token_hex(16))
    admin_password: str = field(default_factory=lambda: secrets.token_hex(16))

    @property
    def url(self) -> str:
        """What the servers' REDIS_URL says: their user and password."""
        return self.url_of(0)

    @property
    def admin_url(self) -> str:
        return self.url_of(0, admin=True)

    def url_of(self, database: int, *, admin: bool = False) -> str:
        """The URL of one of the server's numbered databases, with a user and his password."""
        user, password = ("admin", self.admin_password) if admin else ("court", self.password)
        return f"redis://{user}:{password}@{HOST}:{self.port}/{database}"

    def command(self, *words: str) -> bytes:
        """One command in the Redis protocol, as the administrator; the raw reply line (enough
        for PING and INFO)."""
        with socket.create_connection((HOST, self.port), timeout=5) as sock:
            sock.sendall(self.authenticate())
            if not _reply(sock).startswith(b"+OK"):
                raise ServiceError(f"redis-server on port {self.port} refused its password")
            sock.sendall(resp(*words))
            return sock.recv(65536)

    def authenticate(self) -> bytes:
        """The AUTH command a raw connection of the administrator opens with."""
        return resp("AUTH", "admin", self.admin_password)

    @classmethod
    @contextlib.contextmanager
    def running(cls, binary: str) -> Iterator[RedisServer]:
        """redis-server in a temporary folder on a free loopback port, nothing saved to disk."""
        with tempfile.TemporaryDirectory(prefix="court-redis-") as folder:
            server = cls(free_port(), None, binary, Path(folder))  # type: ignore[arg-type]
            try:
                server.start()
                yield server
            finally:
                server.stop()

    def start(self) -> None:
        """Start (again) on the same port; waits until it answers PING."""
        args = [
            self.binary,
            "--bind",
            HOST,
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.folder),
            "--protected-mode",
            "yes",
            *("--user", "default", "off"),
            *_user(ADMIN_USER, self.admin_password),
            *_user(COURT_USER, self.password),
        ]
        with open(self.folder / "server.log", "ab") as log:
            self.process = subprocess.Popen(
                args, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder
            )
        self._wait_ready(self.folder / "server.log")

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, STOP_SECONDS)

    def _wait_ready(self, log: Path) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServiceError(f"redis-server exited: {log.read_text(errors='replace')}")
            with contextlib.suppress(OSError, ServiceError):
                if self.command("PING").startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise ServiceError(f"redis-server did not answer PING in {START_SECONDS} s")


def _user(rules: tuple[str, ...], password: str) -> list[str]:
    """redis-server's arguments that make a user with his password and rules."""
    name, *grants = rules
    return ["--user", name, "on", f">{password}", *grants]


def resp(*words: str) -> bytes:
    """A command in the Redis protocol."""
    request = f"*{len(words)}\r\n" + "".join(f"${len(w)}\r\n{w}\r\n" for w in words)
    return request.encode()


def _reply(sock: socket.socket) -> bytes:
    """One reply line."""
    line = b""
    while not line.endswith(b"\r\n"):
        chunk = sock.recv(1)
        if not chunk:
            break
        line += chunk
    return line


# -- servers for the fixtures of tests/conftest.py ---------------------------------------


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL cluster with the tests' settings, or the test skipped (failed
    under REQUIRE_SERVICES=1) where PostgreSQL is not installed."""
    folder = postgres_bin()
    if folder is None:
        unavailable(
            "PostgreSQL is not installed (no initdb and pg_ctl on PATH or under "
            "/usr/lib/postgresql/*/bin): apt-get install postgresql"
        )
    with PostgresServer.running(folder, PG_TEST_SETTINGS) as server:  # type: ignore[arg-type]
        yield server


@contextlib.contextmanager
def throwaway_redis() -> Iterator[RedisServer]:
    """A throwaway redis-server, or the test skipped (failed under REQUIRE_SERVICES=1) where
    it is not installed."""
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("redis-server is not installed: apt-get install redis-server")
    with RedisServer.running(binary) as server:  # type: ignore[arg-type]
        yield server
