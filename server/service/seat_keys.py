"""A person's key: one secret link that brings the seats a person holds, across games, to his
other devices. Each seat it gathers gets a token of its own, a link the game's log records by
digest (court/model/links.py): a device that opens the key plays with the links, never with the
seats' own tokens, so a revoked or renewed key takes back every link it handed out while the seats'
owner plays on.

Two secrets: the maker's, kept by the device that made the key and never in a link, which alone
adds seats to the key; and the link's, derived from it (HKDF), which opens the key's seats and is
what the link carries. The server keeps the digest of the link's secret and, per seat, the
link's token sealed (AES-GCM) under a key derived from that secret: without it nothing kept
here opens a seat. A new key voids every older key that gathered one of its seats."""

from __future__ import annotations

import base64
import os
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from court.commands import SPECTATOR, Actor, AddSeatLink, DropSeatLink
from court.errors import BadToken, Conflict, CourtError, NotAllowed
from court.events import SeatLinkAdded
from court.model.links import LinkEnd
from court.sentences import names
from court.state import CourtState
from server.service.court_service import CourtService
from server.service.ports import token_digest
from server.store.seat_keys import KeptSeat, SeatKeyStore

# What the keys are derived for: a change of scheme takes a new label.
SEALING = b"small-council: the link tokens a person's key hands out, v2"
LINKING = b"small-council: a key's link secret, from its maker's secret, v1"
NONCE_BYTES = 12
SECRET_BYTES = 32
# A revoke lets go of the seats the key gathers now; a seat gathered meanwhile is let go too,
# in as many rounds as this at the most.
REVOKE_ROUNDS = 5

REVOKED = (
    "This key opens no seat: it was revoked, or replaced by a newer key, or every seat it "
    "gathered was handed to someone else. Make a new key on a device that holds your seats."
)


@dataclass(frozen=True, slots=True)
class Held:
    """A seat as a device holds it: its game and its token."""

    game_id: str
    token: str


@dataclass(frozen=True, slots=True)
class Made:
    """A new key: the maker's secret, the link's, and the seats it gathers."""

    maker: str
    link: str
    seats: list[dict[str, Any]]


def link_secret(maker: str) -> str:
    """The secret a key's link carries, derived from the maker's: whoever has the link cannot
    go back to the maker's secret."""
    derived = HKDF(algorithm=hashes.SHA256(), length=SECRET_BYTES, salt=None, info=LINKING)
    return base64.urlsafe_b64encode(derived.derive(maker.encode())).decode().rstrip("=")


def _sealing_key(secret: str) -> AESGCM:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=SEALING)
    return AESGCM(derived.derive(secret.encode()))


def _bound(game_id: str, link_sha256: str) -> bytes:
    """What a sealed link is bound to: it opens under no other game or link's row."""
    return f"{game_id}\n{link_sha256}".encode()


def seal(secret: str, game_id: str, link_token: str) -> str:
    nonce = os.urandom(NONCE_BYTES)
    bound = _bound(game_id, token_digest(link_token))
    sealed = _sealing_key(secret).encrypt(nonce, link_token.encode(), bound)
    return base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(secret: str, kept: KeptSeat) -> str | None:
    """The link token of a kept seat, or None when this secret does not open it."""
    try:
        raw = base64.urlsafe_b64decode(kept.sealed.encode())
        bound = _bound(kept.game_id, kept.link_sha256)
        token = _sealing_key(secret).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], bound).decode()
    except (InvalidTag, ValueError):
        return None
    return token if token_digest(token) == kept.link_sha256 else None


def seat_entry(state: CourtState, actor: Actor, token: str) -> dict[str, Any]:
    """A gathered seat as a device needs it: which game, whose seat, and its token."""
    info = state.seats.get(actor.seat) if actor.seat is not None else None
    house = names.house(state, info.house) if info is not None else None
    if info is not None:
        who = f"{info.player_name}, {house}" + (", host" if actor.host else "")
    elif actor.master:
        who = f"{state.game_master_name}, game master"
    else:
        who = f"{state.host_name}, host"
    return {
        "game_id": state.game_id,
        "title": names.game(state),
        "name": state.name,
        "status": state.status.value,
        "seat": actor.seat,
        "house": info.house if info is not None else None,
        "house_name": house,
        "player_name": info.player_name if info is not None else None,
        "label": who,
        "token": token,
    }


class SeatKeys:
    """Making, opening, growing and revoking the keys, over their store and the games."""

    def __init__(
        self,
        store: SeatKeyStore,
        court: CourtService,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store, self.court, self.clock = store, court, clock

    def _ms(self) -> int:
        return int(self.clock() * 1000)

    def _seated(self, held: Sequence[Held]) -> list[tuple[Held, CourtState, Actor]]:
        """The held seats whose tokens open a seat, the host's role or the game master's now;
        the others (a game gone, a token replaced or dropped) are left out."""
        found = []
        for seat in {(h.game_id, h.token): h for h in held}.values():
            try:
                actor, head = self.court.authenticate(seat.game_id, seat.token)
                state = head.state
            except CourtError:
                continue
            if not actor.spectator:
                found.append((seat, state, actor))
        return found

    def make(self, held: Sequence[Held]) -> Made:
        """A new key gathering these seats, each with a link of its own; every older key that
        gathered one of them is void, and the links it handed out with it."""
        seated = self._seated(held)
        if not seated:
            raise CourtError(
                "no_seats",
                "None of these seat links opens a seat now: there is nothing for a key to gather.",
            )
        maker = secrets.token_urlsafe(SECRET_BYTES)
        link = link_secret(maker)
        older = self.store.holding(token_digest(seat.token) for seat, _, _ in seated)
        for key, kept in older.items():
            self._let_go(key, kept, LinkEnd.REPLACED)
        self.store.add(token_digest(link), self._linked(link, seated), self._ms())
        return Made(maker, link, [seat_entry(state, actor, s.token) for s, state, actor in seated])

    def add(self, maker: str, held: Sequence[Held]) -> list[dict[str, Any]]:
        """Gather into the key the seats it does not gather yet (its own links left out), each
        with a link of its own; the seats it gathers now."""
        link = self._maker(maker)
        key = token_digest(link)
        mine = self.store.seats(key)
        known = {k.token_sha256 for k in mine} | {k.link_sha256 for k in mine}
        seated = self._seated([h for h in held if token_digest(h.token) not in known])
        self.store.add(key, self._linked(link, seated), self._ms())
        return self.open(link)

    def open(self, link: str) -> list[dict[str, Any]]:
        """Every seat the key gathers that its link still opens, with the link's token; the
        others drop out."""
        key = self._standing(link)
        entries, gone = [], []
        for kept in self.store.seats(key):
            token = unseal(link, kept)
            try:
                if token is None:
                    raise BadToken("bad_token", "sealed under another secret")
                actor, head = self.court.authenticate(kept.game_id, token)
                state = head.state
            except CourtError:
                gone.append(kept.token_sha256)
                continue
            entries.append(seat_entry(state, actor, token))
        self.store.drop(key, gone)
        if not entries:
            raise BadToken("key_revoked", REVOKED)
        return entries

    def revoke(self, secret: str) -> None:
        """Revoke the key of this secret, the maker's or the link's: every link it handed out
        opens nothing from now on."""
        key = token_digest(secret)
        if not self.store.exists(key):
            key = token_digest(link_secret(secret))
        if not self.store.exists(key):
            raise BadToken("key_revoked", REVOKED)
        for _ in range(REVOKE_ROUNDS):
            kept = self.store.seats(key)
            if not kept:
                return
            self._let_go(key, kept, LinkEnd.REVOKED)
        if self.store.exists(key):
            raise Conflict("busy", "The key gathered seats while it was revoked: revoke it again.")

    def _linked(
        self, link: str, seated: Iterable[tuple[Held, CourtState, Actor]]
    ) -> list[KeptSeat]:
        """A link of its own for each seat, recorded in its game's log, sealed for the key."""
        kept = []
        for seat, _, actor in seated:
            outcome = self.court.handle(seat.game_id, AddSeatLink(), actor)
            added = next(e for e in outcome.events if isinstance(e, SeatLinkAdded))
            token = outcome.token
            assert token is not None  # drawn for the link (court/commands/secrets.py)
            digest = token_digest(token)
            sealed = seal(link, seat.game_id, token)
            kept.append(
                KeptSeat(seat.game_id, token_digest(seat.token), added.link, digest, sealed)
            )
        return kept

    def _let_go(self, key: str, kept: Sequence[KeptSeat], why: LinkEnd) -> None:
        """Drop these seats' links in their games' logs, then from the key. A link the log let
        go already (its seat handed on, its game gone) needs nothing more; any other failure
        leaves the key's rows as they were, for the next try."""
        for seat in kept:
            try:
                self.court.handle(seat.game_id, DropSeatLink(link=seat.link, reason=why), SPECTATOR)
            except CourtError as exc:
                if exc.code not in ("no_seat_link", "unknown_game"):
                    raise
        self.store.drop(key, [seat.token_sha256 for seat in kept])

    def _maker(self, maker: str) -> str:
        """The link's secret of the key this maker's secret made; the link's own secret is
        refused with a sentence: only the device that made the key adds seats to it."""
        link = link_secret(maker)
        if self.store.exists(token_digest(link)):
            return link
        if self.store.exists(token_digest(maker)):
            raise NotAllowed(
                "key_maker_only",
                "This is a key's link: it brings the key's seats to a device, but only the device "
                "that made the key adds seats to it.",
            )
        raise BadToken("key_revoked", REVOKED)

    def _standing(self, link: str) -> str:
        key = token_digest(link)
        if not self.store.exists(key):
            raise BadToken("key_revoked", REVOKED)
        return key
