"""Reminders by mail for a seat whose player gave an address: his turn, the results revealed and
the end of the game, while he has no connection open; and the seat's own setting (give, read,
verify, remove).

An address belongs to the token that gave it (server/store/mail.py): a seat handed to a new
token, removed or given up loses it, so the new player never sees the old one's address and
the old one is mailed no more; he gives it again if he holds the seat again. An address given
through a person's key's link (court/model/links.py) is mailed while the link stands; another token
of the same seat (the player's other devices) reads none and drops none. Reminders go to
a verified address only: giving one sends a mail with a link whose code (kept as a digest)
verifies it, and those mails are limited per seat, per address and per game over an hour
(server/notify/sends.py): an address may be anyone's. A mail names the game, what happened and
the game's page under PUBLIC_URL, never a token: the server keeps none, and a mail may be read
or forwarded anywhere. It is plain text, and what players typed in it makes no link.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from court.commands import Actor
from court.errors import CourtError
from court.ids import GameId, Seat
from court.log.chain import Record
from court.model.tokens import actor_of
from court.state import CourtState
from court.views.waiting import awaited
from server.notify.delivery import DeliveryFailed
from server.notify.mail import SmtpSettings, checked_address, mailbox, send_mail
from server.notify.sender import OutboxSender
from server.notify.sends import HOUR_MS, MINUTE_MS, SendGate
from server.notify.texts import (
    KEY_MAX,
    Called,
    game_called,
    game_page,
    names_typed,
    record_text,
    unlinked,
)
from server.store.mail import Given, MailStore, SeatMail
from server.store.notices import Claimed, Notice
from server.store.sends import Limit, Scope

RESULTS = ("BallotsRevealed", "BidsRevealed", "GameEnded")
# Records after which the seat's token is no longer the one that gave its address.
HANDED = ("SeatHanded", "SeatRemoved", "SeatLeft")
LINK = "mail_link"  # what the sends' limits count a mail with a verification link as
FOOTER = (
    "You get this mail because you gave this address for your seat in this game. To stop "
    'these mails, open the game and remove it under "Reminders by mail". The link holds no '
    "key: it opens your seat on a device that remembers it."
)


@dataclass(frozen=True, slots=True, kw_only=True)
class MailSettings:
    smtp: SmtpSettings | None  # None: the server sends no mail
    public_url: str = ""  # where every link points (config/settings.py requires it with smtp)
    verify_hours: float = 24.0
    turn_gap: float = 600.0  # seconds at least between two "your turn" mails to one seat
    # Mails with a verification link in an hour, at most: to one seat (and one a minute), to
    # one mailbox from any seat of any game, and to the seats of one game.
    links_per_seat: int = 3
    links_per_address: int = 5
    links_per_game: int = 12

    def link_limits(self) -> dict[Limit, tuple[str, str]]:
        """Each limit on mails with a link, with the code and sentence of a refusal."""
        later = "ask again later"
        return {
            Limit(Scope.SEAT, 1, MINUTE_MS): (
                "mail_too_soon",
                "A mail with a link went out less than a minute ago: wait a minute to ask again.",
            ),
            Limit(Scope.SEAT, self.links_per_seat, HOUR_MS): (
                "mail_limit_seat",
                f"This seat was sent {self.links_per_seat} mails with a link in the last hour, "
                f"as many as the court sends: {later}.",
            ),
            Limit(Scope.TARGET, self.links_per_address, HOUR_MS): (
                "mail_limit_address",
                f"This address was sent {self.links_per_address} mails with a link in the last "
                f"hour, as many as the court sends to one address: {later}.",
            ),
            Limit(Scope.GAME, self.links_per_game, HOUR_MS): (
                "mail_limit_game",
                f"The seats of this game were sent {self.links_per_game} mails with a link in "
                f"the last hour, as many as the court sends for one game: {later}.",
            ),
        }


def digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


class Reminders:
    """The publisher of the seats' mails, their sender's delivery, and the seats' setting."""

    def __init__(
        self,
        mail: MailStore,
        settings: MailSettings,
        *,
        gate: SendGate,
        connected: Callable[[str], Collection[int]],
        clock: Callable[[], float] = time.time,
        send: Callable[[SmtpSettings, str, str, str], None] = send_mail,
    ) -> None:
        self.mail = mail
        self.settings = settings
        self.gate = gate  # the limits on mails with a link
        self.connected = connected  # the seats with a connection open in a game
        self.clock = clock
        self.send = send
        self.sender: OutboxSender | None = None
        self._games: frozenset[str] = frozenset()  # games with an address, verified or not
        self._guard = threading.Lock()

    def load(self) -> None:
        """Read which games have an address (start-up, and every few seconds after)."""
        self._games = frozenset(self.mail.games_with_addresses())

    # -- after each command -------------------------------------------------

    def publish(self, game_id: GameId, records: Sequence[Record], state: CourtState) -> None:
        if self.settings.smtp is None or game_id not in self._games:
            return
        for record in records:
            if record.type in HANDED:
                self.mail.remove(game_id, int(record.data["seat"]))
        results = [r for r in records if r.type in RESULTS]
        turn = awaited(state)
        if not results and turn is None:
            return
        present = set(self.connected(game_id))
        away = [
            (kept, info)
            for seat, kept in self.mail.verified(game_id).items()
            if seat not in present
            and (info := state.seats.get(Seat(seat))) is not None
            and _stands(state, kept)
        ]
        if not away:
            return
        shown = names_typed(state, unlinked)  # what players typed, in plain text
        told = [(r, text) for r in results if (text := record_text(r, shown))]
        called = game_called(shown)
        found: list[Notice] = []
        for kept, info in away:
            found += [self._told(called, kept, record, text) for record, text in told]
            if turn is not None and kept.seat in turn.seats and self._due(kept, turn.place):
                self.mail.mark_turn(game_id, kept.seat, turn.place, self._ms())
                what = f"{turn.step}, {turn.what}"
                name = unlinked(info.player_name)
                found.append(self._turn(called, kept, name, what, turn.key))
        if found:
            self.mail.enqueue(found, self._ms())
            if self.sender is not None:
                self.sender.wake()

    def _due(self, kept: SeatMail, place: str) -> bool:
        """One "your turn" a step, and none sooner than `turn_gap` after the last."""
        last = kept.turn_mailed_at
        gap_ms = self.settings.turn_gap * 1000
        return kept.turn_step != place and (last is None or self._ms() - last >= gap_ms)

    def _page(self, game_id: str) -> str:
        return game_page(self.settings.public_url, game_id)

    def _turn(self, called: Called, kept: SeatMail, name: str, what: str, key: str) -> Notice:
        game_id, game = called
        page = self._page(game_id)
        text = f"{name}, it is your turn in {game}: {what}.\n\n{page}\n\n{FOOTER}\n"
        subject = f"Your turn in Small Council {game}"
        return Notice(game_id, f"turn:{kept.seat}:{key}"[:KEY_MAX], text, kept.seat, subject)

    def _told(self, called: Called, kept: SeatMail, record: Record, said: str) -> Notice:
        game_id, game = called
        ended = record.type == "GameEnded"
        subject = f"Small Council {game} is over" if ended else f"Results in Small Council {game}"
        text = f"In {game}: {said}\n\n{self._page(game_id)}\n\n{FOOTER}\n"
        return Notice(game_id, f"record:{record.version}:{kept.seat}", text, kept.seat, subject)

    def deliver(self, row: Claimed) -> None:
        """Send one claimed mail to its seat's address as it is now (the sender's delivery):
        none once the seat's player removed it, or while he sits at the table."""
        smtp = self.settings.smtp
        if smtp is None or row.seat is None:
            raise DeliveryFailed("the server sends no mail now", final=True)
        if row.seat in set(self.connected(row.game_id)):
            raise DeliveryFailed("the seat is at the table now", final=True)
        kept = self.mail.seat_mail(row.game_id, row.seat)
        if kept is None or not kept.verified:
            raise DeliveryFailed("the seat has no verified address now", final=True)
        self.send(smtp, kept.address, row.subject, row.text)

    # -- the seat's setting -------------------------------------------------

    def status(self, game_id: str, actor: Actor, state: CourtState) -> dict[str, object]:
        """The seat's address, to its own token alone."""
        kept = self._own(game_id, actor, state)
        return {
            "address": kept.address if kept else None,
            "verified": bool(kept and kept.verified),
            "mail": self.settings.smtp is not None,
        }

    def set_address(
        self, game_id: str, actor: Actor, text: str, *, state: CourtState
    ) -> dict[str, object]:
        """Keep the seat's new address, unverified, and mail it the link to the game's page
        that verifies it; CourtError when the server sends no mail, the address is refused,
        a limit on mails with a link is reached (settings.link_limits) or the mail fails."""
        smtp = self.settings.smtp
        if smtp is None:
            raise CourtError(
                "mail_off", "This server sends no mail: its operator has set no mail server."
            )
        address = checked_address(text)
        seat, now = int(_seat(actor)), self._ms()
        limits = self.settings.link_limits()
        reached = self.gate.reserve(LINK, game_id, seat, mailbox(address), now, list(limits))
        if reached is not None:
            raise CourtError(*limits[reached])
        info = state.seats.get(Seat(seat))
        name = info.player_name if info is not None else "a player"
        code = secrets.token_urlsafe(32)
        expires = now + int(self.settings.verify_hours * 3_600_000)
        given = Given(
            token_sha256=actor.token_sha256 or "",
            address=address,
            code_sha256=digest(code),
            code_expires=expires,
        )
        self.mail.set_address(game_id, seat, given, now)
        with self._guard:
            self._games = self._games | {game_id}
        link = f"{self._page(game_id)}#mail={code}"
        try:
            game = game_called(names_typed(state, unlinked))[1]
            self.send(smtp, address, *self._verification(game, unlinked(name), link))
        except DeliveryFailed as exc:
            self.mail.remove(game_id, seat)
            raise CourtError(
                "mail_failed", f"The mail with the link could not be sent: {exc.reason}."
            ) from None
        return self.status(game_id, actor, state)

    def _verification(self, game: str, name: str, link: str) -> tuple[str, str]:
        """The subject and text of the mail with the link that verifies an address, naming
        the game as every mail does (game_called)."""
        hours = f"{self.settings.verify_hours:g}"
        text = (
            f"This address was given for {name}'s seat in the Small Council game {game}, to "
            "be told by mail of the player's turns, the results and the end of the game.\n\n"
            f"To confirm it, open this link within {hours} hours:\n\n{link}\n\n"
            "If you did not ask for this, ignore this mail: nothing more is sent to this address.\n"
        )
        return f"Confirm your address for Small Council {game}", text

    def verify(self, game_id: str, code: str) -> None:
        if not self.mail.verify(game_id, digest(code), self._ms()):
            raise CourtError(
                "mail_link_unknown",
                "This link is unknown, used already or expired: give your address again "
                "for a new one.",
            )

    def remove(self, game_id: str, actor: Actor) -> bool:
        return self.mail.remove(game_id, int(_seat(actor)))

    def _own(self, game_id: str, actor: Actor, state: CourtState) -> SeatMail | None:
        """The seat's address if this token gave it. One another token gave stays while that
        token stands for the seat (its player's other device, through his key, reads none
        and drops none); one given by a token that stands for nothing now is dropped."""
        seat = int(_seat(actor))
        kept = self.mail.seat_mail(game_id, seat)
        if kept is None or kept.token_sha256 == actor.token_sha256:
            return kept
        if not _stands(state, kept):
            self.mail.remove(game_id, seat)
        return None

    def _ms(self) -> int:
        return int(self.clock() * 1000)


def _stands(state: CourtState, kept: SeatMail) -> bool:
    """Whether the token that gave the address stands for its seat now."""
    holder = actor_of(state, kept.token_sha256)
    return holder is not None and holder.seat == kept.seat


def _seat(actor: Actor) -> Seat:
    if actor.seat is None:
        raise CourtError("seat_required", "Only a seated player gives an address for reminders.")
    return actor.seat
