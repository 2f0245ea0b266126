"""What the event store does only on PostgreSQL: the engine, and how global positions become
visible in commit order. Triggers made by the first migration (migrations/versions/0001_*)
refuse UPDATE, DELETE and TRUNCATE of records and take the lock described here.

Commit order. `position` comes from a sequence, and a sequence alone is not enough: two
appends may draw 10 and 11 and commit 11 first, so a reader paging by `position > N` could
read 11, move on, and never see 10. A statement-level BEFORE INSERT trigger therefore takes
one transaction-level advisory lock (LOCK_KEY) before any row draws its position, and holds
it until the transaction ends. An append draws its positions only after every earlier
append has committed (or rolled back) and become visible, so positions become visible in
increasing order: whatever a reader sees is a prefix of the log, up to gaps left by
rolled-back appends, which are never filled later. The cost is that appends to the database
commit one at a time, as on SQLite; reads never wait. Because the lock lives in the database,
every writer obeys it: several server processes, an import, or an INSERT typed in psql.
"""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import create_engine

from server.store.pool import DEFAULT_POOL, Pool

# The advisory lock serialising appends; no other code in the database may use this key.
LOCK_KEY = 7_160_429_001


def make_engine(url: str, *, read_only: bool = False, pool: Pool = DEFAULT_POOL) -> Engine:
    """A pooled engine; a connection is checked before use so a restarted server is survived.
    `read_only`: every transaction is read-only, so PostgreSQL refuses any write."""
    options = {"options": "-c default_transaction_read_only=on"} if read_only else {}
    return create_engine(url, pool_pre_ping=True, connect_args=options, **pool.options())
