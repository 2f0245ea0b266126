"""The outbox on SQLite and PostgreSQL: a notice is inserted once per key, and senders of several
processes claiming the same rows at once send each row once."""

from __future__ import annotations

import threading

from server.notify.sender import OutboxSender, SendSettings
from server.notify.urls import UrlPolicy
from server.store.notices import Notice
from server.store.sql import SqlEventStore
from tests.server.store.conftest import NewDatabase

URL = "http://127.0.0.1:9/hook"


def test_a_notice_is_inserted_once_per_game_and_key(new_database: NewDatabase) -> None:
    store = SqlEventStore(new_database())
    try:
        store.create_schema()
        notice = Notice("g", "turn:1", "It is Ann's turn.")
        store.notices.enqueue([notice, Notice("h", "turn:1", "Another game.")], 1000)
        store.notices.enqueue([notice, Notice("g", "turn:2", "It is Bob's turn.")], 2000)
        assert [r["text"] for r in store.notices.rows("g")] == [
            "It is Ann's turn.",
            "It is Bob's turn.",
        ]
    finally:
        store.close()


def test_senders_of_two_processes_send_every_row_once(new_database: NewDatabase) -> None:
    url = new_database()
    stores = [SqlEventStore(url), SqlEventStore(url)]
    stores[0].create_schema()
    sent: list[str] = []
    guard = threading.Lock()

    def send(_url: str, text: str, _timeout: float) -> None:
        with guard:
            sent.append(text)

    try:
        stores[0].notices.set_webhook("g", URL, 0)
        stores[0].notices.enqueue([Notice("g", f"k{i}", f"notice {i}") for i in range(60)], 0)
        policy = UrlPolicy(allow_http=True, allow_private=True)
        senders = [
            OutboxSender(s.notices, policy, SendSettings(batch=7), send=send) for s in stores
        ]
        threads = [threading.Thread(target=_drain, args=(s,)) for s in senders * 2]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(sent) == sorted(f"notice {i}" for i in range(60))
        assert {r["state"] for r in stores[1].notices.rows("g")} == {"sent"}
    finally:
        for store in stores:
            store.close()


def _drain(sender: OutboxSender) -> None:
    while sender.send_due():
        pass
