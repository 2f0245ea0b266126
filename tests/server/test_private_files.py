"""The files that hold the court's secrets are its user's alone, however permissive the umask:
a fresh instance folder is made 0700 and everything in it 0600 (the SQLite database with its
write-ahead log and shared memory, the writer's lock, the key files) by a server started as
`make run` starts it, and by the shell commands that make a database (import, simulate,
Alembic's upgrade); a full export is made 0600 too; a database others may read is said at
start-up."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from app import create_app
from devtools.servers import ROOT, CourtServer
from server.private import FILE_MODE, FOLDER_MODE

PERMISSIVE = 0o022  # the usual umask, which makes files 0644 and folders 0755


@pytest.fixture(autouse=True)
def permissive_umask() -> Iterator[None]:
    before = os.umask(PERMISSIVE)
    try:
        yield
    finally:
        os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def modes(folder: Path) -> dict[str, int]:
    """The mode of the folder ("."), and of each file in it by name."""
    return {".": mode(folder), **{p.name: mode(p) for p in sorted(folder.iterdir())}}


def private(folder: Path, files: set[str]) -> dict[str, int]:
    """What `modes` must be: the folder 0700 and each of these files 0600."""
    return {".": FOLDER_MODE, **{name: FILE_MODE for name in sorted(files)}}


DATABASE = "small-council.db"
SERVED = {DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", f"{DATABASE}.lock"}
KEYS = {"secret.key", "signing.key"}


def create_game(url: str) -> None:
    answer = requests.post(f"{url}/api/games", json={"players": 3, "host_name": "Ann"}, timeout=10)
    assert answer.status_code == 201, answer.text


def test_a_server_started_as_make_run_makes_a_fresh_instance_folder_private(
    tmp_path: Path,
) -> None:
    # given `python app.py` with make run's settings (no key given: their files are made),
    # its database in an instance folder not there yet
    instance = tmp_path / "fresh" / "instance"
    env = {"DATABASE_URL": f"sqlite:///{instance / DATABASE}"}
    server = CourtServer(env, tmp_path / "server.log", keys={})
    try:
        # when it starts and a game is created
        server.start()
        create_game(server.url)
        # then the folder and every file in it are the server's user's alone
        assert modes(instance) == private(instance, SERVED | KEYS)
        # and each key file made is said, as docs/deployment.md promises: back it up
        said = (tmp_path / "server.log").read_text()
        for name in sorted(KEYS):
            assert f"made a new key file {instance / name}: back it up" in said, said
    finally:
        server.stop()


def test_an_app_on_a_fresh_folder_makes_it_and_its_files_private(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    app = create_app({"DATABASE_URL": f"sqlite:///{instance / DATABASE}", "DEADLINES": False})
    try:
        created = app.test_client().post("/api/games", json={"players": 3, "host_name": "Ann"})
        assert created.status_code == 201
        assert modes(instance) == private(instance, SERVED | KEYS)
    finally:
        app.extensions["court_store"].close()


def flask(*args: str, database: Path) -> subprocess.CompletedProcess[str]:
    """`flask --app app ARGS` from the shell, on the database at `database`."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_shell_commands_that_make_a_database_make_it_private(tmp_path: Path) -> None:
    # given a full export of a game, written by `court export --full -o`
    source = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'source' / DATABASE}"})
    try:
        client = source.test_client()
        game = client.post("/api/games", json={"players": 3, "host_name": "Ann"}).get_json()
        exported = tmp_path / "backup.jsonl"
        written = source.test_cli_runner().invoke(
            args=["court", "export", game["game_id"], "--full", "-o", str(exported)]
        )
        assert written.exit_code == 0, written.output
    finally:
        source.extensions["court_store"].close()
    folders = {name: tmp_path / name for name in ("imported", "simulated", "migrated")}
    for folder in folders.values():
        folder.mkdir(mode=0o755)
    # when each command makes a database of its own
    done = [
        flask("court", "import", str(exported), database=folders["imported"] / DATABASE),
        flask(
            "court",
            "simulate",
            "--games",
            "1",
            "--rounds",
            "1",
            "--quiet",
            "--database",
            f"sqlite:///{folders['simulated'] / DATABASE}",
            database=folders["imported"] / DATABASE,
        ),
    ]
    done.append(
        subprocess.run(
            [sys.executable, "-m", "alembic", "upgrade", "head"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": f"sqlite:///{folders['migrated'] / DATABASE}"},
            capture_output=True,
            text=True,
            timeout=300,
        )
    )
    # then each database is its user's alone, with the files SQLite made beside it
    assert [d.returncode for d in done] == [0, 0, 0], [d.stderr[-2000:] for d in done]
    assert mode(exported) == FILE_MODE
    for folder in folders.values():
        files = {p.name: mode(p) for p in folder.iterdir()}
        assert files and set(files.values()) == {FILE_MODE}, (folder.name, files)
        assert DATABASE in files


def test_a_server_on_a_database_others_may_read_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / DATABASE
    database.touch(mode=0o644)
    caplog.set_level(logging.WARNING, logger="small_council.files")

    app = create_app({"DATABASE_URL": f"sqlite:///{database}", "DEADLINES": False})
    app.extensions["court_store"].close()

    said = [r.getMessage() for r in caplog.records if r.name == "small_council.files"]
    assert said == [f"{database} can be read by other users (mode 644): chmod 600 it"]
    assert mode(database) == 0o644  # an operator's file keeps the mode he gave it
