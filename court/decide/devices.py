"""The keys a player's devices sign his moves with (court/model/devices.py): a device registers its
public key for the sender's seat or role, the first on the strength of his token and any other
signed by a key he holds already; and a device drops one of his keys. Keys are the server's
(section 10), no rule of the game's: the table's rule that a seat's things belong to its player
(R-9.2) is why a hand-over takes them too (court/evolve/devices.py)."""

from __future__ import annotations

from typing import assert_never

from court.commands import Actor, AddDeviceKey, DeviceCommand, DropDeviceKey
from court.errors import CourtError, NotAllowed
from court.events import DeviceKeyAdded, DeviceKeyDropped, Event
from court.model.devices import DROPPED, MOST_KEYS, key_id_of
from court.state import CourtState, GameStatus

OPEN = (GameStatus.LOBBY, GameStatus.PLAYING)


def decide_device(state: CourtState, command: DeviceCommand, actor: Actor) -> tuple[Event, ...]:
    match command:
        case AddDeviceKey():
            return add_device_key(state, command, actor)
        case DropDeviceKey():
            return drop_device_key(state, command, actor)
        case _:
            assert_never(command)


def _holder(state: CourtState, actor: Actor) -> str:
    holder = actor.holder
    if holder is None:
        raise NotAllowed("token_required", "Only a seat, the host or the game master has keys.")
    if state.status not in OPEN:
        raise CourtError(
            f"game_{state.status.value}", "Keys are registered while the game is open."
        )
    return holder


def add_device_key(state: CourtState, cmd: AddDeviceKey, actor: Actor) -> tuple[Event, ...]:
    """The holder's first key needs his token alone (the sender's); any other key must come in
    a move signed by one of his keys (court/decide/signed.py refuses it unsigned)."""
    holder = _holder(state, actor)
    key_id = key_id_of(cmd.public_key)
    if key_id is None:
        raise CourtError(
            "bad_key", "A device key is the base64 of an Ed25519 public key's 32 raw bytes."
        )
    keys = state.devices
    if key_id in keys.ever:
        raise CourtError(
            "key_reused",
            "This key was registered in this game before; a key dropped never comes back: "
            "make a new one.",
        )
    held = keys.of(holder)
    if len(held) >= MOST_KEYS:
        raise CourtError(
            "too_many_keys",
            f"Your seat holds {MOST_KEYS} device keys already: drop the key of a device you no "
            "longer use first.",
        )
    signer = cmd.signer
    if held and signer not in {k.key_id for k in held}:
        raise NotAllowed("bad_signature", "A further key must be signed by a key you hold.")
    proof = "token" if not held else str(signer)
    return (DeviceKeyAdded(holder=holder, key_id=key_id, public_key=cmd.public_key, proof=proof),)


def drop_device_key(state: CourtState, cmd: DropDeviceKey, actor: Actor) -> tuple[Event, ...]:
    holder = _holder(state, actor)
    held = state.devices.of(holder)
    if cmd.key_id not in {k.key_id for k in held}:
        raise CourtError("unknown_key", f"Your seat holds no device key {cmd.key_id!r:.40}.")
    if len(held) == 1:
        raise CourtError(
            "last_key",
            "This is the last key your seat signs with: register the key of another device "
            "before you drop it.",
        )
    return (DeviceKeyDropped(holder=holder, key_id=cmd.key_id, reason=DROPPED),)
