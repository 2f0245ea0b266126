"""Sending one mail (server/notify/mail.py) to local SMTP servers: STARTTLS with a login, TLS
from the start, a certificate the client does not trust, and servers that never answer or drip
their greeting a byte at a time, cut off at the mail's deadline."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from server.notify.delivery import DeliveryFailed
from server.notify.mail import SmtpSettings, send_mail
from tests.server.notify.certificates import Authority
from tests.server.notify.smtp import SmtpReceiver
from tests.services import free_port

ANN = "ann@example.org"


def settings(port: int, **kwargs: Any) -> SmtpSettings:
    return SmtpSettings(
        host="127.0.0.1", port=port, sender="court@example.org", timeout=2.0, **kwargs
    )


class Logins:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def __call__(self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
        login, password = data.login.decode(), data.password.decode()
        self.seen.append((login, password))
        # handled=False: aiosmtpd answers 235 or 535 itself
        return AuthResult(success=(login, password) == ("court", "s3cret"), handled=False)


@contextmanager
def controlled(receiver: SmtpReceiver, **kwargs: Any) -> Iterator[int]:
    from tests.server.notify.smtp import _Handler

    port = free_port()
    controller = Controller(_Handler(receiver), hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()


def test_a_mail_goes_through_starttls_with_a_login(local_authority: Authority) -> None:
    receiver, logins = SmtpReceiver(), Logins()
    with controlled(
        receiver,
        tls_context=local_authority.server("IP:127.0.0.1"),
        require_starttls=True,
        authenticator=logins,
        auth_require_tls=True,
    ) as port:
        smtp = settings(
            port, security="starttls", user="court", password="s3cret", tls=local_authority.client()
        )
        send_mail(smtp, ANN, "Your turn", "It is your turn.")

    [mail] = receiver.mails
    assert (mail.to, mail.subject, mail.text.strip()) == ((ANN,), "Your turn", "It is your turn.")
    assert logins.seen == [("court", "s3cret")]


def test_a_wrong_password_is_a_final_failure(local_authority: Authority) -> None:
    receiver = SmtpReceiver()
    with controlled(
        receiver,
        tls_context=local_authority.server("IP:127.0.0.1"),
        authenticator=Logins(),
        auth_require_tls=True,
    ) as port:
        smtp = settings(
            port, security="starttls", user="court", password="wrong", tls=local_authority.client()
        )
        with pytest.raises(DeliveryFailed) as failed:
            send_mail(smtp, ANN, "Your turn", "It is your turn.")

    assert failed.value.final and "535" in failed.value.reason
    assert receiver.mails == []


def test_a_certificate_the_client_does_not_trust_stops_the_mail(
    local_authority: Authority,
) -> None:
    receiver = SmtpReceiver()
    with (
        controlled(receiver, tls_context=local_authority.server("IP:127.0.0.1")) as port,
        pytest.raises(DeliveryFailed) as failed,
    ):
        send_mail(settings(port, security="starttls"), ANN, "Your turn", "text")

    assert not failed.value.final and "SSLCertVerificationError" in failed.value.reason
    assert receiver.mails == []


@contextmanager
def silent_server(drip: bool) -> Iterator[int]:
    """A server that takes connections and never greets, or greets a byte every 0.2 s."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(conn)
            greeting = b"220 " + b"x" * 200 + b"\r\n"
            for byte in greeting if drip else b"":
                if stop.wait(0.2):
                    break
                conn.sendall(bytes([byte]))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        listener.close()


@pytest.mark.parametrize("drip", [False, True], ids=["silent", "dripping"])
def test_a_server_that_does_not_answer_in_time_is_cut_off_at_the_deadline(drip: bool) -> None:
    with silent_server(drip) as port:
        began = time.monotonic()
        with pytest.raises(DeliveryFailed) as failed:
            send_mail(settings(port, security="none"), ANN, "Your turn", "text")
        took = time.monotonic() - began

    assert failed.value.reason == "the mail server did not answer within 2 s"
    assert not failed.value.final
    assert took < 3.5
