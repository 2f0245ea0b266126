"""The peer server of the benches: boardgame.io 0.50 on Node (bench/peers/server.js), one process.

Its harness is installed by npm into bench/peers/node_modules (never committed) from
bench/peers/package-lock.json, the first time a bench needs it: `harness()` runs `npm ci`
there (bounded; never when CI=true) when node_modules is missing or holds another
boardgame.io than the pinned one, and answers why the peer cannot run when node or npm is
missing or the install fails (no network). `peer_server()` runs the server on 127.0.0.1
and a free port with NODE_ENV=production (no debug logging), like the court's servers in
live_peers.py.

package.json overrides koa-compose to 4.1.0: koa-compose 4.2 copies the middleware list
when koa builds its request handler, which koa-socket-2 does before boardgame.io adds its
lobby routes, so with 4.2 every lobby request would answer 404.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from common import ROOT
from live_peers import server_process
from placement import pinned

PEERS = ROOT / "bench" / "peers"
INSTALL_SECONDS = 300.0  # how long `npm ci` may take


def pinned_version() -> str:
    """The boardgame.io version bench/peers/package.json pins."""
    manifest = json.loads((PEERS / "package.json").read_text(encoding="utf-8"))
    return str(manifest["dependencies"]["boardgame.io"])


def installed_version() -> str | None:
    """The boardgame.io version in bench/peers/node_modules, if one is installed."""
    try:
        text = (PEERS / "node_modules" / "boardgame.io" / "package.json").read_text("utf-8")
    except OSError:
        return None
    return str(json.loads(text).get("version"))


def harness(install: bool | None = None) -> str | None:
    """None when the peer server can run (after `npm ci` in bench/peers if its harness is
    missing and `install` is true, by default when CI is not "true"); otherwise the reason
    it cannot."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if installed_version() == pinned_version():
        return None
    if not (os.environ.get("CI") != "true" if install is None else install):
        return "bench/peers/node_modules is not installed (npm ci in bench/peers; not with CI=true)"
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not on PATH"
    command = [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"]
    try:
        done = subprocess.run(
            command, cwd=PEERS, capture_output=True, text=True, timeout=INSTALL_SECONDS
        )
    except subprocess.TimeoutExpired:
        return f"npm ci in bench/peers took over {INSTALL_SECONDS:.0f} s (no network?)"
    if done.returncode != 0 or installed_version() != pinned_version():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"npm ci in bench/peers failed (no network?): {last[:200]}"
    return None


@contextmanager
def peer_server(folder: Path, cpus: str | None = None) -> Iterator[tuple[str, int]]:
    """The boardgame.io server until the block ends, on the cores `cpus` names (None: any):
    (base URL, process id). Its output goes to `folder`/bgio.log."""
    node = shutil.which("node") or "node"
    env = {"NODE_ENV": "production"}
    argv = pinned([node, str(PEERS / "server.js")], cpus)
    with server_process(argv, env, ROOT, folder / "bgio.log") as (url, process):
        yield url, process.pid
