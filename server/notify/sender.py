"""Sending the outbox: a background thread claims due rows (server/store/notices.py says how
several processes share them), posts each to its game's webhook as JSON that Discord and
Slack both take, and marks it sent; a failure is tried again after a delay that doubles each
time, up to a cap on attempts, then marked failed. A receiver that is down or slow costs the
thread a short timeout per row and never a command anything. Nothing here logs a webhook
URL: it holds the webhook's secret.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from court.errors import CourtError
from server.notify.urls import UrlPolicy, check_url
from server.outages import Outage
from server.store.failures import DATABASE_ERRORS, log_failure
from server.store.notices import FAILED, SENT, Claimed, NoticeStore

log = logging.getLogger("small_council.notices")
TEXT_MAX = 1900  # Discord takes 2,000 characters of content
# Answers that say the webhook is gone, refuses this body or sends the post elsewhere (a
# redirect is never followed): trying again changes nothing.
FINAL = {301, 302, 303, 307, 308, 400, 401, 403, 404, 405, 410, 413, 422}


class DeliveryFailed(Exception):
    """A post that did not arrive; `final` when trying again cannot help."""

    def __init__(self, reason: str, *, final: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.final = final


@dataclass(frozen=True, slots=True, kw_only=True)
class SendSettings:
    timeout: float = 5.0  # seconds a post may take
    attempts: int = 6  # posts of one notice at most
    backoff: float = 2.0  # seconds before the first retry; doubled for each next one
    backoff_max: float = 600.0
    poll: float = 2.0  # seconds between looks at the outbox when nothing wakes the thread
    batch: int = 20


def body(text: str) -> bytes:
    """One JSON body for Discord (`content`; no mention pings anyone) and Slack (`text`, with
    the three characters Slack reads as markup escaped)."""
    text = text[:TEXT_MAX]
    slack = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    payload = {"content": text, "text": slack, "allowed_mentions": {"parse": []}}
    return json.dumps(payload, ensure_ascii=False).encode()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is a failure: following one would post to a host nobody checked."""

    def redirect_request(self, *args: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def post(url: str, text: str, timeout: float) -> None:
    """Post one notice; DeliveryFailed says why it did not arrive (without the URL)."""
    request = urllib.request.Request(
        url,
        data=body(text),
        method="POST",
        headers={"Content-Type": "application/json", "User-Agent": "SmallCouncil-Notices"},
    )
    try:
        with _OPENER.open(request, timeout=timeout) as answer:
            answer.read(1024)
    except urllib.error.HTTPError as exc:
        raise DeliveryFailed(f"the webhook answered {exc.code}", final=exc.code in FINAL) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise DeliveryFailed(f"the webhook cannot be reached ({type(exc).__name__})") from None


Post = Callable[[str, str, float], None]


class OutboxSender:
    """The thread sending the outbox of one process. `wake()` after an insert sends at once;
    rows inserted by other processes and retries falling due are found every `poll` seconds,
    when `refresh` (the games with a webhook, which another process may have set) runs too."""

    def __init__(
        self,
        notices: NoticeStore,
        policy: UrlPolicy,
        settings: SendSettings,
        *,
        refresh: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.time,
        send: Post = post,
        database: Outage | None = None,
    ) -> None:
        self.notices = notices
        self.database = database or Outage("database")
        self.policy = policy
        self.settings = settings
        self.refresh = refresh
        self.clock = clock
        self.send = send
        self.name = uuid.uuid4().hex[:16]  # this process's claims
        self._wake = threading.Condition()
        self._woken = False
        self._stopped = False
        self._thread: threading.Thread | None = None

    def wake(self) -> None:
        with self._wake:
            self._woken = True
            self._wake.notify()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="notices", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=self.settings.timeout + 5)

    def _run(self) -> None:
        while True:
            with self._wake:
                if not self._woken and not self._stopped:
                    self._wake.wait(timeout=self.settings.poll)
                self._woken = False
                if self._stopped:
                    return
            try:
                self.refresh()
                while self.send_due() == self.settings.batch:
                    pass
                self.database.passed(writing=True)  # claiming a notice writes
            except DATABASE_ERRORS as exc:
                # Tried again at the next look; logged once for the whole outage.
                log_failure(log, "reading the outbox", exc, self.database)
            except Exception:
                log.exception("sending the outbox failed")

    def send_due(self) -> int:
        """Claim the rows due now and send each; returns how many were claimed."""
        lease = int((self.settings.timeout * 2 + 30) * 1000)
        rows = self.notices.claim(self.name, self._ms(), lease, self.settings.batch)
        for row in rows:
            self._deliver(row)
        return len(rows)

    def _deliver(self, row: Claimed) -> None:
        url = self.notices.webhook(row.game_id)
        try:
            if url is None:
                raise DeliveryFailed("the game has no webhook now", final=True)
            self.send(self._checked(url), row.text, self.settings.timeout)
        except DeliveryFailed as exc:
            self._failed(row, exc)
            return
        self.notices.finish(row, self.name, SENT, self._ms(), "")

    def _checked(self, url: str) -> str:
        """The URL, checked again: the host's addresses may have changed since it was set."""
        try:
            return check_url(url, self.policy)
        except CourtError as exc:
            raise DeliveryFailed(exc.message, final=True) from None

    def _failed(self, row: Claimed, exc: DeliveryFailed) -> None:
        attempt = row.attempts + 1
        log.warning("notice %s of game %s, attempt %s: %s", row.id, row.game_id, attempt, exc)
        if exc.final or attempt >= self.settings.attempts:
            self.notices.finish(row, self.name, FAILED, self._ms(), exc.reason)
            return
        delay = min(self.settings.backoff * 2 ** (attempt - 1), self.settings.backoff_max)
        self.notices.retry(row, self.name, self._ms() + int(delay * 1000), exc.reason)

    def _ms(self) -> int:
        return int(self.clock() * 1000)
