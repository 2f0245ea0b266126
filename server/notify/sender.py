"""Sending the outbox, a game at a time: a dispatching thread finds the games whose next
notice is due (server/store/notices.py says how several processes share them) and hands each
to a sender of its own, at most `senders` at once, so that a receiver that is slow or down
holds its own game's notices and no other's. A game's sender posts its notices in their
order (delivery.py), marking each sent: those that arrived within `group` seconds of each
other go out as one post, as many as one post holds. A failure is tried again after a delay
that doubles each time, up to a cap on attempts, then marked failed, and the game's later
notices wait for it. Nothing here logs a webhook URL: it holds the webhook's secret. The
seats' mails (server/notify/reminders.py) have a sender of their own, with their own
delivery: a slow mail server holds up no webhook's notices.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from court.errors import CourtError
from server.notify.delivery import TEXT_MAX, DeliveryFailed, Post, post
from server.notify.urls import Resolver, Target, UrlPolicy, pin, resolve
from server.outages import Outage
from server.store.failures import DATABASE_ERRORS, log_failure
from server.store.notices import FAILED, SENT, Claimed, NoticeStore, Outbox

log = logging.getLogger("small_council.notices")


@dataclass(frozen=True, slots=True, kw_only=True)
class SendSettings:
    timeout: float = 5.0  # seconds a post may take, all told
    attempts: int = 6  # posts of one notice at most
    backoff: float = 2.0  # seconds before the first retry; doubled for each next one
    backoff_max: float = 600.0
    poll: float = 2.0  # seconds between looks at the outbox when nothing wakes the thread
    batch: int = 20  # notices a game's sender posts before it makes way for the others
    senders: int = 8  # games whose notices are being posted at once
    group: float = 0.0  # seconds within which a game's notices are posted together (0: never)


# A post of a game's notices: (game, the line it opens with, the notices) -> its text.
Compose = Callable[[str, str, Sequence[str]], str]


class OutboxSender:
    """The senders of the outbox of one process. `wake()` after an insert sends at once;
    rows inserted by other processes and retries falling due are found every `poll` seconds,
    when `refresh` (the games with a webhook, which another process may have set) runs too."""

    def __init__(
        self,
        notices: Outbox,
        policy: UrlPolicy,
        settings: SendSettings,
        *,
        refresh: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.time,
        send: Post = post,
        resolver: Resolver = resolve,
        database: Outage | None = None,
        deliver: Callable[[Claimed], None] | None = None,
        compose: Compose | None = None,
        name: str = "notices",
    ) -> None:
        """`notices`: the webhooks' outbox, posted to each game's webhook, several notices in
        one post as `compose` writes it; or another outbox whose rows `deliver` sends
        (DeliveryFailed when one did not go)."""
        self.notices = notices
        self.deliver = deliver
        self.compose = compose or _joined
        self.thread_name = name
        self.database = database or Outage("database")
        self.policy = policy
        self.settings = settings
        self.refresh = refresh
        self.clock = clock
        self.send = send
        self.resolver = resolver
        self.name = uuid.uuid4().hex[:16]  # this process's claims
        self._wake = threading.Condition()
        self._woken = False
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._sending: dict[str, threading.Thread] = {}  # game -> its sender, while it runs

    def wake(self) -> None:
        with self._wake:
            self._woken = True
            self._wake.notify()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop dispatching; wait for the games' senders, each within its post's deadline."""
        with self._wake:
            self._stopped = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=self.settings.timeout + 5)
        with self._wake:
            senders = list(self._sending.values())
        for sender in senders:
            sender.join(timeout=self.settings.timeout + 5)

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
                self.dispatch()
                self.database.passed(writing=True)  # claiming a notice writes
            except DATABASE_ERRORS as exc:
                # Tried again at the next look; logged once for the whole outage.
                log_failure(log, "reading the outbox", exc, self.database)
            except Exception:
                log.exception("sending the outbox failed")

    def dispatch(self) -> None:
        """Start a sender for each game whose next notice is due, up to `senders` at once."""
        with self._wake:
            busy = set(self._sending)
        free = self.settings.senders - len(busy)
        if free <= 0:
            return
        games = self.notices.due_games(self._ms(), most=free + len(busy))
        for game_id in [g for g in games if g not in busy][:free]:
            thread = threading.Thread(
                target=self._send_game,
                args=(game_id,),
                name=f"{self.thread_name}-game",
                daemon=True,
            )
            with self._wake:
                self._sending[game_id] = thread
            thread.start()

    def _send_game(self, game_id: str) -> None:
        try:
            self.send_game(game_id)
        except DATABASE_ERRORS as exc:
            log_failure(log, f"sending the notices of game {game_id}", exc, self.database)
        except Exception:
            log.exception("sending the notices of game %s failed", game_id)
        finally:
            with self._wake:
                self._sending.pop(game_id, None)
            self.wake()  # more may be due: this game's next ones, or a game kept waiting

    def send_game(self, game_id: str) -> int:
        """Post the game's due notices in order, up to `batch`, stopping at one that must be
        tried later; returns how many were claimed."""
        lease = int((self.settings.timeout * 2 + 30) * 1000)
        group = 0 if self.deliver is not None else int(self.settings.group * 1000)
        sent = 0
        while sent < self.settings.batch and not self._stopped:
            row = self.notices.claim_next(
                game_id, self.name, self._ms(), lease, group_ms=group, fits=self._fits(game_id)
            )
            if row is None:
                break
            self._deliver(row)
            sent += len(row.ids)
        return sent

    def _fits(self, game_id: str) -> Callable[[Sequence[str], str], bool]:
        return lambda texts, lead: len(self.compose(game_id, lead, texts)) <= TEXT_MAX

    def send_due(self) -> int:
        """Post every game's due notices here, a game after another (the dispatcher runs
        them side by side); returns how many were claimed."""
        return sum(
            self.send_game(game_id)
            for game_id in self.notices.due_games(self._ms(), most=self.settings.batch)
        )

    def _deliver(self, row: Claimed) -> None:
        try:
            if self.deliver is not None:
                self.deliver(row)
            else:
                self._post(row)
        except DeliveryFailed as exc:
            self._failed(row, exc)
            return
        self.notices.finish(row, self.name, SENT, self._ms(), "")

    def _post(self, row: Claimed) -> None:
        assert isinstance(self.notices, NoticeStore)
        url = self.notices.webhook(row.game_id)
        if url is None:
            raise DeliveryFailed("the game has no webhook now", final=True)
        text = self.compose(row.game_id, row.lead, row.texts)
        self.send(self._checked(url), text, self.settings.timeout)

    def _checked(self, url: str) -> Target:
        """The URL, checked again (the host's addresses may have changed since it was set),
        with the addresses the post is to connect to."""
        try:
            return pin(url, self.policy, self.resolver)
        except CourtError as exc:
            raise DeliveryFailed(exc.message, final=True) from None

    def _failed(self, row: Claimed, exc: DeliveryFailed) -> None:
        attempt = row.attempts + 1
        log.warning(
            "%s %s of game %s, attempt %s: %s",
            self.thread_name,
            ",".join(map(str, row.ids)),
            row.game_id,
            attempt,
            exc,
        )
        if exc.final or attempt >= self.settings.attempts:
            self.notices.finish(row, self.name, FAILED, self._ms(), exc.reason)
            return
        delay = min(self.settings.backoff * 2 ** (attempt - 1), self.settings.backoff_max)
        self.notices.retry(row, self.name, self._ms() + int(delay * 1000), exc.reason)

    def _ms(self) -> int:
        return int(self.clock() * 1000)


def _joined(game_id: str, lead: str, texts: Sequence[str]) -> str:
    """Notices posted together, a line each, under their lead when they have one."""
    return "\n".join([lead, *texts] if lead else texts)
