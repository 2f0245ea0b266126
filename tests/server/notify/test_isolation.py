"""Games do not wait on each other's receivers: a receiver that holds its post for half a
minute delays no other game's notice, and the notices of one game arrive in their order even
when one of them must be tried again."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from flask import Flask

from server.notify.sender import OutboxSender, SendSettings
from server.notify.urls import Target, UrlPolicy
from server.store.notices import Notice
from server.store.sql import SqlEventStore
from tests.databases import migrated
from tests.server.http.court_client import lobby_game, start
from tests.server.notify.conftest import notifying_app, stop
from tests.server.notify.receiver import dripping, receiving
from tests.server.notify.webhooks import set_webhook

PROMPTLY = 2.0  # seconds


def test_a_receiver_holding_its_post_for_half_a_minute_delays_no_other_game(
    tmp_path: Path,
) -> None:
    app: Flask = notifying_app(tmp_path, WEBHOOK_TIMEOUT=30.0)
    client = app.test_client()
    slow, prompt = lobby_game(client), lobby_game(client)
    try:
        with dripping(every=0.5, lasting=25.0) as held, receiving() as receiver:
            set_webhook(client, slow, held.url)
            start(client, slow)
            held.wait_connected()  # the slow game's first notice is being posted
            set_webhook(client, prompt, receiver.url)
            began = time.monotonic()
            start(client, prompt)
            receiver.wait_for(lambda texts: len(texts) >= 1, seconds=PROMPTLY + 20)
            took = time.monotonic() - began
            assert took < PROMPTLY, f"the other game's notice took {took:.1f} s"
            assert len(held.connected) == 1  # still held
    finally:
        stop(app)


def test_a_game_s_notices_arrive_in_order_when_the_first_is_tried_again(
    tmp_path: Path,
) -> None:
    store = SqlEventStore(migrated(tmp_path / "o.db"))
    policy = UrlPolicy(allow_http=True, allow_private=True)
    sender = OutboxSender(store.notices, policy, SendSettings(timeout=2.0, backoff=0.05))
    try:
        with receiving(failures=2, failing="first") as receiver:
            store.notices.set_webhook("g", receiver.url, 0)
            notices = [Notice("g", f"k{i}", text) for i, text in enumerate(("first", "2nd", "3rd"))]
            store.notices.enqueue(notices, 0)
            for _ in range(200):
                sender.send_due()
                if all(r["state"] == "sent" for r in store.notices.rows("g")):
                    break
                time.sleep(0.02)
        assert receiver.texts() == ["first", "first", "first", "2nd", "3rd"]
    finally:
        store.close()


def test_a_process_posts_to_at_most_its_senders_games_at_once(tmp_path: Path) -> None:
    store = SqlEventStore(migrated(tmp_path / "s.db"))
    started: list[str] = []
    changed = threading.Condition()
    release = threading.Event()

    def held(_target: Target, text: str, _timeout: float) -> None:
        with changed:
            started.append(text)
            changed.notify_all()
        release.wait(timeout=10)

    policy = UrlPolicy(allow_http=True, allow_private=True)
    sender = OutboxSender(store.notices, policy, SendSettings(senders=2), send=held)
    try:
        for game in ("a", "b", "c"):
            store.notices.set_webhook(game, "http://127.0.0.1:9/hook", 0)
            store.notices.enqueue([Notice(game, "k", f"notice of {game}")], 0)
        sender.dispatch()
        with changed:
            assert changed.wait_for(lambda: len(started) == 2, timeout=5), started
        sender.dispatch()  # both senders busy: the third game waits
        time.sleep(0.2)
        assert sorted(started) == ["notice of a", "notice of b"]  # the longest waiting
        release.set()
        for _ in range(100):
            sender.dispatch()
            if len(started) == 3:
                break
            time.sleep(0.05)
        assert sorted(started) == ["notice of a", "notice of b", "notice of c"]
    finally:
        release.set()
        sender.stop()
        store.close()
