"""The ledger of sends at a request, on SQLite and PostgreSQL: a limit counts its scope's sends
within its window only; requests of two processes at the same moment never both take the last
send a limit leaves; rows past the longest window are dropped by the next send of their kind."""

from __future__ import annotations

import threading

from server.store.sends import Limit, Scope, Send
from server.store.sql import SqlEventStore
from tests.server.store.conftest import NewDatabase

HOUR = 3_600_000
LIMITS = [Limit(Scope.SEAT, 2, HOUR), Limit(Scope.TARGET, 3, HOUR), Limit(Scope.GAME, 4, HOUR)]


def send(game_id: str = "g", seat: int = 0, target: str = "ann") -> Send:
    return Send(kind="mail_link", game_id=game_id, seat=seat, target=target)


def test_each_limit_counts_its_own_scope_within_its_window(new_database: NewDatabase) -> None:
    store = SqlEventStore(new_database())
    try:
        store.create_schema()
        ledger = store.sends
        taken = [
            ledger.reserve(send(seat=0, target="ann"), 1, LIMITS),
            ledger.reserve(send(seat=0, target="bob"), 2, LIMITS),
            ledger.reserve(send(seat=0, target="cat"), 3, LIMITS),  # the seat's third
            ledger.reserve(send(seat=1, target="ann"), 4, LIMITS),
            ledger.reserve(send("h", seat=0, target="ann"), 5, LIMITS),
            ledger.reserve(send("h", seat=1, target="ann"), 6, LIMITS),  # ann's fourth
            ledger.reserve(send(seat=2, target="dan"), 7, LIMITS),
            ledger.reserve(send(seat=3, target="eve"), 8, LIMITS),  # the game's fifth
            ledger.reserve(send(seat=0, target="fay"), HOUR + 2, LIMITS),  # the first is old
        ]
        webhook = Send(kind="webhook_test", game_id="g", seat=None, target="ann")

        assert taken == [None, None, LIMITS[0], None, None, LIMITS[1], None, LIMITS[2], None]
        assert ledger.reserve(webhook, 9, LIMITS) is None  # another kind counts apart
        # the six taken, less the two an hour old when the last came, and the webhook's
        assert [r["sent_at"] for r in ledger.rows()] == [4, 5, 7, HOUR + 2, 9]
    finally:
        store.close()


def test_old_rows_are_dropped_by_the_next_send_of_their_kind(new_database: NewDatabase) -> None:
    store = SqlEventStore(new_database())
    try:
        store.create_schema()
        for at in (1, 2, 3):
            assert store.sends.reserve(send(seat=at), at, LIMITS) is None
        assert store.sends.reserve(send(seat=9), HOUR + 2, LIMITS) is None
        assert [row["sent_at"] for row in store.sends.rows()] == [3, HOUR + 2]
    finally:
        store.close()


def test_requests_of_two_processes_at_once_take_the_last_send_once(
    new_database: NewDatabase,
) -> None:
    url = new_database()
    stores = [SqlEventStore(url), SqlEventStore(url)]
    stores[0].create_schema()
    one = [Limit(Scope.TARGET, 1, HOUR)]
    start = threading.Barrier(16)
    taken: list[Limit | None] = []
    guard = threading.Lock()

    def ask(n: int) -> None:
        start.wait()
        found = stores[n % 2].sends.reserve(send(seat=n), 1000 + n, one)
        with guard:
            taken.append(found)

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(16)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert taken.count(None) == 1 and len(taken) == 16
        assert len(stores[0].sends.rows()) == 1
    finally:
        for store in stores:
            store.close()
