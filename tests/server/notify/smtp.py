"""A local SMTP receiver for the tests (aiosmtpd), on 127.0.0.1 and a free port, in a thread of
its own: it keeps every mail it accepted, and can refuse the first deliveries of each mail for
a while (451) or for good (550), or take its time before it answers."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.services import free_port

WAIT_SECONDS = 10.0
CODE = re.compile(r"#mail=([A-Za-z0-9_\-]+)")


@dataclass(frozen=True)
class Mail:
    sender: str
    to: tuple[str, ...]
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def text(self) -> str:
        return str(self.message.get_content()).replace("\r\n", "\n")

    @property
    def code(self) -> str:
        """The code of the verification link the mail holds."""
        found = CODE.search(self.text)
        assert found is not None, self.text
        return found[1]


class SmtpReceiver:
    def __init__(
        self, *, failures: int = 0, refuse: bool = False, delay: float = 0.0, failing: str = ""
    ) -> None:
        self.failures = failures  # deliveries of each mail answered 451 before a 250
        self.refuse = refuse  # every delivery answered 550
        self.delay = delay  # seconds before the answer to the mail's data
        self.failing = failing  # only mails whose subject holds this fail or wait
        self.mails: list[Mail] = []
        self.tries: list[str] = []  # every subject offered, refused ones too
        self._offered: Counter[str] = Counter()  # deliveries of each mail (by its text)
        self._changed = threading.Condition()
        self.port = free_port()
        self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)

    def accept(self, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        subject = str(message["Subject"])
        with self._changed:
            self.tries.append(subject)
            self._offered[str(message.get_content())] += 1
            tries = self._offered[str(message.get_content())]
            failing = self.failing in subject
            if self.refuse and failing:
                answer = "550 5.1.1 no such mailbox"
            elif tries <= self.failures and failing:
                answer = "451 4.3.0 try again later"
            else:
                self.mails.append(Mail(envelope.mail_from, tuple(envelope.rcpt_tos), message))
                answer = "250 OK"
            self._changed.notify_all()
        return answer

    def to(self, address: str) -> list[Mail]:
        with self._changed:
            return [m for m in self.mails if address in m.to]

    def wait_for(self, done: Callable[[list[Mail]], bool], seconds: float = WAIT_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        with self._changed:
            while not done(list(self.mails)):
                left = deadline - time.monotonic()
                assert left > 0, [(m.to, m.subject) for m in self.mails]
                self._changed.wait(left)

    def wait_for_mail(self, address: str, subject_part: str, count: int = 1) -> list[Mail]:
        def arrived(mails: list[Mail]) -> bool:
            found = [m for m in mails if address in m.to and subject_part in m.subject]
            return len(found) >= count

        self.wait_for(arrived)
        return [m for m in self.to(address) if subject_part in m.subject]


class _Handler:
    def __init__(self, receiver: SmtpReceiver) -> None:
        self.receiver = receiver

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        subject = message_from_bytes(envelope.content, policy=policy.default)["Subject"]
        if self.receiver.delay and self.receiver.failing in str(subject):
            await asyncio.sleep(self.receiver.delay)
        return self.receiver.accept(envelope)


@contextmanager
def smtp_receiving(**kwargs: Any) -> Iterator[SmtpReceiver]:
    receiver = SmtpReceiver(**kwargs)
    receiver.controller.start()
    try:
        yield receiver
    finally:
        receiver.controller.stop()
