"""One server process per SQLite file: a second one started on the same file refuses to start
with a sentence saying why, and the first goes on serving and pushing; a server killed with
SIGKILL leaves no lock behind, so it restarts at once on the same file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from devtools.servers import ROOT, CourtServer, free_port
from tests.scale.clients import HttpClient, LiveClient, close_all
from tests.scale.conftest import started_game

REFUSED_WITHIN = 60.0  # seconds the second process may take to refuse (it loads the app)
GOLD = {"house": "tyrell", "amount": 1, "cause": "tax"}


def second_server(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`python app.py` on another port, with the same settings; it must end by itself."""
    env = {**os.environ, **env, "HOST": "127.0.0.1", "PORT": str(free_port())}
    return subprocess.run(
        [sys.executable, "app.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=REFUSED_WITHIN,
    )


def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    """Given a server serving a SQLite file and a client watching a game, when a second
    server is started on the same file, then it exits non-zero saying that SQLite takes one
    server process and PostgreSQL runs several; the first still acks and pushes."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path}/court.db", "DEADLINES": "off"}
    first = CourtServer(env, tmp_path / "first.log").start()
    watcher: list[LiveClient] = []
    try:
        game = started_game(first.url)
        watcher.append(
            LiveClient("lannister").connect(first.url, game.id, game.tokens["lannister"])
        )

        second = second_server(env)

        assert second.returncode != 0
        said = " ".join((second.stdout + second.stderr).split())
        assert "is already serving the SQLite database" in said, said[-2000:]
        assert "SQLite takes one server process at a time" in said
        assert "run several processes on PostgreSQL" in said
        assert any(f"pid {pid}" in said for pid in first.pids()), said[-2000:]
        answer = HttpClient(first.url).post(
            f"/api/games/{game.id}/commands/record_gold", json=GOLD, headers=game.host
        )
        assert answer.status_code == 200, answer.get_json()
        watcher[0].wait_version(answer.get_json()["version"])
    finally:
        close_all(watcher)
        first.stop()


def test_a_server_killed_on_a_sqlite_file_restarts_on_it_at_once(tmp_path: Path) -> None:
    """Given a server on a SQLite file killed with SIGKILL, when it is started again on the
    same file, then it serves the games it had (the kernel dropped the lock with it)."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path}/court.db", "DEADLINES": "off"}
    server = CourtServer(env, tmp_path / "server.log").start()
    try:
        game = started_game(server.url)
        server.kill()
        server.start()
        answer = HttpClient(server.url).get(f"/api/games/{game.id}")
        assert answer.status_code == 200, answer.get_json()
    finally:
        server.stop()
