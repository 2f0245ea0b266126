"""Messages of the keys a player's devices sign his moves with (court/model/devices.py): register a
device's public key, drop one."""

from __future__ import annotations

from court.commands import AddDeviceKey, DropDeviceKey
from server.messages.fields import Shape, String, WholeMatch
from server.messages.message import Message
from server.messages.signed import HEX16

PUBLIC_KEY = WholeMatch(
    r"^[A-Za-z0-9+/]{43}=$", error="The base64 of an Ed25519 public key's 32 raw bytes."
)


class AddDeviceKeySchema(Shape):
    public_key = String(max_length=44, validate=PUBLIC_KEY, required=True)


class DropDeviceKeySchema(Shape):
    key_id = String(max_length=16, validate=HEX16, required=True)


DEVICES: tuple[Message, ...] = (
    Message(
        "add_device_key",
        AddDeviceKey,
        "a seat, the host or the game master",
        "Register a device's Ed25519 public key: from then on every move of yours must be "
        "signed by one of your keys (see Signed moves below). Your first key needs your token "
        "alone; any other must come signed by a key you hold (a key dropped never comes back: "
        "`key_reused`; at most 8: `too_many_keys`). A seat handed to another player drops its "
        "keys",
        AddDeviceKeySchema,
        example={"public_key": "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="},
    ),
    Message(
        "drop_device_key",
        DropDeviceKey,
        "a seat, the host or the game master, signed",
        "Drop one of your device keys (a lost device): it signs nothing from now on; never the "
        "last (`last_key`)",
        DropDeviceKeySchema,
        example={"key_id": "7af143c8168254a7"},
    ),
)
