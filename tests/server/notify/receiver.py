"""A webhook receiver for the tests: an http.server on 127.0.0.1 and a free port, in a thread,
keeping every body posted to it. It can answer 500 to the first posts of each notice, or take
its time."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WAIT_SECONDS = 10.0


class Receiver:
    def __init__(self, *, failures: int = 0, delay: float = 0.0) -> None:
        self.failures = failures  # posts of each notice answered 500 before a 204
        self.delay = delay
        self.posts: list[dict[str, Any]] = []  # every body, failed posts too
        self.paths: list[str] = []
        self._changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                posted = json.loads(self.rfile.read(length))
                time.sleep(receiver.delay)
                with receiver._changed:
                    receiver.posts.append(posted)
                    receiver.paths.append(self.path)
                    tries = sum(p == posted for p in receiver.posts)
                    failing = tries <= receiver.failures
                    receiver._changed.notify_all()
                self.send_response(500 if failing else 204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_port}/api/webhooks/1234/s3cr3t-webhook"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def texts(self) -> list[str]:
        with self._changed:
            return [p["content"] for p in self.posts]

    def wait_for(self, seen: Callable[[list[str]], bool], seconds: float = WAIT_SECONDS) -> None:
        """Wait until `seen(texts)` holds, at most `seconds`."""
        deadline = time.monotonic() + seconds
        with self._changed:
            while not seen([p["content"] for p in self.posts]):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the receiver got only {self.posts}")
                self._changed.wait(timeout=left)


@contextmanager
def receiving(**kwargs: Any) -> Iterator[Receiver]:
    receiver = Receiver(**kwargs)
    receiver.thread.start()
    try:
        yield receiver
    finally:
        receiver.http.shutdown()
        receiver.http.server_close()
        receiver.thread.join(timeout=5)


def free_port_url() -> str:
    """The URL of a receiver that is down: a port nobody listens on."""
    probe = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = probe.server_port
    probe.server_close()
    return f"http://127.0.0.1:{port}/api/webhooks/1/down"
