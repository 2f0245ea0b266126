"""Commands of the keys a player's devices sign his moves with (court/model/devices.py): a device
registers its public key for the sender's seat or role, or drops one of its keys."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class AddDeviceKey:
    """A device's public key (base64 of its 32 raw bytes) signs for the sender from now on."""

    public_key: str
    # The key that signed this command: the engine's, from the signed move, never a client's
    # (None: the sender's token alone vouches for it, as for his first key).
    signer: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DropDeviceKey:
    """The sender drops one of his keys (a device lost or given away)."""

    key_id: str


DeviceCommand = AddDeviceKey | DropDeviceKey
