"""The secrets a command needs that no client may choose and the engine may not draw: a new
seat's token, a new game's id and dice seed, the salts of sealed markers and bids. A command
type declares them (`needs`, in the order they are drawn) and takes them drawn (`supplied`);
the service draws them from its secret source, once, before deciding."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum


class Secret(StrEnum):
    TOKEN = "token"  # a seat's new token; the command keeps its digest
    MASTER_TOKEN = "master_token"  # the game master's, named at the game's creation
    GAME_ID = "game_id"
    DICE_SEED = "dice_seed"
    SALT = "salt"  # one for each sealed marker or bid
    # Not drawn but made from the instance secret: the link a table's vote hands a seat to.
    LINK = "link"


@dataclass(frozen=True, slots=True)
class Drawn:
    """The secrets drawn for one command, in the order its `needs` named them."""

    values: tuple[tuple[Secret, str], ...] = ()

    def one(self, kind: Secret) -> str | None:
        return next((value for k, value in self.values if k is kind), None)

    def every(self, kind: Secret) -> tuple[str, ...]:
        return tuple(value for k, value in self.values if k is kind)


def digest(token: str) -> str:
    """What the log keeps of a token: its SHA-256, in hexadecimal."""
    return hashlib.sha256(token.encode()).hexdigest()
