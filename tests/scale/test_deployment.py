"""The deployment guide followed from scratch on loopback: `deploy/loopback.py` starts a new
PostgreSQL cluster, Redis, two server processes and nginx with the guide's configuration;
clients that stick to different backends play an election through nginx, long-polling
first, as browsers do."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import requests

from devtools.nginx import CONFIG, nginx_binary
from devtools.servers import ROOT
from tests.scale.clients import HttpClient, LiveClient, close_all
from tests.scale.conftest import place_a_ballot, saw_the_placement
from tests.server.http.court_client import lobby_game, start
from tests.services import postgres_bin, unavailable

UP_SECONDS = 120.0  # initdb, PostgreSQL, Redis, migrations, two servers and nginx
DOWN_SECONDS = 60.0
GUIDE = ROOT / "docs" / "deployment.md"


@dataclass
class Loopback:
    url: str
    backends: list[str]  # the process ids the script printed
    output: list[str] = field(default_factory=list)


def read_lines(stream, into: list[str], ready: threading.Event) -> None:
    for line in stream:
        into.append(line.rstrip("\n"))
        if "behind nginx on" in line:
            ready.set()
    ready.set()  # the script ended


@pytest.fixture(scope="module")
def loopback() -> Iterator[Loopback]:
    if nginx_binary() is None:
        unavailable("nginx is not installed: apt-get install nginx")
    if postgres_bin() is None or shutil.which("redis-server") is None:
        unavailable("PostgreSQL or redis-server is not installed")
    script = subprocess.Popen(
        [sys.executable, "deploy/loopback.py", "--processes", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, to kill were it to hang
    )
    lines: list[str] = []
    ready = threading.Event()
    reader = threading.Thread(target=read_lines, args=(script.stdout, lines, ready), daemon=True)
    reader.start()
    try:
        ready.wait(UP_SECONDS)
        found = [line for line in lines if "behind nginx on" in line]
        assert found, "deploy/loopback.py did not come up:\n" + "\n".join(lines[-40:])
        backends = [m.group(1) for line in lines if (m := re.match(r"server (\w+) on ", line))]
        yield Loopback(found[0].split()[-1], backends, lines)
    finally:
        script.send_signal(signal.SIGTERM)
        try:
            code = script.wait(timeout=DOWN_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(script.pid, signal.SIGKILL)
            script.wait(timeout=DOWN_SECONDS)
            raise
        reader.join(timeout=5)
        assert code == 0 and lines[-1] == "stopped", "\n".join(lines[-40:])


def test_the_guide_shows_the_nginx_configuration_the_script_runs() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"```nginx\n(.*?)```", guide, re.DOTALL)
    config = CONFIG.read_text(encoding="utf-8")
    body = config[config.index("worker_processes") :]
    assert blocks[:1] == [body]  # then the TLS one (tests/scale/test_tls.py)


def pinned_sessions(url: str) -> dict[str, requests.Session]:
    """One cookie-holding session per backend, found by asking nginx's /healthz."""
    sessions: dict[str, requests.Session] = {}
    for _ in range(64):
        session = requests.Session()
        process = session.get(f"{url}/healthz", timeout=10).json()["process"]
        sessions.setdefault(process, session)
        if len(sessions) == 2:
            break
    return sessions


def test_clients_sticking_to_different_backends_play_through_nginx(loopback: Loopback) -> None:
    sessions = pinned_sessions(loopback.url)
    assert sorted(sessions) == sorted(loopback.backends)
    for process, session in sessions.items():
        for _ in range(5):
            assert session.get(f"{loopback.url}/healthz", timeout=10).json()["process"] == process
    first, second = (sessions[p] for p in loopback.backends)

    http = HttpClient(loopback.url, first)
    game = lobby_game(http)  # type: ignore[arg-type]
    start(http, game)  # type: ignore[arg-type]
    polling = ("polling", "websocket")
    seats = {
        "stark": LiveClient("stark@1", first),
        "tyrell": LiveClient("tyrell@1", first),
        "lannister": LiveClient("lannister@2", second),
    }
    watcher = LiveClient("spectator@2", second)
    try:
        for house, client in seats.items():
            client.connect(loopback.url, game.id, game.tokens[house], transports=polling)
        watcher.connect(loopback.url, game.id, transports=polling)
        ack = place_a_ballot(seats, HttpClient(loopback.url, second), game)
        head = http.get(f"/api/games/{game.id}/verify").get_json()["records"]
        for client in [*seats.values(), watcher]:
            client.wait_version(head)
            saw_the_placement(client, ack, owner=client is seats["stark"])
        assert watcher.presences[-1]["seats"] == [0, 1, 2]
    finally:
        close_all([*seats.values(), watcher])
