"""Posting one notice to a webhook: to an address its URL was checked at (urls.Target), never
resolving the name again; with the URL's host in the Host header and in TLS (the server name
sent, the certificate checked against it); within one deadline for the whole post; never
following a redirect. Nothing here names the URL in an error: it holds the webhook's secret.
"""

from __future__ import annotations

import http.client
import io
import json
import select
import socket
import ssl
import time
from collections.abc import Callable
from functools import cache

from server.notify.texts import for_slack
from server.notify.urls import Target

TEXT_MAX = 1900  # Discord takes 2,000 characters of content
ANSWER_MAX = 65536  # bytes of an answer read; webhooks answer a few
HEADERS = {"Content-Type": "application/json", "User-Agent": "SmallCouncil-Notices"}
# Answers that say the webhook is gone, refuses this body or sends the post elsewhere (a
# redirect is never followed): trying again changes nothing.
FINAL = {301, 302, 303, 307, 308, 400, 401, 403, 404, 405, 410, 413, 422}


class DeliveryFailed(Exception):
    """A post that did not arrive; `final` when trying again cannot help."""

    def __init__(self, reason: str, *, final: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.final = final


def body(text: str) -> bytes:
    """One JSON body for Discord (`content`, escaped as texts.py escapes what players typed;
    no mention pings anyone even if one slipped through) and Slack (`text`, the same read
    without mrkdwn, texts.for_slack)."""
    text = text[:TEXT_MAX]
    payload = {
        "content": text,
        "allowed_mentions": {"parse": []},
        "text": for_slack(text),
        "mrkdwn": False,
    }
    return json.dumps(payload, ensure_ascii=False).encode()


Post = Callable[[Target, str, float], None]


def post(target: Target, text: str, timeout: float, tls: ssl.SSLContext | None = None) -> None:
    """Post one notice within `timeout` seconds in all (connect, TLS, send, the whole
    answer); DeliveryFailed says why it did not arrive. `tls` stands in for the system's
    certificate authorities (the tests' own)."""
    deadline = Deadline(timeout)
    secure = (tls or _system_tls()) if target.scheme == "https" else None
    connection = _PinnedConnection(target, deadline, secure)
    try:
        connection.request("POST", target.path, body=body(text), headers=HEADERS)
        answer = connection.getresponse()
        answer.read(ANSWER_MAX)
        status = answer.status
    except ssl.SSLCertVerificationError:
        raise DeliveryFailed("the webhook's certificate is not valid for its host") from None
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if deadline.passed():
            raise DeliveryFailed(f"the webhook did not answer within {timeout:g} s") from None
        raise DeliveryFailed(f"the webhook cannot be reached ({type(exc).__name__})") from None
    finally:
        connection.close()
    if not 200 <= status < 300:
        raise DeliveryFailed(f"the webhook answered {status}", final=status in FINAL)


@cache
def _system_tls() -> ssl.SSLContext:
    """The system's certificate authorities, names checked (made once: loading them is slow)."""
    return ssl.create_default_context()


class Deadline:
    """The one instant every step of a post must be done by."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds

    def passed(self) -> bool:
        return time.monotonic() >= self.at

    def left(self) -> float:
        """Seconds left; TimeoutError once there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the post's deadline passed")
        return left


class _PinnedConnection(http.client.HTTPConnection):
    """http.client's connection to one of the target's checked addresses: `host` (the Host
    header, TLS's server name) stays the URL's host, and the name is never looked up."""

    def __init__(self, target: Target, deadline: Deadline, tls: ssl.SSLContext | None) -> None:
        super().__init__(target.host, target.port)
        self.default_port = 443 if tls is not None else 80  # "Host: name" on the usual port
        self.target = target
        self.deadline = deadline
        self.tls = tls

    def connect(self) -> None:
        connected = _connect(self.target, self.deadline)
        try:
            if self.tls is not None:
                connected = _handshake(self.tls, connected, self.target.host, self.deadline)
        except BaseException:
            connected.close()
            raise
        # http.client uses only sendall, makefile and close of its socket: _Bounded's own.
        self.sock = _Bounded(connected, self.deadline)


def _connect(target: Target, deadline: Deadline) -> socket.socket:
    """A connection to the first of the target's addresses that takes one."""
    failure: OSError = OSError("the webhook's host has no address")
    for address in target.addresses:
        try:
            return socket.create_connection((address, target.port), timeout=deadline.left())
        except OSError as exc:
            failure = exc
    raise failure


def _handshake(
    tls: ssl.SSLContext, connected: socket.socket, host: str, deadline: Deadline
) -> ssl.SSLSocket:
    """TLS naming `host` (SNI) and checking the certificate against it, not against the
    address connected to. Each wait gets only the time left: one blocking handshake would
    give every read of it a whole timeout again under gevent."""
    secured = tls.wrap_socket(connected, server_hostname=host, do_handshake_on_connect=False)
    secured.setblocking(False)
    while True:
        try:
            secured.do_handshake()
            return secured
        except ssl.SSLWantReadError:
            readable, writable = [secured], []
        except ssl.SSLWantWriteError:
            readable, writable = [], [secured]
        if not any(select.select(readable, writable, [], deadline.left())[:2]):
            raise TimeoutError("the TLS handshake did not end in time")


class _Bounded:
    """A connected socket as http.client uses it, each read and write given only the time
    left before the deadline: a receiver that drips its answer a byte at a time is cut off
    when the time is up, not a whole timeout after each byte."""

    def __init__(self, sock: socket.socket, deadline: Deadline) -> None:
        self.sock = sock
        self.deadline = deadline

    def sendall(self, data: bytes) -> None:
        self.sock.settimeout(self.deadline.left())
        self.sock.sendall(data)

    def recv_into(self, buffer: memoryview) -> int:
        self.sock.settimeout(self.deadline.left())
        return self.sock.recv_into(buffer)

    def makefile(self, mode: str = "rb", *args: object, **kwargs: object) -> io.BufferedReader:
        return io.BufferedReader(_Reader(self))

    def close(self) -> None:
        self.sock.close()


class _Reader(io.RawIOBase):
    def __init__(self, bounded: _Bounded) -> None:
        self.bounded = bounded

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        return self.bounded.recv_into(buffer)
