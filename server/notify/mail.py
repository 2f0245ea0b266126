"""Sending one mail through the operator's SMTP server (smtplib), within one deadline for the
whole exchange, and reading the address a seat gives (email-validator). Nothing here logs an
address or a mail's text: the address is the seat's secret, and a verification mail's text
holds its code.
"""

from __future__ import annotations

import contextlib
import smtplib
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from functools import cache

from email_validator import SPECIAL_USE_DOMAIN_NAMES, EmailNotValidError, validate_email

from court.errors import CourtError
from server.notify.delivery import DeliveryFailed
from server.store.mail import ADDRESS_MAX

# Seconds by which a read ended by the socket's own timeout may come before the deadline's timer.
TIMER_SLACK = 0.05


@dataclass(frozen=True, slots=True, kw_only=True)
class SmtpSettings:
    host: str
    port: int = 587
    security: str = "starttls"  # "tls", "none"
    user: str = ""
    password: str = field(default="", repr=False)
    sender: str  # the From address
    timeout: float = 10.0
    tls: ssl.SSLContext | None = field(default=None, repr=False)  # the tests' own authority


class AddressRefused(CourtError):
    """An address that is none (its shape, its length): 400 as any malformed request, with a
    code and a sentence the player reads."""


def checked_address(text: str) -> str:
    """The address, normalized, if it has the shape of one mail can reach; else AddressRefused
    saying why (never repeating the address). Its domain is not looked up: the mail with the
    link is the test."""
    text = text.strip()
    if len(text) > ADDRESS_MAX:
        raise AddressRefused(
            "mail_too_long", f"An e-mail address has at most {ADDRESS_MAX} characters."
        )
    domain = text.rpartition("@")[2].rstrip(".").lower()
    if "@" in text and domain.rpartition(".")[2] in SPECIAL_USE_DOMAIN_NAMES:
        # Names kept for tests and local networks (RFC 6761): the address has the right shape,
        # but no mail on the Internet reaches it, so say that rather than "no address".
        raise AddressRefused(
            "mail_domain_reserved",
            f"Mail cannot reach an address ending in .{domain.rpartition('.')[2]}: that ending "
            "is kept for tests and local networks. Give an address mail reaches "
            "(name@example.org).",
        )
    try:
        found = validate_email(text, check_deliverability=False)
    except EmailNotValidError:
        raise AddressRefused(
            "mail_address", "This is not an e-mail address (it looks like name@example.org)."
        ) from None
    if len(found.normalized) > ADDRESS_MAX:
        raise AddressRefused(
            "mail_too_long", f"An e-mail address has at most {ADDRESS_MAX} characters."
        )
    return found.normalized


def mailbox(address: str) -> str:
    """The mailbox an address reaches, as the limits count it: one whatever the case of its
    letters, and whatever "+tag" follows the name (most servers deliver "ann+x@" to "ann@")."""
    name, _, domain = address.casefold().rpartition("@")
    return f"{name.partition('+')[0]}@{domain}"


def message(smtp: SmtpSettings, to: str, subject: str, text: str) -> EmailMessage:
    """One plain-text mail: no HTML part in which a name could become markup or a link, and a
    subject on one line whatever it was given (a line break would start a header of its own,
    which the email package refuses to write)."""
    mail = EmailMessage()
    mail["From"] = smtp.sender
    mail["To"] = to
    mail["Subject"] = " ".join(subject.split())
    mail["Date"] = formatdate(localtime=False)
    mail["Message-ID"] = make_msgid(domain=smtp.sender.rpartition("@")[2] or None)
    # An automatic mail (RFC 3834): no out-of-office answers to it.
    mail["Auto-Submitted"] = "auto-generated"
    mail.set_content(text)
    return mail


def send_mail(smtp: SmtpSettings, to: str, subject: str, text: str) -> None:
    """Send one mail within `smtp.timeout` seconds in all; DeliveryFailed says why it did not
    go (`final` when the server refused it for good, a 5xx)."""
    mail = message(smtp, to, subject, text)
    client: smtplib.SMTP | None = None
    cut = threading.Event()

    def _cut() -> None:
        # A server that drips its answers is cut off when the time is up: the socket is shut,
        # which ends the read it is blocked in.
        cut.set()
        sock = getattr(client, "sock", None)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    timer = threading.Timer(smtp.timeout, _cut)
    timer.daemon = True
    # Made before it connects, so that the deadline can cut the greeting's read too.
    client = _client(smtp)
    timer.start()
    began = time.monotonic()
    try:
        client.connect(smtp.host, smtp.port)
        if smtp.security == "starttls":
            client.starttls(context=smtp.tls or _system_tls())
        if smtp.user:
            client.login(smtp.user, smtp.password)
        client.send_message(mail)
        client.quit()
    except smtplib.SMTPResponseException as exc:
        raise DeliveryFailed(
            f"the mail server answered {exc.smtp_code}", final=exc.smtp_code >= 500
        ) from None
    except smtplib.SMTPRecipientsRefused:
        raise DeliveryFailed("the mail server refused the address", final=True) from None
    except (OSError, smtplib.SMTPException) as exc:
        # The socket's own timeout may end the read a moment before the timer cuts it.
        if cut.is_set() or time.monotonic() - began >= smtp.timeout - TIMER_SLACK:
            raise DeliveryFailed(
                f"the mail server did not answer within {smtp.timeout:g} s"
            ) from None
        raise DeliveryFailed(f"the mail server cannot be reached ({type(exc).__name__})") from None
    finally:
        timer.cancel()
        client.close()


def _client(smtp: SmtpSettings) -> smtplib.SMTP:
    """A client not yet connected (over TLS from the start for `tls`), that names the server
    in TLS as if it had been made with its host: smtplib keeps that name only then."""
    if smtp.security == "tls":
        client: smtplib.SMTP = smtplib.SMTP_SSL(
            timeout=smtp.timeout, context=smtp.tls or _system_tls()
        )
    else:
        client = smtplib.SMTP(timeout=smtp.timeout)
    client._host = smtp.host  # type: ignore[attr-defined]  # read by starttls and SMTP_SSL
    return client


@cache
def _system_tls() -> ssl.SSLContext:
    return ssl.create_default_context()
