"""A command as the sender's device signed it: the command, what the device signed beside it
(court/model/devices.py `move_text`), and whether the head it says it saw is one of the log's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from court.commands.command import Command


@dataclass(frozen=True, slots=True, kw_only=True)
class Signature:
    """What a device signed: `key_id` signed `message` with `payload` (its secrets only as
    commitments), the head it last saw (`version`, `hash`) and its own `nonce`."""

    key_id: str
    message: str
    payload: dict[str, Any] = field(hash=False)
    version: int
    hash: str
    nonce: str
    signature: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SignedMove:
    """`command`, sent with `signature`. `seen` is the server's, never a client's: whether the
    log holds `signature.version` ending on `signature.hash` (the head the device saw; an older
    one than the newest when other moves came meanwhile)."""

    command: Command
    signature: Signature
    seen: bool = False
