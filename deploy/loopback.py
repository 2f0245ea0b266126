"""The layout of docs/deployment.md ("Several server processes"), from scratch on loopback:
a new PostgreSQL cluster and a redis-server in a temporary folder, the schema migrated with
`alembic upgrade head`, N court server processes (`python app.py`) and nginx in front with
sticky sessions, everything on 127.0.0.1 and free ports. It prints the address and serves
until Ctrl-C or SIGTERM, then stops everything and removes the folder.

    .venv/bin/python deploy/loopback.py --processes 2
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from devtools.nginx import running_nginx  # noqa: E402
from devtools.servers import CourtServer, court_servers  # noqa: E402
from tests.services import PostgresServer, RedisServer, postgres_bin  # noqa: E402

MIGRATE_SECONDS = 120.0


@dataclass
class Deployment:
    url: str  # nginx
    servers: list[CourtServer]
    database_url: str
    redis_url: str


def migrate(database_url: str) -> None:
    """`alembic upgrade head`, as the guide runs it before starting the servers."""
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url},
        check=True,
        capture_output=True,
        timeout=MIGRATE_SECONDS,
    )


@contextlib.contextmanager
def deployment(processes: int, folder: Path, port: int | None = None) -> Iterator[Deployment]:
    """Everything up, in the guide's order; everything stopped when the block ends."""
    pg_bin, redis_bin = postgres_bin(), shutil.which("redis-server")
    if pg_bin is None or redis_bin is None:
        raise SystemExit(
            "needs PostgreSQL and redis-server: apt-get install postgresql redis-server"
        )
    with PostgresServer.running(pg_bin) as pg, RedisServer.running(redis_bin) as redis:
        database_url = pg.new_database("court")
        migrate(database_url)
        # nginx in front: the client's address is the one it adds to X-Forwarded-For.
        env = {"DATABASE_URL": database_url, "REDIS_URL": redis.url, "TRUSTED_PROXIES": "1"}
        with court_servers(processes, env, folder) as servers:
            backends = [f"127.0.0.1:{server.port}" for server in servers]
            with running_nginx(backends, folder, port) as url:
                yield Deployment(url, servers, database_url, redis.url)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2, help="court server processes")
    parser.add_argument("--port", type=int, default=None, help="nginx's port (default: free)")
    args = parser.parse_args()
    # SIGTERM unwinds like Ctrl-C, so that every server is stopped and the folder removed.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with tempfile.TemporaryDirectory(prefix="court-loopback-") as folder:
        try:
            with deployment(args.processes, Path(folder), args.port) as up:
                for server in up.servers:
                    print(f"server {server.process_id} on {server.url}, log {server.log}")
                print(f"PostgreSQL: {up.database_url}\nRedis: {up.redis_url}")
                print(f"Small Council behind nginx on {up.url}", flush=True)
                signal.pause()
        except KeyboardInterrupt:
            print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
