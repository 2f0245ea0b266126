"""How many connections a store's engine keeps (the writer's among them), and how long a
request waits for one while all are busy (DATABASE_POOL_SIZE, DATABASE_POOL_TIMEOUT)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Pool:
    """`size` connections kept open, as many more opened while all of them are busy and
    closed once returned; a checkout that finds every one of them busy waits `timeout`
    seconds, then fails (the request is refused with `database_unavailable`)."""

    size: int = 10
    timeout: float = 30.0

    def options(self) -> dict[str, Any]:
        """SQLAlchemy's create_engine arguments of a QueuePool of this size."""
        return {"pool_size": self.size, "max_overflow": self.size, "pool_timeout": self.timeout}


DEFAULT_POOL = Pool()
