"""The keys a player's devices sign his moves with: Ed25519 key pairs made on each device, whose
public halves the log records for the seat (or for the host's or the game master's role, when
they hold no seat), the text a device signs for a move, and the check of its signature.

A holder is named as talk names a party: `seat:<n>`, or `host` (a host without a seat), or
`master` (the game master). A key is named by `key_id`, the first 16 hexadecimal digits of the
SHA-256 of its raw 32-byte public key, as the server's own keys are.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from court.log.chain import canonical

MOVE_PREFIX = "small-council move"
KEY_ID_LENGTH = 16
# Keys one holder may hold at once: a player's few devices and API clients.
MOST_KEYS = 8
NONCE = re.compile(r"[A-Za-z0-9_-]{16,64}")
HOLDER = re.compile(r"seat:(0|[1-9][0-9]{0,2})|host|master")
# Why a holder's key stopped standing.
DROPPED = "dropped"  # a device of the holder dropped it (a lost phone)


def seat_holder(seat: int) -> str:
    return f"seat:{seat}"


def key_id_of(public_key: str) -> str | None:
    """The key id of a public key given in base64 (its 32 raw bytes), or None when it is no
    such key."""
    raw = _decoded(public_key)
    if raw is None or len(raw) != 32:
        return None
    return hashlib.sha256(raw).hexdigest()[:KEY_ID_LENGTH]


def move_text(
    game_id: str,
    holder: str,
    message: str,
    payload: Mapping[str, Any],
    version: int,
    hash_: str,
    nonce: str,
) -> bytes:
    """The UTF-8 bytes a device signs for a move: the game, the holder, the message, its
    payload in canonical JSON (court/log/chain.py), the version and hash of the head the device last
    saw, and a nonce of its own (docs/protocol.md, "Signed moves")."""
    lines = (MOVE_PREFIX, game_id, holder, message, canonical(dict(payload)), version, hash_, nonce)
    return "\n".join(str(line) for line in lines).encode()


def signed_by(public_key: str, signature: str, text: bytes) -> bool:
    """Whether `signature` (base64, 64 bytes) is the Ed25519 signature of `text` by the key
    (base64, 32 bytes); a malformed key or signature is simply not a good signature."""
    raw_key, raw_signature = _decoded(public_key), _decoded(signature)
    if raw_key is None or raw_signature is None or len(raw_key) != 32:
        return False
    if len(raw_signature) != 64:
        return False
    # libsodium's check, twice as fast as OpenSSL's on the path every signed move takes, and
    # as strict or stricter: a key of small order or a signature not in canonical form fails.
    try:
        VerifyKey(raw_key).verify(text, raw_signature)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


def _decoded(text: object) -> bytes | None:
    if not isinstance(text, str) or len(text) > 128:
        return None
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceKey:
    """A key standing for `holder`: its public half (base64), the key that vouched for it
    (`proof`: "token" for a holder's first key, else the id of the key that signed its
    registration), and the nonces of the moves it signed."""

    key_id: str
    holder: str
    public_key: str
    proof: str
    nonces: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceKeys:
    """The keys standing, by key id, and every key id the game ever recorded: a key dropped,
    or gone with its holder's seat, never stands again (its signatures could be replayed)."""

    by_id: dict[str, DeviceKey] = field(default_factory=dict)
    ever: frozenset[str] = frozenset()

    def of(self, holder: str) -> tuple[DeviceKey, ...]:
        return tuple(k for k in self.by_id.values() if k.holder == holder)

    def keyed(self, holder: str | None) -> bool:
        return holder is not None and any(k.holder == holder for k in self.by_id.values())

    def without(self, holder: str) -> DeviceKeys:
        """The keys with none of `holder`'s: they went with his seat or role."""
        if not self.keyed(holder):
            return self
        kept = {i: k for i, k in self.by_id.items() if k.holder != holder}
        return DeviceKeys(by_id=kept, ever=self.ever)

    def problems(self, holders: frozenset[str]) -> list[str]:
        """What the keys may not be, `holders` being the seats and roles of the game now: a
        key of nobody, a key id that is not its key's, too many keys, a key never recorded."""
        found = [
            f"device key {k.key_id} stands for {k.holder}, whom the game does not have"
            for k in self.by_id.values()
            if k.holder not in holders
        ]
        found += [
            f"device key {i} is recorded under another id than its own"
            for i, k in self.by_id.items()
            if i != k.key_id or key_id_of(k.public_key) != i
        ]
        counts: dict[str, int] = {}
        for k in self.by_id.values():
            counts[k.holder] = counts.get(k.holder, 0) + 1
        found += [
            f"{h} holds {n} device keys; at most {MOST_KEYS}"
            for h, n in counts.items()
            if n > MOST_KEYS
        ]
        if not set(self.by_id) <= self.ever:
            found.append("a device key stands that the game never recorded")
        return found
