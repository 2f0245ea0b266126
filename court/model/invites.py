"""A private game's invite: a secret the host shares as a link, derived from the game's dice
seed so the server can always show it to the host without writing it into the log; the log
keeps its digest, and joining checks a secret against that digest."""

from __future__ import annotations

import hashlib
import hmac

from court.state import CourtState, GameStatus


def secret(dice_seed: str) -> str:
    """The invite secret of a game with this dice seed: HMAC-SHA256(seed, "invite"), so
    knowing it tells nothing of the seed (and so of the dice)."""
    return hmac.new(dice_seed.encode(), b"invite", hashlib.sha256).hexdigest()[:32]


def digest(invite: str) -> str:
    return hashlib.sha256(invite.encode()).hexdigest()


def opens(state: CourtState, invite: str | None) -> bool:
    """Whether `invite` is this game's invite secret."""
    if invite is None or state.invite_sha256 is None:
        return False
    return hmac.compare_digest(digest(invite), state.invite_sha256)


def of(state: CourtState) -> str | None:
    """The invite secret to show the host and the game master while the lobby is open; None
    for a game created before invites (or read from a log whose seed was withheld)."""
    if state.status is not GameStatus.LOBBY or state.dice_seed is None:
        return None
    invite = secret(state.dice_seed)
    return invite if opens(state, invite) else None
