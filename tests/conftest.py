"""Fixtures shared by every test folder: throwaway PostgreSQL and Redis (tests/services.py)."""

from tests.services import own_postgres, own_redis, postgres, redis_server

__all__ = ["own_postgres", "own_redis", "postgres", "redis_server"]
