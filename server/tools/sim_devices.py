"""The devices of a simulated game's players: some seats register a device's Ed25519 key and
sign every move from then on as a page does (docs/protocol.md, "Signed moves"), drawing the
salts of their ballots and bids themselves and signing the commitments; the others play
unsigned. A seat handed on or replaced loses its keys, and its new player may key it again; now
and then a keyed player moves to a new device and drops the old one's key."""

from __future__ import annotations

import base64
import random
from dataclasses import replace

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from court.commands import (
    Actor,
    AddDeviceKey,
    Command,
    DropDeviceKey,
    PlaceBallot,
    PlaceBid,
    Signature,
)
from court.decide.council_seat import bid_commitment
from court.model.devices import key_id_of, move_text
from court.state import CourtState, GameStatus
from elections.markers import Marker, MarkerKind, ordered
from server.messages.catalogue import BY_COMMAND
from server.messages.signed import signed_payload

# How often a seat's player keys his device when he first moves (again, after a hand-over).
KEYED_RATE = 0.5
# How often a keyed player, about to move, moves to a new device: the new key comes signed by
# the old, then the new drops the old (a phone replaced).
NEW_DEVICE_RATE = 0.01
OPEN = (GameStatus.LOBBY, GameStatus.PLAYING)


class SimDevices:
    """One device per holder that keys itself: its private key, made from the game's rng."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.keys: dict[str, Ed25519PrivateKey] = {}
        self.decided: set[str] = set()
        self.nonces = 0
        # Holders moving to a new device: the new key, registered but not yet signing.
        self.moving: dict[str, Ed25519PrivateKey] = {}

    def registration(self, state: CourtState, actor: Actor) -> AddDeviceKey | None:
        """The key a holder's device registers before his move, once per player of a seat:
        None when he plays unsigned, or has keyed already (but for a new device's now and
        then)."""
        holder = actor.holder
        if holder is None or actor.bot or state.status not in OPEN:
            return None  # the bot's moves are the server's: it keys no device
        if state.devices.keyed(holder):
            return self._new_device(state, holder)
        key = self.keys.get(holder)
        if key is not None and key_id_of(_public(key)) in state.devices.ever:
            self.decided.discard(holder)  # his keys went with the seat: a new player
        if holder in self.decided:
            return None
        self.decided.add(holder)
        if self.rng.random() >= KEYED_RATE:
            return None
        key = self.keys[holder] = Ed25519PrivateKey.from_private_bytes(self.rng.randbytes(32))
        return AddDeviceKey(public_key=_public(key))

    def _new_device(self, state: CourtState, holder: str) -> AddDeviceKey | None:
        old = self.keys.get(holder)
        if holder in self.moving or old is None:
            return None
        if key_id_of(_public(old)) not in state.devices.by_id:
            return None
        if self.rng.random() >= NEW_DEVICE_RATE:
            return None
        new = self.moving[holder] = Ed25519PrivateKey.from_private_bytes(self.rng.randbytes(32))
        return AddDeviceKey(public_key=_public(new))

    def moved(self, state: CourtState, actor: Actor) -> DropDeviceKey | None:
        """Once the new device's key is recorded, it signs from now on and drops the old."""
        holder = actor.holder or ""
        new = self.moving.get(holder)
        if new is None or key_id_of(_public(new)) not in state.devices.by_id:
            return None
        old_id = key_id_of(_public(self.keys[holder]))
        self.keys[holder] = new
        return DropDeviceKey(key_id=str(old_id))

    def settled(self, actor: Actor) -> None:
        self.moving.pop(actor.holder or "", None)

    def signed(
        self, state: CourtState, game_id: str, head: tuple[int, str], actor: Actor, move: Command
    ) -> tuple[Command, Signature | None]:
        """The move as a keyed holder's device sends it, with its signature on `head`; the
        move as it is, unsigned, for a holder without a standing key."""
        holder = actor.holder
        key = self.keys.get(holder or "")
        message = BY_COMMAND.get(type(move))
        if holder is None or actor.bot or key is None or message is None:
            return move, None
        key_id = key_id_of(_public(key))
        if key_id not in state.devices.by_id:
            return move, None
        move, sealed = self._sealed(state, move)
        payload = signed_payload(message, {**message.payload(move), **sealed})
        self.nonces += 1
        nonce = f"sim-{self.nonces:06d}-{self.rng.getrandbits(32):08x}"
        version, hash_ = head
        text = move_text(game_id, holder, message.name, payload, version, hash_, nonce)
        signature = Signature(
            key_id=str(key_id),
            message=message.name,
            payload=payload,
            version=version,
            hash=hash_,
            nonce=nonce,
            signature=base64.b64encode(key.sign(text)).decode(),
        )
        return move, signature

    def _sealed(self, state: CourtState, move: Command) -> tuple[Command, dict[str, object]]:
        """A ballot or a bid salted on the device, and the commitments its signature covers."""
        if isinstance(move, PlaceBid):
            salt = self._salt()
            commitment = bid_commitment(move.amount, salt)
            return replace(move, salt=salt, commitment=commitment), {"commitment": commitment}
        if isinstance(move, PlaceBallot) and move.markers:
            salted = tuple(replace(m, salt=self._salt()) for m in move.markers)
            sealed = state.ruleset.profile.variants.sealed_ballots
            placed = ordered(
                [
                    Marker(kind=MarkerKind(m.kind), candidate=m.candidate, salt=m.salt)
                    for m in salted
                ]
            )
            committed = tuple(
                {"commitment": m.commitment, "candidate": None if sealed else m.candidate}
                for m in placed
            )
            ballot = PlaceBallot(markers=salted, committed=committed)
            return ballot, {"committed": list(committed)}
        return move, {}

    def _salt(self) -> str:
        return f"{self.rng.getrandbits(128):032x}"


def _public(key: Ed25519PrivateKey) -> str:
    raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return base64.b64encode(raw).decode()
