"""Moves signed on the sender's device (court/model/devices.py). Once a holder (a seat, or the
host's or the game master's role) has a key, every move of his must come signed by one of his
keys, each signature taken once (its nonce), on a head of the log his device saw; the signed
move is recorded first, naming how many records it led to, so that anyone can check that the
records follow from what the device signed. The key service's links
(server/service/seat_keys.py) are sent with a gathered token, by no device, and need no
signature."""

from __future__ import annotations

from dataclasses import replace

from court.commands import (
    Actor,
    AddDeviceKey,
    AddSeatLink,
    Command,
    DropSeatLink,
    SignedMove,
)
from court.decide import Check, decide_folded
from court.decide.bots import BOT_SIGNS_NOTHING, BOT_UNSIGNED
from court.errors import NotAllowed
from court.events import Event, MoveSigned
from court.evolve import evolve
from court.model.devices import NONCE, move_text, signed_by
from court.state import CourtState

# Commands no device sends: the key service's, with the token it gathered.
UNSIGNED_KINDS = frozenset({AddSeatLink, DropSeatLink})

UNSIGNED = (
    "Your seat signs its moves with a key kept on your device, and this move carries no "
    "signature. Play from a device that holds your seat's key, or open the key link made on "
    "one."
)


def decide_move(
    state: CourtState,
    move: Command | SignedMove,
    actor: Actor,
    now: float = 0.0,
    check: Check | None = None,
) -> tuple[tuple[Event, ...], CourtState]:
    """The events of a move, signed or not, and the state they lead to, as `decide_folded`
    gives them; a signed move's record comes first."""
    if not isinstance(move, SignedMove):
        # The bot's moves are the server's, made for a seat the table voted it: no
        # device of the seat's player signs them, and its `BotPlayed` record says so.
        by_server = actor.bot or type(move) in UNSIGNED_KINDS
        if not by_server and state.devices.keyed(actor.holder):
            raise NotAllowed("bad_signature", UNSIGNED)
        return decide_folded(state, move, actor, now, check)
    if actor.bot:
        raise NotAllowed(BOT_UNSIGNED, BOT_SIGNS_NOTHING)
    signed = move_signed(state, move, actor)
    before = evolve(state, signed)
    if check is not None:
        check(before, signed)
    command = move.command
    if isinstance(command, AddDeviceKey):
        command = replace(command, signer=signed.key_id)
    events, after = decide_folded(before, command, actor, now, check)
    return (replace(signed, records=len(events)), *events), after


def move_signed(state: CourtState, move: SignedMove, actor: Actor) -> MoveSigned:
    """The record of a signed move (its count of records left at 0), or a refusal saying why
    the signature cannot be believed."""
    holder, sig = actor.holder, move.signature
    key = state.devices.by_id.get(sig.key_id)
    if holder is None or key is None or key.holder != holder:
        raise NotAllowed(
            "bad_signature",
            f"The key {sig.key_id!r:.24} that signed this move is not a key of your seat: it "
            "was dropped, went with a hand-over, or was never registered here.",
        )
    if NONCE.fullmatch(sig.nonce) is None:
        raise NotAllowed("bad_signature", "A move's nonce is 16 to 64 letters, digits, - or _.")
    if sig.nonce in key.nonces:
        raise NotAllowed(
            "bad_signature",
            "This signed move was taken before: a signed move counts once. Sign it again to "
            "send it again.",
        )
    if not move.seen:
        raise NotAllowed(
            "bad_signature",
            f"Your device signed this move on version {sig.version} of the game, which this "
            "game's log does not hold with that hash: reload the game and send it again.",
        )
    text = move_text(
        state.game_id, holder, sig.message, sig.payload, sig.version, sig.hash, sig.nonce
    )
    if not signed_by(key.public_key, sig.signature, text):
        raise NotAllowed(
            "bad_signature",
            "The signature does not match this move: a device signs exactly the move it sends.",
        )
    return MoveSigned(
        holder=holder,
        key_id=key.key_id,
        message=sig.message,
        payload=dict(sig.payload),
        version=sig.version,
        hash=sig.hash,
        nonce=sig.nonce,
        signature=sig.signature,
        records=0,
    )
