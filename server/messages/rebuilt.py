"""The command a signed move sent, rebuilt from what its device signed (court/audit/moves.py):
the message's payload loaded as the server loads it (server/messages/), with the openings of a
sealed choice, which the signature leaves out, taken from the private part of the record that
placed it, and the server's own inputs taken from the records where the log holds them. A move
whose decision used what the log does not hold is not rebuilt (None): a new link's token is
only its digest, an invitation is never recorded, a correction reads the whole log."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from marshmallow import ValidationError

from court.audit import Rebuilding
from court.commands import Command, PlaceBid, VoteForHost
from court.events import BallotPlaced, BidPlaced, Event, MoveSigned
from server.messages.catalogue import CATALOGUE
from server.messages.election import ballot_command
from server.service.ports import time_of

# Messages whose server inputs the log does not hold.
NOT_REBUILT = frozenset({"join", "hand_seat", "vote_replace", "propose_correction"})


def rebuilt(move: MoveSigned, events: tuple[Event, ...]) -> Command | None:
    """The command `move` sent; ValueError when what was signed is no message a client could
    send."""
    message = CATALOGUE.get(move.message)
    if message is None:
        raise ValueError(f"no message {move.message!r:.40}")
    if move.message in NOT_REBUILT:
        return None
    openings = _openings(move.message, events)
    if openings is None:
        return None
    body = {**move.payload, **openings}
    try:
        loaded = message.load(body)
    except ValidationError as exc:
        raise ValueError(str(exc.messages)[:200]) from None
    if move.message == "place_ballot":
        return ballot_command(loaded)
    if move.message == "place_bid":
        return PlaceBid(
            amount=loaded["amount"], salt=loaded["salt"], commitment=loaded["commitment"]
        )
    return _filled(message.to_command(loaded), events)


def _openings(message: str, events: tuple[Event, ...]) -> dict[str, Any] | None:
    """What a sealed choice sent beside its signed commitments, as its record keeps it; None
    when the log read withholds it (an export for another seat)."""
    for event in events:
        if message == "place_ballot" and isinstance(event, BallotPlaced):
            if len(event.secrets) != len(event.markers):
                return None
            return {"markers": [asdict(secret) for secret in event.secrets]}
        if message == "place_bid" and isinstance(event, BidPlaced):
            return asdict(event.secret) if event.secret else None
    return {}


def _filled(command: Command, events: tuple[Event, ...]) -> Command:
    """A vote for a new host counts the host's absence as the server's book said: the vote's
    record holds it."""
    if isinstance(command, VoteForHost):
        for event in events:
            away = getattr(event, "host_away_since", None)
            if away is not None:
                return replace(command, host_away_since=away)
    return command


REBUILD: Rebuilding = (rebuilt, time_of)
