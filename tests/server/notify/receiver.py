"""Webhook receivers for the tests, on 127.0.0.1 and a free port, in a thread: `Receiver` (an
http.server keeping every body posted to it and the Host header and TLS server name it came
with; it can answer 500 to the first posts of each notice, redirect, take its time, or speak
TLS) and `Dripping` (one that answers a header byte every few tenths of a second)."""

from __future__ import annotations

import json
import socket
import socketserver
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WAIT_SECONDS = 10.0
PATH = "/api/webhooks/1234/s3cr3t-webhook"


class Receiver:
    def __init__(
        self,
        *,
        failures: int = 0,
        failing: str = "",
        delay: float = 0.0,
        redirect: str = "",
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.failures = failures  # posts of each notice answered 500 before a 204
        self.failing = failing  # only the notices holding this text fail
        self.delay = delay
        self.redirect = redirect  # answer 307 to this address instead
        self.posts: list[dict[str, Any]] = []  # every body, failed posts too
        self.paths: list[str] = []
        self.hosts: list[str] = []  # the Host header of each post
        self.server_names: list[str | None] = []  # the TLS server name (SNI) of each handshake
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
                    receiver.hosts.append(self.headers.get("Host", ""))
                    tries = sum(p == posted for p in receiver.posts)
                    failing = tries <= receiver.failures and receiver.failing in posted["content"]
                    receiver._changed.notify_all()
                if receiver.redirect:
                    self.send_response(307)
                    self.send_header("Location", receiver.redirect)
                else:
                    self.send_response(500 if failing else 204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        scheme = "http"
        if tls is not None:
            tls.sni_callback = self._heard_name
            self.http.socket = tls.wrap_socket(self.http.socket, server_side=True)
            scheme = "https"
        self.port = self.http.server_port
        self.url = f"{scheme}://127.0.0.1:{self.port}{PATH}"

    def _heard_name(self, _socket: Any, name: str | None, _context: Any) -> None:
        with self._changed:
            self.server_names.append(name)

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


def told(texts: list[str], lead: str) -> list[str]:
    """The notices the posts carry, each alone: without the game's `lead` they open with
    (server/notify/texts.py post_text) and without the game's link on their last line."""
    found: list[str] = []
    for text in texts:
        lines = text.split("\n")
        if len(lines) > 1 and lines[-1].startswith("http"):
            lines.pop()
        if lines[0] == f"{lead}:":
            found += lines[1:]
        elif len(lines) == 1 and lines[0].startswith(f"{lead}: "):
            found.append(lines[0].removeprefix(f"{lead}: "))
        else:
            found += lines
    return found


@contextmanager
def _serving(server: socketserver.BaseServer) -> Iterator[None]:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def receiving(**kwargs: Any) -> Iterator[Receiver]:
    receiver = Receiver(**kwargs)
    with _serving(receiver.http):
        yield receiver


class Dripping:
    """A receiver that reads the post, answers its status line at once, then one byte of a
    header every `every` seconds for `lasting` seconds: a client timing out each read alone
    never times out. It stops dripping when the test leaves it."""

    def __init__(self, every: float, lasting: float) -> None:
        self.every, self.lasting = every, lasting
        self.connected: list[float] = []  # when each post's connection was accepted
        self.stopped = threading.Event()
        self._changed = threading.Condition()
        dripping = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                with dripping._changed:
                    dripping.connected.append(time.monotonic())
                    dripping._changed.notify_all()
                dripping.drip(self.request)

        self.tcp = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.tcp.daemon_threads = True
        self.port = self.tcp.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}{PATH}"

    def drip(self, connection: socket.socket) -> None:
        connection.settimeout(5)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = connection.recv(4096)
            if not chunk:
                return
            head += chunk
        try:
            connection.sendall(b"HTTP/1.1 204 No Content\r\nX-Drip: ")
            until = time.monotonic() + self.lasting
            while time.monotonic() < until and not self.stopped.wait(self.every):
                connection.sendall(b"a")
            connection.sendall(b"\r\nContent-Length: 0\r\n\r\n")
        except OSError:
            return  # the client hung up

    def wait_connected(self, count: int = 1, seconds: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        with self._changed:
            while len(self.connected) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.connected)} posts reached the receiver")
                self._changed.wait(timeout=left)


@contextmanager
def dripping(every: float = 0.3, lasting: float = 25.0) -> Iterator[Dripping]:
    receiver = Dripping(every, lasting)
    with _serving(receiver.tcp):
        try:
            yield receiver
        finally:
            receiver.stopped.set()


def free_port_url() -> str:
    """The URL of a receiver that is down: a port nobody listens on."""
    probe = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = probe.server_port
    probe.server_close()
    return f"http://127.0.0.1:{port}/api/webhooks/1/down"
