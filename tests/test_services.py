"""The throwaway servers the tests run against: up on loopback, and gone afterwards."""

from __future__ import annotations

import shutil
import socket

import pytest

from tests.services import HOST, PostgresServer, RedisServer, postgres_bin, resp, unavailable


def test_the_postgres_cluster_answers_on_loopback_only(postgres: PostgresServer) -> None:
    with postgres.connect() as conn:
        assert conn.execute("SHOW listen_addresses").fetchone() == (HOST,)
        assert conn.execute("SHOW port").fetchone() == (str(postgres.port),)
        assert conn.execute("SELECT current_user").fetchone() == ("court",)


def test_each_new_database_starts_empty(postgres: PostgresServer) -> None:
    first, second = postgres.new_database(), postgres.new_database()
    assert first != second
    name = second.rsplit("/", 1)[1]
    with postgres.connect(name) as conn:
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        assert tables.fetchone() == (0,)


def test_redis_answers_ping_on_loopback_only(redis_server: RedisServer) -> None:
    assert redis_server.command("PING") == b"+PONG\r\n"
    assert HOST.encode() in redis_server.command("CONFIG", "GET", "bind")


def test_redis_answers_no_client_without_its_password(redis_server: RedisServer) -> None:
    with socket.create_connection((HOST, redis_server.port), timeout=5) as sock:
        sock.sendall(resp("PUBLISH", "small-council:appended", "{}"))
        assert sock.recv(1024).startswith(b"-NOAUTH")


def test_a_stopped_cluster_leaves_no_server_and_no_folder() -> None:
    folder = postgres_bin()
    if folder is None:
        unavailable("PostgreSQL is not installed")
    with PostgresServer.running(folder) as server:  # type: ignore[arg-type]
        port, data = server.port, server.folder
        with server.connect() as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    assert not data.exists()
    assert not _listening(port)


def test_a_stopped_redis_leaves_no_server() -> None:
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("redis-server is not installed")
    with RedisServer.running(binary) as server:  # type: ignore[arg-type]
        port, process = server.port, server.process
    assert process.returncode is not None and not _listening(port)


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex((HOST, port)) == 0


def test_a_missing_server_skips_its_tests_unless_every_server_is_required(monkeypatch) -> None:
    monkeypatch.delenv("REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="redis-server is not installed"):
        unavailable("redis-server is not installed")
    monkeypatch.setenv("REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception, match="REQUIRE_SERVICES=1 but redis-server"):
        unavailable("redis-server is not installed")
