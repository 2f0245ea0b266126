"""Database failures as the server answers them: which exceptions are the database's, and the
code and sentence a client gets for each (HTTP 503 with that code; the same in a Socket.IO ack).

Every failure of the database — unreachable, locked, read-only, an I/O error, a full disk, a
constraint it refuses — is something the client may try again later, never a crash: nothing
was recorded, since an append is one transaction.
"""

from __future__ import annotations

import logging
import sqlite3

import psycopg
from sqlalchemy.exc import DBAPIError, DisconnectionError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from server.outages import Outage

DATABASE_ERRORS: tuple[type[Exception], ...] = (SQLAlchemyError, sqlite3.Error, psycopg.Error)

UNAVAILABLE = ("database_unavailable", "The game's database cannot be reached; try again soon.")
STORAGE_FULL = (
    "storage_full",
    "The server's disk is full, so nothing was recorded; try again once space is freed.",
)

_SQLITE_FULL = 13  # SQLITE_FULL: "database or disk is full"
_PG_DISK_FULL = "53100"  # disk_full


def driver_error(exc: BaseException) -> BaseException:
    """The driver's own exception: SQLAlchemy wraps it in `orig`."""
    return exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc


def is_storage_full(exc: BaseException) -> bool:
    """Whether the database refused a write because its disk (or its size limit) is full."""
    orig = driver_error(exc)
    if isinstance(orig, sqlite3.Error):
        code = getattr(orig, "sqlite_errorcode", None)
        return code == _SQLITE_FULL or "database or disk is full" in str(orig)
    return isinstance(orig, psycopg.Error) and orig.sqlstate == _PG_DISK_FULL


def refusal(exc: BaseException) -> tuple[str, str]:
    """The (code, sentence) a client gets for this database failure."""
    return STORAGE_FULL if is_storage_full(exc) else UNAVAILABLE


def is_outage(exc: BaseException) -> bool:
    """Whether the database is down, locked, full or out of connections, rather than refusing
    this one statement (a constraint, bad data: maybe a defect)."""
    orig = driver_error(exc)
    operational = (sqlite3.OperationalError, psycopg.OperationalError, PoolTimeout)
    return isinstance(orig, (*operational, DisconnectionError)) or is_storage_full(exc)


def log_failure(log: logging.Logger, where: str, exc: BaseException, outage: Outage) -> None:
    """An operational failure (down, locked, full) is the database's outage, logged once when
    it starts (server/outages.py); any other database error may be a defect, so its traceback
    goes to the log each time."""
    if is_outage(exc):
        outage.failed(driver_error(exc), of_writes=is_storage_full(exc))
    else:
        log.error("database error %s", where, exc_info=exc)
