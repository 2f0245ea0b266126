"""A person's key: one secret that gathers every seat he holds, across games, so that another
device given it takes them all. The server keeps the digest of the secret and, for each seat,
the seat's token sealed (AES-GCM) under a key derived from the secret (HKDF): without the
secret, which only the person's devices and his link hold, nothing kept here opens a seat. A
seat the host handed to a new token, or removed, drops out of the key when it is next opened.
A new key voids every older key that gathered one of its seats; a key may be revoked."""

from __future__ import annotations

import base64
import os
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from court.commands import Actor
from court.errors import BadToken, CourtError
from court.sentences import names
from court.state import CourtState
from server.ports import token_digest
from server.service import CourtService
from server.store.seat_keys import KeptSeat, SeatKeyStore

# What the sealing key is derived for: a change of scheme takes a new label.
SEALING = b"small-council: the seat tokens a person's key gathers, v1"
NONCE_BYTES = 12

REVOKED = (
    "This key opens no seat: it was revoked, or replaced by a newer key, or every seat it "
    "gathered was handed to someone else. Make a new key on a device that holds your seats."
)


@dataclass(frozen=True, slots=True)
class Held:
    """A seat as a device holds it: its game and its token."""

    game_id: str
    token: str


def _sealing_key(secret: str) -> AESGCM:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=SEALING)
    return AESGCM(derived.derive(secret.encode()))


def _bound(game_id: str, token_sha256: str) -> bytes:
    """What a sealed token is bound to: it opens under no other game or seat's row."""
    return f"{game_id}\n{token_sha256}".encode()


def seal(secret: str, held: Held) -> KeptSeat:
    digest = token_digest(held.token)
    nonce = os.urandom(NONCE_BYTES)
    sealed = _sealing_key(secret).encrypt(nonce, held.token.encode(), _bound(held.game_id, digest))
    text = base64.urlsafe_b64encode(nonce + sealed).decode()
    return KeptSeat(held.game_id, digest, text)


def unseal(secret: str, kept: KeptSeat) -> str | None:
    """The token of a kept seat, or None when this secret does not open it."""
    try:
        raw = base64.urlsafe_b64decode(kept.sealed.encode())
        bound = _bound(kept.game_id, kept.token_sha256)
        token = _sealing_key(secret).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], bound).decode()
    except (InvalidTag, ValueError):
        return None
    return token if token_digest(token) == kept.token_sha256 else None


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
        court: Callable[[], CourtService],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store, self.court, self.clock = store, court, clock

    def _ms(self) -> int:
        return int(self.clock() * 1000)

    def _seated(self, held: Sequence[Held]) -> list[tuple[Held, CourtState, Actor]]:
        """The held seats whose tokens open a seat, the host's role or the game master's now;
        the others (a game gone, a token replaced) are left out."""
        found = []
        for seat in {(h.game_id, h.token): h for h in held}.values():
            try:
                state = self.court().current(seat.game_id).state
                actor = self.court().authenticate(seat.game_id, seat.token)
            except CourtError:
                continue
            found.append((seat, state, actor))
        if not found:
            raise CourtError(
                "no_seats",
                "None of these seat links opens a seat now: there is nothing for a key to gather.",
            )
        return found

    def make(self, held: Sequence[Held]) -> tuple[str, list[dict[str, Any]]]:
        """A new key gathering these seats; every older key gathering one of them is void."""
        seated = self._seated(held)
        secret = secrets.token_urlsafe(32)
        kept = [seal(secret, seat) for seat, _, _ in seated]
        self.store.replace(token_digest(secret), kept, self._ms())
        return secret, [seat_entry(state, actor, seat.token) for seat, state, actor in seated]

    def add(self, secret: str, held: Sequence[Held]) -> list[dict[str, Any]]:
        """Gather more seats into a key that still stands; the seats it gathers now."""
        key = self._standing(secret)
        seated = self._seated(held)
        self.store.add(key, [seal(secret, seat) for seat, _, _ in seated], self._ms())
        return self.open(secret)

    def open(self, secret: str) -> list[dict[str, Any]]:
        """Every seat the key gathers that its token still opens; the others drop out."""
        key = self._standing(secret)
        entries, gone = [], []
        for kept in self.store.seats(key):
            token = unseal(secret, kept)
            try:
                if token is None:
                    raise BadToken("bad_token", "sealed under another secret")
                state = self.court().current(kept.game_id).state
                actor = self.court().authenticate(kept.game_id, token)
            except CourtError:
                gone.append(kept.token_sha256)
                continue
            entries.append(seat_entry(state, actor, token))
        self.store.drop(key, gone)
        if not entries:
            raise BadToken("key_revoked", REVOKED)
        return entries

    def revoke(self, secret: str) -> None:
        if not self.store.revoke(token_digest(secret)):
            raise BadToken("key_revoked", REVOKED)

    def _standing(self, secret: str) -> str:
        key = token_digest(secret)
        if not self.store.exists(key):
            raise BadToken("key_revoked", REVOKED)
        return key
