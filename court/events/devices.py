"""Events of the keys a player's devices sign his moves with (court/model/devices.py): a key
registered for a seat or a role, a key dropped, and a move as the device signed it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from court.events.base import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceKeyAdded(Event):
    """A device's public key now signs for `holder` (`seat:<n>`, `host` or `master`): the
    holder's first key on the strength of his token (`proof` "token"), any other signed by a key
    he holds already (`proof` its key id)."""

    holder: str
    key_id: str
    public_key: str
    proof: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceKeyDropped(Event):
    """A device of `holder` dropped one of his keys (`reason` "dropped"): it signs nothing
    from now on. Keys that go with a seat handed to another player, given up or removed, or
    with a host role that moved, go without a record of their own (court/evolve/devices.py)."""

    holder: str
    key_id: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveSigned(Event):
    """The move of `holder` that the next `records` records carry, as his device signed it:
    key `key_id` signed the game, the holder, `message`, its `payload` (secrets only as
    commitments), the `version` and `hash` of the head the device last saw, and `nonce`
    (court/model/devices.py `move_text`); `signature` is Ed25519, in base64. `payload` stays the
    message's JSON as the device signed it, whatever its message: the signature is over it."""

    holder: str
    key_id: str
    message: str
    payload: dict[str, Any]
    version: int
    hash: str
    nonce: str
    signature: str
    records: int
