"""Fixtures shared by every test folder: throwaway PostgreSQL and Redis (tests/services.py)."""

from tests.services import postgres, redis_server

__all__ = ["postgres", "redis_server"]
