"""Caddy in front of a court server, as docs/deployment.md shows it: deploy/Caddyfile with its
site address and backend replaced, on 127.0.0.1 only, its certificate from Caddy's own internal
CA (never Let's Encrypt), no http port bound but a free one, no admin endpoint, its data in a
temporary folder; every wait bounded."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import requests

from devtools.servers import HOST, ROOT, free_port, stop_process

CADDYFILE = ROOT / "deploy" / "Caddyfile"
START_SECONDS = 30.0
STOP_SECONDS = 10.0
_SITE = re.compile(r"^court\.example\.org \{$", re.MULTILINE)
_BACKEND = re.compile(r"^(\s*reverse_proxy )127\.0\.0\.1:5000\b", re.MULTILINE)
# What the loopback run changes of Caddy's defaults, before the site: nothing asked of Let's
# Encrypt, nothing bound on ports 80 and 443 or beyond 127.0.0.1, the internal CA's root kept
# out of the system's trust store.
_LOOPBACK = """{{
	admin off
	auto_https disable_redirects
	local_certs
	skip_install_trust
	default_bind {host}
	http_port {http_port}
	https_port {port}
}}

"""


class CaddyError(RuntimeError):
    """Caddy would not start; its log is in the message."""


def caddy_binary() -> str | None:
    return shutil.which("caddy") or ("/usr/bin/caddy" if Path("/usr/bin/caddy").is_file() else None)


@dataclass(frozen=True)
class Caddy:
    url: str  # https://127.0.0.1:PORT
    root: Path  # the internal CA's root certificate, the one a client must trust
    log: Path

    def session(self) -> requests.Session:
        """A session that trusts Caddy's internal root, and only it."""
        session = requests.Session()
        session.trust_env = False  # else REQUESTS_CA_BUNDLE, if set, wins over `verify`
        session.verify = str(self.root)
        return session


def render(text: str, port: int, backend: str, http_port: int) -> str:
    """The Caddyfile serving https://127.0.0.1:`port` in front of `backend` (host:port)."""
    text, sites = _SITE.subn(f"https://{HOST}:{port} {{", text)
    text, backends = _BACKEND.subn(rf"\g<1>{backend}", text)
    if (sites, backends) != (1, 1):
        raise ValueError("expected one `court.example.org {` site and one reverse_proxy line")
    return _LOOPBACK.format(host=HOST, port=port, http_port=http_port) + text


@contextlib.contextmanager
def running_caddy(backend: str, folder: Path, port: int | None = None) -> Iterator[Caddy]:
    """Caddy with deploy/Caddyfile in front of `backend` until the block ends."""
    binary = caddy_binary()
    if binary is None:
        raise CaddyError("caddy is not installed: apt-get install caddy")
    port = port or free_port()
    home = folder / "caddy"
    home.mkdir(parents=True, exist_ok=True)
    config = home / "Caddyfile"
    config.write_text(render(CADDYFILE.read_text(encoding="utf-8"), port, backend, free_port()))
    # Caddy keeps its CA and certificates under $XDG_DATA_HOME/caddy, so the root lands here.
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    started = Caddy(
        f"https://{HOST}:{port}",
        home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt",
        home / "caddy.log",
    )
    with open(started.log, "wb") as out:
        process = subprocess.Popen(
            [binary, "run", "--config", str(config), "--adapter", "caddyfile"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_serving(process, started)
        yield started
    finally:
        stop_process(process, STOP_SECONDS)


def _wait_serving(process: subprocess.Popen[bytes], caddy: Caddy) -> None:
    """Until a request over https, trusting the internal root alone, gets an answer."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CaddyError(f"caddy exited with {process.returncode}: {_tail(caddy.log)}")
        if caddy.root.is_file():
            with contextlib.suppress(requests.RequestException), caddy.session() as session:
                session.get(f"{caddy.url}/healthz", timeout=2)
                return
        time.sleep(0.1)
    raise CaddyError(
        f"caddy did not serve {caddy.url} in {START_SECONDS:.0f} s: {_tail(caddy.log)}"
    )


def _tail(log: Path) -> str:
    try:
        return log.read_text(encoding="utf-8", errors="replace")[-3000:]
    except OSError:
        return "(no log)"
