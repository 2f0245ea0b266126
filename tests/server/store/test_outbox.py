"""The outbox on SQLite and PostgreSQL: a notice is inserted once per key, and senders of several
processes claiming the same rows at once send each row once."""

from __future__ import annotations

import threading

from server.notify.sender import OutboxSender, SendSettings
from server.notify.urls import UrlPolicy
from server.store.notices import HELD, Notice
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


def test_notices_due_within_the_group_window_are_claimed_as_one_post(
    new_database: NewDatabase,
) -> None:
    """Two notices of a game made in the same second and one made later: the first two are
    claimed together and marked sent together; the third waits for a post of its own; a post
    never takes more than fits."""
    store = SqlEventStore(new_database())
    try:
        store.create_schema()
        notices = store.notices
        notices.enqueue([Notice("g", "a", "It is Ann's turn.", lead="Sat")], 1000, 2000)
        notices.enqueue([Notice("g", "b", "Ann passed.", lead="Saturday")], 1400, 2400)
        notices.enqueue([Notice("g", "c", "It is Bob's turn.", lead="Saturday")], 9000, 10000)
        assert notices.claim_next("g", "me", 1999, 60_000, group_ms=1000) is None  # not due

        first = notices.claim_next("g", "me", 2000, 60_000, group_ms=1000)
        assert first is not None
        assert first.texts == ("It is Ann's turn.", "Ann passed.") and first.lead == "Saturday"
        assert notices.claim_next("g", "other", 2000, 60_000, group_ms=1000) is None  # held
        notices.finish(first, "me", "sent", 2100, "")
        assert [(r["state"], r["attempts"]) for r in notices.rows("g")] == [
            ("sent", 1),
            ("sent", 1),
            ("pending", 0),
        ]
        later = notices.claim_next("g", "me", 10_000, 60_000, group_ms=1000)
        assert later is not None and later.texts == ("It is Bob's turn.",)

        notices.enqueue([Notice("h", f"k{i}", f"notice {i}") for i in range(5)], 0)
        short = notices.claim_next("h", "me", 0, 60_000, group_ms=1000, fits=_two_at_most)
        assert short is not None and short.texts == ("notice 0", "notice 1")
        notices.finish(short, "me", "sent", 1, "")
        alone = notices.claim_next("h", "me", 1, 60_000)  # no window: a notice a post
        assert alone is not None and alone.texts == ("notice 2",)
    finally:
        store.close()


def _two_at_most(texts: object, lead: str) -> bool:
    return len(texts) <= 2  # type: ignore[arg-type]


def test_a_post_tried_again_is_tried_whole_and_held_notices_wait_to_be_released(
    new_database: NewDatabase,
) -> None:
    store = SqlEventStore(new_database())
    try:
        store.create_schema()
        notices = store.notices
        made = [Notice("g", "a", "Ann married Bob."), Notice("g", "b", "Cat passed.")]
        notices.enqueue(made, 0, HELD)
        assert notices.due_games(10**12, 10) == []  # held: nothing is due
        assert notices.release("g", 500) == 2
        claimed = notices.claim_next("g", "me", 500, 60_000, group_ms=1000)
        assert claimed is not None and claimed.ids == tuple(r["id"] for r in notices.rows("g"))
        notices.retry(claimed, "me", 700, "the webhook answered 500")
        rows = notices.rows("g")
        assert [(r["attempts"], r["due_at"], r["claimed_by"]) for r in rows] == [(1, 700, None)] * 2
        again = notices.claim_next("g", "me", 700, 60_000, group_ms=1000)
        assert again is not None and again.texts == ("Ann married Bob.", "Cat passed.")
    finally:
        store.close()
