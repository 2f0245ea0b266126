"""Fixtures every test folder may ask for: throwaway PostgreSQL and Redis servers on loopback.
Their code (tests/services.py: psycopg, subprocesses) is imported only when a test asks for one,
so the engine and service tests load none of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.services import PostgresServer, RedisServer


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL cluster for the session; take databases with new_database()."""
    from tests.services import throwaway_postgres

    with throwaway_postgres() as server:
        yield server


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One throwaway redis-server for the session."""
    from tests.services import throwaway_redis

    with throwaway_redis() as server:
        yield server


@pytest.fixture(scope="module")
def own_redis() -> Iterator[RedisServer]:
    """A redis-server of the module's own, which its tests may stop and start again (an
    outage) without touching the other tests' one."""
    from tests.services import throwaway_redis

    with throwaway_redis() as server:
        yield server


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL cluster of the module's own, which its tests may stop and start again."""
    from tests.services import throwaway_postgres

    with throwaway_postgres() as server:
        yield server
